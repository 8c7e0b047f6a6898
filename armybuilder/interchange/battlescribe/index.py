"""An in-memory index of one game system and its catalogues.

* ``Index.visible(cat)``: the catalogue, the catalogues it links (transitively)
  and the game system, in lookup order.
* ``Index.lookup(cat, id)``: a shared entry, group, rule, profile or info group.
* ``Index.entry(node, cat)``: an :class:`Entry` view of a selection entry or
  group, with an entry link merged over its target (the link's constraints,
  modifiers and category links are added to the target's; link costs, where
  given, replace the target's).

An index remembers what it has looked up and the entries it has made (one
import asks for each many times), so the catalogues must not change once
indexed.
"""
from __future__ import annotations

from .nodes import Catalogue, CategoryLink, InfoGroup, Node, Profile, Rule

_NO_CATEGORIES: frozenset[str] = frozenset()


class Entry:
    """A selection entry or group as a roster sees it (link merged over target).

    Made once per node and catalogue by :meth:`Index.entry`, with the merged fields worked out then: a mapping
    reads them many times over. They are shared, so read them only (a list without a link is its node's own)."""

    __slots__ = ("node", "link", "catalogue_id", "id", "path", "name", "type", "is_group", "hidden", "constraints",
                 "modifiers", "category_links", "costs", "primary_category", "categories", "children", "_limits")

    def __init__(self, node: Node, link: Node | None, catalogue_id: str):
        self.node = node  # the target (or the inline entry)
        self.link = link
        self.catalogue_id = catalogue_id  # the catalogue it is used from (for lookups of its children)
        self.id = node.id
        self.is_group = node.tag == "selectionEntryGroup"
        self.type = "group" if self.is_group else node.type
        self.category_links: list[CategoryLink]
        self.costs: dict[str, float]
        if link is None:
            self.path = node.id  # roster-style entry id: ``link::target`` for a link
            self.name = node.name
            self.hidden = node.hidden
            self.constraints: list[dict] = node.constraints
            self.modifiers: list[dict] = node.modifiers
            self.category_links = node.category_links
            self.costs = node.costs
            self.children: list[Node] = node.children
        else:
            self.path = f"{link.id}::{node.id}"
            self.name = node.name or link.name
            self.hidden = node.hidden or link.hidden
            self.constraints = node.constraints + link.constraints
            self.modifiers = node.modifiers + link.modifiers
            self.category_links = link.category_links + node.category_links
            self.costs = {**node.costs, **link.costs} if link.has_costs else node.costs
            self.children = node.children + link.children
        if self.category_links:
            self.primary_category = ""
            for cl in self.category_links:  # a loop, not next() over a generator: made for every entry
                if cl.primary:
                    self.primary_category = cl.target_id
                    break
            self.categories = frozenset([cl.target_id for cl in self.category_links])
        else:  # most options have no categories
            self.primary_category = ""
            self.categories = _NO_CATEGORIES
        self._limits: tuple[int | None, int | None] | None = None

    def limits(self) -> tuple[int | None, int | None]:
        """min/max selections in the parent, from the constraints (link ones win)."""
        if self._limits is None:
            self._limits = self._read_limits()
        return self._limits

    def _read_limits(self) -> tuple[int | None, int | None]:
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
        self._found: dict[tuple[str, str], object] = {}  # the same info links are followed from many entries
        self._entries: dict[tuple[Node, str], Entry | None] = {}
        self._resolved: dict[Entry, tuple[tuple[Entry, ...], tuple[Node, ...]]] = {}
        self._leaves: dict[Entry, tuple[tuple[Entry, ...], tuple[Node, ...]]] = {}
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
        key = (cat_id, ident)
        found = self._found.get(key, self)
        if found is self:  # not looked up yet (None is an answer: not found)
            found = self._found[key] = self._find(cat_id, ident)
        return found

    def _find(self, cat_id: str, ident: str):
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
    def entry(self, node: Node, cat_id: str) -> Entry | None:
        """The entry a node stands for; None when a link's target cannot be found. The same node and
        catalogue give the same Entry (an import asks for each one many times)."""
        key = (node, cat_id)
        found = self._entries.get(key, self)
        if found is self:
            found = self._entries[key] = self._make_entry(node, cat_id)
        return found  # type: ignore[return-value]

    def _make_entry(self, node: Node, cat_id: str) -> Entry | None:
        if node.tag != "entryLink":
            return Entry(node, None, cat_id)
        target = self.lookup(cat_id, node.target_id)
        if not isinstance(target, Node) or target.tag not in ("selectionEntry", "selectionEntryGroup"):
            return None
        return Entry(target, node, cat_id)

    def resolved(self, entry: Entry) -> tuple[tuple[Entry, ...], tuple[Node, ...]]:
        """An entry's children as entries, and the links among them whose target cannot be found."""
        found = self._resolved.get(entry)
        if found is None:
            children, missing = [], []
            for node in entry.children:
                child = self.entry(node, entry.catalogue_id)
                if child is None:
                    missing.append(node)
                else:
                    children.append(child)
            found = self._resolved[entry] = (tuple(children), tuple(missing))
        return found

    def leaves(self, group: Entry) -> tuple[tuple[Entry, ...], tuple[Node, ...]]:
        """The selection entries under a group, nested groups flattened, and the links met on the way whose
        target cannot be found (in the order met)."""
        found = self._leaves.get(group)
        if found is None:
            children, missing = self.resolved(group)
            leaves: list[Entry] = []
            dangling = list(missing)
            for child in children:
                if child.is_group:
                    more, more_missing = self.leaves(child)
                    leaves += more
                    dangling += more_missing
                else:
                    leaves.append(child)
            found = self._leaves[group] = (tuple(leaves), tuple(dangling))
        return found

    def profile(self, cat_id: str, ident: str) -> Profile | None:
        p = self.lookup(cat_id, ident)
        return p if isinstance(p, Profile) else None

    def rule(self, cat_id: str, ident: str) -> Rule | None:
        r = self.lookup(cat_id, ident)
        return r if isinstance(r, Rule) else None

    def info_group(self, cat_id: str, ident: str) -> InfoGroup | None:
        g = self.lookup(cat_id, ident)
        return g if isinstance(g, InfoGroup) else None
