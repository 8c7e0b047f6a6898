"""The evaluator's verdict over a small hand-written catalogue document (invented entries): limits of
entries chosen once, twice or not at all, a group's limit, a cost modifier with compound conditions, and a
catalogue pickled after use (the shared game data cache) that checks the same. Every expected value is
worked out by hand from the document below."""
import pickle

import pytest

from armybuilder.rules.battlescribe.catalogue import Catalogue
from armybuilder.rules.battlescribe.evaluate import Evaluation
from armybuilder.rules.battlescribe.tree import bind_draft


def limit(cid, kind, value, scope="parent"):
    return {"id": cid, "type": kind, "field": "selections", "scope": scope, "value": value}


def entry(name, *, type="upgrade", pts=0, children=(), **more):
    return {"k": "entry", "name": name, "type": type, "costs": {"pts": pts}, "children": list(children), **more}


NODES = {
    "coy": entry("Invented Company", type="unit", children=["hq", "combat"]),
    "hq": entry("Company HQ", type="unit", pts=1, constraints=[limit("hq-min", "min", 1), limit("hq-max", "max", 1)]),
    "combat": {"k": "group", "name": "Combat Platoons", "children": ["plt-a", "plt-b"],
               "constraints": [limit("combat-max", "max", 2)]},
    # 5 points, 2 more when it has its upgrade and the list holds at least 5 selections in all.
    "plt-a": entry("Platoon A", type="unit", pts=5, children=["a-size", "a-up"],
                   constraints=[limit("a-max", "max", 1)],
                   modifiers=[{"type": "increment", "field": "pts", "kind": "cost", "value": 2, "when": {"and": [
                       {"type": "atLeast", "field": "selections", "scope": "plt-a", "child": "a-up", "value": 1,
                        "children": True},
                       {"type": "atLeast", "field": "selections", "scope": "roster", "child": "any", "value": 5,
                        "children": True}]}}]),
    "a-size": {"k": "group", "name": "Unit Size", "children": ["a-3"],
               "constraints": [limit("as-min", "min", 1), limit("as-max", "max", 1)]},
    "a-3": entry("3x Invented Tank", type="model", pts=0),
    "a-up": entry("Invented Upgrade", pts=1),
    "plt-b": entry("Platoon B", type="unit", pts=4),
}
DOC = {"nodes": NODES, "roots": ["coy"], "points": "pts", "cost_types": [{"id": "pts", "name": "pts"}],
       "catalogue": {"id": "cat-eval"}, "game_system": {"id": "gs-eval"}}


def sel(entry_id, *children, number=1):
    return {"entry": entry_id, "number": number, "selections": list(children)}


def platoon_a(*extra, number=1):
    return sel("plt-a", sel("a-3", number=number), *extra)


def evaluate(catalogue, *company):
    roster, problems = bind_draft({"cat-eval": catalogue}, {"forces": [
        {"catalogue": "cat-eval", "selections": [sel("coy", *company)]}]})
    assert problems == []
    return Evaluation(roster)


def broken(evaluation):
    return sorted((v.kind, v.name, v.limit, v.count) for v in evaluation.violations())


@pytest.fixture
def catalogue():
    return Catalogue(DOC)


def test_a_company_with_its_hq_and_one_platoon_of_one_size_breaks_nothing(catalogue):
    assert broken(evaluate(catalogue, sel("hq"), platoon_a())) == []


def test_a_company_without_its_hq_breaks_the_hq_minimum_once(catalogue):
    assert broken(evaluate(catalogue, platoon_a())) == [("min", "Company HQ", 1, 0)]


def test_an_entry_chosen_twice_breaks_its_maximum_once(catalogue):
    assert broken(evaluate(catalogue, sel("hq"), platoon_a(), platoon_a())) == [("max", "Platoon A", 1, 2)]


def test_a_group_counts_every_choice_made_in_it(catalogue):
    # 1 Platoon A and 2 Platoon B: 3 in the group, which allows 2; Platoon B has no limit of its own
    assert broken(evaluate(catalogue, sel("hq"), platoon_a(), sel("plt-b"), sel("plt-b"))) == [
        ("max", "Combat Platoons", 2, 3)]


def test_a_single_choice_over_its_limit_is_still_found(catalogue):
    # one size choice of number 2 where the size group allows 1; an HQ of number 2 where 1 is allowed
    assert broken(evaluate(catalogue, sel("hq", number=2), platoon_a(number=2))) == [
        ("max", "Company HQ", 1, 2), ("max", "Unit Size", 1, 2)]


def test_an_empty_size_group_breaks_its_minimum(catalogue):
    assert broken(evaluate(catalogue, sel("hq"), sel("plt-a"))) == [("min", "Unit Size", 1, 0)]


def test_a_cost_modifier_applies_only_when_all_its_conditions_hold(catalogue):
    def price(*company):
        ev = evaluate(catalogue, *company)
        return [ev.cost(s)["pts"] for s in ev.selections if ev.name(s) == "Platoon A"]

    assert price(sel("hq"), platoon_a()) == [5]  # no upgrade (4 selections: coy, hq, plt-a, a-3)
    assert price(platoon_a(sel("a-up"))) == [5]  # the upgrade, but 4 selections: coy, plt-a, a-3, a-up
    assert price(sel("hq"), platoon_a(sel("a-up"))) == [7]  # the upgrade and 5 selections
    assert price(sel("hq"), platoon_a(sel("a-up")), platoon_a()) == [7, 5]  # the other has no upgrade
    ev = evaluate(catalogue, sel("hq"), platoon_a(sel("a-up")), sel("plt-b"))
    assert sum(ev.cost(s)["pts"] * s.number for s in ev.selections) == 1 + 7 + 0 + 1 + 4  # hq, A, size, up, B


def test_a_catalogue_pickled_after_checks_checks_the_same(catalogue):
    company = (sel("hq"), platoon_a(sel("a-up")), platoon_a(), sel("plt-b"), sel("plt-b"))
    before = broken(evaluate(catalogue, *company))
    assert before == [("max", "Combat Platoons", 2, 4), ("max", "Platoon A", 1, 2)]
    copy = pickle.loads(pickle.dumps(catalogue))
    # Only the document is kept: what the checks worked out is worked out again (old shapes never come back).
    assert catalogue._layouts and catalogue._views
    assert (copy.doc, copy._layouts, copy._views) == (catalogue.doc, {}, {})
    assert broken(evaluate(copy, *company)) == before
    ev = evaluate(copy, sel("hq"), platoon_a(sel("a-up")))
    assert [ev.cost(s)["pts"] for s in ev.selections if ev.name(s) == "Platoon A"] == [7]


def test_entries_offering_nothing_share_one_empty_layout_that_keeps_nothing_of_them(catalogue):
    assert broken(evaluate(catalogue, sel("hq"), platoon_a(sel("a-up")))) == []
    model, upgrade = catalogue.resolve("a-3"), catalogue.resolve("a-up")
    nothing = catalogue.layout(model)
    assert catalogue.layout(upgrade) is nothing and not nothing.slots and not nothing.groups
    assert nothing.find("a-3") is None and nothing.plan is not None and not nothing.plan.seats
    assert catalogue.layout(catalogue.resolve("plt-a")) is not nothing  # one with children has its own
    catalogue.release()
    assert broken(evaluate(catalogue, sel("hq"), platoon_a(sel("a-up")))) == []
