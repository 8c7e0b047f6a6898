"""A fuller Flames of War match-up: both forces' formations, units, game units, reserves and points side by
side, with the difference (expected figures from each list's own check, not from the page code)."""
import html
import re

from armybuilder.lists import services as s
from armybuilder.lists.matchups import matchup_create
from armybuilder.lists.selectors import army_list_force, army_list_report

from .test_systems_builder import imported


def test_both_forces_formations_units_and_figures_with_the_difference(sample_data, player, player_client):
    a = imported("fow-afrika-korps-panzer-company.json", owner=player)
    b = imported("fow-afrika-korps-panzer-company.json", owner=player)
    s.army_list_update(army_list=b, points_limit=120)
    force_b = army_list_force(b)
    last = force_b.formations[0].units[-1]
    s.army_list_remove_unit(army_list=b, list_unit=b.units.filter(list_formation__order=0).order_by("order", "pk")
                            .last())
    report_a, report_b = army_list_report(a), army_list_report(b)
    matchup = matchup_create(list_a=a, list_b=b, owner=player)
    page = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", player_client.get(
        f"/matchups/{matchup.public_id}/").content.decode())))
    diff = report_a.total_points - report_b.total_points
    assert f"Points {report_a.total_points:g} / 100 {report_b.total_points:g} / 120 +{diff:g} pts" in page
    ga, gb = report_a.figures["game_units"], report_b.figures["game_units"]
    assert "Game units" in page and re.search(rf"{ga} {gb} [+−]{abs(ga - gb)}", page)
    ua, ub = report_a.figures["purchases"], report_b.figures["purchases"]
    assert ua == ub + 1 and re.search(rf"Units bought .*?{ua} {ub} \+1", page)
    assert "Most points on table in Reserves missions" in page and "−12 pts" in page  # 60 against 72
    # every formation and unit of both forces, with its points
    for army, report in ((a, report_a), (b, report_b)):
        force = army_list_force(army)
        for formation in force.formations:
            assert f"{formation.formation.name} {report.formation_points[formation.pointer]:g} pts" in page
            for unit in formation.units:
                assert f"{unit.unit.name} {unit.teams} {report.unit_points[unit.pointer]:g}" in page
    assert last.unit.name in page
