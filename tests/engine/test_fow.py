"""Flames of War force building (armybuilder/rules/fow.py) on hand-made books: the main legal force, then each
rule broken once. Rule lines are those of the Flames of War digest (/work/shared/rules/flames-of-war.md).

The book: a Tank Company (HQ, two black boxes, a grey box, a Support column) and a Grenadier Company, force-level
support, a Recce Company whose only compulsory box is its HQ, and four command cards.
"""
from armybuilder.rules import engine, fow

from .build import (
    a_book,
    a_box,
    a_card,
    a_force,
    a_formation,
    a_size,
    a_unit,
    field,
    give,
    issue,
    issues,
    sole_error,
    take,
)


def german_units():
    return [
        a_unit("HQ", "Tank HQ", unit_type="tank", sizes=[a_size("2x", 2, 4)]),
        a_unit("TNK", "Tank Platoon", unit_type="tank", sizes=[a_size("3x", 3, 9), a_size("2x", 2, 6)]),
        a_unit("HVY", "Heavy Tank Platoon", unit_type="tank", sizes=[a_size("2x", 2, 12)], variants={"fbb"}),
        a_unit("INF", "Grenadier Platoon", unit_type="infantry", sizes=[a_size("4x", 4, 5)]),
        a_unit("ART", "Artillery Battery", unit_type="gun", sizes=[a_size("4x", 4, 8)]),
        a_unit("OBS", "Artillery Observer", unit_type="infantry", sizes=[a_size("1x", 1, 1)], is_observer=True,
               observer_source="ART"),
    ]


TANK_COMPANY = a_formation(
    "TC", a_box("TC/hq", "HQ", kind="hq", name="HQ"), a_box("TC/b1", "TNK", "HVY", kind="black", name="Tanks 1"),
    a_box("TC/b2", "TNK", kind="black", name="Tanks 2"), a_box("TC/g1", "INF", "TNK", name="Grenadiers"),
    a_box("TC/s1", "ART", part_of_formation=False, column="Support", name="Artillery"),
    a_box("TC/s2", "OBS", part_of_formation=False, column="Support", name="Observer"),
    name="Tank Company", allied_nations={"italy"})
GRENADIER_COMPANY = a_formation(
    "GC", a_box("GC/hq", "HQ", kind="hq"), a_box("GC/b1", "INF", kind="black"),
    a_box("GC/s1", "ART", part_of_formation=False, column="Support", name="Artillery"), name="Grenadier Company")
RECCE_COMPANY = a_formation("RC", a_box("RC/hq", "HQ", kind="hq"), a_box("RC/g1", "TNK"), name="Recce Company")
ESCORT_COMPANY = a_formation("EC", a_box("EC/hq", "HQ", kind="hq"), a_box("EC/b1", "TNK", kind="black"),
                             a_box("EC/b2", "TNK", kind="black"), name="Escort Company", variants={"fbb"})
CARDS = [
    a_card("AMB", "force", 2, name="Ambush", max_per_force=1),
    a_card("VET", "unit", 1, name="Veterans", cost_basis="team", target_units={"TNK", "HVY"}, changes_rating=True),
    a_card("ACE", "unit", 2, name="Aces", target_units={"TNK"}, changes_rating=True),
    a_card("SPH", "formation", 3, name="Spearhead", target_formations={"TC"}),
]


def germany(code="de", name="German book", **kw):
    kw.setdefault("period", "Late-War")
    return a_book(code, name=name, nation="germany", nation_name="Germany", units=german_units(),
                  formations=[TANK_COMPANY, GRENADIER_COMPANY, RECCE_COMPANY, ESCORT_COMPANY],
                  support=[a_box("force/art", "ART", name="Corps artillery"), a_box("force/obs", "OBS", max_picks=2)],
                  cards=CARDS, variants={"fbb": "Führer Begleit", "fgb": "Führer Grenadier"}, **kw)


def italy(period="Late-War", source="file", nation="italy"):
    return a_book(f"it-{period}-{source}", name="Italian book", nation=nation, nation_name="Italy", period=period,
                  source=source,
                  units=[a_unit("IHQ", "Italian HQ", sizes=[a_size("1x", 1, 2)]),
                         a_unit("IINF", "Bersaglieri", sizes=[a_size("4x", 4, 4)])],
                  formations=[a_formation("IF", a_box("IF/hq", "IHQ", kind="hq"), a_box("IF/b1", "IINF", kind="black"),
                                          name="Bersaglieri Company")])


