"""The snapshot of a list costs a fixed number of queries, whatever the list's size."""
from django.db import connection
from django.test.utils import CaptureQueriesContext

from armybuilder.lists import catalog, selectors
from armybuilder.lists import services as s


def build(army, formations, extra_units):
    for _ in range(formations):
        company = s.army_list_add_formation(army_list=army, formation_code="F1")
        for box, code, size in [("F1/hq", "HQ1", "1x"), ("F1/b1", "TNK", "3x"), ("F1/b2", "TNK", "4x")]:
            unit = s.army_list_pick_unit(army_list=army, list_formation=company, box_code=box, unit_code=code,
                                         size_code=size)
            s.army_list_set_upgrade(army_list=army, list_unit=unit, upgrade_code="skirts/schurzen", quantity=1) \
                if code == "TNK" else None
        s.army_list_add_card(army_list=army, card_code="CFORM", target_formation=company)
    for _ in range(extra_units):
        s.army_list_pick_unit(army_list=army, box_code="force/recce", unit_code="RECCE", size_code="2x")


def queries_for_snapshot(army):
    catalog.clear_cache()
    with CaptureQueriesContext(connection) as cold:
        selectors.army_list_force(army)
    with CaptureQueriesContext(connection) as warm:
        selectors.army_list_force(army)
    return len(cold), len(warm)


def test_a_small_and_a_large_list_need_the_same_number_of_queries(germany, player):
    small = s.army_list_create(owner=player, handbook=germany, name="Small")
    build(small, formations=1, extra_units=0)
    large = s.army_list_create(owner=player, handbook=germany, name="Large")
    build(large, formations=3, extra_units=16)
    assert len(selectors.army_list_force(large).formations) == 3
    assert sum(1 for _ in selectors.army_list_force(large).all_units()) == 25
    small_cold, small_warm = queries_for_snapshot(small)
    large_cold, large_warm = queries_for_snapshot(large)
    assert small_cold == large_cold
    # Warm: the list's four tables; the handbook's data comes from the per-revision cache.
    assert small_warm == large_warm == 4
