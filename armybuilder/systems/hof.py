"""Hail of Fire: no points; forces are balanced per match-up by the Force Parity Procedure."""
from armybuilder.rules import hof, matchups
from armybuilder.rules.force import Force
from armybuilder.rules.report import Report

from .base import GameSystem
from .figures import FigureGroup, FigureRow, number, plural
from .matchup_tools import ANSWERS, FORCES, MatchupTool

LEVEL_NAMES = {"elite": "Elite", "regular": "Regular", "green": "Green", "poor": "Poor"}
WEIGHT_NAMES = {"light": "light", "medium": "medium", "heavy": "heavy"}


def figures(force: Force, report: Report) -> list[FigureGroup]:
    fig = report.figures
    units = fig.get("units", 0)
    force_group = FigureGroup("Force")
    force_group.rows.append(FigureRow("Break limit", str(fig.get("break_limit", 5 + 2 * units)),
                                      f"5 + 2 per unit ({units}); the force breaks when its Break Points exceed it"))
    dice = fig.get("order_dice", 0)
    low, high = fig.get("order_points_range", [1, dice + 1])
    force_group.rows.append(FigureRow("Order dice", str(dice), "1 per Platoon Leader and per Vehicle Unit"))
    force_group.rows.append(FigureRow("Expected Order Points", number(fig.get("expected_order_points", 0)),
                                      f"each die gives 1 on a 4+, plus 1 always; from {low} to {high}"))
    hero_low, hero_high = fig.get("hero_points_range", [3, 6])
    force_group.rows.append(FigureRow("Hero Points", f"{hero_low}–{hero_high}", "1d6 before the game, 1–2 count as 3"))
    force_group.rows.append(FigureRow("Objectives if defending", str(fig.get("objectives_if_defending", 1)),
                                      "the attacker places 1 + 1 per two defending units"))
    qualities = fig.get("qualities") or {}
    if any(qualities.values()):
        text = ", ".join(f"{n} {LEVEL_NAMES.get(q, q).lower()}" for q, n in qualities.items() if n)
        force_group.rows.append(FigureRow("Unit quality", text))
    groups = [force_group]
    artillery = fig.get("artillery") or {}
    fire = FigureGroup("Artillery fire missions", note="" if artillery else "No artillery unit in the force.")
    for entry in artillery.values():
        weight = WEIGHT_NAMES.get(entry.get("weight"), entry.get("weight") or "")
        fire.rows.append(FigureRow(entry.get("unit", ""), plural(entry.get("fire_missions", 0), "fire mission"),
                                   f"{weight} artillery; "
                                   f"{plural(entry.get('barrage_rfps', 0), 'RFP')} per barrage hit"))
    groups.append(fire)
    return groups


SYSTEM = GameSystem(
    code=hof.SYSTEM,
    name="Hail of Fire",
    rules=hof,
    figures=figures,
    matchup_tools=(
        MatchupTool("parity", "Force Parity Procedure", (FORCES, ANSWERS), matchups.hof_parity_procedure,
                    "Each player ranks the opponent's units; the units pair by rank and the players judge each "
                    "pair; the side with the higher total takes the difference as Penalty Points and spends them.",
                    wizard=True),
    ),
)
