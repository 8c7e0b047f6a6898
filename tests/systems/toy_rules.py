"""The rules of a toy fifth game system, for tests/systems: points as the book gives them, the book's boxes,
and at most two units in a force."""
from armybuilder.rules import generic
from armybuilder.rules.force import Force
from armybuilder.rules.report import ERROR, Report, RuleRef

SYSTEM = "toy"
P = "toy"
MAX_UNITS = 2
RULE = RuleRef("Toy Skirmish", "A toy force has at most two units", "the toy rules")
RULES = {key: RULE for key in ("box", "grey_box", "black_box", "hq", "size", "upgrade", "variant", "constraint")}


def check(force: Force, report: Report) -> None:
    generic.sum_points(force, report)
    generic.check_box_picks(force, report, P, RULES)
    generic.check_unit_options(force, report, P, RULES)
    generic.check_points_limit(force, report, RULE, f"{P}.points.over_limit")
    units = list(force.all_units())
    if len(units) > MAX_UNITS:
        report.add(f"{P}.force.too_many_units", ERROR, f"The force has {len(units)} units; a toy force has at most "
                   f"{MAX_UNITS}.", "/formations", RULE, "Remove a unit.")
    report.figures["toy_units"] = len(units)
