"""BattleScribe prices inside the engine, on the hand-written mini catalogue (conftest.py).

The mini catalogue is our own invention: a tank platoon priced by its number of tanks, a rifle
platoon with an upgrade-dependent increment and a card-and-formation discount, and a support
platoon priced by the list's points limit (a ``limit::pts`` condition). Every expected price is
worked out from the catalogue text in conftest.py.
"""
import pytest

from armybuilder.interchange.battlescribe import import_library
from armybuilder.lists.selectors import list_document_report
from armybuilder.rules import check

from .listdocs import card, document, formation, sel, unit

pytestmark = pytest.mark.django_db


@pytest.fixture
def mini_book(systems, mini_dir):
    report = import_library([mini_dir])
    assert report.written, "\n".join(report.lines())
    return {"code": "cat-1", "revision": 1}


F = "l-form::form-1"  # the formation's code: entry link :: its target


def hq(*models):
    return unit(F + "/b-hq", "tank-plt", "l-hq::tank-plt", *models)


def three_tanks():
    return hq(sel("m-short", number=3))


def rifles(*selections):
    return unit(F + "/b-p2", "inf-plt", "l-p2b::inf-plt", *selections)


def test_tank_platoon_costs_what_its_number_of_tanks_sets(mini_book):
    for tanks, points in ((3, 13), (4, 17), (5, 21)):
        _, report = list_document_report(document(mini_book, [formation(F, hq(sel("m-short", number=tanks)))]))
        assert report.unit_points["/formations/0/units/0"] == points


def test_long_guns_add_their_own_cost_on_top_of_the_set_price(mini_book):
    # four tanks, two of them with the long gun (1 each): 17 + 2.
    list_doc = document(mini_book, [formation(F, hq(sel("m-short", number=2), sel("m-long", number=2)))])
    _, report = list_document_report(list_doc)
    assert report.unit_points["/formations/0/units/0"] == 19


def test_too_few_or_too_many_tanks_break_the_size_group_with_its_limit_and_fix(mini_book):
    _, two = list_document_report(document(mini_book, [formation(F, hq(sel("m-short", number=2)))]))
    [issue] = [i for i in two.errors if i.pointer == "/formations/0/units/0"]
    assert issue.code == "fow.option.too_few"
    assert "at least 3" in issue.message and "Unit Size" in issue.message and "(has 2)" in issue.message
    assert "c-s-min" in issue.rule.where
    assert issue.fix.startswith("Add one of: Tank (short) (from 0 pts), Tank (long) (from 1 pts)")
    _, six = list_document_report(document(mini_book, [formation(F, hq(sel("m-short", number=6)))]))
    codes = {i.code for i in six.errors}
    assert "fow.option.too_many" in codes


def test_an_upgrade_adds_its_cost_and_the_increment_it_triggers(mini_book):
    plain = document(mini_book, [formation(F, three_tanks(), rifles(sel("sz-4")))])
    bazooka = document(mini_book, [formation(F, three_tanks(), rifles(sel("sz-4"), sel("up-baz")))])
    assert list_document_report(plain)[1].unit_points["/formations/0/units/1"] == 5
    assert list_document_report(bazooka)[1].unit_points["/formations/0/units/1"] == 5 + 1 + 2


def test_a_card_in_the_force_discounts_platoons_inside_its_formation_only(mini_book):
    company = formation(F, three_tanks(), rifles(sel("sz-6")))
    without = list_document_report(document(mini_book, [company]))[1]
    assert without.unit_points["/formations/0/units/1"] == 7
    with_card = list_document_report(document(mini_book, [company],
                                              cards=[card("card-f1", "card-f1", target="/formations/0")]))[1]
    assert with_card.unit_points["/formations/0/units/1"] == 6
    assert with_card.card_points == -1
    assert with_card.total_points == 13 + 6 - 1


def test_the_points_limit_is_seen_by_limit_conditions(mini_book):
    # sup-1 costs 10, +1 when the list's limit is at least 100 points.
    support = [unit("force/l-sup::sup-1", "sup-1", "l-sup::sup-1")]
    company = formation(F, three_tanks())
    assert list_document_report(document(mini_book, [company], support, points_limit=100))[1].unit_points[
        "/support/0"] == 11
    assert list_document_report(document(mini_book, [company], support, points_limit=75))[1].unit_points[
        "/support/0"] == 10


def test_an_entry_the_data_does_not_offer_there_is_refused_with_its_pointer(mini_book):
    from armybuilder.lists.listjson.document import ListDocumentError

    with pytest.raises(ListDocumentError) as caught:
        list_document_report(document(mini_book, [formation(F, hq(sel("up-baz")))]))
    assert [p.pointer for p in caught.value.problems] == ["/formations/0/units/0/selections/0"]


def test_the_engine_checks_imported_lists_through_the_evaluator(mini_book):
    platoon = unit(F + "/b-p1", "tank-plt", "l-p1::tank-plt", sel("m-short", number=3))
    force, report = list_document_report(document(mini_book, [formation(F, three_tanks(), platoon)]))
    assert report.legal, report.errors
    assert check(force).total_points == 13 + 13
    empty_force, empty = list_document_report(document(mini_book, [formation(F)]))
    assert {i.code for i in empty.errors} >= {"fow.hq.missing", "fow.black_box.missing"}
