"""Flames of War, 4th edition: formation diagrams, support from one diagram, allies, command cards."""
from functools import partial

from armybuilder.rules import fow, matchups

from .base import GameSystem
from .figures import generic_groups
from .matchup_tools import FORCES, REPORTS, MatchupTool

# What the Flames of War figures mean (our own words; docs/builder.md explains them at more length).
FIGURE_HELP = {
    "formations": "Formations in the force, allied ones included.",
    "purchases": "The units you chose: one for each pick in a box of a formation, the support or an ally.",
    "game_units": "The units you put on the table. One purchase can field more than one (its transports can be "
                  "a unit of their own), so this can be higher than Units bought.",
    "teams": "Every team (model or base) in the force.",
    "observers": "Units that can spot for artillery.",
    "reserves_on_table_max": "In missions with Reserves, at most 60% of the agreed points may start on the table.",
    "command_cards": "Command Cards taken, force cards and cards given to a formation or a unit.",
}

SYSTEM = GameSystem(
    code=fow.SYSTEM,
    name="Flames of War (4th edition)",
    rules=fow,
    figures=partial(generic_groups, help=FIGURE_HELP),
    support_hint="Support units come from the book's force diagram below, or from one formation's Support "
                 "column — not both.",
    card_layout="fow",
    battlescribe_mapping="fow",
    matchup_tools=(
        MatchupTool("fow-comparison", "Side by side and Reserves", (FORCES, REPORTS), matchups.fow_matchup,
                    "Points, formations, units, teams and support of both forces, each formation with its units, "
                    "and the most each may have on the table in a Reserves mission (60% of its agreed points)."),
    ),
)
