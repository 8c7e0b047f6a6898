"""Sums and checks every system shares (armybuilder/rules/generic.py), run here with the prefix ``x``.

Points (Flames of War digest §1.2, L667-668): a unit's points come from its size and its options; the force may
cost up to the agreed limit and no more. Boxes (§1.4, L672-679): units come from the boxes of their formation's
diagram. Dates (Operation WW2 digest §1.6, L2025): availability outside the chosen year is a warning only.
"""
from armybuilder.rules import generic
from armybuilder.rules.data import ChoiceData
from armybuilder.rules.report import Report, RuleRef

from .build import (
    a_book,
    a_box,
    a_card,
    a_constraint,
    a_force,
    a_formation,
    a_group,
    a_size,
    a_unit,
    an_upgrade,
    field,
    give,
    issue,
    issues,
    take,
)
from .codes import X_OVER_LIMIT

RULES = {}


def infantry(**kw):
    return a_unit("INF", "Rifle Platoon", unit_type="infantry",
                  sizes=[a_size("4x", 4, 5, label="4 teams"), a_size("6x", 6, 7, label="6 teams", variants={"v2"})],
                  groups=[a_group("weapons", an_upgrade("weapons/mg", 1, name="MG", cost_basis="team"),
                                  an_upgrade("weapons/at", 2, name="AT rifle"), max_choices=1),
                          a_group("kit", an_upgrade("kit/mines", 2, name="Mines", cost_basis="item", max_quantity=3),
                                  an_upgrade("kit/old", -1, name="Old rifles", variants={"v2"})),
                          a_group("orders", an_upgrade("orders/attack", 0, name="Attack"), min_choices=1)],
                  **kw)


def book(**kw):
    units = [infantry(), a_unit("TNK", "Tank Platoon", unit_type="tank", sizes=[a_size("3x", 3, 9)]),
             a_unit("ART", "Artillery", unit_type="gun", sizes=[a_size("4x", 4, 8)])]
    f1 = a_formation("F1", a_box("F1/b1", "INF", "TNK", kind="black", name="Combat"),
                     a_box("F1/s1", "ART", part_of_formation=False, name="Support column"),
                     a_box("F1/v2", "TNK", name="Variant box", variants={"v2"}), name="Company")
    f2 = a_formation("F2", a_box("F2/b1", "TNK", kind="black"), name="Other Company")
    return a_book(units=units, formations=[f1, f2], support=[a_box("force/art", "ART", name="Artillery", max_picks=1)],
                  cards=[a_card("CT", "unit", 1, cost_basis="team"), a_card("CF", "force", 2)], **kw)


def run(check, force, *args):
    report = Report(system=force.system, points_limit=force.points_limit)
    check(force, report, *args)
    return report


# --- points -------------------------------------------------------------------------------------------------------

def test_a_units_points_are_its_size_plus_options_per_unit_per_team_and_per_item():
    force = a_force(book(), field("F1", take("F1/b1", "INF", "4x", "weapons/mg", ("kit/mines", 3))))
    # 4 teams for 5 points; MG at 1 a team: 4; three mines at 2 each: 6.
    assert generic.unit_points(force.formations[0].units[0]) == 5 + 4 + 6


def test_a_downgrade_takes_points_off_and_a_unit_without_a_size_costs_only_its_options():
    force = a_force(book(),
                    field("F1", take("F1/b1", "INF", "4x", "kit/old"), take("F1/b1", "INF", None, "weapons/at")))
    first, second = force.formations[0].units
    assert generic.unit_points(first) == 5 - 1
    assert generic.unit_points(second) == 2


def test_a_card_priced_per_team_costs_its_points_times_the_units_teams():
    force = a_force(book(), field("F1", take("F1/b1", "TNK", "3x")),
                    cards=[give("CT", "/formations/0/units/0"), give("CF")])
    assert [generic.card_points(c) for c in force.cards] == [1 * 3, 2]


def test_support_column_units_count_for_the_support_not_their_formation():
    force = a_force(book(), field("F1", take("F1/b1", "TNK", "3x"), take("F1/s1", "ART", "4x")),
                    support=[take("force/art", "ART", "4x")], cards=[give("CF")])
    report = run(generic.sum_points, force)
    assert report.formation_points == {"/formations/0": 9}
    assert report.support_points == 8 + 8
    assert report.unit_points == {"/formations/0/units/0": 9, "/formations/0/units/1": 8, "/support/0": 8}
    assert (report.card_points, report.total_points) == (2, 9 + 8 + 8 + 2)


