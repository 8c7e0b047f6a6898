"""The figures panel's plain data, and what every system's figures share.

The engine computes every number (``report.figures``); a system's figures function only picks the ones
a player needs at the table, names them in the game's words and adds the working a player would
otherwise have to remember ("5 + 2 per unit"). Nothing here decides what is legal; the web page and
any other reader only lay the groups out.
"""
from dataclasses import dataclass, field

from armybuilder.rules.force import Force
from armybuilder.rules.report import Report

# Labels of the figures every system may report (the text export and the roster use them too).
FIGURE_LABELS = {
    "formations": "Formations",
    "allied_formations": "Allied formations",
    "purchases": "Units bought",
    "game_units": "Game units",
    "teams": "Teams",
    "observers": "Observers",
    "reserves_on_table_max": "Most points on table in Reserves missions",
    "command_cards": "Command cards",
}


@dataclass
class FigureRow:
    label: str
    value: str
    detail: str = ""
    help: str = ""  # what the figure means, for the tooltip (docs/builder.md says the same)


@dataclass
class FigureGroup:
    title: str
    rows: list = field(default_factory=list)
    note: str = ""


def figure_label(key: str) -> str:
    return FIGURE_LABELS.get(key, key.replace("_", " ").capitalize())


def number(value) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def signed(value: int) -> str:
    return f"{value:+d}" if value else "±0"


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


def formation_names(force: Force) -> dict[str, str]:
    return {f.pointer: f.formation.name for f in force.formations}


def option_pool_text(pool: dict) -> str:
    """{"granted": 3, "spent": 2} -> "2 of 3 options spent" (a pool of options a formation grants)."""
    granted, spent = pool.get("granted", 0), pool.get("spent", 0)
    return f"{spent} of {plural(granted, 'option')} spent"


def generic_groups(force: Force, report: Report, help: dict | None = None) -> list[FigureGroup]:
    """One untitled group of every plain figure (numbers and words), with ``help`` texts by figure key."""
    help = help or {}
    rows = [FigureRow(figure_label(k), number(v), help=help.get(k, ""))
            for k, v in report.figures.items() if isinstance(v, (int, float, str)) and not isinstance(v, bool)]
    return [FigureGroup("", rows)] if rows else []
