"""The rules of a toy fifth game system, for tests/systems: points as the book gives them, the book's boxes,
and at most two units in a force. Its issue codes are its own (``toy.*``), registered when it is loaded."""
from armybuilder.rules import generic
from armybuilder.rules import issue_codes as ic
from armybuilder.rules.force import Force
from armybuilder.rules.issue_codes import ERROR, IssueCode
from armybuilder.rules.report import Report, RuleRef

SYSTEM = "toy"
P = "toy"
MAX_UNITS = 2
RULE = RuleRef("Toy Skirmish", "A toy force has at most two units", "the toy rules")
RULES = {key: RULE for key in ("box", "grey_box", "black_box", "hq", "size", "upgrade", "variant", "constraint")}

ic.system_prefix_add(P)


DIAGRAM = ic.diagram_codes_like("waf", P, rule="the toy rules")  # the shared checks worded as War Ain't Fair's
TOO_MANY_UNITS = IssueCode("toy.force.too_many_units", severity=ERROR, rule="the toy rules",
                           message="The force has {count} units; a toy force has at most {most}.",
                           fix="Remove a unit.")
OVER_LIMIT = IssueCode("toy.points.over_limit", severity=ERROR, rule="the toy rules",
                       message="The force costs {total} points, {over} over the limit of {limit}.",
                       fix="Remove {over} points.")
ic.system_codes_add(P, codes=(TOO_MANY_UNITS, OVER_LIMIT), diagram=DIAGRAM)


def check(force: Force, report: Report) -> None:
    generic.sum_points(force, report)
    generic.check_box_picks(force, report, P, RULES)
    generic.check_unit_options(force, report, P, RULES)
    generic.check_points_limit(force, report, RULE, OVER_LIMIT)
    units = list(force.all_units())
    if len(units) > MAX_UNITS:
        report.add(TOO_MANY_UNITS, "/formations", rule=RULE, fix=TOO_MANY_UNITS.fix(), count=len(units),
                   most=MAX_UNITS)
    report.figures["toy_units"] = len(units)
