"""Operation WW2 army building (armybuilder/rules/oww2.py) on a hand-made list: the options pyramid, unit counts,
the 8-unit limit, off-table fire and reference dates. Rule lines are those of the Operation WW2 digest
(/work/shared/rules/operation-ww2.md).

The list: a Rifle Platoon (Standard, 2 options: 0-1 Command Group, 2-6 squads, an options list), a Tank Troop
(Standard, 1 option of its own) bought for 2 options, and an Assault Section that is not Standard.
"""
from armybuilder.rules import engine
from armybuilder.rules.data import ChoiceData

from .build import a_book, a_box, a_force, a_formation, a_size, a_unit, field, issue, sole_error, take


def one(points):
    return [a_size("1", 1, points)]


UNITS = [
    a_unit("CMD", "Command Group", sizes=one(30)),
    a_unit("SQ", "Rifle Squad", sizes=one(40)),
    a_unit("SNP", "Sniper", sizes=one(20)),
    a_unit("MGT", "MG Team", sizes=one(35)),
    a_unit("TANK", "Sherman", sizes=one(120), available_from=1942, available_to=1945),
    a_unit("OP", "Observation Post", sizes=one(25), is_observation_post=True),
    a_unit("HOW", "Howitzer", sizes=one(90), off_table=True),
]
RIFLE_PLATOON = a_formation(
    "RP", a_box("RP/cmd", "CMD", max_picks=1, name="Command Group (0-1)"),
    a_box("RP/sq", "SQ", kind="black", min_picks=2, max_picks=6, name="Rifle Squads (2-6)"),
    a_box("RP/opt", *(ChoiceData(unit=u, option_cost=1) for u in ("SNP", "MGT", "OP", "HOW")),
          ChoiceData(formation="TT", option_cost=2), kind="options", max_picks=3, name="Options"),
    name="Rifle Platoon", is_standard=True, grants_options=2)
TANK_TROOP = a_formation(
    "TT", a_box("TT/tank", "TANK", kind="black", name="Tank"),
    a_box("TT/opt", ChoiceData(unit="OP", option_cost=1), ChoiceData(unit="HOW", option_cost=1), kind="options",
          max_picks=1, name="Tank options"),
    name="Tank Troop", is_standard=True, grants_options=1)
ASSAULT_SECTION = a_formation("AS", a_box("AS/sq", "SQ", kind="black"), name="Assault Section")


def american(**kw):
    kw.setdefault("order_card_base", 5)
    return a_book("us", system="oww2", nation="usa", units=UNITS,
                  formations=[RIFLE_PLATOON, TANK_TROOP, ASSAULT_SECTION], **kw)


def platoon(*extra, squads=2):
    return field("RP", take("RP/cmd", "CMD", "1"), *[take("RP/sq", "SQ", "1") for _ in range(squads)], *extra)


def troop(*extra, parent=0):
    return field("TT", take("TT/tank", "TANK", "1"), *extra, parent=parent, via="RP/opt")


def check(*formations, book=None, **kw):
    kw.setdefault("points_limit", 3500)
    return engine.check(a_force(book or american(), *formations, **kw))


# --- the legal army ----------------------------------------------------------------------------------------------

def test_a_platoon_that_buys_a_tank_troop_which_buys_an_observation_post_is_legal():
    """L2028-2030: one Standard choice grants options; a Standard unit bought with them grants its own."""
    report = check(platoon(), troop(take("TT/opt", "OP", "1")))
    assert report.legal and not report.warnings, report.codes()
    assert report.total_points == 30 + 40 + 40 + 120 + 25
    assert report.figures["option_pools"] == {"/formations/0": {"granted": 2, "spent": 2},
                                              "/formations/1": {"granted": 1, "spent": 1}}


def test_the_first_hand_is_the_nations_base_plus_one_card_a_unit():
    """L437-446: the base hand (American 5, German 7) plus one card per unit."""
    report = check(platoon(), troop(take("TT/opt", "OP", "1")))
    assert (report.figures["units"], report.figures["unit_limit"]) == (5, 8)
    assert report.figures["order_cards_first_hand"] == 5 + 5
    german = check(platoon(), book=american(order_card_base=7))
    assert german.figures["order_cards_first_hand"] == 7 + 3


# --- the Standard root ----------------------------------------------------------------------------------------------

def test_an_army_starts_from_a_standard_choice():
    """L2030: an army starts from exactly one Standard choice."""
    found = sole_error(check(), "oww2.standard.none")
    assert found.fix == "Start with one of: Rifle Platoon, Tank Troop."


def test_a_choice_that_is_not_standard_cannot_start_the_army():
    found = sole_error(check(field("AS", take("AS/sq", "SQ", "1"))), "oww2.standard.not_standard")
    assert found.pointer == "/formations/0"


