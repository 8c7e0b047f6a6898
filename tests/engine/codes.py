"""Issue codes for the shared checks run under a test system prefix: ``x`` words them as Flames of War does
(with Operation WW2's date warnings, which Flames of War has no use for), ``y`` as Operation WW2 does, whose
lists name their HQ and compulsory boxes as count ranges."""
from dataclasses import replace

from armybuilder.rules import issue_codes as ic

RULE = "the engine's unit tests"
for _prefix in ("x", "y"):
    if _prefix not in ic.ADDED_PREFIXES:
        ic.system_prefix_add(_prefix)

X = replace(ic.diagram_codes_like("fow", "x", rule=RULE),
            date_unit_unavailable=ic.code_like(ic.OWW2_DATE_UNIT_UNAVAILABLE, "x", rule=RULE),
            date_option_unavailable=ic.code_like(ic.OWW2_DATE_OPTION_UNAVAILABLE, "x", rule=RULE))
X_OVER_LIMIT = ic.code_like(ic.FOW_POINTS_OVER_LIMIT, "x", rule=RULE)
X_NOTE = ic.IssueCode("x.report.note", severity=ic.WARNING, rule=RULE, message="Worth a look.")
X_BROKEN = ic.IssueCode("x.report.broken", severity=ic.ERROR, rule=RULE, message="Not allowed.", fix="Remove it.")
ic.system_codes_add("x", codes=(X_OVER_LIMIT, X_NOTE, X_BROKEN), diagram=X)

Y = ic.diagram_codes_like("oww2", "y", rule=RULE)
ic.system_codes_add("y", diagram=Y)
