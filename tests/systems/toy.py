"""A toy fifth game system, added the way docs/systems.md says: one GameSystem, its rules module, its
templates (tests/systems/templates/toy/) and its data (a system file and a book, written here)."""
from pathlib import Path

from armybuilder.systems import GameSystem, ListExtra
from armybuilder.systems.figures import FigureGroup, FigureRow

from . import toy_rules

TEMPLATES = Path(__file__).parent / "templates"


def figures(force, report) -> list[FigureGroup]:
    units = report.figures.get("toy_units", 0)
    return [FigureGroup("Toy figures", [FigureRow("Units on the table", f"{units} of at most {toy_rules.MAX_UNITS}")])]


TOY = GameSystem(
    code=toy_rules.SYSTEM,
    name="Toy Skirmish",
    rules=toy_rules,
    figures=figures,
    builder_sections=("formations", "support"),  # no command cards, although the book has one
    uses_year=True,
    support_hint="Toy support comes from the Guns box only.",
    roster_template="toy/roster.html",
    card_template="toy/card.html",
    list_extras=(ListExtra("/year", "the year of the toy campaign"),),
)

SYSTEM_FILE = """\
kind: system
format: 1
code: toy
name: Toy Skirmish
uses_points: true
description: A toy system for tests.
nations:
  - {code: ruritania, name: Ruritania}
profile_types:
  - code: trooper
    name: Trooper
    applies_to: unit
    characteristics:
      - {code: grit, name: Grit}
      - {code: notes, name: Notes}
"""

BOOK_FILE = """\
kind: handbook
format: 1
system: toy
code: toy-guard
name: Toy Ruritanian Guard
nation: ruritania
illustrative: true
units:
  - code: TCAPT
    name: Guard Captain
    sizes: [{code: one, label: The captain, teams: 1, points: 2}]
    profiles:
      - {type: trooper, name: Guard Captain, values: {grit: Unflinching 2+}}
  - code: TSQUAD
    name: Guard Squad
    sizes: [{code: three, label: Three guards, teams: 3, points: 5}]
    profiles:
      - {type: trooper, name: Guard Squad, values: {grit: Stubborn 3+}}
  - code: TGUN
    name: Field Gun
    sizes: [{code: one, label: One gun, teams: 1, points: 4}]
formations:
  - code: TCOY
    name: Guard Company
    boxes:
      - {code: hq, name: Captain, kind: hq, column: HQ, choices: [TCAPT]}
      - {code: line, name: Line, kind: grey, column: Combat, max: 3, choices: [TSQUAD]}
support:
  - {code: guns, name: Guns, kind: grey, column: Support, choices: [TGUN]}
cards:
  - {code: lucky, name: Lucky Charm, scope: force, points: 1}
"""


def write_data(folder: Path) -> Path:
    (folder / "toy-system.yaml").write_text(SYSTEM_FILE, encoding="utf-8")
    (folder / "toy-guard.yaml").write_text(BOOK_FILE, encoding="utf-8")
    return folder
