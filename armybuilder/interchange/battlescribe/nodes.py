"""An in-memory form of a game system or catalogue, independent of the XML.

Only what the importer and the evaluator need is kept. BSData has no licence,
so none of it is ever committed: what a user imports (rule descriptions and
profile values included) lives only in that user's database.

Modifiers, conditions, repeats and constraints are normalised into plain
dicts (JSON-ready, stored as-is in ``extra`` fields):

constraint  {"id", "type": "min"|"max", "field", "scope", "value",
             ["shared": False], ["children": True], ["forces": True], ["percent": True]}
condition   {"type", "field", "scope", "child", "value", [shared/children/forces/percent]}
tree        {"and": [node, ...]} | {"or": [node, ...]} | condition
repeat      {"field", "scope", "child", "value", "repeats": n, ["round_up": True], [flags]}
modifier    {"type", "field", "kind", "value", ["when": tree], ["repeats": [repeat, ...]]}

``kind`` classifies the field: "cost" (field = cost type id), "hidden", "name",
"category", "constraint" (field = constraint id), "characteristic" (field =
characteristic type id), "other". Modifier groups are flattened: a group's
conditions are AND-ed into each modifier and its repeats are added.
Defaults are left out (shared=true, includeChildSelections=false, ...).
"""
from __future__ import annotations

from dataclasses import dataclass, field

MAX_NUMBER = 1e9  # no cost, count or revision in real data comes near; beyond it is an error or an attack


def number(text: str | None, default: float = 0) -> float | int:
    """A numeric attribute; the default for anything that is not a finite number of sensible size
    (``revision="NaN"`` used to crash the import on int(nan), a 5,000-digit value on int(inf))."""
    if text is None or text == "" or len(text) > 40:
        return default
    try:
        value = float(text)
    except ValueError:
        return default
    if value != value or abs(value) > MAX_NUMBER:  # NaN, infinities, absurd sizes
        return default
    return int(value) if value.is_integer() else value


def flag(text: str | None, default: bool = False) -> bool:
    if text is None:
        return default
    if text == "true" or text == "false":  # how BattleScribe writes them: no case or space to undo
        return text == "true"
    return text.strip().lower() == "true"


@dataclass(slots=True)
class CategoryLink:
    id: str
    target_id: str
    primary: bool
    constraints: list[dict] = field(default_factory=list)
    modifiers: list[dict] = field(default_factory=list)


@dataclass(slots=True)
class Profile:
    id: str
    name: str
    type_id: str
    type_name: str
    hidden: bool
    characteristics: list[tuple[str, str, str]]  # (type id, name, value): a library has tens of thousands
    modifiers: list[dict]
    catalogue_id: str = ""


@dataclass(slots=True)
class Rule:
    id: str
    name: str
    hidden: bool
    modifiers: list[dict]
    catalogue_id: str = ""
    description: str = ""  # the data's own text; stored with an import, never committed


@dataclass(slots=True)
class InfoLink:
    id: str
    name: str
    target_id: str
    type: str  # profile | rule | infoGroup
    hidden: bool
    modifiers: list[dict]


@dataclass(slots=True)
class InfoGroup:
    id: str
    name: str
    hidden: bool
    profiles: list[Profile]
    rules: list[Rule]
    info_links: list[InfoLink]
    info_groups: list[InfoGroup]
    modifiers: list[dict]
    catalogue_id: str = ""


@dataclass(slots=True, eq=False)
class Node:
    """A selectionEntry, selectionEntryGroup, entryLink, categoryEntry or forceEntry."""

    tag: str
    id: str
    name: str
    type: str = ""  # entry: unit|model|upgrade; link: selectionEntry|selectionEntryGroup
    hidden: bool = False
    target_id: str = ""
    default_id: str = ""
    collective: bool = False
    costs: dict[str, float] = field(default_factory=dict)
    has_costs: bool = False
    constraints: list[dict] = field(default_factory=list)
    modifiers: list[dict] = field(default_factory=list)
    category_links: list[CategoryLink] = field(default_factory=list)
    children: list[Node] = field(default_factory=list)  # entries, groups, links in document order
    profiles: list[Profile] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    info_links: list[InfoLink] = field(default_factory=list)
    info_groups: list[InfoGroup] = field(default_factory=list)
    catalogue_id: str = ""
    unknown: list[str] = field(default_factory=list)  # child elements not understood

    @property
    def is_link(self) -> bool:
        return self.tag == "entryLink"

    @property
    def is_group(self) -> bool:
        return self.tag == "selectionEntryGroup"


@dataclass
class CostType:
    id: str
    name: str
    default_limit: float
    hidden: bool


@dataclass
class ProfileType:
    id: str
    name: str
    characteristics: list[tuple[str, str]]  # (id, name)


@dataclass
class CatalogueLink:
    id: str
    name: str
    target_id: str
    import_root_entries: bool


@dataclass
class Catalogue:
    """A parsed .gst (kind gameSystem) or .cat (kind catalogue)."""

    kind: str
    id: str
    name: str
    revision: int
    source: str
    library: bool = False
    game_system_id: str = ""
    game_system_revision: int = 0
    battlescribe_version: str = ""
    catalogue_links: list[CatalogueLink] = field(default_factory=list)
    cost_types: list[CostType] = field(default_factory=list)
    profile_types: list[ProfileType] = field(default_factory=list)
    categories: list[Node] = field(default_factory=list)
    force_entries: list[Node] = field(default_factory=list)
    root_entries: list[Node] = field(default_factory=list)  # root selectionEntries then entryLinks
    root_rules: list[Rule] = field(default_factory=list)
    root_info_links: list[InfoLink] = field(default_factory=list)
    shared_entries: list[Node] = field(default_factory=list)
    shared_groups: list[Node] = field(default_factory=list)
    shared_rules: list[Rule] = field(default_factory=list)
    shared_profiles: list[Profile] = field(default_factory=list)
    shared_info_groups: list[InfoGroup] = field(default_factory=list)
    publications: dict[str, str] = field(default_factory=dict)
    # Every node, profile, rule and info group with an id, for lookups.
    by_id: dict[str, object] = field(default_factory=dict)
    links: dict[str, Node] = field(default_factory=dict)  # entry links by id
    constraint_ids: set[str] = field(default_factory=set)
    all_modifiers: list[dict] = field(default_factory=list)  # every modifier, to classify constraint fields
    source_hash: str = ""  # of its file, the files it depends on and the mapping code: unchanged = same hash
    unchanged: bool = False  # its handbook is current for that hash: read, not parsed or mapped again
    source_files: list = field(default_factory=list)  # digests of the files its handbook is made from
    digest: str = ""  # of its own file
    unknown: list[tuple[str, str, str]] = field(default_factory=list)  # (id of owner, element, where)
