"""How long the engine takes to check a force of three formations and about 25 units.

Prints the median check time and its ratio to json.loads of the same list's JSON,
both measured in this run. Budget: under 2 ms per check.
"""
import json

from _setup import django_with_data, median_time


def build_force():
    from armybuilder.lists import services as s
    from armybuilder.lists.selectors import army_list_document, army_list_force
    from handbooks.models import Handbook

    germany = Handbook.objects.get(code="tb-germany")
    army = s.army_list_create(handbook=germany, name="Benchmark", points_limit=300, session_key="bench")
    for index in range(3):
        company = s.army_list_add_formation(army_list=army, formation_code="F1")
        picks = [("F1/hq", "HQ1", "2x"), ("F1/b1", "TNK", "4x"), ("F1/b2", "TNK", "3x"), ("F1/g1", "INF", "4x"),
                 ("F1/g2", "INF", "4x"), ("F1/g3", "RECCE", "2x"), ("F1/g4", "INF", "4x"), ("F1/g5", "TNK", "3x")]
        if index == 0:
            picks += [("F1/s1", "ART", "4x"), ("F1/s2", "OBS", "1x"), ("F1/s3", "AA", "2x")]
        for box, code, size in picks:
            unit = s.army_list_pick_unit(army_list=army, list_formation=company, box_code=box, unit_code=code,
                                         size_code=size)
            if code == "TNK":
                s.army_list_set_upgrade(army_list=army, list_unit=unit, upgrade_code="skirts/schurzen", quantity=1)
                s.army_list_set_upgrade(army_list=army, list_unit=unit, upgrade_code="mg/aa", quantity=1)
            if code == "INF":
                s.army_list_set_upgrade(army_list=army, list_unit=unit, upgrade_code="weapons/rifles", quantity=1)
                s.army_list_set_upgrade(army_list=army, list_unit=unit, upgrade_code="transport/halftracks", quantity=1)
        s.army_list_add_card(army_list=army, card_code="CFORM", target_formation=company)
    s.army_list_add_card(army_list=army, card_code="CF")
    return army_list_force(army), json.dumps(army_list_document(army))


def main():
    django_with_data()
    from armybuilder.rules import check

    force, text = build_force()
    units = sum(1 for _ in force.all_units())
    report = check(force)
    check_s = median_time(lambda: check(force), repeat=500)
    loads_s = median_time(lambda: json.loads(text), repeat=500)
    print(f"force: {len(force.formations)} formations, {units} units, {len(force.cards)} cards, "
          f"{report.total_points} points, {len(report.issues)} issue(s), JSON {len(text)} bytes")
    print(f"check (median of 500):      {check_s * 1000:.3f} ms   (budget 2 ms)")
    print(f"json.loads (median of 500): {loads_s * 1000:.3f} ms")
    print(f"ratio check / json.loads:   {check_s / loads_s:.1f}")


if __name__ == "__main__":
    main()
