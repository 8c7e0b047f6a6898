"""Which match-up tools a list's game system offers: asked of the systems registry.

The tools themselves (``MatchupTool``, ``matchup_tool_run``) are ``armybuilder.systems.matchup_tools``; each
system lists its own in ``GameSystem.matchup_tools``.
"""
from armybuilder.systems import system_for
from armybuilder.systems.matchup_tools import ANSWERS, FORCES, REPORTS, MatchupTool, matchup_tool_run

__all__ = ["ANSWERS", "FORCES", "REPORTS", "MatchupTool", "matchup_tool_for", "matchup_tool_run", "matchup_tools_for",
           "matchup_wizard_for"]


def matchup_tools_for(system: str) -> tuple[MatchupTool, ...]:
    return system_for(system).matchup_tools


def matchup_tool_for(system: str, slug: str) -> MatchupTool | None:
    return next((tool for tool in matchup_tools_for(system) if tool.slug == slug), None)


def matchup_wizard_for(system: str) -> MatchupTool | None:
    """The system's tool that takes the players' answers step by step, if it has one."""
    return next((tool for tool in matchup_tools_for(system) if tool.wizard), None)