def test_a_force_may_cost_the_limit_but_not_a_point_more():
    rule = RuleRef("X", "Points limit")
    force = a_force(book(), field("F1", take("F1/b1", "TNK", "3x")), points_limit=9)
    report = run(generic.sum_points, force)
    generic.check_points_limit(force, report, rule, X_OVER_LIMIT)
    assert report.legal
    tight = a_force(book(), field("F1", take("F1/b1", "TNK", "3x")), points_limit=8)
    report = run(generic.sum_points, tight)
    generic.check_points_limit(tight, report, rule, X_OVER_LIMIT)
    found = issue(report, "x.points.over_limit")
    assert (found.pointer, found.rule, found.fix) == ("/points_limit", rule,
                                                      "Remove or shrink units worth at least 1 points.")


def test_no_points_limit_means_no_points_check():
    force = a_force(book(), field("F1", take("F1/b1", "TNK", "3x")))
    report = run(generic.sum_points, force)
    generic.check_points_limit(force, report, None, X_OVER_LIMIT)
    assert report.issues == []


# --- sizes and options ------------------------------------------------------------------------------------------

def test_a_unit_with_all_its_choices_made_has_no_option_issues():
    force = a_force(book(), field("F1", take("F1/b1", "INF", "4x", "weapons/mg", "orders/attack")))
    assert run(generic.check_unit_options, force, "x", RULES).issues == []


def test_a_unit_without_a_size_is_told_the_sizes_its_variant_offers():
    force = a_force(book(), field("F1", take("F1/b1", "INF", None, "orders/attack")))
    found = issue(run(generic.check_unit_options, force, "x", RULES), "x.unit.size_missing")
    assert (found.pointer, found.fix) == ("/formations/0/units/0", "Choose a size: 4 teams.")
    in_v2 = a_force(book(), field("F1", take("F1/b1", "INF", None, "orders/attack")), variant="v2")
    assert issue(run(generic.check_unit_options, in_v2, "x", RULES), "x.unit.size_missing").fix == \
        "Choose a size: 4 teams, 6 teams."


def test_a_size_or_option_of_another_variant_is_refused():
    force = a_force(book(), field("F1", take("F1/b1", "INF", "6x", "orders/attack", "kit/old")), variant="v1")
    found = issues(run(generic.check_unit_options, force, "x", RULES), "x.variant.option_not_in_variant")
    assert [i.pointer for i in found] == ["/formations/0/units/0/size", "/formations/0/units/0/upgrades/1"]


def test_an_option_taken_more_times_than_allowed_is_refused():
    force = a_force(book(), field("F1", take("F1/b1", "INF", "4x", ("kit/mines", 4), "orders/attack")))
    found = issue(run(generic.check_unit_options, force, "x", RULES), "x.upgrade.too_many")
    assert (found.pointer, found.fix) == ("/formations/0/units/0/upgrades/0", "Reduce Mines to 3.")


def test_an_option_group_keeps_to_its_minimum_and_maximum():
    force = a_force(book(), field("F1", take("F1/b1", "INF", "4x", "weapons/mg", "weapons/at")))
    report = run(generic.check_unit_options, force, "x", RULES)
    assert issue(report, "x.upgrade_group.too_many").fix == "Remove 1 of them."
    too_few = issue(report, "x.upgrade_group.too_few")  # the orders group needs one
    assert (too_few.pointer, too_few.fix) == ("/formations/0/units/0/upgrades", "Add one of: Attack.")


# --- boxes ----------------------------------------------------------------------------------------------------------

def test_a_unit_in_another_formations_box_is_refused_and_not_checked_further():
    force = a_force(book(), field("F1", take("F1/b1", "TNK", "3x"), take("F2/b1", "TNK", "3x")))
    report = run(generic.check_box_picks, force, "x", RULES)
    found = issue(report, "x.box.not_in_formation")
    assert (found.pointer, found.box) == ("/formations/0/units/1", "F2/b1")
    assert report.codes() == ["x.box.not_in_formation"]


def test_a_unit_the_box_does_not_offer_is_refused_with_what_it_does_offer():
    force = a_force(book(), field("F1", take("F1/b1", "TNK", "3x"), take("F1/s1", "TNK", "3x")))
    found = issue(run(generic.check_box_picks, force, "x", RULES), "x.box.choice_not_offered")
    assert (found.pointer, found.fix) == ("/formations/0/units/1", "Pick one of: Artillery.")


def test_a_box_of_another_variant_is_refused():
    force = a_force(book(), field("F1", take("F1/b1", "TNK", "3x"), take("F1/v2", "TNK", "3x")), variant="v1")
    found = issue(run(generic.check_box_picks, force, "x", RULES), "x.variant.option_not_in_variant")
    assert (found.pointer, found.box) == ("/formations/0", "F1/v2")
    in_v2 = a_force(book(), field("F1", take("F1/b1", "TNK", "3x"), take("F1/v2", "TNK", "3x")), variant="v2")
    assert run(generic.check_box_picks, in_v2, "x", RULES).issues == []


