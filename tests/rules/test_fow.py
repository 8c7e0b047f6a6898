"""Flames of War force-building rules: for each rule a legal list and an illegal one, by code and pointer."""
import pytest

from armybuilder.lists.selectors import list_document_report

from .listdocs import card, formation, listdoc, tank_company, unit

pytestmark = pytest.mark.usefixtures("test_books")


def report_of(doc):
    return list_document_report(doc)[1]


def issue(report, code):
    found = [i for i in report.issues if i.code == code]
    assert found, f"expected {code}, got {report.codes()}"
    return found[0]


def test_the_cheapest_full_tank_company_is_legal_with_correct_points():
    report = report_of(listdoc(tank_company()))
    assert report.legal, report.codes()
    assert report.total_points == 21
    assert report.formation_points == {"/formations/0": 21}
    assert report.unit_points == {"/formations/0/units/0": 3, "/formations/0/units/1": 9, "/formations/0/units/2": 9}


# A force needs a formation, and one of its own nation -------------------------------------------------

def test_a_force_without_formations_is_not_legal_and_says_what_to_add():
    found = issue(report_of(listdoc()), "fow.force.no_formation")
    assert found.pointer == "/formations" and found.severity == "error"
    assert found.fix.startswith("Add a formation from: Tank Company, Infantry Company")
    assert found.rule.name == "A force needs at least one Formation"


def test_a_force_of_only_allied_formations_is_not_legal():
    ally = formation("IF1", unit("IF1/hq", "IHQ", "1x"), unit("IF1/b1", "IINF", "4x"), allied=True, handbook="tb-italy")
    report = report_of(listdoc(ally))
    assert issue(report, "fow.force.only_allied").pointer == "/formations"
    assert report_of(listdoc(tank_company(), ally)).legal


# HQ and black boxes filled, grey boxes at most one ---------------------------------------------------

def test_a_missing_hq_is_reported_on_its_formation_with_the_box():
    doc = listdoc(formation("F1", unit("F1/b1", "TNK", "3x"), unit("F1/b2", "TNK", "3x")))
    found = issue(report_of(doc), "fow.hq.missing")
    assert (found.pointer, found.box, found.fix) == ("/formations/0", "F1/hq", "Add one unit from: Tank HQ.")


def test_an_empty_black_box_is_an_error_with_the_units_that_would_fill_it():
    doc = listdoc(formation("F1", unit("F1/hq", "HQ1", "1x"), unit("F1/b2", "TNK", "3x")))
    report = report_of(doc)
    found = issue(report, "fow.black_box.missing")
    assert (found.pointer, found.box) == ("/formations/0", "F1/b1")
    assert found.fix == "Add one unit from: Tank Platoon, Heavy Tank Platoon."
    assert not report.legal


def test_a_grey_box_may_stay_empty_or_hold_one_unit_but_not_two():
    assert report_of(listdoc(tank_company(unit("F1/g1", "INF", "4x", "weapons/rifles")))).legal
    doc = listdoc(tank_company(unit("F1/g1", "INF", "4x", "weapons/rifles"), unit("F1/g1", "TNK", "3x")))
    found = issue(report_of(doc), "fow.box.too_many")
    assert (found.pointer, found.box) == ("/formations/0", "F1/g1")


def test_a_unit_the_box_does_not_offer_is_refused():
    doc = listdoc(formation("F1", unit("F1/hq", "HQ1", "1x"), unit("F1/b1", "INF", "4x", "weapons/rifles"),
                            unit("F1/b2", "TNK", "3x")))
    found = issue(report_of(doc), "fow.box.choice_not_offered")
    assert (found.pointer, found.box, found.fix) == ("/formations/0/units/1", "F1/b1",
                                                    "Pick one of: Tank Platoon, Heavy Tank Platoon.")


def test_a_unit_placed_in_another_formations_box_is_refused():
    doc = listdoc(tank_company(unit("F2/g1", "INF", "4x", "weapons/rifles")))
    assert issue(report_of(doc), "fow.box.not_in_formation").pointer == "/formations/0/units/3"


# Support from one diagram only --------------------------------------------------------------------------

def test_support_from_one_formations_diagram_is_legal():
    doc = listdoc(tank_company(unit("F1/s1", "ART", "4x"), unit("F1/s3", "AA", "2x")),
                  formation("F2", unit("F2/hq", "HQ1", "1x"), unit("F2/b1", "INF", "4x", "weapons/rifles")))
    report = report_of(doc)
    assert report.legal, report.codes()
    assert report.support_points == 14 and report.formation_points["/formations/0"] == 21