def britain():
    return a_book("gb", name="British book", nation="britain", nation_name="Britain", period="Late-War",
                  units=[a_unit("BHQ", "British HQ", sizes=[a_size("1x", 1, 2)]),
                         a_unit("BINF", "Rifles", sizes=[a_size("4x", 4, 4)])],
                  formations=[a_formation("BF", a_box("BF/hq", "BHQ", kind="hq"), a_box("BF/b1", "BINF", kind="black"),
                                          name="Rifle Company")])


def tank_company(*extra, **kw):
    """The cheapest full Tank Company: its HQ and one unit in each black box."""
    return field("TC", take("TC/hq", "HQ", "2x"), take("TC/b1", "TNK", "3x"), take("TC/b2", "TNK", "3x"), *extra, **kw)


def ally(book=None):
    book = book or italy()
    return field("IF", take("IF/hq", "IHQ", "1x"), take("IF/b1", "IINF", "4x"), book=book, allied=True)


def check(*formations, book=None, **kw):
    kw.setdefault("points_limit", 100)
    return engine.check(a_force(book or germany(), *formations, **kw))


# --- the legal force ------------------------------------------------------------------------------------------------

def test_a_full_tank_company_is_legal_and_costs_its_units_points():
    """L672: the HQ, one unit from each black box; L668: any units up to the limit."""
    report = check(tank_company(), points_limit=30)
    assert report.legal and not report.warnings, report.codes()
    assert report.total_points == 4 + 9 + 9
    assert report.formation_points == {"/formations/0": 22}
    assert report.unit_points == {"/formations/0/units/0": 4, "/formations/0/units/1": 9, "/formations/0/units/2": 9}


def test_the_figures_count_formations_teams_and_the_reserves_share():
    """L733: in Reserves missions at most 60% of the agreed points start on the table."""
    report = check(tank_company(), points_limit=30)
    figures = report.figures
    assert (figures["formations"], figures["purchases"], figures["game_units"]) == (1, 3, 3)
    assert figures["teams"] == 2 + 3 + 3
    assert figures["reserves_on_table_max"] == 18  # 60% of 30
    assert (figures["observers"], figures["command_cards"], figures["allied_formations"]) == (0, 0, 0)


def test_the_reserves_share_is_of_the_points_spent_when_there_is_no_limit():
    assert check(tank_company(), points_limit=None).figures["reserves_on_table_max"] == 22 * 60 // 100


# --- formations ---------------------------------------------------------------------------------------------------

def test_a_force_needs_a_formation():
    """L64: a force has at least one Formation."""
    found = sole_error(check(), "fow.force.no_formation")
    assert (found.pointer, found.fix) == ("/formations",
                                          "Add a formation from: Tank Company, Grenadier Company, Recce Company.")


def test_a_formation_needs_its_hq():
    """L65, L676: every Formation has its HQ Unit."""
    found = sole_error(check(field("TC", take("TC/b1", "TNK", "3x"), take("TC/b2", "TNK", "3x"))), "fow.hq.missing")
    assert (found.pointer, found.box, found.fix) == ("/formations/0", "TC/hq", "Add one unit from: Tank HQ.")


def test_every_black_box_must_be_filled():
    """L672, L677: exactly one unit from each black box."""
    report = check(field("TC", take("TC/hq", "HQ", "2x"), take("TC/b1", "TNK", "3x")))
    found = sole_error(report, "fow.black_box.missing")
    assert (found.pointer, found.box, found.fix) == ("/formations/0", "TC/b2", "Add one unit from: Tank Platoon.")
    assert not report.legal


def test_a_grey_box_may_hold_one_unit_but_not_two():
    """L672, L678: optionally one unit from each grey box."""
    assert check(tank_company(take("TC/g1", "INF", "4x"))).legal
    found = sole_error(check(tank_company(take("TC/g1", "INF", "4x"), take("TC/g1", "TNK", "2x"))), "fow.box.too_many")
    assert (found.pointer, found.box, found.fix) == ("/formations/0", "TC/g1", "Remove 1 unit(s) from it.")


