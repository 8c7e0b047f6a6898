"""Entry point: pick the system's rules module and run it."""
from typing import Protocol

from . import fow, hof, oww2, waf
from .battlescribe.system import BattleScribeRules
from .force import Force
from .issue_codes import FORCE_SYSTEM_UNSUPPORTED
from .report import Report


class Rules(Protocol):
    """What checks a force of one system: a rules module (fow, oww2 …) or an object such as BattleScribeRules."""

    def check(self, force: Force, report: Report) -> None: ...


MODULES: dict[str, Rules] = {module.SYSTEM: module for module in (fow, oww2, hof, waf)}


def register(module) -> None:
    MODULES[module.SYSTEM] = module


def unregister(system: str) -> None:
    """Forget a rules module added with ``register`` (a system added for a while, as tests do)."""
    MODULES.pop(system, None)


def check(force: Force) -> Report:
    report = Report(system=force.system, points_limit=force.points_limit)
    module: Rules | None = MODULES.get(force.system)
    if module is None and force.handbook.catalogue is not None:
        # A game system imported from BattleScribe with no rules module of its own (e.g. Phalanx).
        module = BattleScribeRules(force.system)
    if module is None:
        report.add(FORCE_SYSTEM_UNSUPPORTED, "/system", system=force.system)
        return report
    module.check(force, report)
    return report
