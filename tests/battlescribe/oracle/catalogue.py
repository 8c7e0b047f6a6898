"""The BattleScribe data files read into plain objects, exactly as written (no flattening).

One `Element` per selectionEntry, selectionEntryGroup and entryLink; one `Catalogue` per file.
Links are resolved later, by `nodes.py`, into the merged view BattleScribe offers a player.
Everything is read with the standard library's ElementTree behind defusedxml.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from defusedxml import ElementTree as SafeET

Q_SPECIAL = {"self", "parent", "force", "roster", "ancestor", "primary-category", "primary-catalogue"}


def _tag(el) -> str:
    return el.tag.rsplit("}", 1)[-1]


def _kids(el, name):
    """Children of the list element `name` directly under `el` (the XSD wraps every list)."""
    for child in el:
        if _tag(child) == name:
            return list(child)
    return []


def _bool(value, default=False) -> bool:
    if value is None:
        return default
    return value.strip().lower() == "true"


def _num(value, default=0.0) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


@dataclass(slots=True)
class Query:
    """What constraints, conditions and repeats share: what to count, where, and how."""
    field: str
    scope: str
    value: float
    percent: bool
    shared: bool
    child_selections: bool
    child_forces: bool


def _query(el) -> Query:
    return Query(
        field=el.get("field", "selections"), scope=el.get("scope", "parent"), value=_num(el.get("value")),
        percent=_bool(el.get("percentValue")), shared=_bool(el.get("shared"), True),
        child_selections=_bool(el.get("includeChildSelections")), child_forces=_bool(el.get("includeChildForces")),
    )


@dataclass(slots=True)
class Constraint:
    id: str
    type: str  # min | max
    q: Query


@dataclass(slots=True)
class Condition:
    type: str
    child_id: str
    q: Query


@dataclass(slots=True)
class Repeat:
    child_id: str
    repeats: int
    round_up: bool
    q: Query


@dataclass(slots=True)
class ConditionGroup:
    type: str  # and | or
    conditions: list
    groups: list


@dataclass(slots=True)
class Modifier:
    type: str
    field: str
    value: str
    conditions: list
    groups: list
    repeats: list


def _conditions(el):
    return [Condition(c.get("type", ""), c.get("childId", ""), _query(c)) for c in _kids(el, "conditions")]


def _condition_groups(el):
    return [ConditionGroup(g.get("type", "and"), _conditions(g), _condition_groups(g))
            for g in _kids(el, "conditionGroups")]


def _repeats(el):
    return [Repeat(r.get("childId", ""), int(_num(r.get("repeats"), 1)), _bool(r.get("roundUp")), _query(r))
            for r in _kids(el, "repeats")]


def _modifiers(el, outer_conditions=(), outer_groups=(), outer_repeats=()):
    """Modifiers in document order; a modifierGroup lends its conditions and repeats to what it holds."""
    out = []
    for m in _kids(el, "modifiers"):
        out.append(Modifier(m.get("type", ""), m.get("field", ""), m.get("value", ""),
                            list(outer_conditions) + _conditions(m), list(outer_groups) + _condition_groups(m),
                            list(outer_repeats) + _repeats(m)))
    for g in _kids(el, "modifierGroups"):
        out.extend(_modifiers(g, list(outer_conditions) + _conditions(g), list(outer_groups) + _condition_groups(g),
                              list(outer_repeats) + _repeats(g)))
    return out


def _constraints(el):
    return [Constraint(c.get("id", ""), c.get("type", ""), _query(c)) for c in _kids(el, "constraints")]


@dataclass(slots=True)
class CategoryLink:
    id: str
    target_id: str
    primary: bool
    constraints: list
    modifiers: list


def _category_links(el):
    return [CategoryLink(c.get("id", ""), c.get("targetId", ""), _bool(c.get("primary")), _constraints(c),
                         _modifiers(c))
            for c in _kids(el, "categoryLinks")]


@dataclass(slots=True, eq=False)
class Element:
    """A selectionEntry (kind 'entry'), selectionEntryGroup ('group') or entryLink ('link')."""
    kind: str
    id: str
    name: str
    type: str  # entry: unit/model/upgrade; link: selectionEntry/selectionEntryGroup; group: ''
    target_id: str
    hidden: bool
    collective: bool
    costs: dict
    constraints: list
    modifiers: list
    categories: list
    children: list
    default_id: str
    catalogue: Catalogue = field(repr=False)


def _element(el, cat) -> Element:
    kind = {"selectionEntry": "entry", "selectionEntryGroup": "group", "entryLink": "link"}[_tag(el)]
    children = [_element(c, cat) for c in _kids(el, "selectionEntries")]
    children += [_element(c, cat) for c in _kids(el, "selectionEntryGroups")]
    children += [_element(c, cat) for c in _kids(el, "entryLinks")]
    return Element(
        kind=kind, id=el.get("id", ""), name=el.get("name", ""), type=el.get("type", ""),
        target_id=el.get("targetId", ""), hidden=_bool(el.get("hidden")), collective=_bool(el.get("collective")),
        costs={c.get("typeId", ""): _num(c.get("value")) for c in _kids(el, "costs")},
        constraints=_constraints(el), modifiers=_modifiers(el), categories=_category_links(el),
        children=children, default_id=el.get("defaultSelectionEntryId", ""), catalogue=cat,
    )


@dataclass(slots=True, eq=False)
class CategoryEntry:
    id: str
    name: str
    hidden: bool
    constraints: list
    modifiers: list
    catalogue: Catalogue = field(repr=False)


@dataclass(slots=True, eq=False)
class ForceEntry:
    id: str
    name: str
    hidden: bool
    constraints: list
    modifiers: list
    categories: list  # CategoryLink, with their constraints
    forces: list  # nested ForceEntry
    catalogue: Catalogue = field(repr=False)


def _force_entry(el, cat) -> ForceEntry:
    return ForceEntry(el.get("id", ""), el.get("name", ""), _bool(el.get("hidden")), _constraints(el), _modifiers(el),
                      _category_links(el), [_force_entry(f, cat) for f in _kids(el, "forceEntries")], cat)


@dataclass(eq=False)
class Catalogue:
    """One .cat or .gst file. `lookup` resolves link targets the way the file sees them."""
    id: str
    name: str
    revision: int
    is_game_system: bool
    library: bool
    path: Path
    root: list = field(default_factory=list)  # root selectionEntries then root entryLinks
    shared: dict = field(default_factory=dict)  # id -> Element (shared entries and groups)
    categories: dict = field(default_factory=dict)
    force_entries: list = field(default_factory=list)
    cost_types: dict = field(default_factory=dict)  # id -> name
    catalogue_links: list = field(default_factory=list)  # (target catalogue id, importRootEntries)
    game_system: Catalogue | None = None
    linked: list = field(default_factory=list)  # resolved Catalogue objects of catalogue_links
    not_read: dict = field(default_factory=dict)  # what this oracle skips on purpose -> count (see README)

    def lookup(self, target_id: str, _seen=None):
        """The shared entry or group `target_id` as seen from this file: its own, then linked, then the system's."""
        if target_id in self.shared:
            return self.shared[target_id]
        seen = _seen if _seen is not None else set()
        seen.add(self.id)
        for other in self.linked:
            if other.id not in seen:
                found = other.lookup(target_id, seen)
                if found is not None:
                    return found
        if self.game_system is not None and self.game_system is not self:
            return self.game_system.shared.get(target_id)
        return None

    def category(self, category_id: str):
        if category_id in self.categories:
            return self.categories[category_id]
        for other in self.linked:
            if category_id in other.categories:
                return other.categories[category_id]
        if self.game_system is not None:
            return self.game_system.categories.get(category_id)
        return None

    def all_categories(self):
        """Category entries visible in a force of this catalogue (own, linked, system), each once."""
        seen = {}
        for source in [self.game_system, *self.linked, self]:
            if source is not None:
                for cid, c in source.categories.items():
                    seen.setdefault(cid, c)
        return list(seen.values())