def test_a_formation_with_fewer_than_two_units_of_its_own_is_warned_of_its_last_stand():
    """L467-468: a Formation needs two Units, support not counted, or it is destroyed at once."""
    report = check(field("RC", take("RC/hq", "HQ", "2x")))
    found = issue(report, "fow.formation.too_few_units")
    assert (found.severity, found.pointer) == ("warning", "/formations/0")
    assert report.legal
    assert "fow.formation.too_few_units" not in check(field("RC", take("RC/hq", "HQ", "2x"),
                                                            take("RC/g1", "TNK", "3x"))).codes()


def test_an_empty_formation_is_told_what_to_fill_not_warned_of_its_last_stand():
    report = check(field("TC"))
    assert report.codes() == ["fow.hq.missing", "fow.black_box.missing", "fow.black_box.missing"]


def test_a_formation_of_another_game_is_refused():
    other = a_book("ow", system="oww2", units=[a_unit("X", sizes=[a_size("1", 1)])],
                   formations=[a_formation("OF", a_box("OF/a", "X"), name="Platoon")])
    found = issue(check(tank_company(), field("OF", take("OF/a", "X", "1"), book=other)), "fow.formation.wrong_system")
    assert found.pointer == "/formations/1"


def test_every_formation_comes_from_the_same_book():
    """L69: all Formations from the same handbook, nation and higher formation."""
    other = germany(code="de2", name="Another German book")
    report = check(tank_company(), field("TC", take("TC/hq", "HQ", "2x"), take("TC/b1", "TNK", "3x"),
                                         take("TC/b2", "TNK", "3x"), book=other))
    found = sole_error(report, "fow.formation.mixed_sources")
    assert found.pointer == "/formations/1" and "comes from Another German book, not German book" in found.message


def test_a_formation_of_another_nation_not_taken_as_an_ally_is_refused():
    italian = field("IF", take("IF/hq", "IHQ", "1x"), take("IF/b1", "IINF", "4x"), book=italy())
    found = sole_error(check(tank_company(), italian), "fow.formation.mixed_sources")
    assert found.message.startswith("Bersaglieri Company comes from Italian book, not German book; is Italy.")
    assert found.fix == "Mark it as an Allied Formation if its nation is a permitted ally, or remove it."


def test_every_formation_belongs_to_the_same_higher_formation():
    """L69: the same brigade, division or corps."""
    other = germany(higher_formation="21. Panzer")
    report = check(tank_company(), book=germany(higher_formation="15. Panzer"))
    assert report.legal
    mixed = a_force(germany(higher_formation="15. Panzer"), tank_company(),
                    field("TC", take("TC/hq", "HQ", "2x"), take("TC/b1", "TNK", "3x"), take("TC/b2", "TNK", "3x"),
                          book=other))
    found = sole_error(engine.check(mixed), "fow.formation.mixed_sources")
    assert "belongs to 21. Panzer, not 15. Panzer" in found.message


# --- support ------------------------------------------------------------------------------------------------------

def test_support_from_a_formations_support_column_counts_for_the_support():
    """L68, L679: Support column units are not part of the Formation."""
    report = check(tank_company(take("TC/s1", "ART", "4x")))
    assert report.legal, report.codes()
    assert report.formation_points == {"/formations/0": 22} and report.support_points == 8


def test_support_comes_from_one_diagram_only():
    """L69, L679: with several Formations, support is taken from one Formation's diagram."""
    report = check(tank_company(take("TC/s1", "ART", "4x")),
                   field("GC", take("GC/hq", "HQ", "2x"), take("GC/b1", "INF", "4x"), take("GC/s1", "ART", "4x")))
    found = sole_error(report, "fow.support.several_diagrams")
    assert (found.pointer, found.box) == ("/formations/1/units/2", "GC/s1")
    assert found.fix == "Take all support from the Tank Company diagram only."


def test_force_diagram_support_and_a_formations_support_are_two_diagrams():
    report = check(tank_company(take("TC/s1", "ART", "4x")), support=[take("force/art", "ART", "4x")])
    assert issue(report, "fow.support.several_diagrams").pointer == "/support/0"


def test_each_support_box_is_used_once_across_copies_of_the_same_formation():
    """L679: one unit per Support box, and support from one diagram: two copies share the box."""
    report = check(tank_company(take("TC/s1", "ART", "4x")), tank_company(take("TC/s1", "ART", "4x")))
    found = sole_error(report, "fow.support.box_reused")
    assert (found.pointer, found.box) == ("/formations", "TC/s1")
    assert "fow.support.several_diagrams" not in report.codes()


