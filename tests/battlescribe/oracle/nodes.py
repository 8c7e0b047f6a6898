"""What a player can pick where: catalogue elements with their entry links resolved.

A `Node` is a selectionEntry or selectionEntryGroup as reached from one place: directly, or through
an entryLink whose constraints, modifiers, category links and costs are merged over the target.
An `Option` is an entry a selection (or a force) can hold as a child: groups are not selections, so
the entries inside groups (at any depth) are options of the entry that holds the groups, each
carrying the chain of groups it sits in.

Paths follow BattleScribe's roster ids: every entryLink id passed on the way from the force root,
then the final entry (or group) id, joined by '::'. A selection's child options therefore carry a
path relative to the selection's own path without its last id (`child_prefix`).
"""
from __future__ import annotations

from dataclasses import dataclass

from .catalogue import CategoryLink


class Node:
    __slots__ = ("kind", "id", "link", "el", "name", "type", "hidden", "collective", "costs", "constraints",
                 "modifiers", "categories", "primary_category", "default_id", "_children", "_options", "lib",
                 "catalogue", "_ginst", "_by_rel")

    def __init__(self, lib, el, link=None):
        self.lib = lib
        self.el = el
        self.link = link
        self.kind = el.kind  # entry | group
        self.id = el.id
        self.name = link.name if link is not None and link.name else el.name
        self.type = el.type if el.kind == "entry" else ""
        self.hidden = el.hidden or (link.hidden if link is not None else False)
        self.collective = el.collective or (link.collective if link is not None else False)
        self.costs = dict(el.costs)
        self.constraints = list(el.constraints)
        self.modifiers = list(el.modifiers)
        cats = list(el.categories)
        if link is not None:
            self.costs.update(link.costs)  # a cost on the link replaces the target's cost of that type
            self.constraints += link.constraints
            self.modifiers += link.modifiers  # applied after the target's own
            if any(c.primary for c in link.categories):
                cats = [CategoryLink(c.id, c.target_id, False, c.constraints, c.modifiers) for c in cats]
            cats += link.categories
        merged = {}
        for c in cats:
            if c.target_id in merged:
                old = merged[c.target_id]
                merged[c.target_id] = CategoryLink(old.id, old.target_id, old.primary or c.primary,
                                                   old.constraints + c.constraints, old.modifiers + c.modifiers)
            else:
                merged[c.target_id] = c
        self.categories = list(merged.values())
        self.primary_category = next((c.target_id for c in self.categories if c.primary), None)
        self.default_id = el.default_id
        self.catalogue = el.catalogue
        self._children = None
        self._options = None
        self._ginst = None
        self._by_rel = None

    def __repr__(self):
        return f"<Node {self.kind} {self.id}{' via ' + self.link.id if self.link else ''} {self.name!r}>"

    @property
    def step(self) -> tuple:
        """The path ids this node adds: its link (if any) and its own id."""
        return (self.link.id, self.id) if self.link is not None else (self.id,)

    @property
    def children(self) -> list:
        if self._children is None:
            self._children = self.lib.resolve_children(self.el.children, self.el.catalogue)
            if self.link is not None and self.link.children:
                self._children += self.lib.resolve_children(self.link.children, self.link.catalogue)
        return self._children

    @property
    def options(self) -> list:
        """Entries a selection of this node can hold directly, through any depth of groups."""
        if self._options is None:
            self._options = collect_options(self.children)
        return self._options

    @property
    def options_by_rel(self) -> dict:
        if self._by_rel is None:
            self._by_rel = {o.rel: o for o in self.options}
        return self._by_rel

    @property
    def group_instances(self) -> list:
        """Each group instance under this node once, with the groups around it (outermost first)."""
        if self._ginst is None:
            self._ginst = group_instances(self.options)
        return self._ginst


@dataclass(frozen=True, slots=True)
class GroupInstance:
    node: Node
    rel: tuple  # path ids relative to the holder's child prefix, ending with the group id


@dataclass(frozen=True, slots=True)
class Option:
    rel: tuple  # path ids relative to the holder's child prefix, ending with the entry id
    node: Node
    groups: tuple  # GroupInstance, outermost first

    @property
    def rel_key(self) -> str:
        return "::".join(self.rel)


def collect_options(children, rel_prefix=(), groups=(), depth=0) -> list:
    out = []
    if depth > 40:  # a group that holds itself through links; nothing in the FoW data does
        return out
    for child in children:
        step = (child.link.id,) if child.link is not None else ()
        if child.kind == "entry":
            out.append(Option(rel_prefix + step + (child.id,), child, groups))
        else:
            inst = GroupInstance(child, rel_prefix + step + (child.id,))
            out.extend(collect_options(child.children, rel_prefix + step, groups + (inst,), depth + 1))
    return out


def group_instances(options) -> list:
    seen = {}
    for opt in options:
        for i, g in enumerate(opt.groups):
            if g.rel not in seen:
                seen[g.rel] = (g, opt.groups[:i])
    return list(seen.values())


class ForceRoot:
    """The force: root entries of its catalogue, of the game system and of catalogues it imports."""

    def __init__(self, lib, catalogue, force_entry):
        self.lib = lib
        self.catalogue = catalogue
        self.force_entry = force_entry
        elements = []
        seen = set()
        for cat in [catalogue, *[c for c, imp in lib.imported_roots(catalogue)], lib.game_system]:
            if cat.id in seen:
                continue
            seen.add(cat.id)
            elements.extend((e, cat) for e in cat.root)
        self.children = []
        for el, cat in elements:
            self.children += lib.resolve_children([el], cat)
        self.options = collect_options(self.children)
        self.options_by_rel = {o.rel: o for o in self.options}
        self.group_instances = group_instances(self.options)