def test_support_from_two_diagrams_is_reported_on_the_second_source():
    doc = listdoc(tank_company(unit("F1/s1", "ART", "4x")),
                  formation("F2", unit("F2/hq", "HQ1", "1x"), unit("F2/b1", "INF", "4x", "weapons/rifles"),
                            unit("F2/s3", "AA", "2x")))
    found = issue(report_of(doc), "fow.support.several_diagrams")
    assert found.pointer == "/formations/1/units/2"
    assert "the Tank Company diagram" in found.message and "the Infantry Company diagram" in found.message


def test_formation_support_and_force_diagram_support_do_not_mix():
    doc = listdoc(tank_company(unit("F1/s1", "ART", "4x")), support=[unit("force/recce", "RECCE", "2x")])
    assert issue(report_of(doc), "fow.support.several_diagrams").pointer == "/support/0"
    assert report_of(listdoc(tank_company(), support=[unit("force/recce", "RECCE", "2x")])).legal


def test_a_support_box_is_used_once_even_across_copies_of_a_formation():
    doc = listdoc(tank_company(unit("F1/s1", "ART", "4x")), tank_company(unit("F1/s1", "ART", "4x")))
    found = issue(report_of(doc), "fow.support.box_reused")
    assert (found.pointer, found.box) == ("/formations", "F1/s1")


# Same book, nation and higher formation; allies from listed nations -------------------------------------

def test_formations_from_another_book_are_refused_unless_allied():
    other = formation("GF1", unit("GF1/hq", "GHQ", "1x"), unit("GF1/b1", "GINF", "4x"), handbook="tb-germany-other")
    found = issue(report_of(listdoc(tank_company(), other)), "fow.formation.mixed_sources")
    assert found.pointer == "/formations/1" and "Test Book Germany (another book)" in found.message


def test_formations_from_another_division_are_refused():
    other = formation("F3", unit("F3/hq", "HQ1", "1x"), unit("F3/b1", "TNK", "3x"))
    found = issue(report_of(listdoc(tank_company(), other)), "fow.formation.mixed_sources")
    assert found.pointer == "/formations/1" and "Other Division" in found.message


def test_an_allied_formation_from_a_nation_the_diagram_lists_is_legal():
    ally = formation("IF1", unit("IF1/hq", "IHQ", "1x"), unit("IF1/b1", "IINF", "4x"), allied=True, handbook="tb-italy")
    report = report_of(listdoc(tank_company(), ally))
    assert report.legal, report.codes()
    assert report.figures["allied_formations"] == 1


def test_an_allied_formation_from_an_unlisted_nation_is_refused():
    ally = formation("BF1", unit("BF1/hq", "BHQ", "1x"), unit("BF1/b1", "BINF", "4x"), allied=True,
                     handbook="tb-britain")
    found = issue(report_of(listdoc(tank_company(), ally)), "fow.allied.nation_not_permitted")
    assert found.pointer == "/formations/1" and "italy" in found.message


def test_allies_listed_only_on_a_diagram_not_in_the_force_do_not_count():
    ally = formation("IF1", unit("IF1/hq", "IHQ", "1x"), unit("IF1/b1", "IINF", "4x"), allied=True, handbook="tb-italy")
    infantry = formation("F2", unit("F2/hq", "HQ1", "1x"), unit("F2/b1", "INF", "4x", "weapons/rifles"))
    assert issue(report_of(listdoc(infantry, ally)), "fow.allied.nation_not_permitted").pointer == "/formations/1"


# One observer, and only with its parent unit ---------------------------------------------------------------

def test_an_observer_with_its_artillery_in_the_force_is_legal():
    doc = listdoc(tank_company(unit("F1/s1", "ART", "4x"), unit("F1/s2", "OBS", "1x")))
    report = report_of(doc)
    assert report.legal, report.codes()
    assert report.figures["observers"] == 1


def test_an_observer_without_its_artillery_is_refused_with_the_fix():
    found = issue(report_of(listdoc(tank_company(unit("F1/s2", "OBS", "1x")))), "fow.observer.source_missing")
    assert (found.pointer, found.fix) == ("/formations/0/units/3", "Add Artillery Battery, or remove the Observer.")


def test_a_second_observer_in_the_force_is_refused():
    doc = listdoc(tank_company(unit("F1/s1", "ART", "4x"), unit("F1/s2", "OBS", "1x")),
                  tank_company())
    doc["formations"][1]["units"].append(unit("F1/s2", "OBS", "1x"))
    found = issue(report_of(doc), "fow.observer.too_many")
    assert found.pointer == "/formations/1/units/3"


# One variant; options only for that variant ---------------------------------------------------------------

