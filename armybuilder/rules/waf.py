"""War Ain't Fair: set-up letters, outflanking, unit records, HQs, and the force's figures."""
import math
from collections import defaultdict

from . import generic
from . import issue_codes as c
from .force import Force
from .report import Report, RuleRef

SYSTEM = "waf"
P = "waf"


def _rule(name: str, where: str = "War Ain't Fair rules") -> RuleRef:
    return RuleRef("War Ain't Fair", name, where)


RULES = {
    "box": _rule("Units come from the force's formations"),
    "grey_box": _rule("Units come from the force's formations"),
    "black_box": _rule("Units come from the force's formations"),
    "hq": _rule("Units come from the force's formations"),
    "letters": _rule("Each platoon has its own set-up letter", "War Ain't Fair rules, Set-up"),
    "outflank": _rule("Up to d3 formations may outflank", "War Ain't Fair rules, Set-up"),
    "record": _rule("Level, movement and weapon class", "War Ain't Fair rules, Units"),
    "hq_chain": _rule("Company and battalion HQs", "War Ain't Fair rules, Morale"),
    "size": _rule("Unit entry", "the force list"),
    "upgrade": _rule("Unit options", "the force list"),
    "variant": _rule("Variant", "the force list"),
    "constraint": _rule("Force list restriction", "the force list"),
    "points": _rule("Points limit (optional)", "War Ain't Fair rules, Forces"),
}
MORALE_TARGET = {"elite": 9, "regular": 8, "green": 7}
COHERENCY = {"phq": 1, "chq": 12, "bhq": 30}
DUMMY_CARDS = 2
MAX_OUTFLANK = 3


def check(force: Force, report: Report) -> None:
    generic.sum_points(force, report)
    units = list(force.all_units())
    if not units:
        report.add(c.WAF_FORCE_EMPTY, "/formations", rule=RULES["box"], fix=c.WAF_FORCE_EMPTY.fix())
    generic.check_box_picks(force, report, P, RULES)
    generic.check_unit_options(force, report, P, RULES)
    check_letters(force, report, units)
    check_outflank(report, units)
    check_records(report, units)
    check_hq_chain(force, report, units)
    generic.check_constraints(force, report, P, RULES["constraint"])
    generic.check_points_limit(force, report, RULES["points"], c.WAF_POINTS_OVER_LIMIT)
    figures(force, report, units)


def check_letters(force: Force, report: Report, units) -> None:
    holders = defaultdict(list)
    for formation in force.formations:
        if formation.letter:
            holders[formation.letter.upper()].append(formation.pointer)
    for unit in units:
        if unit.letter:
            holders[unit.letter.upper()].append(unit.pointer)
        else:
            report.add(c.WAF_LETTER_MISSING, unit.pointer + "/letter", rule=RULES["letters"],
                       fix=c.WAF_LETTER_MISSING.fix(), unit=unit.unit.name)
    for letter, pointers in holders.items():
        for pointer in pointers[1:]:
            report.add(c.WAF_LETTER_DUPLICATE, pointer + "/letter", rule=RULES["letters"],
                       fix=c.WAF_LETTER_DUPLICATE.fix(), letter=letter)


def check_outflank(report: Report, units) -> None:
    flankers = [u for u in units if u.outflank]
    if len(flankers) > MAX_OUTFLANK:
        for unit in flankers[MAX_OUTFLANK:]:
            report.add(c.WAF_OUTFLANK_TOO_MANY, unit.pointer + "/outflank", rule=RULES["outflank"],
                       fix=c.WAF_OUTFLANK_TOO_MANY.fix(), count=len(flankers), most=MAX_OUTFLANK)
    elif len(flankers) > 1:
        report.add(c.WAF_OUTFLANK_NEEDS_ROLL, flankers[-1].pointer + "/outflank", rule=RULES["outflank"],
                   count=len(flankers))


def check_records(report: Report, units) -> None:
    for unit in units:
        data = unit.unit
        missing = [label for label, value in (("level (elite, regular or green)", data.morale_level),
                                              ("movement class", data.unit_class),
                                              ("weapon class", data.weapon_class)) if not value]
        if missing:
            report.add(c.WAF_UNIT_INCOMPLETE, unit.pointer, rule=RULES["record"], fix=c.WAF_UNIT_INCOMPLETE.fix(),
                       unit=data.name, missing=generic.names(missing))


def check_hq_chain(force: Force, report: Report, units) -> None:
    if not units:
        return
    levels = {u.unit.hq_level for u in units}
    for level, code in (("chq", c.WAF_HQ_MISSING_CHQ), ("bhq", c.WAF_HQ_MISSING_BHQ)):
        if level not in levels:
            report.add(code, "/formations", rule=RULES["hq_chain"], fix=code.fix())


def figures(force: Force, report: Report, units) -> None:
    elite = bool(units) and all(u.unit.morale_level == "elite" for u in units)
    report.figures.update({
        "units": len(units),
        "nation_activation_modifier": force.handbook.activation_modifier or 0,
        "all_elite": elite,
        "dummy_cards": DUMMY_CARDS,
        "outflanking": sum(1 for u in units if u.outflank),
        "coherency_inches": COHERENCY,
        "morale": {u.pointer: {"unit": u.unit.name, "level": u.unit.morale_level,
                               "target": MORALE_TARGET.get(u.unit.morale_level),
                               "casualties_for_test": math.ceil(0.25 * u.teams) if u.teams else None}
                   for u in units},
    })
