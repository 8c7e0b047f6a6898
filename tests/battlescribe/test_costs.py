"""The cost evaluator: hand-written data for the semantics, real BSData entries for pinned prices.

Every pinned price below was worked out by hand from the catalogue XML; the
comment names the entry ids involved (no catalogue text is copied here).
"""
import pytest

from armybuilder.interchange.battlescribe import SelectionTreeError, UnsupportedModifier, evaluate_costs, map_library

PTS = "995a-4d67-6920-bfe4"  # the BSData FoW points cost type


@pytest.fixture
def mini(mini_dir):
    return map_library([mini_dir]).index


def force(*selections, catalogue="cat-1"):
    return {"forces": [{"catalogue": catalogue, "selections": list(selections)}]}


def sel(entry, *children, number=1, group=None):
    out = {"entry": entry, "number": number, "selections": list(children)}
    if group:
        out["group"] = group
    return out


def test_model_count_set(mini):
    three = evaluate_costs(mini, force(sel("tank-plt", sel("m-short", number=3))))
    assert three.total("pts") == 13
    mixed = evaluate_costs(mini, force(sel("tank-plt", sel("m-short", number=2), sel("m-long", number=2))))
    assert mixed.total("pts") == 17 + 2  # set 17 for four models, +1 per long gun
    assert [r.costs["pts"] for r in mixed.selections] == [17, 0, 2]


def test_upgrade_dependent_increment(mini):
    plain = evaluate_costs(mini, force(sel("inf-plt", sel("sz-4"))))
    assert plain.total("pts") == 5
    with_bazooka = evaluate_costs(mini, force(sel("inf-plt", sel("sz-4"), sel("up-baz"))))
    assert with_bazooka.total("pts") == 5 + 1 + 2


def test_roster_and_formation_decrement(mini):
    inside = sel("l-form::form-1", sel("l-p2b::inf-plt", sel("sz-6")), sel("card-f1"))
    assert evaluate_costs(mini, force(inside)).total("pts") == 7 - 1 - 1  # card -1, platoon -1 in the formation
    outside = force(sel("l-form::form-1", sel("card-f1")), sel("inf-plt", sel("sz-6")))
    assert evaluate_costs(mini, outside).total("pts") == -1 + 7  # not inside the formation: no discount
    no_card = force(sel("l-form::form-1", sel("l-p2b::inf-plt", sel("sz-6"))))
    assert evaluate_costs(mini, no_card).total("pts") == 7


def test_the_points_limit_counts_in_limit_conditions(mini):
    # sup-1 costs 10, +1 when the roster's pts limit is at least 100 (condition field limit::pts)
    assert evaluate_costs(mini, force(sel("l-sup::sup-1"))).total("pts") == 10
    assert evaluate_costs(mini, force(sel("l-sup::sup-1")), cost_limits={"pts": 100}).total("pts") == 11
    assert evaluate_costs(mini, force(sel("l-sup::sup-1")), cost_limits={"pts": 99}).total("pts") == 10


def test_a_cost_modifier_of_an_unknown_kind_raises(mini):
    from armybuilder.interchange.battlescribe.index import Index

    index = Index(mini.system, list(mini.catalogues.values()))
    node = index.catalogues["cat-1"].by_id["tank-plt"]
    node.modifiers = [*node.modifiers, {"type": "multiply", "field": "pts", "kind": "cost", "value": 2}]
    try:
        with pytest.raises(UnsupportedModifier, match="multiply"):
            evaluate_costs(index, force(sel("tank-plt", sel("m-short", number=3))))
    finally:
        node.modifiers = node.modifiers[:-1]


def test_bad_trees_are_refused(mini):
    with pytest.raises(SelectionTreeError, match="unknown selection entry"):
        evaluate_costs(mini, force(sel("nope")))
    with pytest.raises(SelectionTreeError, match="number"):
        evaluate_costs(mini, force(sel("tank-plt", number=-1)))
    with pytest.raises(SelectionTreeError, match="catalogue"):
        evaluate_costs(mini, {"forces": [{"selections": []}]})


def test_repeats_and_round_up():
    from armybuilder.interchange.battlescribe.index import Index
    from armybuilder.interchange.battlescribe.nodes import Catalogue, CostType, Node

    system = Catalogue(kind="gameSystem", id="gs", name="gs", revision=1, source="gs")
    system.cost_types = [CostType("pts", "pts", -1, False)]
    cat = Catalogue(kind="catalogue", id="c", name="c", revision=1, source="c", game_system_id="gs")
    rep = {"field": "selections", "scope": "parent", "child": "m", "value": 2, "repeats": 3, "children": True}
    unit = Node(tag="selectionEntry", id="u", name="u", type="upgrade", costs={"pts": 1},
                modifiers=[{"type": "increment", "field": "pts", "kind": "cost", "value": 1, "repeats": [rep]},
                           {"type": "decrement", "field": "pts", "kind": "cost", "value": 10,
                            "repeats": [{**rep, "value": 4, "repeats": 1, "round_up": True}]}])
    model = Node(tag="selectionEntry", id="m", name="m", type="model")
    holder = Node(tag="selectionEntry", id="h", name="h", type="unit")
    for n in (unit, model, holder):
        cat.by_id[n.id] = n
    index = Index(system, [cat])
    tree = {"catalogue": "c", "selections": [sel("h", sel("u"), sel("m", number=5))]}
    # 5 models: floor(5/2)*3 = 6 increments of 1; ceil(5/4) = 2 decrements of 10
    assert evaluate_costs(index, tree).total("pts") == 1 + 6 - 20


