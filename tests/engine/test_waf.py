"""War Ain't Fair (armybuilder/rules/waf.py): set-up cards (a letter per platoon, up to d3 outflankers, two
dummies), complete unit records, the HQ chain and the force's figures. Rule lines are those of the War Ain't Fair
digest, seed 004 (/work/shared/rules/hail-of-fire-and-war-aint-fair.md). Activation dice, which need both forces,
are in test_matchups.py.
"""
from armybuilder.rules import engine

from .build import a_book, a_box, a_force, a_formation, a_size, a_unit, field, issue, issues, sole_error, take

RECORD = {"morale_level": "regular", "unit_class": "Infantry", "weapon_class": "Infantry"}
UNITS = [
    a_unit("BHQ", "Battalion HQ", hq_level="bhq", sizes=[a_size("s", 2)], **RECORD),
    a_unit("CHQ", "Company HQ", hq_level="chq", sizes=[a_size("s", 1)], **RECORD),
    a_unit("PLT", "Rifle Platoon", hq_level="phq", sizes=[a_size("s", 4)], **RECORD),
    a_unit("PZ", "Panzer Platoon", morale_level="elite", unit_class="Regular Tanks", weapon_class="Later 75mm",
           sizes=[a_size("s", 5)]),
    a_unit("GRN", "Volkssturm Platoon", morale_level="green", unit_class="Infantry", weapon_class="Infantry",
           sizes=[a_size("s", 4)]),
    a_unit("BLANK", "Unfinished Platoon", sizes=[a_size("s", 4)]),
]
COMPANY = a_formation("CO", a_box("CO/hq", "CHQ", kind="hq"), a_box("CO/pl", "PLT", "PZ", "GRN", "BLANK", max_picks=5),
                      name="Rifle Company")


def germany(**kw):
    kw.setdefault("activation_modifier", 1)
    return a_book("waf-de", system="waf", uses_points=False, units=UNITS, formations=[COMPANY],
                  support=[a_box("force/bhq", "BHQ")], **kw)


def company(*platoons, hq="A", letter=""):
    """The company HQ with its letter, then (unit code, letter, outflank) per platoon."""
    picks = [take("CO/pl", code, "s", letter=mark, outflank=flank) for code, mark, flank in platoons]
    return field("CO", take("CO/hq", "CHQ", "s", letter=hq), *picks, letter=letter)


def battalion(letter="Z"):
    return [take("force/bhq", "BHQ", "s", letter=letter)]


def check(*formations, support=None, **kw):
    return engine.check(a_force(germany(), *formations, support=battalion() if support is None else support, **kw))


def test_a_company_with_its_battalion_hq_and_a_letter_each_is_legal():
    report = check(company(("PLT", "B", ""), ("PLT", "C", "")))
    assert report.legal and not report.warnings, report.codes()
    assert report.figures["units"] == 4
    assert report.figures["nation_activation_modifier"] == 1  # 004:L14: Germans +1
    assert report.figures["dummy_cards"] == 2  # 004:L12: two dummy cards a side


# --- set-up cards ---------------------------------------------------------------------------------------------

def test_a_set_up_letter_is_used_once():
    """004:L12: each platoon (or company) has its own letter for the hidden set-up."""
    found = sole_error(check(company(("PLT", "B", ""), ("PLT", "b", ""))), "waf.letter.duplicate")
    assert found.pointer == "/formations/0/units/2/letter"  # letters compare without case


def test_a_companys_letter_and_a_platoons_letter_may_not_clash():
    found = sole_error(check(company(("PLT", "B", ""), letter="B")), "waf.letter.duplicate")
    assert found.pointer == "/formations/0/units/1/letter"


def test_a_unit_without_a_letter_is_a_warning():
    report = check(company(("PLT", "", "")))
    found = issue(report, "waf.letter.missing")
    assert (found.severity, found.pointer) == ("warning", "/formations/0/units/1/letter")
    assert report.legal


