"""The match-up tools of each game system, as data: one table, looked up by system code.

Every layer that offers a match-up tool (the page, the API, the services) asks this table which tools a
system has and runs them through ``matchup_tool_run``; none of them compares system codes. A tool's
computation is a pure function of ``armybuilder.rules.matchups``, called with the keyword arguments its
``needs`` name:

* ``forces``: ``a`` and ``b``, the two lists resolved as Forces;
* ``reports``: ``report_a`` and ``report_b``, each list's own check report;
* ``answers``: the players' recorded answers (a wizard's steps, kept on the match-up).
"""
from collections.abc import Callable
from dataclasses import dataclass

from armybuilder.rules import matchups as rules

FORCES, REPORTS, ANSWERS = "forces", "reports", "answers"


@dataclass(frozen=True)
class MatchupTool:
    slug: str  # its key in matchup_figures' answer, its API path segment
    name: str
    needs: tuple  # of FORCES, REPORTS, ANSWERS
    compute: Callable
    description: str = ""
    wizard: bool = False  # its answers are given step by step (Hail of Fire's parity procedure)


MATCHUP_TOOLS: dict[str, tuple[MatchupTool, ...]] = {
    "fow4": (
        MatchupTool("fow-comparison", "Side by side and Reserves", (FORCES, REPORTS), rules.fow_matchup,
                    "Points, formations, units, teams and support of both forces, each formation with its units, "
                    "and the most each may have on the table in a Reserves mission (60% of its agreed points)."),
    ),
    "oww2": (
        MatchupTool("order-cards", "Order cards", (FORCES, REPORTS), rules.oww2_order_cards,
                    "Each player's first hand of order cards (the nation's base + 1 per unit), with off-table "
                    "units held back, and WAIT actions."),
    ),
    "hof": (
        MatchupTool("parity", "Force Parity Procedure", (FORCES, ANSWERS), rules.hof_parity_procedure,
                    "Each player ranks the opponent's units; the units pair by rank and the players judge each "
                    "pair; the side with the higher total takes the difference as Penalty Points and spends them.",
                    wizard=True),
    ),
    "waf": (
        MatchupTool("activation-dice", "Activation dice", (FORCES,), rules.waf_activation_dice,
                    "The larger force's units less 2, adjusted by each side's nation (and +1 if all elite), "
                    "with the working; the side with fewer dice rolls for Tactical Advantages."),
        MatchupTool("setup", "Set-up cards", (FORCES,), rules.waf_setup,
                    "Each side's face-down set-up cards: one per set-up letter plus two dummies; outflanking "
                    "cards wait off the table."),
    ),
}


def matchup_tools_for(system: str) -> tuple[MatchupTool, ...]:
    return MATCHUP_TOOLS.get(system, ())


def matchup_tool_for(system: str, slug: str) -> MatchupTool | None:
    return next((tool for tool in matchup_tools_for(system) if tool.slug == slug), None)


def matchup_wizard_for(system: str) -> MatchupTool | None:
    """The system's tool that takes the players' answers step by step, if it has one."""
    return next((tool for tool in matchup_tools_for(system) if tool.wizard), None)


def matchup_tool_run(tool: MatchupTool, *, a, b, report_a, report_b, answers: dict):
    """The tool's figures (raises MatchupError when the answers do not fit the forces)."""
    given = {FORCES: {"a": a, "b": b}, REPORTS: {"report_a": report_a, "report_b": report_b},
             ANSWERS: {"answers": answers}}
    kwargs = {}
    for need in tool.needs:
        kwargs.update(given[need])
    return tool.compute(**kwargs)