def test_a_variant_restricted_size_needs_that_variant():
    doc = listdoc(formation("F1", unit("F1/hq", "HQ1", "1x"), unit("F1/b1", "TNK", "5x"), unit("F1/b2", "TNK", "3x")))
    assert issue(report_of(doc), "fow.variant.not_chosen").pointer == "/variant"
    doc["variant"] = "v2"
    assert report_of(doc).legal
    doc["variant"] = "v1"
    assert issue(report_of(doc), "fow.variant.option_not_in_variant").pointer == "/formations/0/units/1/size"


def test_a_variant_restricted_upgrade_or_unit_needs_that_variant():
    doc = listdoc(tank_company(unit("F1/g2", "V2ONLY", "3x")), variant="v1")
    assert issue(report_of(doc), "fow.variant.option_not_in_variant").pointer == "/formations/0/units/3"
    doc = listdoc(formation("F1", unit("F1/hq", "HQ1", "1x"), unit("F1/b1", "TNK", "3x", "mg/special"),
                            unit("F1/b2", "TNK", "3x")), variant="v2")
    assert issue(report_of(doc), "fow.variant.option_not_in_variant").pointer == "/formations/0/units/1/upgrades/0"


def test_a_formation_of_another_variant_is_refused():
    doc = listdoc(formation("F4", unit("F4/hq", "HQ1", "1x"), unit("F4/b1", "TNK", "3x")), variant="v2")
    assert issue(report_of(doc), "fow.variant.option_not_in_variant").pointer == "/formations/0"
    doc["variant"] = "v1"
    assert report_of(doc).legal


def test_an_unknown_variant_is_refused():
    assert issue(report_of(listdoc(tank_company(), variant="v9")), "fow.variant.unknown").pointer == "/variant"


# Command cards -----------------------------------------------------------------------------------------------

def test_cards_of_every_scope_on_valid_targets_are_legal_and_priced():
    doc = listdoc(tank_company(), cards=[card("CF"), card("CFORM", "/formations/0"),
                                         card("CUNIT", "/formations/0/units/1"), card("CANY", "/formations/0/units/0")])
    report = report_of(doc)
    assert report.legal, report.codes()
    assert report.card_points == 2 + 1 + 3 + 1  # CUNIT is 1 point per team of a 3-tank platoon
    assert report.total_points == 21 + 7


def test_a_formation_or_unit_card_without_a_target_is_refused_with_candidates():
    found = issue(report_of(listdoc(tank_company(), cards=[card("CUNIT")])), "fow.card.target_missing")
    assert (found.pointer, found.fix) == ("/cards/0", "Give it to one of: Tank Platoon.")


def test_a_card_on_a_target_it_does_not_allow_is_refused():
    doc = listdoc(tank_company(), cards=[card("CUNIT", "/formations/0/units/0")])
    assert issue(report_of(doc), "fow.card.wrong_target").pointer == "/cards/0"
    doc = listdoc(tank_company(), cards=[card("CFORM", "/formations/0/units/1")])
    assert issue(report_of(doc), "fow.card.wrong_target").pointer == "/cards/0"
    doc = listdoc(tank_company(), cards=[card("CF", "/formations/0")])
    assert issue(report_of(doc), "fow.card.wrong_target").pointer == "/cards/0"


def test_card_limits_per_force_and_per_target():
    doc = listdoc(tank_company(), cards=[card("CF"), card("CF")])
    assert issue(report_of(doc), "fow.card.over_force_limit").pointer == "/cards/0"
    doc = listdoc(tank_company(), cards=[card("CANY", "/formations/0/units/0"), card("CANY", "/formations/0/units/0")])
    assert issue(report_of(doc), "fow.card.over_target_limit").pointer == "/cards/1"
    doc = listdoc(tank_company(), cards=[card("CANY", "/formations/0/units/0"), card("CANY", "/formations/0/units/1")])
    assert report_of(doc).legal


def test_only_one_rating_changing_card_per_unit():
    doc = listdoc(tank_company(),
                  cards=[card("CUNIT", "/formations/0/units/1"), card("CUNIT2", "/formations/0/units/1")])
    report = report_of(doc)
    assert issue(report, "fow.card.rating_twice").pointer == "/cards/1"
    assert report.card_points == 3 - 1


# Points limit ----------------------------------------------------------------------------------------------------

def test_a_force_over_its_points_limit_is_refused_with_the_amount():
    report = report_of(listdoc(tank_company(), points_limit=20))
    found = issue(report, "fow.points.over_limit")
    assert (found.pointer, found.fix) == ("/points_limit", "Remove or shrink units worth at least 1 points.")
    assert report_of(listdoc(tank_company(), points_limit=21)).legal


