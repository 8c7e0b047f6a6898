"""A match-up tool: a pure function of ``armybuilder.rules.matchups`` over two forces, described as data.

Each game system lists its tools (``GameSystem.matchup_tools``); the services, the page and the API run them
through ``matchup_tool_run`` and never compare system codes. ``needs`` names the keyword arguments a tool's
computation takes:

* ``forces``: ``a`` and ``b``, the two lists resolved as Forces;
* ``reports``: ``report_a`` and ``report_b``, each list's own check report;
* ``answers``: the players' recorded answers (a wizard's steps, kept on the match-up).
"""
from collections.abc import Callable
from dataclasses import dataclass

FORCES, REPORTS, ANSWERS = "forces", "reports", "answers"


@dataclass(frozen=True)
class MatchupTool:
    slug: str  # its key in matchup_figures' answer, its API path segment
    name: str
    needs: tuple  # of FORCES, REPORTS, ANSWERS
    compute: Callable
    description: str = ""
    wizard: bool = False  # its answers are given step by step (Hail of Fire's parity procedure)


def matchup_tool_run(tool: MatchupTool, *, a, b, report_a, report_b, answers: dict):
    """The tool's figures (raises MatchupError when the answers do not fit the forces)."""
    given = {FORCES: {"a": a, "b": b}, REPORTS: {"report_a": report_a, "report_b": report_b},
             ANSWERS: {"answers": answers}}
    kwargs = {}
    for need in tool.needs:
        kwargs.update(given[need])
    return tool.compute(**kwargs)
