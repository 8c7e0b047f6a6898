"""War Ain't Fair: formations with set-up letters, dummy cards, outflanking, optional points."""
from armybuilder.rules import matchups, waf
from armybuilder.rules.force import Force
from armybuilder.rules.report import Report

from .base import GameSystem, ListExtra
from .figures import FigureGroup, FigureRow, plural, signed
from .matchup_tools import FORCES, MatchupTool

HQ_LEVELS = {"phq": "Platoon HQ", "chq": "Company HQ", "bhq": "Battalion or Force HQ"}
LEVEL_NAMES = {"elite": "Elite", "regular": "Regular", "green": "Green", "poor": "Poor"}


def figures(force: Force, report: Report) -> list[FigureGroup]:
    fig = report.figures
    setup = FigureGroup("Set-up")
    setup.rows.append(FigureRow("Dummy cards", str(fig.get("dummy_cards", 2)), "placed face down with the real cards"))
    flanking = fig.get("outflanking", 0)
    setup.rows.append(FigureRow("Outflanking", f"{flanking} of at most 3",
                                "up to d3 cards; each arrives from turn 2 on a d6 ≤ the turn"))
    activation = FigureGroup("Activation", note="The dice themselves depend on both forces: see a match-up.")
    modifier = fig.get("nation_activation_modifier", 0)
    activation.rows.append(FigureRow("Nation modifier", signed(modifier),
                                     f"{force.handbook.nation_name or force.handbook.nation} on the nationality table"))
    activation.rows.append(FigureRow("Entirely elite", "yes, +1" if fig.get("all_elite") else "no"))
    coherency = FigureGroup("Coherency", note="Distance from the HQ before a unit tests as out of command.")
    for level, inches in (fig.get("coherency_inches") or {}).items():
        coherency.rows.append(FigureRow(HQ_LEVELS.get(level, level), f'{inches}"'))
    morale = FigureGroup("Morale", note="Test on 2d6: pass on the target or less.")
    for entry in (fig.get("morale") or {}).values():
        target = entry.get("target")
        level = LEVEL_NAMES.get(entry.get("level"), entry.get("level") or "no level")
        value = f"{target} or less" if target else "—"
        detail = level
        if entry.get("casualties_for_test"):
            detail += f"; tests at {plural(entry['casualties_for_test'], 'casualty', 'casualties')} (25%)"
        morale.rows.append(FigureRow(entry.get("unit", ""), value, detail))
    return [setup, activation, coherency, morale]


SYSTEM = GameSystem(
    code=waf.SYSTEM,
    name="War Ain't Fair",
    rules=waf,
    figures=figures,
    uses_letters=True,
    list_extras=(
        ListExtra("/formations/*/letter", "the formation's set-up letter"),
        ListExtra("/formations/*/units/*/letter", "the unit's own set-up letter"),
        ListExtra("/formations/*/units/*/outflank", "the flank the unit outflanks from: left or right"),
        ListExtra("/support/*/letter", "the support unit's set-up letter"),
        ListExtra("/support/*/outflank", "the flank the support unit outflanks from: left or right"),
    ),
    matchup_tools=(
        MatchupTool("activation-dice", "Activation dice", (FORCES,), matchups.waf_activation_dice,
                    "The larger force's units less 2, adjusted by each side's nation (and +1 if all elite), "
                    "with the working; the side with fewer dice rolls for Tactical Advantages."),
        MatchupTool("setup", "Set-up cards", (FORCES,), matchups.waf_setup,
                    "Each side's face-down set-up cards: one per set-up letter plus two dummies; outflanking "
                    "cards wait off the table."),
    ),
)
