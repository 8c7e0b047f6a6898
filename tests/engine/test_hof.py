"""Hail of Fire (armybuilder/rules/hof.py): no points; complete unit records, transport loads and the force's
figures. Rule lines are those of the Hail of Fire digest, seed 003
(/work/shared/rules/hail-of-fire-and-war-aint-fair.md).
The Force Parity Procedure, which balances two forces, is in test_matchups.py.
"""
from armybuilder.rules import engine

from .build import a_book, a_box, a_force, a_formation, a_size, a_team, a_unit, field, issue, sole_error, take


def leader():
    return a_team("leader", is_leader=True, is_small=True)


UNITS = [
    a_unit("PL", "Rifle Platoon", quality="regular", has_platoon_leader=True, sizes=[a_size("s", 4)],
           teams=[leader(), a_team("rifle", 3)]),
    a_unit("MOT", "Motorised Platoon", quality="regular", has_platoon_leader=True, sizes=[a_size("s", 10)],
           teams=[leader(), a_team("rifle", 6), a_team("truck", 2, "vehicle", is_transport=True),
                  a_team("gun", 1, "gun", towed=True)]),
    a_unit("CROWD", "Crowded Platoon", quality="poor", has_platoon_leader=True, sizes=[a_size("s", 11)],
           teams=[leader(), a_team("rifle", 8), a_team("truck", 2, "vehicle", is_transport=True)]),
    a_unit("SMALL", "Kübelwagen Platoon", quality="regular", has_platoon_leader=True, transport_capacity=3,
           sizes=[a_size("s", 9)],
           teams=[leader(), a_team("rifle", 6), a_team("car", 2, "vehicle", is_transport=True)]),
    a_unit("GUNS", "Gun Platoon", quality="regular", has_platoon_leader=True, sizes=[a_size("s", 3)],
           teams=[a_team("gun", 2, "gun", towed=True), a_team("tractor", 1, "vehicle", is_transport=True)]),
    a_unit("TANK", "Panzer Platoon", quality="elite", is_vehicle_unit=True, sizes=[a_size("s", 3)],
           teams=[a_team("tank", 3, "tank")]),
    a_unit("ART", "Howitzer Battery", unit_type="Artillery", quality="regular", artillery_weight="heavy",
           sizes=[a_size("s", 3)], teams=[a_team("obs", 1, is_leader=True), a_team("how", 2, "gun")]),
    a_unit("NOWT", "Unweighed Battery", unit_type="artillery", quality="regular", has_platoon_leader=True,
           sizes=[a_size("s", 2)], teams=[a_team("how", 2, "gun")]),
    a_unit("BLANK", "Unfinished Platoon", sizes=[a_size("s", 4)]),
]
GROUP = a_formation("KG", *[a_box(f"KG/{u.code.lower()}", u.code, max_picks=3) for u in UNITS], name="Kampfgruppe")


def book():
    return a_book("hof-de", system="hof", uses_points=False, units=UNITS, formations=[GROUP])


def check(*codes):
    picks = [take(f"KG/{code.lower()}", code, "s") for code in codes]
    return engine.check(a_force(book(), field("KG", *picks)))


def test_a_force_of_complete_records_is_legal_and_costs_nothing():
    """003:L37: no points system."""
    report = check("PL", "TANK", "ART", "MOT")
    assert report.legal and not report.warnings, report.codes()
    assert report.total_points == 0


def test_the_figures_come_from_the_unit_count_leaders_and_vehicle_units():
    report = check("PL", "TANK", "ART")
    figures = report.figures
    assert (figures["units"], figures["break_limit"]) == (3, 5 + 2 * 3)  # 003:L51
    # 003:L23-25: a die per Platoon Leader (rifles, battery) and per Vehicle Unit (tanks); 4+ scores, +1 always.
    assert figures["order_dice"] == 3
    assert figures["expected_order_points"] == 3 / 2 + 1
    assert figures["order_points_range"] == [1, 4]
    assert figures["hero_points_range"] == [3, 6]  # 003:L95: a d6 with 1-2 counting as 3
    assert figures["objectives_if_defending"] == 1 + 3 // 2  # 003:L91
    assert figures["qualities"] == {"elite": 1, "regular": 2, "poor": 0}


def test_an_artillery_units_fire_missions_and_barrage_follow_its_weight():
    """003:L15-17, L7: Light 4 / Medium 3 / Heavy 2 fire missions; 1 / 2 / 3 RFPs a barrage."""
    assert check("ART").figures["artillery"] == {
        "/formations/0/units/0": {"unit": "Howitzer Battery", "weight": "heavy", "fire_missions": 2,
                                  "barrage_rfps": 3}}


def test_an_empty_force_is_refused():
    assert sole_error(check(), "hof.force.empty").pointer == "/formations"


def test_a_record_without_quality_teams_or_leader_cannot_be_played():
    """003:L31, L39: every non-vehicle unit has a Platoon Leader, and a quality."""
    found = sole_error(check("BLANK"), "hof.unit.incomplete")
    assert found.message == ("Unfinished Platoon cannot be played: its record lacks quality (elite, regular or poor), "
                             "its teams, a Platoon Leader.")


def test_an_artillery_unit_needs_its_weight():
    """003:L17: every Artillery Unit has a weight."""
    found = sole_error(check("NOWT"), "hof.unit.incomplete")
    assert found.message.endswith("lacks artillery weight.")


def test_a_leader_team_stands_for_the_platoon_leader():
    assert check("ART").legal  # no platoon_leader flag, but its observer team leads


def test_transports_carry_at_most_four_teams_each():
    """003:L67-69: each transport carries two to four teams of its own unit, plus one towed gun."""
    found = sole_error(check("CROWD"), "hof.transport.over_capacity")
    assert found.message == ("Crowded Platoon: 2 transport(s) carry at most 8 teams and 2 towed gun(s); "
                             "the unit has 9 team(s) and 0 towed gun(s) to carry.")


def test_a_transport_of_smaller_capacity_carries_fewer():
    assert issue(check("SMALL"), "hof.transport.over_capacity").message.startswith(
        "Kübelwagen Platoon: 2 transport(s) carry at most 6 teams")


def test_each_transport_tows_one_gun():
    assert sole_error(check("GUNS"), "hof.transport.over_capacity").pointer == "/formations/0/units/0"