def read_file(path: Path) -> Catalogue:
    root = SafeET.parse(str(path)).getroot()
    is_gst = _tag(root) == "gameSystem"
    cat = Catalogue(id=root.get("id", ""), name=root.get("name", ""), revision=int(_num(root.get("revision"))),
                    is_game_system=is_gst, library=_bool(root.get("library")), path=Path(path))
    cat.root = [_element(e, cat) for e in _kids(root, "selectionEntries")]
    cat.root += [_element(e, cat) for e in _kids(root, "entryLinks")]
    for e in _kids(root, "sharedSelectionEntries") + _kids(root, "sharedSelectionEntryGroups"):
        el = _element(e, cat)
        cat.shared[el.id] = el
    for c in _kids(root, "categoryEntries"):
        cat.categories[c.get("id", "")] = CategoryEntry(c.get("id", ""), c.get("name", ""), _bool(c.get("hidden")),
                                                        _constraints(c), _modifiers(c), cat)
    cat.force_entries = [_force_entry(f, cat) for f in _kids(root, "forceEntries")]
    cat.cost_types = {c.get("id", ""): c.get("name", "") for c in _kids(root, "costTypes")}
    cat.catalogue_links = [(c.get("targetId", ""), _bool(c.get("importRootEntries")))
                           for c in _kids(root, "catalogueLinks")]
    cat.not_read = _not_read(root)
    return cat


INFO = {"profile", "rule", "infoLink", "infoGroup"}


def _not_read(root) -> dict:
    """Profiles, rules and info links are display only: counted here, never evaluated."""
    out = {}
    for el in root.iter():
        t = _tag(el)
        if t in INFO:
            out[t] = out.get(t, 0) + 1
            for m in _kids(el, "modifiers") + [x for g in _kids(el, "modifierGroups") for x in _kids(g, "modifiers")]:
                key = f"modifier {m.get('type', '')} on a {t}"
                out[key] = out.get(key, 0) + 1
    return out
