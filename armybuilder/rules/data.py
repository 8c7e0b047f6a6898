"""Immutable game data as the engine sees it.

Built from the database once per handbook revision (revisions never change, so
they can be cached for the life of the process) or in tests by hand.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # named in an annotation only: the catalogue module is the BattleScribe engine's
    from .battlescribe.catalogue import Catalogue

EMPTY: frozenset = frozenset()


def in_variant(variants: frozenset, chosen: str | None) -> bool:
    """An item tagged with variants is only for those variants; untagged means every variant."""
    return not variants or chosen in variants


@dataclass(frozen=True, slots=True)
class SizeData:
    code: str
    label: str
    teams: int
    points: int
    variants: frozenset = EMPTY
    extra: dict = field(default_factory=dict, compare=False, hash=False)  # BattleScribe: raw costs, modifiers


@dataclass(frozen=True, slots=True)
class UpgradeData:
    code: str  # "<group>/<upgrade>", unique within its unit
    name: str
    points: int
    cost_basis: str = "unit"  # unit | team | item
    kind: str = "option"  # option | transport | item
    max_quantity: int = 1
    adds_game_units: int = 0
    available_from: int | None = None
    available_to: int | None = None
    variants: frozenset = EMPTY
    rules: tuple = ()
    extra: dict = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True, slots=True)
class UpgradeGroupData:
    code: str
    name: str
    min_choices: int = 0
    max_choices: int | None = None
    upgrades: tuple = ()


@dataclass(frozen=True, slots=True)
class TeamData:
    code: str
    name: str
    team_type: str = ""
    count: int = 1
    is_leader: bool = False
    is_small: bool = False
    is_transport: bool = False
    man_portable: bool = False
    towed: bool = False


@dataclass(frozen=True, slots=True)
class UnitData:
    code: str
    name: str
    card_code: str = ""
    unit_type: str = ""
    sizes: tuple = ()
    groups: tuple = ()
    teams: tuple = ()
    variants: frozenset = EMPTY
    rules: tuple = ()
    # Flames of War
    independent: bool = False
    is_observer: bool = False
    observer_source: str | None = None
    game_units: int = 1
    # Operation WW2
    is_standard: bool = False
    available_from: int | None = None
    available_to: int | None = None
    availability_note: str = ""
    off_table: bool = False
    is_observation_post: bool = False
    # Hail of Fire
    quality: str = ""
    keywords: tuple = ()
    is_vehicle_unit: bool = False
    has_platoon_leader: bool = False
    artillery_weight: str = ""
    transport_capacity: int | None = None
    # War Ain't Fair
    morale_level: str = ""
    unit_class: str = ""
    weapon_class: str = ""
    armour_class: str = ""
    hq_level: str = ""
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    def size(self, code: str | None) -> SizeData | None:
        return next((s for s in self.sizes if s.code == code), None)

    def upgrade(self, code: str) -> UpgradeData | None:
        for group in self.groups:
            for upgrade in group.upgrades:
                if upgrade.code == code:
                    return upgrade
        return None

    def group_of(self, upgrade_code: str) -> UpgradeGroupData | None:
        group_code = upgrade_code.split("/", 1)[0]
        return next((g for g in self.groups if g.code == group_code), None)


@dataclass(frozen=True, slots=True)
class ChoiceData:
    unit: str | None = None
    formation: str | None = None
    option_cost: int = 0
    max_count: int | None = None
    variants: frozenset = EMPTY


@dataclass(frozen=True, slots=True)
class BoxData:
    code: str
    name: str
    kind: str = "grey"  # hq | black | grey | options
    column: str = ""
    part_of_formation: bool = True
    min_picks: int = 0
    max_picks: int = 1
    formation: str | None = None  # None: a force-level support box
    choices: tuple = ()
    variants: frozenset = EMPTY
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    def unit_choice(self, unit_code: str) -> ChoiceData | None:
        return next((c for c in self.choices if c.unit == unit_code), None)

    def formation_choice(self, formation_code: str) -> ChoiceData | None:
        return next((c for c in self.choices if c.formation == formation_code), None)


@dataclass(frozen=True, slots=True)
class FormationData:
    code: str
    name: str
    card_code: str = ""
    higher_formation: str = ""
    allied_nations: frozenset = EMPTY
    variants: frozenset = EMPTY
    is_standard: bool = False
    grants_options: int = 0
    boxes: tuple = ()
    extra: dict = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True, slots=True)
class CardData:
    code: str
    name: str
    scope: str  # force | formation | unit
    points: int = 0
    cost_basis: str = "card"  # card | team
    max_per_force: int | None = None
    max_per_target: int = 1
    changes_rating: bool = False
    target_units: frozenset = EMPTY
    target_formations: frozenset = EMPTY
    extra: dict = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True, slots=True)
class ConstraintData:
    code: str
    description: str
    scope: str  # force | formation
    target_kind: str  # unit | formation | card | unit_type
    target_codes: frozenset
    min_count: int | None = None
    max_count: int | None = None


@dataclass(frozen=True, slots=True)
class RuleData:
    code: str
    name: str
    summary: str = ""


@dataclass(frozen=True, slots=True)
class HandbookData:
    code: str
    revision: int
    name: str
    system: str
    uses_points: bool
    nation: str
    nation_name: str = ""
    nation_side: str = ""
    order_card_base: int | None = None
    activation_modifier: int | None = None
    period: str = ""
    higher_formation: str = ""
    points_set: str = ""
    allied_nations: frozenset = EMPTY
    variants: dict = field(default_factory=dict, compare=False, hash=False)  # code -> name
    units: dict = field(default_factory=dict, compare=False, hash=False)
    formations: dict = field(default_factory=dict, compare=False, hash=False)
    boxes: dict = field(default_factory=dict, compare=False, hash=False)
    support_boxes: tuple = ()
    cards: dict = field(default_factory=dict, compare=False, hash=False)
    constraints: tuple = ()
    rules: dict = field(default_factory=dict, compare=False, hash=False)
    system_name: str = ""
    source: str = "file"  # file | battlescribe
    extra: dict = field(default_factory=dict, compare=False, hash=False)
    # Books imported from BattleScribe: the compiled catalogue.
    catalogue: Catalogue | None = field(default=None, compare=False, hash=False)

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.system, self.code, self.revision)
