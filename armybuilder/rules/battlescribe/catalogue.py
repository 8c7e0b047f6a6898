"""A BattleScribe catalogue as the evaluator sees it: entries, groups and links, resolved into
*layouts* (what can be selected under an entry, through its groups and links).

Built from the catalogue document the importer stores with a handbook (see
``docs/battlescribe-import.md``, "The catalogue document"): one JSON object holding every node
reachable from the catalogue's root entries, the game system's and linked catalogues' shared
entries included, so a handbook revision is self-contained. Nodes are plain dicts::

    {"k": "entry" | "group" | "link" | "force" | "category",
     "name", "type" (entry: unit | model | upgrade), "target" (link: a node id),
     "hidden", "costs" {cost type id: value}, "constraints" [...], "modifiers" [...],
     "categories" [{"id", "target", "primary", "constraints", "modifiers"}],
     "children" [node ids], "default" (group), "collective", "info" [...], "role" (importer hint)}

Constraints, modifiers, conditions and repeats use the normalised form of
:mod:`armybuilder.interchange.battlescribe.nodes`.

A *slot* is one place a selection can be made under a parent entry: the entry itself, the
entry links traversed to reach it (group links included) and the groups it sits in. Its
``path`` is how a roster's ``entryId`` names it relative to the parent: the link ids in order,
then the entry id, joined by ``::``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the evaluator's own types, named in annotations only (evaluate.py imports this module)
    from .evaluate import Facts, Plan

EMPTY: tuple = ()
TEAMS = re.compile(r"(\d+)\s*x\b", re.I)


@lru_cache(maxsize=8192)  # names repeat across every list on a book; the regexes are the cost
def teams_in_name(name: str) -> int:
    """Teams a name counts ("7x MG42 with Panzerfaust, 4x Sd Kfz 251" is 11); counts in brackets describe
    the teams already counted ("2x Panzer III (1x short & 1x long)" is 2)."""
    outside = re.sub(r"\([^)]*\)", " ", name or "")
    return sum(int(n) for n in TEAMS.findall(outside))


NO_MAXIMA: tuple = ((), ())
NOT_OFFERED: tuple = ((), (), False)


def _position(found: tuple) -> tuple:
    return found[0]


class CatalogueError(ValueError):
    """The catalogue document is malformed (a dangling reference, a loop, a wrong kind)."""


@dataclass(eq=False, slots=True)
class Entry:
    """A selection entry or group with the link it is reached through merged over it (BattleScribe merges a
    link's constraints, modifiers, categories and, where it has them, costs over its target)."""

    node_id: str
    node: dict
    link_id: str = ""
    link: dict | None = None
    key: str = ""  # link id or node id: unique for this merged view
    view: EntryView | None = None  # its merged view, kept once worked out (Catalogue.view: asked for at every check)

    @property
    def id(self) -> str:
        return self.node_id

    @property
    def is_group(self) -> bool:
        return self.node.get("k") == "group"

    @property
    def name(self) -> str:
        return str(self.node.get("name") or (self.link or {}).get("name") or "")

    @property
    def type(self) -> str:
        return "group" if self.is_group else str(self.node.get("type") or "upgrade")

    @property
    def hidden(self) -> bool:
        return bool(self.node.get("hidden")) or bool(self.link and self.link.get("hidden"))

    @property
    def role(self) -> str:
        return str((self.link or {}).get("role") or self.node.get("role") or "")

    @property
    def default(self) -> str:
        return str(self.node.get("default") or "")


def _has_kind(node: dict, kind: str) -> bool:
    """Whether a node has a modifier of ``kind`` (as EntryView.by_kind files them)."""
    return any(str(m.get("kind") or "") == kind for m in node.get("modifiers") or EMPTY)


def _merged(entry: Entry, name: str) -> list:
    own = entry.node.get(name) or EMPTY
    linked = (entry.link or {}).get(name) or EMPTY
    return [*own, *linked]


def _merged_costs(entry: Entry) -> dict:
    """The node's costs with the link's over them (read-only: the node's own dict when the link sets none)."""
    own = entry.node.get("costs") or {}
    linked = entry.link.get("costs") if entry.link else None
    return {**own, **linked} if linked is not None else own


@dataclass(eq=False, slots=True)
class Slot:
    """Where a selection of ``entry`` can be made under one parent entry."""

    entry: Entry
    path: str  # links traversed and the entry id, "::"-joined (roster entryId relative to the parent)
    links: tuple  # link ids traversed, outermost first (group links included)
    groups: tuple  # GroupSlot, outermost first
    group_path: str  # roster entryGroupId relative to the parent ("" when in no group)
    ids: frozenset  # what a condition's childId can name to match a selection made here
    index: int = 0  # position in its layout
    keys: frozenset | None = None  # the evaluator's counting keys of a selection made here (kept once worked out)
    layout: Layout | None = None  # what can be chosen under a selection made here (kept once worked out)
    facts: Facts | None = None  # what the evaluator reads of a selection made here, the same every check (kept)


@dataclass(eq=False, slots=True)
class GroupSlot:
    """A group under a parent entry, with the slots inside it (nested groups' slots included)."""

    entry: Entry
    links: tuple
    path: str  # roster entryGroupId relative to the parent
    parent: GroupSlot | None = None
    slots: list = field(default_factory=list)
    index: int = 0


@dataclass(eq=False, slots=True)
class Layout:
    slots: tuple  # Slot
    groups: tuple  # GroupSlot
    by_path: dict  # slot path -> Slot
    checks: LayoutChecks | None = None  # compiled on first use
    plan: Plan | None = None  # the evaluator's index of those checks by what they count (made on first use)

    def find(self, path: str) -> Slot | None:
        """The slot a roster entry path names: exact, then by its last two ids, then by its entry id."""
        try:
            return self.by_path[path]
        except (KeyError, TypeError):
            pass
        slot = self._search(path)
        if isinstance(path, str) and len(self.by_path) < 4 * len(self.slots) + 256:
            # Rosters name slots by shortened paths again and again: the answer (even "none") is kept, as the
            # layout never changes once built; bounded, as paths come from uploaded rosters.
            self.by_path[path] = slot
        return slot

    def _search(self, path) -> Slot | None:
        parts = [p for p in str(path or "").split("::") if p]
        if not parts:
            return None
        if len(parts) >= 2:
            tail = f"{parts[-2]}::{parts[-1]}"
            hits = [s for s in self.slots if s.path.endswith(tail)]
            if len(hits) == 1:
                return hits[0]
        hits = [s for s in self.slots if s.entry.id == parts[-1]]
        return hits[0] if len(hits) == 1 else None


class EntryView:
    """An entry's merged constraints, modifiers (also by kind), categories and costs, worked out once."""

    __slots__ = ("constraints", "modifiers", "by_kind", "category_links", "category_ids", "costs", "may_hide")

    def __init__(self, entry: Entry):
        # Made for every entry a check or an offer reads, thousands per catalogue: the link's and the node's
        # lists are read once each, and nothing is built for what an entry does not have.
        node = entry.node
        link = entry.link or {}
        own, linked = node.get("constraints"), link.get("constraints")
        self.constraints = (*(own or EMPTY), *linked) if linked else tuple(own or EMPTY)
        own, linked = node.get("modifiers"), link.get("modifiers")
        modifiers = self.modifiers = (*(own or EMPTY), *linked) if linked else tuple(own or EMPTY)
        by_kind: dict = {}
        if modifiers:
            for mod in modifiers:
                by_kind.setdefault(str(mod.get("kind") or ""), []).append(mod)
            by_kind = {k: tuple(v) for k, v in by_kind.items()}
        self.by_kind = by_kind
        # The link's categories come first: a primary category on the link wins.
        own, linked = node.get("categories"), link.get("categories")
        categories = self.category_links = (*(linked or EMPTY), *(own or EMPTY)) if own or linked else EMPTY
        self.category_ids = frozenset(str(c.get("target")) for c in categories if c.get("target")) \
            if categories else frozenset()
        self.costs = dict(_merged_costs(entry))  # read-only: callers copy
        self.may_hide = entry.hidden or "hidden" in by_kind


def is_transport(entry: Entry, profiles: dict) -> bool:
    """A Transport Attachment (a profile of that type, shown): a game unit of its own in Flames of War."""
    return any("transport" in str(profiles.get(ref.get("profile"), {}).get("type_name", "")).lower()
               and not ref.get("hidden") for ref in entry.node.get("info") or () if ref.get("profile"))


@dataclass(slots=True)  # not frozen: a frozen dataclass sets each field through object.__setattr__, five times
class Check:  # slower to make, and thousands are compiled per catalogue; nothing changes one once made
    """One constraint of an entry or group offered in a layout, with what counting it needs."""

    owner: Slot | GroupSlot
    constraint: dict
    cid: str
    type: str  # min | max
    scope: str
    children: bool
    value: float
    modified: bool  # a modifier of the owner changes this constraint's value
    key: object  # what a parent-scope count counts: the slot (unshared), the entry id, or the group
    fast: str = ""  # how to count without the general query: parent | force | force-deep | roster | roster-deep
    fast_key: object = None  # the key to look up for a force or roster count


class LayoutChecks:
    """A layout's constraints sorted by what it takes to find them broken: minimums are looked at always,
    parent-scope maximums only when their key is counted among the children, other maximums when their
    scope counts any.

    Every minimum and every group's checks are compiled at once. An entry's maximums, and whether it can be
    hidden, matter only where it is chosen, and most entries a layout offers never are: they are worked out on
    first use (:meth:`Catalogue.slot_checks`), the maximums compiled then unless the entry has another kind of
    limit. Maximums carry a position that sorts them in the
    order an eager compilation would list them (parent-scope ones by the first entry or group counting the same
    key, then the rest, each in entry and constraint order), so broken limits are reported alike either way."""

    __slots__ = ("mins", "group_max", "always", "max_keys", "empty", "_key_rank", "_slots", "_own", "_first_slot")

    def __init__(self, mins: tuple, group_max: tuple, always: tuple, max_keys: frozenset, empty: bool,
                 key_rank: dict, slots: dict, layout: Layout):
        self.mins = mins
        self.group_max = group_max  # (position, Check) of the groups' parent-scope maximums, in order
        self.always = always  # (position, Check): every other check not an entry's own maximum, in order
        self.max_keys = max_keys  # what every parent-scope maximum counts, compiled yet or not
        self.empty = empty
        self._key_rank = key_rank  # parent-scope maximum key -> index of the first owner counting it
        # Slot -> ((position, Check) of its parent-scope maximums, of its other maximums, whether it can be hidden),
        # filled on first use; (maximums, maximums) for an entry whose maximums were compiled with its other limits
        self._slots = slots
        self._own = layout.slots
        self._first_slot = len(layout.groups)  # a slot's index among the owners of checks (groups come first)


class Catalogue:
    """One catalogue document, compiled on demand. Immutable once built: safe to share between threads
    and cache for the life of the process (handbook revisions never change)."""

    MAX_DEPTH = 64  # groups and links nested under one entry; deeper is a loop or a broken file

    def __init__(self, doc: dict):
        if not isinstance(doc, dict) or not isinstance(doc.get("nodes"), dict):
            raise CatalogueError("a catalogue document is an object with 'nodes'")
        self.doc = doc
        self.nodes: dict[str, dict] = doc["nodes"]
        self.points = str(doc.get("points") or "")
        self.cost_types: dict[str, str] = {str(c.get("id")): str(c.get("name") or c.get("id"))
                                           for c in doc.get("cost_types") or () if isinstance(c, dict)}
        self.cost_ids = frozenset(self.cost_types) | ({self.points} if self.points else frozenset())
        self.categories: dict[str, str] = {str(k): str(v) for k, v in (doc.get("categories") or {}).items()}
        # category id -> {"constraints", "modifiers"}: limits a category entry sets on whatever carries it
        self.category_rules: dict[str, dict] = {str(k): v for k, v in (doc.get("category_rules") or {}).items()
                                                if isinstance(v, dict)}
        self.catalogue_id = str((doc.get("catalogue") or {}).get("id") or "")
        self.system_id = str((doc.get("game_system") or {}).get("id") or "")
        self.profiles: dict = doc.get("profiles") or {}
        self.rules: dict = doc.get("rules") or {}
        self._layouts: dict[str, Layout] = {}
        # What every entry without children offers (most entries chosen: models, options): one layout for them all,
        # so nothing is visited, compiled or planned for each. It stays empty: Layout.find keeps only misses there,
        # and a Plan keeps nothing of a slot that is not one of its layout's.
        self._nothing = Layout(slots=EMPTY, groups=EMPTY, by_path={})
        self._views: dict = {}
        # (entry key, points field) -> what the entry's compulsory entries cost at least (offers.required_below)
        self.below: dict[tuple, float] = {}

    def __getstate__(self) -> dict:
        # A pickled catalogue (the shared cache of handbook data) keeps its document only: layouts and views
        # are worked out again on first use, so a deploy that changes their classes never unpickles old ones.
        return {"doc": self.doc}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["doc"])  # type: ignore[misc]

    # -- nodes ------------------------------------------------------------------------------
    def node(self, node_id: str) -> dict:
        node = self.nodes.get(node_id)
        if not isinstance(node, dict):
            raise CatalogueError(f"no node {node_id!r} in the catalogue document")
        return node

    def resolve(self, ref: str) -> Entry:
        """An entry or group by id, or the target of a link with the link merged over it."""
        node = self.node(ref)
        if node.get("k") != "link":
            return Entry(ref, node, "", None, ref)
        target_id = str(node.get("target") or "")
        target = self.node(target_id)
        if target.get("k") not in ("entry", "group"):
            raise CatalogueError(f"link {ref!r} points at {target_id!r}, which is not an entry or a group")
        return Entry(target_id, target, ref, node, ref)

    @cached_property
    def force_entries(self) -> tuple:
        return tuple(Entry(node_id=fid, node=self.node(fid), key=fid) for fid in self.doc.get("force_entries") or ())

    def force_entry(self, entry_id: str | None = None) -> Entry | None:
        for force in self.force_entries:
            if not entry_id or force.id == entry_id:
                return force
        return None

    # -- merged views (worked out once per entry: they are asked for at every check) --------------
    def view(self, entry: Entry) -> EntryView:
        view = entry.view
        if view is not None:
            return view
        key = (entry.key, entry.node_id)
        view = self._views.get(key)
        if view is None:
            view = EntryView(entry)
            self._views[key] = view
        entry.view = view  # the same view for every Entry of one key: looked up by key once per Entry
        return view

    def constraints(self, entry: Entry) -> tuple:
        return self.view(entry).constraints

    def constraints_once(self, entry: Entry) -> tuple | list:
        """:meth:`constraints` for a read made once per entry (a look-ahead over every entry a layout offers, most
        never chosen): no merged view is made for it when there is none yet."""
        view = self._views.get((entry.key, entry.node_id))
        return view.constraints if view is not None else _merged(entry, "constraints")

    def costs_once(self, entry: Entry) -> dict:
        """The entry's plain costs (read-only), as :meth:`constraints_once`: no merged view made for it."""
        view = self._views.get((entry.key, entry.node_id))
        return view.costs if view is not None else _merged_costs(entry)

    def modifiers(self, entry: Entry) -> tuple:
        return self.view(entry).modifiers

    def modifiers_of(self, entry: Entry, kind: str) -> tuple:
        """The entry's modifiers of one kind (cost, hidden, name, category, constraint …)."""
        return self.view(entry).by_kind.get(kind, EMPTY)

    def category_links(self, entry: Entry) -> tuple:
        return self.view(entry).category_links

    def category_ids(self, entry: Entry) -> frozenset:
        return self.view(entry).category_ids

    def costs(self, entry: Entry) -> dict:
        return dict(self.view(entry).costs)

    def may_hide(self, entry: Entry) -> bool:
        """Whether the entry can ever be hidden: hidden in the data or by a modifier."""
        view = self._views.get((entry.key, entry.node_id))
        if view is not None:
            return view.may_hide
        # Asked of every entry a layout offers when its checks are compiled, most of which are never chosen:
        # read from the nodes rather than making a merged view for each.
        return entry.hidden or _has_kind(entry.node, "hidden") or (entry.link is not None
                                                                  and _has_kind(entry.link, "hidden"))

    def children(self, entry: Entry) -> list[str]:
        return [*(entry.node.get("children") or EMPTY), *((entry.link or {}).get("children") or EMPTY)]

    def primary_category(self, entry: Entry) -> str:
        for link in self.category_links(entry):
            if link.get("primary"):
                return str(link.get("target") or "")
        return ""

    def loose_slot(self, path: str) -> Slot | None:
        """A slot for an entry named by id (or ``link::entry``) wherever it is: for pricing trees that
        are not rosters (a shared entry priced on its own)."""
        parts = [p for p in str(path or "").split("::") if p]
        if not parts:
            return None
        try:
            if len(parts) >= 2 and self.nodes.get(parts[-2], {}).get("k") == "link":
                entry = self.resolve(parts[-2])
            else:
                entry = self.resolve(parts[-1])
        except CatalogueError:
            return None
        if entry.is_group:
            return None
        links = (entry.link_id,) if entry.link_id else ()
        return Slot(entry=entry, path=path, links=links, groups=(), group_path="",
                    ids=frozenset({entry.id, *links}))

    # -- compiled checks -----------------------------------------------------------------------
    def checks(self, layout: Layout) -> LayoutChecks:
        compiled = layout.checks
        if compiled is None:
            compiled = self._compile(layout)
            layout.checks = compiled
        return compiled

    def _compile(self, layout: Layout) -> LayoutChecks:
        if not layout.slots and not layout.groups:
            # what most entries chosen (models, options) offer: nothing, so nothing to compile or to hide
            return LayoutChecks(EMPTY, EMPTY, EMPTY, frozenset(), True, {}, {}, layout)
        mins: list = []
        group_max: list = []
        always: list = []
        key_rank: dict = {}  # parent-scope maximum key -> first owner counting it: where an eager compile files it
        slot_max: dict = {}
        any_limit = False
        groups = layout.groups
        owner_index = 0
        for owner in (*groups, *layout.slots):
            is_group = owner_index < len(groups)
            entry = owner.entry
            own = entry.node.get("constraints")
            linked = entry.link.get("constraints") if entry.link else None
            if not own and not linked:
                # most entries offered (options, sizes) have none: nothing to compile, and no merged view made
                # for an entry that may never be chosen
                owner_index += 1
                continue
            any_limit = True
            eager = is_group
            entry_id = entry.node_id
            # Read from the nodes, as the merged view lists them: what every maximum counts, and whether the
            # entry has any limit other than a maximum (compiled now, with its maximums)
            for c in (*(own or EMPTY), *(linked or EMPTY)):
                get = c.get
                ctype = get("type")
                if ctype == "max":
                    if get("scope") == "parent" and not get("children") and not get("percent"):
                        key = owner if is_group or get("shared") is False else entry_id
                        if key not in key_rank:
                            key_rank[key] = owner_index
                else:
                    eager = True
            if eager:
                found_mins, parent, other = self._compile_owner(owner, is_group, owner_index, key_rank)
                mins.extend(found_mins)
                if is_group:
                    group_max.extend(parent)
                    always.extend(other)
                else:
                    always.extend(found for found in other if found[1].type != "max")
                    slot_max[owner] = (tuple(parent), tuple(found for found in other if found[1].type == "max"))
            owner_index += 1
        group_max.sort(key=_position)
        always.sort(key=_position)
        empty = not any_limit and not any(self._slot_may_hide(slot) for slot in layout.slots)
        return LayoutChecks(tuple(mins), tuple(group_max), tuple(always), frozenset(key_rank), empty, key_rank,
                            slot_max, layout)

    def slot_checks(self, checks: LayoutChecks, slot: Slot) -> tuple:
        """What a selection made through ``slot`` brings to its layout's checks: ((position, Check) of its entry's
        parent-scope maximums, (position, Check) of its other maximums, each in order, whether it can be hidden);
        worked out the first time they are asked for. Nothing for a slot that is not one of the layout's."""
        found = checks._slots.get(slot)
        if found is not None and len(found) == 3:
            return found
        own = checks._own
        if not (slot.index < len(own) and own[slot.index] is slot):
            return NOT_OFFERED
        if found is None:
            entry = slot.entry
            if entry.node.get("constraints") or (entry.link and entry.link.get("constraints")):
                _, parent, other = self._compile_owner(slot, False, checks._first_slot + slot.index, checks._key_rank)
                found = (tuple(parent), tuple(other))
            else:
                found = NO_MAXIMA
            # Threads sharing the catalogue may compile the same slot at once: all keep the first one's checks, as
            # a plan files the modifiers it works out for a check by its id
            return checks._slots.setdefault(slot, (*found, self._slot_may_hide(slot)))
        found = checks._slots[slot] = (*found, self._slot_may_hide(slot))  # the same checks, whoever sets it
        return found

    def _slot_may_hide(self, slot: Slot) -> bool:
        """Whether a selection made through the slot can be hidden: its entry, its link or one of its groups."""
        return self.may_hide(slot.entry) or any(self.may_hide(g.entry) for g in slot.groups)

    def _compile_owner(self, owner, is_group: bool, owner_index: int, key_rank: dict) -> tuple:
        """The checks of one entry or group's constraints: (minimums, (position, Check) of parent-scope maximums,
        (position, Check) of the rest)."""
        mins, parent_max, others = [], [], []
        entry = owner.entry
        view = self.view(entry)
        constraint_mods = view.by_kind.get("constraint")
        modded = {m.get("field") for m in constraint_mods} if constraint_mods else EMPTY
        entry_id = entry.node_id
        for index, c in enumerate(view.constraints):
            get = c.get  # each field read once: thousands of constraints are compiled per catalogue
            ctype = get("type")
            scope = str(get("scope") or "")
            children = bool(get("children"))
            percent = get("percent")
            unshared = not is_group and get("shared") is False  # counts only what is chosen through this link
            counted = owner if is_group or unshared else entry_id
            wide = owner if unshared else entry_id  # a deep, force or roster count's key
            fast, fast_key = "", None
            if get("field") == "selections" and not percent and not get("forces"):
                if scope == "parent":
                    if children:
                        fast, fast_key = "parent-deep", wide
                    else:
                        fast = "parent"
                elif scope in ("force", "roster"):
                    fast, fast_key = (scope + "-deep" if children else scope), wide
            cid = get("id")
            check = Check(owner, c, str(cid or ""), ctype, scope, children, get("value", 0), cid in modded,
                          counted, fast, fast_key)
            if ctype == "min":
                mins.append(check)
            elif ctype == "max" and scope == "parent" and not children and not percent:
                parent_max.append(((0, key_rank[counted], owner_index, index), check))
            else:
                others.append(((1, 0, owner_index, index), check))
        parent_max.sort(key=_position)  # an entry's limits counting a key an earlier entry counts too come first
        return mins, parent_max, others

    def release(self) -> None:
        """Forget every layout and view worked out so far, undoing the reference cycles they hold (a group
        and its slots point at each other; the evaluator keeps on each slot the keys it counts it by, the
        slot among them). Only for a catalogue built for one pass that nothing else holds (never one from
        a shared cache): reference counting then frees it at once, where the cyclic collector would
        otherwise walk it, the catalogue document its entries point into included. What the evaluator made once
        per slot and layout (``Slot.facts``, ``Layout.plan``) goes too: a slot's facts hold its keys, the slot
        among them."""
        for layout in self._layouts.values():
            for group in layout.groups:
                group.slots = []
                group.parent = None
            for slot in layout.slots:
                slot.keys = None
                slot.layout = None
                slot.facts = None
            layout.checks = None
            layout.plan = None
        self._layouts.clear()
        self._views.clear()
        self.below.clear()

    # -- layouts ----------------------------------------------------------------------------
    def root_layout(self) -> Layout:
        layout = self._layouts.get("")  # asked for at every root selection a check binds: no list of roots made
        return layout if layout is not None else self._layout("", list(self.doc.get("roots") or ()))

    def layout(self, entry: Entry) -> Layout:
        layout = self._layouts.get(entry.key)
        if layout is not None:
            return layout
        if not entry.node.get("children") and not (entry.link and entry.link.get("children")):
            layout = self._layouts[entry.key] = self._nothing
            return layout
        return self._layout(entry.key, self.children(entry))

    def built_layout(self, entry: Entry) -> Layout | None:
        """The entry's layout if it has been worked out already, else None (none is made)."""
        return self._layouts.get(entry.key)

    def group_members(self, group: Entry, depth: int = 0) -> list[Entry]:
        """The entries a group offers, its nested groups' included, in document order: the entries of its
        slots in a layout (GroupSlot.slots), without making the layout."""
        if depth > self.MAX_DEPTH:
            raise CatalogueError(f"groups nested deeper than {self.MAX_DEPTH} under {group.key}")
        out = []
        for ref in self.children(group):
            entry = self.resolve(ref)
            if entry.node.get("k") == "group":
                out.extend(self.group_members(entry, depth + 1))
            else:
                out.append(entry)
        return out

    def slot_layout(self, slot: Slot) -> Layout:
        """What can be chosen under a selection made through ``slot``."""
        layout = slot.layout
        if layout is None:
            layout = self.layout(slot.entry)
            slot.layout = layout
        return layout

    def _layout(self, key: str, refs: list) -> Layout:
        layout = self._layouts.get(key)
        if layout is not None:
            return layout
        slots: list[Slot] = []
        groups: list[GroupSlot] = []
        self._visit(key, refs, (), (), 0, slots, groups)
        by_path: dict[str, Slot] = {}
        for slot in slots:
            by_path.setdefault(slot.path, slot)
        layout = Layout(slots=tuple(slots), groups=tuple(groups), by_path=by_path)
        self._layouts[key] = layout
        return layout

    def _visit(self, key: str, ref_ids, links: tuple, group_chain: tuple, depth: int, slots: list,
               groups: list) -> None:
        """The slots and groups under ``ref_ids``, appended in document order (a method, not a closure that
        calls itself: such a closure is a reference cycle, which only the cyclic collector would free)."""
        if depth > self.MAX_DEPTH:
            raise CatalogueError(f"groups nested deeper than {self.MAX_DEPTH} under {key or 'the root'}")
        # What every slot made here shares is read once: layouts are made for every entry chosen or priced, each
        # offering dozens of slots (positional arguments below for the same reason).
        group_ids = tuple(g.entry.node_id for g in group_chain)
        group_path = group_chain[-1].path if group_chain else ""
        resolve = self.resolve
        nodes = self.nodes
        for ref in ref_ids:
            node = nodes.get(ref)
            if type(node) is dict and (kind := node.get("k")) != "link":
                # most children are entries named by their own id: resolve's work is for links (and its errors)
                entry = Entry(ref, node, "", None, ref)
                chain = links
                node_id = ref
                path = "::".join((*links, ref)) if links else ref
            else:
                entry = resolve(ref)
                link_id = entry.link_id
                chain = (*links, link_id) if link_id else links
                node_id = entry.node_id
                path = "::".join((*chain, node_id))
                kind = entry.node.get("k")
            if kind == "group":
                group = GroupSlot(entry, chain, path, group_chain[-1] if group_chain else None, [], len(groups))
                groups.append(group)
                self._visit(key, self.children(entry), chain, (*group_chain, group), depth + 1, slots, groups)
                continue
            slot = Slot(entry, path, chain, group_chain, group_path, frozenset((node_id, *chain, *group_ids)),
                        len(slots))
            slots.append(slot)
            for g in group_chain:
                g.slots.append(slot)
