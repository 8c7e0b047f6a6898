"""What one game system is, for every layer above the rules engine.

A ``GameSystem`` is plain data plus two callables (its rules module's check, its figures). Layers ask
for what they need (a flag, a template name, a mapping name) instead of comparing system codes, so a
new system is one module here plus its templates. Nothing in this package imports Django models or
any layer above the rules engine.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

from armybuilder.rules.force import Force
from armybuilder.rules.report import Report

from .figures import FigureGroup, generic_groups

FiguresFunction = Callable[[Force, Report], "list[FigureGroup]"]

# The builder's sections, in page order; a system names the ones its forces use (formations always).
BUILDER_SECTIONS = ("formations", "support", "cards")
ROSTER_TEMPLATE = "pdf/roster.html"
CARD_TEMPLATE = "pdf/_card.html"


@dataclass(frozen=True)
class ListExtra:
    """A field of the list document (docs/list-format.md) only this system gives a meaning to."""

    pointer: str  # where it sits, e.g. "/formations/*/letter"
    meaning: str


@dataclass(frozen=True)
class GameSystem:
    code: str  # the code lists, books and documents carry (``fow4``)
    name: str  # the display name
    # The rules module: ``SYSTEM`` (this code) and ``check(force, report)``; None for a system imported
    # from BattleScribe, which the engine checks with BattleScribe's own rules.
    rules: ModuleType | None
    figures: FiguresFunction = generic_groups  # the figures panel, labelled in the game's words

    # the builder page
    builder_sections: tuple[str, ...] = BUILDER_SECTIONS
    uses_year: bool = False  # the force fights in a year the list chooses (availability dates)
    uses_letters: bool = False  # formations and units carry set-up letters
    grows_by_options: bool = False  # one Standard formation first, the rest bought with its options
    support_hint: str = ""  # the line shown over the force's support

    # the printed roster and unit cards
    roster_template: str = ROSTER_TEMPLATE
    card_template: str = CARD_TEMPLATE
    # how a unit's stat line is laid out on its card (services.printing.context.CARD_LAYOUTS)
    card_layout: str = "generic"

    # exchange
    list_extras: tuple[ListExtra, ...] = ()
    battlescribe_mapping: str | None = None  # the name interchange keeps its catalogue mapper under

    matchup_tools: tuple = ()

    def __post_init__(self):
        if "formations" not in self.builder_sections:
            raise ValueError(f"game system {self.code!r}: the builder draws every force from its formations, so "
                             "builder_sections starts with 'formations'")
        unknown = [s for s in self.builder_sections if s not in BUILDER_SECTIONS]
        if unknown:
            raise ValueError(f"game system {self.code!r}: unknown builder section(s) {', '.join(unknown)}; "
                             f"the builder has {', '.join(BUILDER_SECTIONS)}")
        if self.rules is not None and getattr(self.rules, "SYSTEM", None) != self.code:
            raise ValueError(f"game system {self.code!r}: its rules module {self.rules.__name__} is for "
                             f"{getattr(self.rules, 'SYSTEM', None)!r}")

    def shows(self, section: str) -> bool:
        return section in self.builder_sections