def test_force_support_comes_only_from_force_boxes_each_within_its_limit():
    force = a_force(book(), field("F1", take("F1/b1", "TNK", "3x")),
                    support=[take("force/art", "ART", "4x"), take("force/art", "ART", "4x"), take("F1/s1", "ART")])
    report = run(generic.check_box_picks, force, "x", RULES)
    assert issue(report, "x.box.too_many").message == "Support box 'Artillery' holds at most 1, it has 2."
    assert issue(report, "x.box.not_force_support").pointer == "/support/2"


def test_a_system_can_name_the_box_codes_its_own_way():
    force = a_force(book(), field("F1"))
    report = run(generic.check_box_picks, force, "y", RULES)
    found = issue(report, "y.count.too_few")
    assert (found.box, found.fix) == ("F1/b1", "Add one unit from: Rifle Platoon, Tank Platoon.")


# --- the handbook's own restrictions ------------------------------------------------------------------------------

def test_a_force_wide_restriction_counts_units_across_formations_and_support():
    rule = RuleRef("X", "Restriction")
    limited = book(constraints=(a_constraint("one-art", "unit", "ART", max_count=1, description="One artillery"),))
    force = a_force(limited, field("F1", take("F1/b1", "TNK", "3x"), take("F1/s1", "ART", "4x")),
                    support=[take("force/art", "ART", "4x")])
    report = run(generic.check_constraints, force, "x", rule)
    found = issue(report, "x.constraint.too_many")
    assert (found.message, found.pointer, found.rule) == ("One artillery: at most 1, has 2.", "", rule)


def test_a_per_formation_restriction_is_reported_on_each_formation_that_breaks_it():
    needs_tanks = book(constraints=(a_constraint("tanks", "unit_type", "tank", scope="formation", min_count=1,
                                                 description="A tank unit"),))
    force = a_force(needs_tanks, field("F1", take("F1/b1", "INF", "4x")), field("F1", take("F1/b1", "TNK", "3x")))
    found = issues(run(generic.check_constraints, force, "x", None), "x.constraint.too_few")
    assert [i.pointer for i in found] == ["/formations/0"]


def test_a_restriction_can_count_cards_and_formations():
    limited = book(constraints=(a_constraint("cards", "card", "CF", max_count=1),
                                a_constraint("forms", "formation", "F1", min_count=2)))
    force = a_force(limited, field("F1", take("F1/b1", "TNK", "3x")), cards=[give("CF"), give("CF")])
    assert run(generic.check_constraints, force, "x", None).codes() == ["x.constraint.too_many",
                                                                      "x.constraint.too_few"]


# --- dates ------------------------------------------------------------------------------------------------------------

def dated_book():
    return a_book(units=[a_unit("TNK", "Sherman", sizes=[a_size("1x", 1, 100)], available_from=1942,
                                available_to=1945, availability_note="late 1942",
                                groups=[a_group("gun", an_upgrade("gun/76", 10, name="76mm", available_from=1944))])],
                  formations=[a_formation("F1", a_box("F1/b1", "TNK", kind="black"))])


def test_units_and_options_dated_outside_the_lists_year_get_a_warning_each():
    force = a_force(dated_book(), field("F1", take("F1/b1", "TNK", "1x", "gun/76")), year=1941)
    report = run(generic.check_dates, force, "x", None)
    unit, option = report.issues
    assert (unit.code, unit.severity, unit.message) == (
        "x.date.unit_unavailable", "warning", "Sherman is dated 1942–1945 (late 1942), outside 1941.")
    assert (option.code, option.pointer, option.message) == (
        "x.date.option_unavailable", "/formations/0/units/0/upgrades/0", "Sherman: 76mm is dated 1944–…, outside 1941.")
    assert report.legal


def test_dates_inside_the_year_or_no_year_chosen_give_no_warning():
    for year in (1944, 1945, None):
        force = a_force(dated_book(), field("F1", take("F1/b1", "TNK", "1x", "gun/76")), year=year)
        assert run(generic.check_dates, force, "x", None).issues == [], year


def test_choice_names_list_only_what_the_variant_offers():
    data = book()
    box = a_box("F1/x", "INF", ChoiceData(unit="TNK", variants=frozenset({"v2"})), "GONE",
                ChoiceData(formation="F2"))
    assert generic.choice_names(box, data, "v1") == ["Rifle Platoon", "Other Company"]
    assert generic.choice_names(box, data, "v2") == ["Rifle Platoon", "Tank Platoon", "Other Company"]
