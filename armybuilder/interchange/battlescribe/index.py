"""An in-memory index of one game system and its catalogues.

* ``Index.visible(cat)``: the catalogue, the catalogues it links (transitively)
  and the game system, in lookup order.
* ``Index.lookup(cat, id)``: a shared entry, group, rule, profile or info group.
* ``Index.entry(node, cat)``: an :class:`Entry` view of a selection entry or
  group, with an entry link merged over its target (the link's constraints,
  modifiers and category links are added to the target's; link costs, where
  given, replace the target's).
"""
from __future__ import annotations

from dataclasses import dataclass

from .nodes import Catalogue, CategoryLink, InfoGroup, Node, Profile, Rule


class cached_property:  # noqa: N801 - used like functools.cached_property
    """functools.cached_property without its lock (Python 3.11 takes one on every first read): an import
    makes tens of thousands of entries, each read by one thread only."""

    def __init__(self, func):
        self.func, self.name, self.__doc__ = func, func.__name__, func.__doc__

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)  # found in the instance from now on
        return value


@dataclass(eq=False)
class Entry:
    """A selection entry or group as a roster sees it (link merged over target)."""

    node: Node  # the target (or the inline entry)
    link: Node | None
    catalogue_id: str  # the catalogue it is used from (for lookups of its children)
    prefix: str = ""  # path of enclosing links for ids ("a::b" roster style), without this entry

    @property
    def id(self) -> str:
        return self.node.id

    @property
    def path(self) -> str:
        """Roster-style entry id: ``link::target`` for a link, else the entry id."""
        return f"{self.link.id}::{self.node.id}" if self.link else self.node.id

    @property
    def code(self) -> str:
        return self.path

    @property
    def name(self) -> str:
        return self.node.name or (self.link.name if self.link else "")

    @property
    def type(self) -> str:
        return self.node.type if not self.node.is_group else "group"

    @property
    def is_group(self) -> bool:
        return self.node.is_group

    @property
    def hidden(self) -> bool:
        return self.node.hidden or bool(self.link and self.link.hidden)

    @cached_property
    def constraints(self) -> list[dict]:
        return self.node.constraints + (self.link.constraints if self.link else [])

    @cached_property
    def modifiers(self) -> list[dict]:
        return self.node.modifiers + (self.link.modifiers if self.link else [])

    @cached_property
    def category_links(self) -> list[CategoryLink]:
        return (self.link.category_links if self.link else []) + self.node.category_links

    @cached_property
    def costs(self) -> dict[str, float]:
        costs = dict(self.node.costs)
        if self.link and self.link.has_costs:
            costs.update(self.link.costs)
        return costs

    @property
    def primary_category(self) -> str:
        for cl in self.category_links:
            if cl.primary:
                return cl.target_id
        return ""

    @property
    def categories(self) -> set[str]:
        return {cl.target_id for cl in self.category_links}

    @property
    def children(self) -> list[Node]:
        return self.node.children + ([c for c in self.link.children] if self.link else [])

    def limits(self) -> tuple[int | None, int | None]:
        """min/max selections in the parent, from the constraints (link ones win)."""
        lo = hi = None
        for c in self.constraints:
            if c["field"] == "selections" and c["scope"] == "parent" and not c.get("percent"):
                value = int(c["value"])
                if value < 0:  # BattleScribe writes -1 for "no limit"
                    continue
                if c["type"] == "min":
                    lo = value
                elif c["type"] == "max":
                    hi = value
        return lo, hi


class Index:
    def __init__(self, system: Catalogue, catalogues: list[Catalogue]):
        self.system = system
        self.catalogues: dict[str, Catalogue] = {c.id: c for c in catalogues}
        self._visible: dict[str, list[Catalogue]] = {}
        constraint_ids = set(system.constraint_ids)
        for cat in catalogues:
            constraint_ids |= cat.constraint_ids
        for cat in [system, *catalogues]:
            for mod in cat.all_modifiers:
                if mod["kind"] == "constraint?":
                    mod["kind"] = "constraint" if mod["field"] in constraint_ids else "other"
        self.category_names = {c.id: c.name for c in system.categories}
        for cat in catalogues:
            for c in cat.categories:
                self.category_names.setdefault(c.id, c.name)
        self.cost_types = {c.id: c for c in system.cost_types}
        self.profile_types = {p.id: p for p in system.profile_types}
        for cat in catalogues:
            for p in cat.profile_types:
                self.profile_types.setdefault(p.id, p)

    # -- catalogues -----------------------------------------------------
    def visible(self, cat_id: str) -> list[Catalogue]:
        if cat_id not in self._visible:
            order: list[Catalogue] = []
            seen: set[str] = set()
            # Depth first, in link order. A loop rather than a recursive inner function: that one would
            # hold itself and this index in a reference cycle, kept until the garbage collector ran.
            stack = [cat_id]
            while stack:
                cid = stack.pop()
                if cid in seen:
                    continue
                seen.add(cid)
                cat = self.catalogues.get(cid) or (self.system if cid == self.system.id else None)
                if cat is None:
                    continue
                order.append(cat)
                stack.extend(link.target_id for link in reversed(cat.catalogue_links))
            if self.system.id not in seen:
                order.append(self.system)
            self._visible[cat_id] = order
        return self._visible[cat_id]

    def missing_links(self, cat: Catalogue) -> list[tuple[str, str]]:
        return [(link.id, link.target_id) for link in cat.catalogue_links if link.target_id not in self.catalogues]

    def lookup(self, cat_id: str, ident: str):
        for cat in self.visible(cat_id):
            found = cat.by_id.get(ident)
            if found is not None:
                return found
        return None

    def link(self, cat_id: str, ident: str) -> Node | None:
        for cat in self.visible(cat_id):
            found = cat.links.get(ident)
            if found is not None:
                return found
        return None

    def owner_of(self, cat_id: str, ident: str) -> str:
        for cat in self.visible(cat_id):
            if ident in cat.by_id:
                return cat.id
        return ""

    # -- entries --------------------------------------------------------
    def entry(self, node: Node, cat_id: str, prefix: str = "") -> Entry | None:
        """The entry a node stands for; None when a link's target cannot be found."""
        if not node.is_link:
            return Entry(node=node, link=None, catalogue_id=cat_id, prefix=prefix)
        target = self.lookup(cat_id, node.target_id)
        if not isinstance(target, Node) or target.tag not in ("selectionEntry", "selectionEntryGroup"):
            return None
        return Entry(node=target, link=node, catalogue_id=cat_id, prefix=prefix)

    def children(self, entry: Entry) -> list[tuple[Node, Entry | None]]:
        return [(c, self.entry(c, entry.catalogue_id)) for c in entry.children]

    def profile(self, cat_id: str, ident: str) -> Profile | None:
        p = self.lookup(cat_id, ident)
        return p if isinstance(p, Profile) else None

    def rule(self, cat_id: str, ident: str) -> Rule | None:
        r = self.lookup(cat_id, ident)
        return r if isinstance(r, Rule) else None

    def info_group(self, cat_id: str, ident: str) -> InfoGroup | None:
        g = self.lookup(cat_id, ident)
        return g if isinstance(g, InfoGroup) else None
