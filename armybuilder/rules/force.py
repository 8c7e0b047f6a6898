"""A player's force, resolved against game data: what the engine checks.

Pointers are JSON pointers into the list's JSON document (format v1), so the
same pointer names a place in an exported file, an import error and the
builder page.
"""
from dataclasses import dataclass, field

from .battlescribe.tree import SelectionData
from .data import BoxData, CardData, FormationData, HandbookData, SizeData, UnitData, UpgradeData


@dataclass(frozen=True, slots=True)
class ForceUpgrade:
    upgrade: UpgradeData
    quantity: int = 1


@dataclass(frozen=True, slots=True)
class ForceUnit:
    pointer: str
    box: BoxData
    unit: UnitData
    size: SizeData | None = None
    upgrades: tuple = ()  # ForceUpgrade
    formation_index: int | None = None  # None: force-level support
    letter: str = ""
    outflank: str = ""  # War Ain't Fair: left | right, kept secret from the opponent
    # Books imported from BattleScribe: the unit's selection (entry path under its formation, or under the
    # force for support) with everything chosen below it. Size and upgrades stay empty for those books.
    selection: SelectionData | None = None
    custom_name: str = ""  # the player's own name and notes for the unit
    notes: str = ""

    @property
    def teams(self) -> int:
        return self.size.teams if self.size else 0

    @property
    def is_support(self) -> bool:
        return self.formation_index is None or not self.box.part_of_formation


@dataclass(frozen=True, slots=True)
class ForceFormation:
    pointer: str
    index: int
    handbook: HandbookData
    formation: FormationData
    allied: bool = False
    units: tuple = ()  # ForceUnit
    parent_index: int | None = None  # Operation WW2: bought with the options of another formation
    via_box: BoxData | None = None
    letter: str = ""
    # Books imported from BattleScribe: formation-level choices (units are in ``units``).
    selections: tuple = ()  # SelectionData
    custom_name: str = ""  # the player's own name and notes for the formation
    notes: str = ""


@dataclass(frozen=True, slots=True)
class ForceCard:
    pointer: str
    card: CardData
    target_pointer: str | None = None
    target: ForceFormation | ForceUnit | None = None
    # Books imported from BattleScribe: the card's entry path under what holds it (its target, or the force),
    # the entries it sits inside on the way (e.g. a root "Command Cards" entry) and its own sub-choices.
    selection: SelectionData | None = None
    via: tuple = ()  # entry paths, outermost first


@dataclass(frozen=True, slots=True)
class Force:
    system: str
    handbook: HandbookData
    name: str = ""
    points_limit: int | None = None
    variant: str | None = None
    year: int | None = None
    formations: tuple = ()
    support: tuple = ()  # ForceUnit from force-level support boxes
    cards: tuple = ()
    # Books imported from BattleScribe: root choices that are not formations, support or cards.
    selections: tuple = ()  # SelectionData
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    def all_units(self):
        for formation in self.formations:
            yield from formation.units
        yield from self.support
