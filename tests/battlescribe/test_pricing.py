"""BattleScribe prices inside the engine, on the hand-written mini catalogue (conftest.py).

The mini catalogue is our own invention: a tank platoon priced by its number of tanks, a rifle
platoon with an upgrade-dependent increment and a card-and-formation discount, and a support
platoon whose cost modifier the evaluator does not understand.
"""
import pytest

from armybuilder.interchange.battlescribe import import_library
from armybuilder.interchange.battlescribe.cheapest import engine_check
from armybuilder.lists.selectors import list_document_report
from armybuilder.rules import bspricing, check
from armybuilder.rules.force import Force, ForceUnit
from armybuilder.rules.gamedata import BoxData, HandbookData, SizeData, UnitData

pytestmark = pytest.mark.django_db


@pytest.fixture
def mini_book(systems, mini_dir):
    report = import_library([mini_dir])
    assert report.written, "\n".join(report.lines())
    return {"code": "cat-1", "revision": 4}


F = "l-form::form-1"  # the formation's code: entry link :: its target


def doc(book, formations=(), support=(), cards=()):
    return {"format": "armybuilder-list", "version": 1, "name": "Mini", "system": "fow4", "handbook": book,
            "points_limit": 100, "formations": list(formations), "support": list(support), "cards": list(cards)}


def unit(box, code, size, *upgrades):
    return {"box": box, "unit": code, "size": size, "upgrades": [{"upgrade": u, "quantity": q} for u, q in upgrades]}


def test_the_pricing_is_registered_for_battlescribe_handbooks():
    from armybuilder.rules import fow

    assert fow.PRICING["battlescribe"] is bspricing.BattleScribePricing


def test_tank_platoon_costs_what_its_number_of_tanks_sets(mini_book):
    for size, points in (("tank-plt/n3", 13), ("tank-plt/n4", 17), ("tank-plt/n5", 21)):
        list_doc = doc(mini_book, [{"formation": "l-form::form-1", "allied": False,
                                    "units": [unit(F + "/b-hq", "tank-plt", size)]}])
        _, report = list_document_report(list_doc)
        assert report.unit_points["/formations/0/units/0"] == points


def test_long_guns_add_their_own_cost_on_top_of_the_set_price(mini_book):
    # four tanks, two of them with the long gun (1 each): 17 + 2; the other two are the default model.
    list_doc = doc(mini_book, [{"formation": "l-form::form-1", "allied": False,
                                "units": [unit(F + "/b-hq", "tank-plt", "tank-plt/n4", ("grp-size/m-long", 2))]}])
    _, report = list_document_report(list_doc)
    assert report.unit_points["/formations/0/units/0"] == 19


def test_an_upgrade_adds_its_cost_and_the_increment_it_triggers(mini_book):
    base = [unit(F + "/b-hq", "tank-plt", "tank-plt/n3")]
    plain = doc(mini_book, [{"formation": "l-form::form-1", "allied": False,
                             "units": base + [unit(F + "/b-p2", "inf-plt", "sz-4")]}])
    bazooka = doc(mini_book, [{"formation": "l-form::form-1", "allied": False,
                               "units": base + [unit(F + "/b-p2", "inf-plt", "sz-4", ("inf-opt/up-baz", 1))]}])
    assert list_document_report(plain)[1].unit_points["/formations/0/units/1"] == 5
    assert list_document_report(bazooka)[1].unit_points["/formations/0/units/1"] == 5 + 1 + 2


def test_a_card_in_the_force_discounts_platoons_inside_its_formation_only(mini_book):
    formation = {"formation": "l-form::form-1", "allied": False,
                 "units": [unit(F + "/b-hq", "tank-plt", "tank-plt/n3"), unit(F + "/b-p2", "inf-plt", "sz-6")]}
    without = list_document_report(doc(mini_book, [formation]))[1]
    assert without.unit_points["/formations/0/units/1"] == 7
    with_card = list_document_report(doc(mini_book, [formation], cards=[{"card": "card-f1",
                                                                        "target": "/formations/0"}]))[1]
    assert with_card.unit_points["/formations/0/units/1"] == 6
    assert with_card.card_points == -1
    assert with_card.total_points == 13 + 6 - 1


def test_a_cost_modifier_not_understood_is_an_error_not_a_silent_zero(mini_book):
    list_doc = doc(mini_book, support=[unit("force/l-sup::sup-1", "sup-1", "sup-1/base")])
    force, _ = list_document_report(list_doc)
    pricing = bspricing.BattleScribePricing(force)
    assert [i.code for i in pricing.issues] == ["fow.points.unpriced"]
    issue = pricing.issues[0]
    assert issue.severity == "error" and issue.pointer == "/support/0"
    assert "limit::" in issue.message
    assert pricing.unit(force.support[0]) == 10  # the static price, said to be uncertain
    report = engine_check(force)
    assert "fow.points.unpriced" in report.codes() and not report.legal


def test_the_engine_itself_reports_unpriced_modifiers(mini_book):
    list_doc = doc(mini_book, support=[unit("force/l-sup::sup-1", "sup-1", "sup-1/base")])
    force, _ = list_document_report(list_doc)
    assert "fow.points.unpriced" in check(force).codes()


def test_half_built_and_odd_data_never_crash_the_pricing():
    odd = UnitData(code="u", name="Odd", sizes=(SizeData("s", "s", 1, 3, extra={"bs": "nonsense"}),),
                   extra={"bs": {"costs": {"pts": "x"}}, "cost_modifiers": [{"type": "set", "kind": "cost",
                                                                            "field": "pts", "value": "many"}]})
    box = BoxData(code="b", name="Box", formation=None, extra={"bs": {"kind": "group"}, "choice_groups": 5})
    handbook = HandbookData(code="h", revision=1, name="H", system="fow4", uses_points=True, nation="x",
                            units={"u": odd}, source="battlescribe", extra={"battlescribe": []})
    fu = ForceUnit(pointer="/support/0", box=box, unit=odd, size=odd.sizes[0])
    no_size = ForceUnit(pointer="/support/1", box=box, unit=odd, size=None)
    report = engine_check(Force(system="fow4", handbook=handbook, support=(fu, no_size)))
    unpriced = [i for i in report.issues if i.code == "fow.points.unpriced"]
    assert [i.pointer for i in unpriced] == ["/support/0", "/support/1"]
    assert "not a number" in unpriced[0].message
    assert report.unit_points["/support/0"] == 3
