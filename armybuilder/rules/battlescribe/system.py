"""Rules for a game system imported from BattleScribe that has no rules module of its own (e.g. the
Phalanx sample system): every cost type, limit and visibility as its data defines them, and the
points limit. The engine uses it for any force on imported books of an unknown system."""
from __future__ import annotations

from .. import generic
from ..force import Force
from ..issue_codes import BS_POINTS_OVER_LIMIT
from ..report import Report, RuleRef
from .check import check_battlescribe, unit_teams


class BattleScribeRules:
    PREFIX = "bs"

    def __init__(self, system: str):
        self.SYSTEM = system

    def check(self, force: Force, report: Report) -> None:
        name = force.handbook.system_name or self.SYSTEM
        result = check_battlescribe(force, report, prefix=self.PREFIX, system_name=name)
        report.context = result
        generic.check_points_limit(force, report, RuleRef(name, "Points limit", "the roster"), BS_POINTS_OVER_LIMIT)
        units = list(force.all_units())
        report.figures.update({"units": len(units), "teams": sum(unit_teams(result, u.pointer) for u in units)})