# -- pinned prices from the real BSData library --------------------------------------------


@pytest.fixture(scope="module")
def real_index(real_library):
    return real_library.index


@pytest.mark.bsdata
def test_real_model_count_set(real_index):
    # catalogue 1db5-94f0-8315-42a2, unit 9892-987c-62b9-08c8: cost 14, set 13/17/21 for 3/4/5 models;
    # models a298-c841-065c-685c (0 each) and ea6b-624c-dac5-2c88 (1 each).
    cat = "1db5-94f0-8315-42a2"
    unit = "9892-987c-62b9-08c8"
    three = force(sel(unit, sel("a298-c841-065c-685c", number=3)), catalogue=cat)
    assert evaluate_costs(real_index, three).total(PTS) == 13
    five = force(sel(unit, sel("a298-c841-065c-685c", number=2), sel("ea6b-624c-dac5-2c88", number=3)),
                 catalogue=cat)
    assert evaluate_costs(real_index, five).total(PTS) == 21 + 3


@pytest.mark.bsdata
def test_real_upgrade_dependent_increment(real_index):
    # catalogue c97d-9ffb-d8c2-9cd8, unit 59c3-3306-e00a-09b2 (0 pts) with size a4e4-9d7e-675c-9e34
    # (8 pts, +2 when the unit holds one c31a-3b12-49b9-10aa, 0 pts).
    cat = "c97d-9ffb-d8c2-9cd8"
    plain = force(sel("59c3-3306-e00a-09b2", sel("a4e4-9d7e-675c-9e34")), catalogue=cat)
    assert evaluate_costs(real_index, plain).total(PTS) == 8
    upgraded = force(sel("59c3-3306-e00a-09b2", sel("a4e4-9d7e-675c-9e34"), sel("c31a-3b12-49b9-10aa")),
                     catalogue=cat)
    assert evaluate_costs(real_index, upgraded).total(PTS) == 10


@pytest.mark.bsdata
def test_real_roster_and_formation_decrement(real_index):
    # catalogue 17b9-5bac-7fa8-f9ee, unit dbef-035b-adfb-7fa0 (0 pts), size
    # 118d-6eb7-40fe-0f0b (12 pts); -1 when the roster holds 9e60-6230-eeea-1429 (0 pts) and the platoon
    # is inside bb34-73fa-56e7-e1a5 (0 pts); another -1 for c8b4-cf-7778-3def.
    cat = "17b9-5bac-7fa8-f9ee"
    platoon = sel("dbef-035b-adfb-7fa0", sel("118d-6eb7-40fe-0f0b"))
    base = force(sel("bb34-73fa-56e7-e1a5", platoon), catalogue=cat)
    assert evaluate_costs(real_index, base).total(PTS) == 12
    with_card = force(sel("bb34-73fa-56e7-e1a5", platoon), sel("9e60-6230-eeea-1429"), catalogue=cat)
    assert evaluate_costs(real_index, with_card).total(PTS) == 11
    elsewhere = force(platoon, sel("9e60-6230-eeea-1429"), catalogue=cat)
    assert evaluate_costs(real_index, elsewhere).total(PTS) == 12  # not inside that formation


@pytest.mark.bsdata
def test_real_repeats(real_index):
    # catalogue 49e2-d7eb-dff0-9755, option ffb6-d915-df34-761f (0 pts): +6 per selection in its parent
    # carrying category bd86-9788-0906-fd7b (on size 4f94-c537-f397-a778, 14 pts) and +10 per
    # 3047-dcbd-0b63-2cab (on size fe99-cc4a-7c29-70b0, 24 pts); unit 6170-c630-c3e0-66b3 and
    # formation 5c5a-c627-3e2b-1e4b cost 0.
    cat = "49e2-d7eb-dff0-9755"
    company = sel("5c5a-c627-3e2b-1e4b",
                  sel("6170-c630-c3e0-66b3", sel("4f94-c537-f397-a778")),
                  sel("6170-c630-c3e0-66b3", sel("fe99-cc4a-7c29-70b0")),
                  sel("ffb6-d915-df34-761f"))
    result = evaluate_costs(real_index, force(company, catalogue=cat))
    card = next(r for r in result.selections if r.path == "ffb6-d915-df34-761f")
    assert card.costs[PTS] == 6 + 10
    assert result.total(PTS) == 14 + 24 + 16
