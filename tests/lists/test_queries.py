"""The snapshot of a list costs a fixed number of queries, whatever the list's size."""
from django.db import connection
from django.test.utils import CaptureQueriesContext

from armybuilder.lists import catalog, selectors
from tests.factories import ArmyListFactory, ListCardFactory, ListFormationFactory, ListUnitFactory


def build(army, formations, extra_units):
    for _ in range(formations):
        company = ListFormationFactory(army_list=army, formation_code="F1")
        ListUnitFactory(list_formation=company, box_code="F1/hq", unit_code="HQ1", size_code="1x")
        for box, size in [("F1/b1", "3x"), ("F1/b2", "4x")]:
            ListUnitFactory(list_formation=company, box_code=box, unit_code="TNK", size_code=size,
                            upgrades={"skirts/schurzen": 1})
        ListCardFactory(army_list=army, card_code="CFORM", target_formation=company)
    for _ in range(extra_units):
        ListUnitFactory(army_list=army, box_code="force/recce", unit_code="RECCE", size_code="2x")


def queries_for_snapshot(army):
    catalog.clear_cache()
    with CaptureQueriesContext(connection) as cold:
        selectors.army_list_force(army)
    with CaptureQueriesContext(connection) as warm:
        selectors.army_list_force(army)
    return len(cold), len(warm)


def test_a_small_and_a_large_list_need_the_same_number_of_queries(germany, player):
    small = ArmyListFactory(owner=player, handbook=germany, name="Small")
    build(small, formations=1, extra_units=0)
    large = ArmyListFactory(owner=player, handbook=germany, name="Large")
    build(large, formations=3, extra_units=16)
    assert len(selectors.army_list_force(large).formations) == 3
    assert sum(1 for _ in selectors.army_list_force(large).all_units()) == 25
    small_cold, small_warm = queries_for_snapshot(small)
    large_cold, large_warm = queries_for_snapshot(large)
    assert small_cold == large_cold
    # Warm: the list's four tables; the handbook's data comes from the per-revision cache.
    assert small_warm == large_warm == 4