# Sizes, upgrades, constraints -----------------------------------------------------------------------------------

def test_a_unit_without_a_size_is_refused_with_the_sizes_on_offer():
    doc = listdoc(formation("F1", unit("F1/hq", "HQ1"), unit("F1/b1", "TNK", "3x"), unit("F1/b2", "TNK", "3x")))
    found = issue(report_of(doc), "fow.unit.size_missing")
    assert (found.pointer, found.fix) == ("/formations/0/units/0", "Choose a size: 1x Command Tank, 2x Command Tank.")


def test_upgrade_costs_per_team_and_per_unit_add_up():
    doc = listdoc(formation("F1", unit("F1/hq", "HQ1", "1x"), unit("F1/b1", "TNK", "4x", "skirts/schurzen", "mg/aa"),
                            unit("F1/b2", "TNK", "3x")))
    report = report_of(doc)
    assert report.unit_points["/formations/0/units/1"] == 12 + 4 + 1


def test_upgrade_group_limits_are_enforced():
    doc = listdoc(formation("F1", unit("F1/hq", "HQ1", "1x"),
                            unit("F1/b1", "TNK", "3x", "mg/aa", "mg/hull", "mg/extra"),
                            unit("F1/b2", "TNK", "3x")))
    assert issue(report_of(doc), "fow.upgrade_group.too_many").pointer == "/formations/0/units/1/upgrades"
    doc = listdoc(tank_company(unit("F1/g1", "INF", "4x")))
    found = issue(report_of(doc), "fow.upgrade_group.too_few")
    assert found.pointer == "/formations/0/units/3/upgrades" and found.fix == "Add one of: Rifles, SMGs."


def test_an_item_beyond_its_maximum_quantity_is_refused():
    doc = listdoc(tank_company(unit("F1/g1", "INF", "4x", "weapons/rifles", ("items/mines", 4))))
    assert issue(report_of(doc), "fow.upgrade.too_many").pointer == "/formations/0/units/3/upgrades/1"
    doc = listdoc(tank_company(unit("F1/g1", "INF", "4x", "weapons/rifles", ("items/mines", 3))))
    report = report_of(doc)
    assert report.legal and report.unit_points["/formations/0/units/3"] == 6 + 3


def test_a_handbook_constraint_is_enforced():
    heavy = formation("F1", unit("F1/hq", "HQ1", "1x"), unit("F1/b1", "TNK2", "2x"), unit("F1/b2", "TNK", "3x"))
    assert report_of(listdoc(heavy)).legal
    found = issue(report_of(listdoc(heavy, heavy)), "fow.constraint.too_many")
    assert "At most one Heavy Tank Platoon" in found.message


# Figures ------------------------------------------------------------------------------------------------------------

def test_transports_and_split_units_count_as_extra_game_units():
    doc = listdoc(tank_company(unit("F1/g1", "INF", "4x", "weapons/rifles", "transport/halftracks"),
                               unit("F1/s1", "ART", "4x")))
    figures = report_of(doc).figures
    assert figures["purchases"] == 5
    assert figures["game_units"] == 3 + 2 + 2  # infantry with its transport is two, the battery is two
    assert figures["reserves_on_table_max"] == 60
    assert figures["formations"] == 1


def test_a_formation_with_fewer_than_two_units_of_its_own_gets_a_warning():
    doc = listdoc(formation("F5", unit("F5/hq", "HQ1", "1x"), unit("F5/s1", "ART", "4x")))
    report = report_of(doc)
    found = issue(report, "fow.formation.too_few_units")
    assert (found.severity, found.pointer) == ("warning", "/formations/0")
    assert report.legal  # a warning never makes a list illegal
    doc["formations"][0]["units"].append(unit("F5/g1", "TNK", "3x"))
    assert "fow.formation.too_few_units" not in report_of(doc).codes()


def test_a_half_built_list_reports_every_problem_at_once_without_crashing():
    doc = listdoc(formation("F1", unit("F1/g1", "INF")), formation("BF1", handbook="tb-britain", allied=True),
                  support=[unit("force/obs", "OBS")], cards=[card("CUNIT"), card("CF"), card("CF")], points_limit=0)
    codes = set(report_of(doc).codes())
    assert {"fow.hq.missing", "fow.black_box.missing", "fow.unit.size_missing", "fow.observer.source_missing",
            "fow.card.target_missing", "fow.card.over_force_limit", "fow.allied.nation_not_permitted",
            "fow.upgrade_group.too_few"} <= codes
