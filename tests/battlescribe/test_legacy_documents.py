"""Version 1 documents of lists on imported books (a size and options per unit, as this tool wrote them before
lists held BattleScribe selections) still import: each code is placed where the data offers it."""
import pytest

from armybuilder.interchange.battlescribe import import_library
from armybuilder.lists.selectors import list_document_report

pytestmark = pytest.mark.django_db

F = "l-form::form-1"


@pytest.fixture
def mini_book(systems, mini_dir):
    assert import_library([mini_dir]).written
    return {"code": "cat-1", "revision": 1}


def v1(book, units, cards=()):
    return {"format": "armybuilder-list", "version": 1, "name": "Old", "system": "fow4", "handbook": book,
            "points_limit": 100, "formations": [{"formation": F, "allied": False, "units": units}], "support": [],
            "cards": list(cards)}


def test_a_version_1_list_on_an_imported_book_is_read_into_selections_with_the_same_prices(mini_book):
    # Four tanks of which two long guns (17 + 2, see test_pricing.py), rifles with the 7-point size and the bazooka
    # (7 + 1 + 2), the formation card -1 (and -1 on the rifles inside the formation).
    doc = v1(mini_book, [
        {"box": F + "/b-hq", "unit": "tank-plt", "size": "tank-plt/n4", "upgrades": [{"upgrade": "grp-size/m-long",
                                                                                      "quantity": 2}]},
        {"box": F + "/b-p2", "unit": "inf-plt", "size": "sz-6", "upgrades": [{"upgrade": "inf-opt/up-baz",
                                                                              "quantity": 1}]}],
        cards=[{"card": "card-f1", "target": "/formations/0"}])
    force, report = list_document_report(doc)
    tanks = force.formations[0].units[0].selection
    assert sorted((c.entry, c.number) for c in tanks.children) == [("m-long", 2), ("m-short", 2)]
    assert report.unit_points == {"/formations/0/units/0": 19, "/formations/0/units/1": 9}
    assert report.card_points == -1
    assert force.cards[0].selection.entry.endswith("card-f1")


def test_a_version_1_option_the_data_does_not_offer_is_a_problem_with_its_pointer(mini_book):
    from armybuilder.lists.listjson.document import ListDocumentError

    doc = v1(mini_book, [{"box": F + "/b-hq", "unit": "tank-plt", "size": "tank-plt/n3",
                          "upgrades": [{"upgrade": "inf-opt/up-baz", "quantity": 1}]}])
    with pytest.raises(ListDocumentError) as caught:
        list_document_report(doc)
    assert [p.pointer for p in caught.value.problems] == ["/formations/0/units/0/upgrades/0"]
