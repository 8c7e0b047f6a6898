"""Match-ups: two lists of the same system side by side, the figures of that system's match-up tools
(tools.py, one table by system code), and the players' recorded answers where a rule asks for judgement.

Reads are in ``selectors``, writes in ``services``; the names most callers need are here as well.
"""
from armybuilder.rules.matchups import MatchupError

from .selectors import (
    matchup_figures,
    matchup_forces,
    matchup_get_for_user,
    matchup_read,
    matchup_tool_get,
    matchup_wizard_get,
    matchups_visible_to,
)
from .services import (
    matchup_create,
    matchup_delete,
    matchup_parity_judge,
    matchup_parity_rank,
    matchup_parity_spend,
    matchup_parity_start,
    matchup_record_answers,
    matchups_claim_for_user,
)
from .tools import MatchupTool, matchup_tool_for, matchup_tools_for

__all__ = ["MatchupError", "MatchupTool", "matchup_create", "matchup_delete", "matchup_figures",
           "matchup_forces", "matchup_get_for_user", "matchup_parity_judge", "matchup_parity_rank",
           "matchup_parity_spend", "matchup_parity_start", "matchup_read", "matchup_record_answers",
           "matchup_tool_for", "matchup_tool_get", "matchup_tools_for", "matchup_wizard_get",
           "matchups_claim_for_user", "matchups_visible_to"]