# --- allies -------------------------------------------------------------------------------------------------------

def test_an_allied_formation_from_a_nation_on_a_diagram_is_legal():
    """L70: allies only from the Nations given as Allies on one of your Formation diagrams."""
    report = check(tank_company(), ally())
    assert report.legal, report.codes()
    assert report.figures["allied_formations"] == 1
    assert report.total_points == 22 + 2 + 4


def test_an_ally_listed_only_on_a_formation_the_force_does_not_field_is_refused():
    report = check(field("GC", take("GC/hq", "HQ", "2x"), take("GC/b1", "INF", "4x")), ally())
    found = sole_error(report, "fow.allied.nation_not_permitted")
    assert found.pointer == "/formations/1" and "allies from: none" in found.message


def test_an_ally_of_a_nation_no_diagram_lists_is_refused():
    british = field("BF", take("BF/hq", "BHQ", "1x"), take("BF/b1", "BINF", "4x"), book=britain(), allied=True)
    found = sole_error(check(tank_company(), british), "fow.allied.nation_not_permitted")
    assert found.message == "Rifle Company is Britain; your diagrams list allies from: italy."


def test_a_formation_of_your_own_nation_is_not_an_ally():
    found = sole_error(check(tank_company(), ally(italy(nation="germany"))), "fow.allied.same_nation")
    assert found.fix == "Take it as one of your own formations."


def test_allies_come_from_the_same_period_and_the_same_kind_of_data():
    assert issue(check(tank_company(), ally(italy(period="Mid-War"))), "fow.allied.other_period").pointer == \
        "/formations/1"
    assert issue(check(tank_company(), ally(italy(source="battlescribe"))), "fow.allied.other_source")


def test_a_second_allied_formation_is_a_warning():
    """L70 speaks of "an" Allied Formation; how many is not stated (digest §1.7), so more than one is flagged only."""
    report = check(tank_company(), ally(), ally())
    found = issue(report, "fow.allied.more_than_one")
    assert (found.severity, found.pointer) == ("warning", "/formations/2")
    assert report.legal


def test_a_force_of_only_allied_formations_is_refused():
    """L469, L716: allies do not keep the force alive; it needs a formation of its own."""
    report = check(ally())
    assert issue(report, "fow.force.only_allied").pointer == "/formations"
    # with no formation of its own, no diagram lists the ally's nation either
    assert issue(report, "fow.allied.nation_not_permitted").pointer == "/formations/0"


# --- observers ----------------------------------------------------------------------------------------------------

def test_one_observer_whose_artillery_is_in_the_force():
    """L52, L57: one Observer Team per force, from a unit the force has."""
    assert check(tank_company(take("TC/s1", "ART", "4x"), take("TC/s2", "OBS", "1x"))).legal
    found = sole_error(check(tank_company(take("TC/s2", "OBS", "1x"))), "fow.observer.source_missing")
    assert (found.pointer, found.fix) == ("/formations/0/units/3", "Add Artillery Battery, or remove the Observer.")


def test_a_second_observer_is_refused():
    report = check(tank_company(), support=[take("force/art", "ART", "4x"), take("force/obs", "OBS", "1x"),
                                            take("force/obs", "OBS", "1x")])
    found = sole_error(report, "fow.observer.too_many")  # the force box allows two: the force rule still says one
    assert found.pointer == "/support/2"
    assert report.figures["observers"] == 2


# --- variants -----------------------------------------------------------------------------------------------------

def test_a_variant_option_needs_that_variant_chosen():
    """L674: choose one variant and stick to it; divisional symbols mark its options."""
    heavy = field("TC", take("TC/hq", "HQ", "2x"), take("TC/b1", "HVY", "2x"), take("TC/b2", "TNK", "3x"))
    assert check(heavy, variant="fbb").legal
    assert issue(check(heavy), "fow.variant.not_chosen").fix == "Choose one of: Führer Begleit, Führer Grenadier."
    assert issue(check(heavy, variant="fgb"), "fow.variant.option_not_in_variant").pointer == "/formations/0/units/1"