def test_one_outflanker_needs_no_roll_two_or_three_need_a_d3_roll_and_four_are_too_many():
    """004:L12: up to d3 cards may be kept back to outflank."""
    one = check(company(("PLT", "B", "left"), ("PLT", "C", "")))
    assert one.legal and not one.warnings and one.figures["outflanking"] == 1
    three = check(company(("PLT", "B", "left"), ("PLT", "C", "right"), ("PZ", "D", "left")))
    found = issue(three, "waf.outflank.needs_roll")
    assert (found.severity, found.pointer) == ("warning", "/formations/0/units/3/outflank")
    assert "a d3 roll of 3 or more" in found.message and three.legal
    four = check(company(("PLT", "B", "left"), ("PLT", "C", "right"), ("PZ", "D", "left"), ("PLT", "E", "right")))
    assert [i.pointer for i in issues(four, "waf.outflank.too_many")] == ["/formations/0/units/4/outflank"]
    assert [i.code for i in four.errors] == ["waf.outflank.too_many"]


# --- records and HQs ----------------------------------------------------------------------------------------------

def test_a_unit_needs_its_level_movement_class_and_weapon_class():
    """004:L12-16: morale level, movement table row and weapon class decide how a unit plays."""
    found = sole_error(check(company(("BLANK", "B", ""))), "waf.unit.incomplete")
    assert found.message == ("Unfinished Platoon cannot be played: its record lacks level (elite, regular or green), "
                             "movement class, weapon class.")


def test_a_force_without_a_company_or_battalion_hq_is_warned():
    """004:L20: an HQ knocked out or out of reach gives -1 to morale; a force without one has it for good."""
    no_battalion = check(company(("PLT", "B", "")), support=[])
    assert issue(no_battalion, "waf.hq.missing_bhq").severity == "warning"
    assert "waf.hq.missing_chq" not in no_battalion.codes()
    no_company = engine.check(a_force(germany(), support=battalion()))
    assert issue(no_company, "waf.hq.missing_chq").pointer == "/formations"


def test_an_empty_force_is_refused():
    assert sole_error(check(support=[]), "waf.force.empty").pointer == "/formations"


def test_the_points_limit_is_optional():
    """004:L12: a simple points system may be used, or none."""
    priced = a_book("waf-pts", system="waf", units=[a_unit("CHQ", "Company HQ", hq_level="chq", sizes=[
        a_size("s", 1, 30)], **RECORD)], formations=[a_formation("CO", a_box("CO/hq", "CHQ", kind="hq"))])
    force = a_force(priced, field("CO", take("CO/hq", "CHQ", "s", letter="A")))
    assert engine.check(force).legal
    over = a_force(priced, field("CO", take("CO/hq", "CHQ", "s", letter="A")), points_limit=29)
    assert sole_error(engine.check(over), "waf.points.over_limit").pointer == "/points_limit"


# --- figures -----------------------------------------------------------------------------------------------------

def test_morale_targets_and_the_casualties_that_call_a_test():
    """004:L12: 2d6 needing Elite 9, Regular 8, Green 7 or less; 004:L20: a test at 25% casualties."""
    report = check(company(("PLT", "B", ""), ("PZ", "C", ""), ("GRN", "D", "")))
    morale = report.figures["morale"]
    assert morale["/formations/0/units/1"] == {"unit": "Rifle Platoon", "level": "regular", "target": 8,
                                               "casualties_for_test": 1}  # a quarter of 4 bases
    assert morale["/formations/0/units/2"]["target"] == 9
    assert morale["/formations/0/units/2"]["casualties_for_test"] == 2  # a quarter of 5 tanks, rounded up
    assert morale["/formations/0/units/3"]["target"] == 7
    assert report.figures["coherency_inches"] == {"phq": 1, "chq": 12, "bhq": 30}  # 004:L14, L20, L22


def test_a_force_is_all_elite_only_when_every_unit_is():
    """004:L14: an entirely elite formation adds one activation die."""
    assert not check(company(("PZ", "B", ""))).figures["all_elite"]
    elite_only = engine.check(a_force(germany(), field("CO", take("CO/pl", "PZ", "s", letter="B"))))
    assert elite_only.figures["all_elite"]
