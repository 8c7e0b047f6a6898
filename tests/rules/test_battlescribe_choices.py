"""Container entries, "from" prices and "hidden because …" over a small hand-written catalogue document
(invented entries; the prices are worked out by hand below)."""
import pytest

from armybuilder.rules.battlescribe.catalogue import Catalogue
from armybuilder.rules.battlescribe.choices import alternatives, cheapest_price
from armybuilder.rules.battlescribe.explain import condition_words, hidden_because


def one_of(group_id: str) -> list:
    return [{"id": f"{group_id}-min", "type": "min", "field": "selections", "scope": "parent", "value": 1},
            {"id": f"{group_id}-max", "type": "max", "field": "selections", "scope": "parent", "value": 1}]


def entry(name, *, type="upgrade", pts=0, children=(), role="", **more):
    node = {"k": "entry", "name": name, "type": type, "costs": {"pts": pts}, "children": list(children)}
    if role:
        node["role"] = role
    node.update(more)
    return node


NODES = {
    # A container: one pick-one "Type" group of two batteries, each with its own sizes.
    "art": entry("Gun or Armoured Battery", type="unit", role="unit", children=["art-type", "art-cards"]),
    "art-type": {"k": "group", "name": "Type", "children": ["how", "sp"], "constraints": one_of("t"),
                 "default": "sp"},
    "how": entry("Howitzer Battery", type="unit", children=["how-size"]),
    "how-size": {"k": "group", "name": "Unit Size", "children": ["how-2", "how-4"], "constraints": one_of("hs")},
    "how-2": entry("2x Howitzer", pts=7), "how-4": entry("4x Howitzer", pts=14),
    "sp": entry("Self-propelled Battery", type="unit", children=["sp-size"]),
    "sp-size": {"k": "group", "name": "Unit Size", "children": ["sp-2", "sp-4"], "constraints": one_of("ss")},
    "sp-2": entry("2x Self-propelled Gun", pts=10), "sp-4": entry("4x Self-propelled Gun", pts=20),
    "art-cards": {"k": "group", "name": "0) Command Cards [Unit]", "children": ["card-1"]},
    "card-1": entry("Invented Card", pts=3, role="card"),
    # A unit of its own: its sizes are upgrades, not units.
    "tank": entry("Tank Platoon", type="unit", role="unit", pts=2, children=["tank-size", "tank-mg"]),
    "tank-size": {"k": "group", "name": "Unit Size", "children": ["tank-3", "tank-4"], "constraints": one_of("ts")},
    "tank-3": entry("3x Tank", pts=9), "tank-4": entry("4x Tank", pts=12),
    "tank-mg": entry("Extra MG", pts=1),
    # Looks like a container, but has an option of its own beside the alternatives.
    "mixed": entry("Mixed Choice", type="unit", role="unit", children=["art-type", "tank-mg"]),
    # Hidden until an Artillery unit is in the force.
    "op": entry("Observation Post", type="unit", role="unit", pts=1, hidden=True, modifiers=[
        {"type": "set", "field": "hidden", "kind": "hidden", "value": False,
         "when": {"type": "atLeast", "field": "selections", "scope": "force", "child": "cat-art", "value": 1,
                  "children": True}}]),
}
DOC = {"nodes": NODES, "roots": ["art", "tank", "mixed", "op"], "points": "pts",
       "cost_types": [{"id": "pts", "name": "pts"}], "categories": {"cat-art": "Artillery"},
       "catalogue": {"id": "cat-test"}, "game_system": {"id": "gs-test"}}


@pytest.fixture
def catalogue():
    return Catalogue(DOC)


def root_slot(catalogue, entry_id):
    return next(s for s in catalogue.root_layout().slots if s.entry.id == entry_id)


def test_an_entry_that_only_groups_alternatives_is_shown_as_them(catalogue):
    alts = alternatives(catalogue, root_slot(catalogue, "art").entry)
    assert [a.name for a in alts] == ["Howitzer Battery", "Self-propelled Battery"]
    assert [a.path for a in alts] == ["how", "sp"]


@pytest.mark.parametrize("entry_id", ["tank", "mixed", "op"])
def test_a_unit_with_sizes_or_options_of_its_own_is_no_container(catalogue, entry_id):
    assert alternatives(catalogue, root_slot(catalogue, entry_id).entry) == ()


def test_each_alternative_is_priced_at_its_cheapest_completed_size(catalogue):
    art = root_slot(catalogue, "art")
    assert cheapest_price(catalogue, art, inside="how") == 7  # 0 + 2x Howitzer 7
    assert cheapest_price(catalogue, art, inside="sp") == 10  # 0 + 2x Self-propelled Gun 10
    assert cheapest_price(catalogue, art) == 7  # the cheapest way through the container
    assert cheapest_price(catalogue, root_slot(catalogue, "tank")) == 11  # 2 + 3x Tank 9; the MG is optional


def test_hidden_because_says_what_would_show_it(catalogue):
    op = root_slot(catalogue, "op").entry
    assert hidden_because(catalogue, op) == "needs an Artillery unit in the force"
    assert hidden_because(catalogue, root_slot(catalogue, "tank").entry) == ""


@pytest.mark.parametrize("tree, words", [
    ({"type": "greaterThan", "scope": "parent", "child": "tank", "value": 0}, "needs Tank Platoon here"),
    ({"type": "atLeast", "scope": "force", "child": "tank", "value": 2},
     "needs at least 2 × Tank Platoon in the force"),
    ({"type": "equalTo", "scope": "roster", "child": "tank", "value": 0}, "needs no Tank Platoon in the list"),
    ({"type": "lessThan", "scope": "art", "child": "cat-art", "value": 1},
     "needs no Artillery units in Gun or Armoured Battery"),
    ({"type": "instanceOf", "scope": "ancestor", "child": "tank"}, "only inside Tank Platoon"),
    ({"not": {"type": "atLeast", "scope": "force", "child": "unit", "value": 1}}, "needs no units in the force"),
    ({"or": [{"type": "atLeast", "scope": "force", "child": "tank", "value": 1},
             {"type": "atLeast", "scope": "force", "child": "op", "value": 1}]},
     "needs Tank Platoon in the force or needs Observation Post in the force"),
])
def test_conditions_in_words(catalogue, tree, words):
    assert condition_words(catalogue, tree) == words
