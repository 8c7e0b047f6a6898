"""Hail of Fire: complete unit records, transport capacity and the force's figures (no points)."""
import pytest

from armybuilder.lists.selectors import list_document_report

from .listdocs import formation, listdoc, unit

pytestmark = pytest.mark.usefixtures("test_books")


def report_of(*units):
    doc = listdoc(formation("HF", *units), book="tb-hof", system="hof", points_limit=None)
    return list_document_report(doc)[1]


def issue(report, code):
    found = [i for i in report.issues if i.code == code]
    assert found, f"expected {code}, got {report.codes()}"
    return found[0]


def test_complete_units_make_a_legal_force_with_no_points():
    report = report_of(unit("HF/a", "H1", "s"), unit("HF/e", "H5", "s"), unit("HF/f", "H6", "s"))
    assert report.legal, report.codes()
    assert report.total_points == 0


def test_an_empty_force_is_not_ready_to_play():
    assert issue(report_of(), "hof.force.empty").pointer == "/formations"


def test_a_unit_without_quality_or_leader_cannot_be_played():
    found = issue(report_of(unit("HF/b", "H2", "s")), "hof.unit.incomplete")
    assert found.pointer == "/formations/0/units/0"
    assert "quality" in found.message and "Platoon Leader" in found.message and "its teams" in found.message


def test_a_transport_carries_at_most_four_teams_of_its_own_unit():
    assert "hof.transport.over_capacity" not in report_of(unit("HF/a", "H1", "s")).codes()
    found = issue(report_of(unit("HF/c", "H3", "s")), "hof.transport.over_capacity")
    assert found.pointer == "/formations/0/units/0" and "carry at most 4 teams" in found.message


def test_each_transport_tows_one_gun_at_most():
    found = issue(report_of(unit("HF/d", "H4", "s")), "hof.transport.over_capacity")
    assert "2 towed gun(s)" in found.message


def test_break_limit_order_dice_and_fire_missions_follow_the_force():
    report = report_of(unit("HF/a", "H1", "s"), unit("HF/a", "H1", "s"), unit("HF/e", "H5", "s"),
                       unit("HF/f", "H6", "s"))
    figures = report.figures
    assert figures["break_limit"] == 5 + 2 * 4
    assert figures["order_dice"] == 4  # three platoon leaders and one vehicle unit
    assert figures["expected_order_points"] == 4 / 2 + 1
    assert figures["order_points_range"] == [1, 5]
    assert figures["artillery"]["/formations/0/units/3"]["fire_missions"] == 2  # heavy
    assert figures["objectives_if_defending"] == 3