def test_a_formation_of_one_variant_needs_that_variant():
    escort = field("EC", take("EC/hq", "HQ", "2x"), take("EC/b1", "TNK", "3x"), take("EC/b2", "TNK", "3x"))
    assert check(escort, variant="fbb").legal
    assert check(escort).codes() == ["fow.variant.not_chosen", "fow.variant.option_not_in_variant"]
    assert sole_error(check(escort, variant="fgb"), "fow.variant.option_not_in_variant").pointer == "/formations/0"


def test_a_variant_the_book_does_not_have_is_refused():
    assert issue(check(tank_company(), variant="nope"), "fow.variant.unknown").pointer == "/variant"


# --- command cards -------------------------------------------------------------------------------------------------

def test_cards_add_their_points_and_a_per_team_card_counts_its_units_teams():
    report = check(tank_company(), cards=[give("AMB"), give("VET", "/formations/0/units/1"),
                                          give("SPH", "/formations/0")])
    assert report.legal, report.codes()
    assert report.card_points == 2 + 1 * 3 + 3
    assert report.total_points == 22 + 8
    assert report.figures["command_cards"] == 3


def test_a_card_taken_more_often_than_allowed_is_refused_once():
    report = check(tank_company(), cards=[give("AMB"), give("AMB"), give("AMB")])
    found = issues(report, "fow.card.over_force_limit")
    assert [i.pointer for i in found] == ["/cards/0"] and found[0].fix == "Remove 2 of them."


def test_a_force_card_takes_no_target():
    found = sole_error(check(tank_company(), cards=[give("AMB", "/formations/0")]), "fow.card.wrong_target")
    assert found.fix == "Remove its target."


def test_a_unit_card_needs_a_unit_it_names():
    report = check(tank_company(take("TC/g1", "INF", "4x")), cards=[give("VET")])
    assert issue(report, "fow.card.target_missing").fix == "Give it to one of: Tank Platoon."
    wrong = issue(check(tank_company(take("TC/g1", "INF", "4x")), cards=[give("VET", "/formations/0/units/3")]),
                  "fow.card.wrong_target")
    assert wrong.message == "Veterans cannot be given to Grenadier Platoon."


def test_a_unit_card_with_no_unit_for_it_in_the_force_says_which_units_to_add():
    grenadiers = field("GC", take("GC/hq", "HQ", "2x"), take("GC/b1", "INF", "4x"))
    found = sole_error(check(grenadiers, cards=[give("VET")]), "fow.card.target_missing")
    assert found.fix == "Add one of: Heavy Tank Platoon, Tank Platoon, or remove the card."


def test_a_formation_card_given_to_a_unit_is_refused():
    found = sole_error(check(tank_company(), cards=[give("SPH", "/formations/0/units/0")]), "fow.card.wrong_target")
    assert found.message == "Spearhead is given to a unit, but it is a formation card."


def test_a_card_given_twice_to_the_same_unit_is_refused():
    report = check(tank_company(), cards=[give("VET", "/formations/0/units/1"), give("VET", "/formations/0/units/1")])
    assert issue(report, "fow.card.over_target_limit").pointer == "/cards/1"


def test_a_unit_takes_one_card_that_changes_its_ratings():
    report = check(tank_company(), cards=[give("VET", "/formations/0/units/1"), give("ACE", "/formations/0/units/1")])
    found = sole_error(report, "fow.card.rating_twice")
    assert found.pointer == "/cards/1" and found.fix == "Remove Aces."
    assert check(tank_company(), cards=[give("VET", "/formations/0/units/1"),
                                        give("ACE", "/formations/0/units/2")]).legal


# --- points -------------------------------------------------------------------------------------------------------

def test_a_force_over_its_points_limit_is_refused():
    """L668: units up to the agreed total, no more."""
    assert check(tank_company(), points_limit=22).legal
    found = sole_error(check(tank_company(), points_limit=21), "fow.points.over_limit")
    assert (found.pointer, found.rule.name) == ("/points_limit", "Points limit")


def test_cards_count_towards_the_points_limit():
    found = sole_error(check(tank_company(), cards=[give("AMB")], points_limit=23), "fow.points.over_limit")
    assert found.message == "The force costs 24 points, 1 more than the 23-point limit."


def test_the_engine_hands_flames_of_war_forces_to_its_rules():
    assert engine.MODULES["fow4"] is fow