def test_a_second_starting_choice_is_refused():
    found = sole_error(check(platoon(), platoon()), "oww2.standard.more_than_one")
    assert (found.pointer, found.fix) == ("/formations/1", "Buy it through an options list, or remove it.")


# --- the options pyramid -------------------------------------------------------------------------------------------

def test_options_are_spent_only_from_the_pool_of_the_unit_that_granted_them():
    """L2030: options from two different units cannot be added together. The platoon's 2 options pay for the
    troop (2) and a sniper (1): overspent by one, though the troop's own option is unspent."""
    report = check(platoon(take("RP/opt", "SNP", "1")), troop())
    found = sole_error(report, "oww2.options.overspent")
    assert (found.pointer, found.fix) == ("/formations/0", "Remove options worth 1.")
    assert report.figures["option_pools"]["/formations/1"] == {"granted": 1, "spent": 0}


def test_a_formation_bought_from_a_list_that_does_not_offer_it_is_refused():
    section = field("AS", take("AS/sq", "SQ", "1"), parent=0, via="RP/opt")
    found = sole_error(check(platoon(), section), "oww2.option.not_offered")
    assert found.message == "Assault Section is not on the options list of Rifle Platoon."


def test_a_unit_from_another_formations_options_list_is_refused():
    found = sole_error(check(platoon(take("TT/opt", "OP", "1"))), "oww2.box.not_in_formation")
    assert (found.pointer, found.box) == ("/formations/0/units/3", "TT/opt")


def test_an_options_list_keeps_to_its_count():
    two = check(platoon(), troop(take("TT/opt", "OP", "1"), take("TT/opt", "HOW", "1")))
    found = issue(two, "oww2.count.too_many")
    assert (found.pointer, found.box) == ("/formations/1", "TT/opt")


# --- unit counts -----------------------------------------------------------------------------------------------

def test_a_count_range_sets_the_fewest_and_the_most_units():
    """L2019, L2025: "2-x" means at least two; "0-1" at most one."""
    found = sole_error(check(platoon(squads=1)), "oww2.count.too_few")
    assert (found.box, found.fix) == ("RP/sq", "Add one unit from: Rifle Squad.")
    assert sole_error(check(platoon(squads=7)), "oww2.count.too_many").box == "RP/sq"
    assert sole_error(check(platoon(take("RP/cmd", "CMD", "1"))), "oww2.count.too_many").box == "RP/cmd"


def test_a_points_game_allows_eight_units_and_off_table_units_count():
    """L2033: at most 8 units in a points army; units with off-table fire count."""
    eight = check(platoon(take("RP/opt", "OP", "1"), take("RP/opt", "HOW", "1"), squads=5))
    assert eight.legal, eight.codes()
    nine = check(platoon(take("RP/opt", "OP", "1"), take("RP/opt", "HOW", "1"), squads=6))
    found = sole_error(nine, "oww2.units.too_many")
    assert (found.pointer, found.fix) == ("/formations", "Remove 1 unit(s).")


def test_a_game_without_points_has_no_unit_limit():
    report = check(platoon(take("RP/opt", "OP", "1"), take("RP/opt", "HOW", "1"), squads=6), points_limit=None)
    assert report.legal and report.figures["unit_limit"] is None


def test_the_points_limit_holds():
    found = sole_error(check(platoon(), points_limit=109), "oww2.points.over_limit")
    assert found.message == "The force costs 110 points, 1 more than the 109-point limit."


# --- off-table fire ---------------------------------------------------------------------------------------------------

def test_off_table_fire_without_an_observation_post_is_a_warning():
    """L965: leaving a unit off the table needs an Observation Post; without one it deploys on the table."""
    report = check(platoon(take("RP/opt", "HOW", "1")))
    found = issue(report, "oww2.off_table.no_observation_post")
    assert (found.severity, found.pointer) == ("warning", "/formations/0/units/3")
    assert report.legal
    assert report.figures["wait_actions"] == 0


def test_an_observation_post_with_off_table_artillery_brings_two_wait_actions_and_a_card_less():
    """L980, L3310: 2 WAIT actions; the off-table unit has no Order card until the OP calls it (L2033)."""
    report = check(platoon(take("RP/opt", "OP", "1"), take("RP/opt", "HOW", "1")))
    assert report.legal and not report.warnings, report.codes()
    assert report.figures["wait_actions"] == 2
    assert (report.figures["order_cards_first_hand"], report.figures["order_cards_first_hand_off_table"]) == (10, 9)


# --- reference dates ----------------------------------------------------------------------------------------------

def test_a_unit_dated_outside_the_armys_year_is_a_warning_not_an_error():
    """L2025: reference dates show availability; the rules allow anachronisms."""
    report = check(platoon(), troop(), year=1941)
    found = issue(report, "oww2.date.unit_unavailable")
    assert (found.severity, found.pointer) == ("warning", "/formations/1/units/0")
    assert report.legal
    assert not check(platoon(), troop(), year=1944).warnings
