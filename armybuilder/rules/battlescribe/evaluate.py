"""BattleScribe semantics over a bound roster: costs, visibility, names, categories and every
constraint, with their modifiers, conditions, condition groups and repeats.

What BattleScribe 2.03 means, as this evaluator reads it (the BSData schema and wiki):

* **Counting.** A query counts, in its *scope*, the ``number`` of selections its ``childId``
  names: the direct children of the scope node, or all its descendants with
  ``includeChildSelections``. A child id names a selection made through that entry, link or
  group, or carrying that category; ``unit``/``model``/``upgrade`` name the entry type, ``any``
  every selection. With a cost type as the field the costs of those selections are summed
  instead; ``limit::<cost type>`` is the roster's limit of that cost.
* **Scopes.** ``self`` (the selection), ``parent`` (the selection holding it, or its force),
  ``force`` (with nested forces under ``includeChildForces``), ``roster`` (every force),
  ``ancestor`` (instanceOf: any selection above), ``primary-category`` (the selections sharing
  the primary category in the force) or an id: the nearest selection at or above this one made
  through that entry, link or group; else a force with that force entry or catalogue id; else the
  roster when it is the game system's id. A scope that names nothing counts 0.
* **Constraints** are checked where their entry could be selected: at every selection (or force)
  whose entry offers the constrained entry or group; an entry's maximums only where it is
  selected (New Recruit binds only minimums to entries not taken), so a force-wide maximum on a
  support link does not count the same unit taken inside a formation. ``shared="false"`` counts only the
  selections made through that very link; otherwise every selection of the entry counts,
  whichever link it came through. A max of -1 is no limit. A ``percentValue`` limit is that
  percentage of the same count taken over every selection in the scope.
* **Modifiers** apply in document order (the target's, then its link's) when their conditions
  hold, ``repeats × floor(count / value)`` times with repeats (``roundUp``: ceil). They change
  costs, ``hidden``, names, categories and constraint values (``field`` = the constraint's id).
* **Hidden.** An entry or group that is hidden where it would be selected is not offered, its
  minimums do not apply (the data switches between alternative groups by hiding them), and a
  selection made there anyway breaks the list.

Whatever a catalogue holds outside this is listed by :func:`unevaluated` (the importer prints
it) and, if met while evaluating, recorded in ``Evaluation.unevaluated``: never silently dropped.
"""
from __future__ import annotations

import math
import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass

from .catalogue import Catalogue, Entry, GroupSlot, Slot, is_transport, teams_in_name
from .tree import ForceScope, Roster, Sel

COMPARE = {
    "lessThan": lambda a, b: a < b,
    "greaterThan": lambda a, b: a > b,
    "equalTo": lambda a, b: a == b,
    "notEqualTo": lambda a, b: a != b,
    "atLeast": lambda a, b: a >= b,
    "atMost": lambda a, b: a <= b,
}
INSTANCE = ("instanceOf", "notInstanceOf")
NAMED_SCOPES = {"self", "parent", "force", "roster", "ancestor", "primary-category", "primary-catalogue"}
TYPES = ("unit", "model", "upgrade")


def tidy(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(value, 4)


@dataclass(frozen=True, slots=True)
class Violation:
    """One way the roster breaks the data."""

    kind: str  # min | max | hidden
    owner: str  # entry | group | category
    name: str  # what it is on (an entry, group or category name)
    limit: float
    count: float
    scope: str
    constraint: str  # constraint id ('' for hidden)
    at: Sel | ForceScope  # where it was evaluated
    selections: tuple = ()  # the selections concerned (their refs point into the list)
    slot: Slot | GroupSlot | None = None  # for fixes: what to add or remove


@dataclass(slots=True)
class Virtual:
    """An entry that could be selected under ``parent`` but is not: the context of its modifiers."""

    slot: Slot | None
    parent: Sel | ForceScope
    force: ForceScope
    children: tuple = ()
    number: int = 0
    keys: frozenset = frozenset()

    def ancestors(self):
        node = self.parent if isinstance(self.parent, Sel) else None
        while node is not None:
            yield node
            node = node.parent

    @property
    def container(self):
        return self.parent


class Facts:
    """What the evaluator reads of a selection made through one slot that no list changes: its counting keys
    before category modifiers, its entry's merged view and plain costs, the modifiers it has of the kinds read
    at every check, and what the Flames of War figures read of it. Made once per slot (``Slot.facts``)."""

    __slots__ = ("keys", "view", "costs", "cost_mods", "cost_plan", "category_mods", "name_mods", "name", "teams",
                 "model", "card", "_transport", "_entry", "_profiles")

    def __init__(self, slot: Slot, catalogue: Catalogue):
        entry = slot.entry
        view = catalogue.view(entry)
        etype = entry.type  # a property reading the node: once
        keys = slot.keys
        if keys is None:
            keys = slot.ids | view.category_ids | {etype, "any", slot, *slot.groups}
            slot.keys = keys
        self.keys = keys
        self.view = view
        self.costs = view.costs
        self.cost_mods = view.by_kind.get("cost") or None
        # per cost field, in the order the fields first appear: its modifiers with their conditions compiled
        self.cost_plan = None if self.cost_mods is None else tuple(
            (fld, tuple((m, condition(m["when"]) if m.get("when") else None) for m in self.cost_mods
                        if m.get("field") == fld))
            for fld in dict.fromkeys(m.get("field") for m in self.cost_mods))
        self.category_mods = view.by_kind.get("category") or None
        self.name_mods = view.by_kind.get("name") or None
        self.name = entry.name
        self.teams = teams_in_name(self.name) if self.name_mods is None else None  # None: the name may change
        self.model = etype == "model"
        self.card = entry.role == "card"
        # read only by the Flames of War figures of a checked list, not while completing one: worked out then
        self._transport: bool | None = None
        self._entry = entry
        self._profiles = catalogue.profiles

    @property
    def transport(self) -> bool:
        """Whether the entry is a Transport Attachment (is_transport)."""
        found = self._transport
        if found is None:
            found = self._transport = is_transport(self._entry, self._profiles)
        return found

    def __reduce__(self):
        # A pickled catalogue (the shared game data cache) leaves what the evaluator worked out behind: it holds
        # compiled conditions, and is made again on first use.
        return _absent, ()


def _absent():
    return None


def condition(tree: dict):
    """``tree`` as a function of (evaluation, context) that says what :meth:`Evaluation.holds` says, with the
    reading of the tree done once: for conditions met at every check (cost modifiers). Anything but
    and/or and the plain selection counts is left to ``holds``."""
    if "and" in tree:
        parts = tuple(condition(t) for t in tree["and"])
        return lambda ev, ctx: all(part(ev, ctx) for part in parts)
    if "or" in tree:
        parts = tuple(condition(t) for t in tree["or"])
        return lambda ev, ctx: any(part(ev, ctx) for part in parts)
    compare = COMPARE.get(tree.get("type", ""))
    fld = str(tree.get("field") or "selections")
    scope = str(tree.get("scope") or "")
    if compare is None or fld != "selections" or scope == "primary-category" or tree.get("forces"):
        return lambda ev, ctx: ev.holds(tree, ctx)
    child = str(tree.get("child") or "any")
    value = tree.get("value", 0)
    if tree.get("children"):
        def deep(ev, ctx) -> bool:
            node = ev._scope(scope, ctx)
            return compare(ev.deep(node).get(child, 0) if node is not None else 0, value)
        return deep

    def direct(ev, ctx) -> bool:
        node = ev._scope(scope, ctx)
        return compare(ev.direct(node).get(child, 0) if node is not None else 0, value)
    return direct


def facts(slot: Slot, catalogue: Catalogue) -> Facts:
    made = slot.facts
    if made is None:
        made = Facts(slot, catalogue)
        slot.facts = made
    return made


GROWING = frozenset({"parent", "parent-deep", "force", "force-deep", "roster", "roster-deep"})  # Check.fast counts
NOTHING_HIDDEN: dict = {}  # read only: no child hidden where a layout is checked


def _in_order(found: list) -> list:
    """Checks tagged with their compiled position, in that order, each once (a slot chosen twice adds its
    checks twice)."""
    if len(found) == 1:
        return [found[0][1]]
    found.sort(key=_position)
    out = []
    last = -1
    for position, check in found:
        if position != last:
            out.append(check)
            last = position
    return out


def _position(found: tuple) -> int:
    return found[0]


class Plan:
    """A layout's compiled checks (catalogue.checks) indexed by what finds them broken, the same for every list:

    * ``mins``: every minimum, looked at always;
    * an entry's maximums by the slot they are on (an entry's maximum is judged only where it is chosen),
      ``group_max`` a group's parent-scope maximums (counted by the group), ``always`` whatever else;
    * ``watched``: the keys the parent-scope counts read;
    * ``seats``: for each slot of the layout met so far, what a selection made there brings to the check: the
      watched keys it carries, its parent-scope and other maximums, whether it can be hidden, and the numbers
      it can be chosen at alone here without breaking a parent-scope limit (most selections hold one choice:
      then those limits need no counting).

    Maximums carry their position in the compiled order, so that limits broken together are reported in
    the same order whatever was chosen first."""

    __slots__ = ("empty", "mins", "other_mins", "group_max", "always", "watched", "free", "combos", "seats",
                 "limits", "_own", "steady", "_checks", "_catalogue")

    def __init__(self, catalogue: Catalogue, checks, layout):
        self.empty = checks.empty
        self.mins = checks.mins
        # Every minimum a plain count of selections (which adding selections can only raise, while what each
        # counts as is fixed) against a value no modifier changes: once all are met, they stay met as the list
        # grows (Evaluation.first_unmet_minimum, ``settled``).
        self.steady = all(not c.modified and c.fast in GROWING for c in checks.mins)
        self.other_mins = tuple(c for c in checks.mins if c.fast != "parent")  # not counted among the children
        self.watched = frozenset({c.key for c in checks.mins if c.fast == "parent"} | checks.max_keys)
        self.group_max = checks.group_max
        self.always = checks.always
        self.seats: dict = {}  # Slot of this layout -> (watched keys, parent max, other max, hideable, alone)
        # Slot of this layout -> the numbers ``alone`` gives it, when a selection made there alone, not hidden and
        # counted as its facts say, leaves no check to look at (no other minimum, no maximum in another scope)
        self.free: dict = {}
        # the slots of a node's children, in order -> their seats and the maximums to look at, in compiled order
        self.combos: dict = {}
        # id() of one of its checks -> the modifiers of its constraint with their conditions compiled (_check_limit);
        # the checks are this plan's own, alive as long as it is
        self.limits: dict = {}
        self._own = layout.slots
        # an entry's maximums are compiled when a selection of it is first seated here (Catalogue.slot_checks); the
        # compiled checks are kept with them, alive as long as this plan is
        self._checks = checks
        self._catalogue = catalogue

    def __reduce__(self):
        return _absent, ()  # as Facts: made again on first use after unpickling

    def seat(self, slot: Slot) -> tuple:
        made = slot.facts
        hits = tuple(made.keys & self.watched) if made is not None else ()
        parent_max, other_max, hideable = self._catalogue.slot_checks(self._checks, slot)
        seat = (hits, parent_max, other_max, hideable, self._alone(hits, parent_max))
        own = self._own
        if made is not None and slot.index < len(own) and own[slot.index] is slot:
            self.seats[slot] = seat  # a slot of this layout: kept with it (a loose slot is not)
            if seat[4] is not None and not (seat[2] or seat[3] or self.other_mins or self.always):
                self.free[slot] = seat[4]
        return seat

    def combo(self, slots: tuple) -> tuple:
        """For children chosen through ``slots`` (in order): each one's seat, the parent-scope maximums their
        entries and groups bring and their other maximums with the layout's other checks, each list in compiled
        order and once. Kept (a bounded number) when every slot is one of this layout's."""
        seats = []
        found: list = []
        later: list = [*self.always]
        kept = True
        for slot in slots:
            seat = self.seats.get(slot)
            if seat is None:
                seat = self.seat(slot)
                kept = kept and self.seats.get(slot) is seat
            seats.append(seat)
            found.extend(seat[1])
            later.extend(seat[2])
        if self.group_max and slots:
            found = [*self.group_max, *found]
        made = (tuple(seats), tuple(_in_order(found)) if found else (), tuple(_in_order(later)) if later else ())
        if kept and len(self.combos) < 512:  # bounded: the children come from uploaded lists
            self.combos[slots] = made
        return made

    def _alone(self, hits: tuple, parent_max: tuple) -> tuple | None:
        """The numbers a selection made through a slot can have, chosen alone here, without breaking a plain
        parent-scope minimum or maximum: (low, high); None when one breaks whatever the number, or a modifier
        may change a limit. Such a check counts the watched keys of the children, here only this one's."""
        low, high = 0, math.inf
        for check in self.mins:
            if check.fast != "parent":
                continue
            if check.modified:
                return None
            if check.key in hits:
                low = max(low, check.value)
            elif check.value > 0:
                return None  # nothing here counts for it: the minimum is broken
        for _, check in (*parent_max, *self.group_max):
            if check.modified:
                return None
            if check.key in hits:
                high = min(high, check.value)
        return low, high


def plan(catalogue: Catalogue, layout) -> Plan:
    compiled = layout.plan
    if compiled is None:
        compiled = Plan(catalogue, catalogue.checks(layout), layout)
        layout.plan = compiled
    return compiled


class Evaluation:
    """Everything BattleScribe would say about one roster. Values are worked out on demand and kept."""

    def __init__(self, roster: Roster):
        self._start(roster)
        selections: list[Sel] = []
        moded: list[Sel] = []
        spans: list[tuple] = []  # (force, its first selection's index, the index after its last)
        for force in roster.all_forces():  # depth first, as ForceScope.walk
            spans.append((force, len(selections)))
            stack = list(reversed(force.children))
            while stack:
                sel = stack.pop()
                selections.append(sel)
                made = sel.slot.facts or facts(sel.slot, sel.force.catalogue)
                sel.keys = made.keys
                if made.category_mods is not None:
                    moded.append(sel)
                if sel.children:
                    stack.extend(reversed(sel.children))
        self.selections = selections
        ends = [start for _, start in spans[1:]] + [len(selections)]
        self._spans = [(force, start, end) for (force, start), end in zip(spans, ends, strict=True)]
        # Whether a selection has category modifiers: what it counts as may then change with the rest of the list
        self._keys_may_change = bool(moded)
        if moded:
            self._apply_category_modifiers(moded)

    def _start(self, roster: Roster) -> None:
        """Nothing worked out yet: the state of an evaluation before it walks the roster."""
        self.roster = roster
        self.unevaluated: set[tuple[str, str]] = set()
        self._direct: dict[int, dict] = {}  # id(node) -> how many of each key among its children
        self._deep: dict[int, dict] = {}  # the same among its descendants
        self._deep_keys: dict[tuple, float] = {}  # (id(node), key) -> deep count, when no whole counter was made
        self._costs: dict[int, dict] = {}
        self._busy: set[int] = set()
        self._hidden: dict[tuple, bool] = {}
        self._primary: dict[int, str] = {}
        self._violations: list | None = None

    def grown(self, sel: Sel, new: bool) -> Evaluation:
        """What ``Evaluation(roster)`` makes once ``sel`` was added as the last child of its parent (or force), when
        ``new``, or had its number raised (complete_roster's steps), without walking the roster again: this
        evaluation's list of selections with ``sel`` put in its place, depth first. All that is worked out from the
        list (counts, costs, visibility, checks) is worked out anew, as by a new evaluation. When a category
        modifier may change what a selection counts as, the roster is walked again (a new evaluation)."""
        made = sel.slot.facts or facts(sel.slot, sel.force.catalogue)
        if self._keys_may_change or made.category_mods is not None:
            return Evaluation(self.roster)
        grown = Evaluation.__new__(Evaluation)
        grown._start(self.roster)
        grown._keys_may_change = False
        sel.keys = made.keys
        if not new:  # the same selections: the list (never changed once made) is shared
            grown.selections = self.selections
            grown._spans = self._spans
            return grown
        force = sel.force
        selections = self.selections
        parent = sel.parent
        if parent is None:
            assert force.children[-1] is sel, "a new root selection is its force's last"
            index = next(end for f, _, end in self._spans if f is force)
        else:
            siblings = parent.children
            assert siblings[-1] is sel, "a new selection is its parent's last child"
            # depth first, it comes after its parent and everything under the parent's other children
            last = siblings[-2] if len(siblings) > 1 else parent
            while last is not parent and last.children:
                last = last.children[-1]
            index = selections.index(last) + 1
        grown.selections = [*selections[:index], sel, *selections[index:]]
        spans = []
        after = False
        for f, start, end in self._spans:
            if after:
                spans.append((f, start + 1, end + 1))
            elif f is force:
                spans.append((f, start, end + 1))
                after = True
            else:
                spans.append((f, start, end))
        grown._spans = spans
        return grown

    # -- what a selection counts as ------------------------------------------------------------
    @staticmethod
    def _static_keys(sel: Sel) -> frozenset:
        """What a selection made through its slot counts as, before category modifiers: the same every time."""
        return (sel.slot.facts or facts(sel.slot, sel.force.catalogue)).keys

    def _apply_category_modifiers(self, selections: list) -> None:
        changed = False
        for sel in selections:
            mods = sel.slot.facts.category_mods
            keys = set(sel.keys)
            for mod in mods:
                if not self._applies(mod, sel):
                    continue
                value = str(mod.get("value") or "")
                if mod.get("type") in ("add", "set-primary"):
                    keys.add(value)
                elif mod.get("type") in ("remove", "unset-primary"):
                    if mod.get("type") == "remove":
                        keys.discard(value)
                else:
                    self.unevaluated.add((sel.entry.id, f"category modifier {mod.get('type')!r}"))
            if keys != sel.keys:
                sel.keys = frozenset(keys)
                changed = True
        if changed:
            self._direct.clear()
            self._deep.clear()
            self._deep_keys.clear()

    @staticmethod
    def catalogue_of(node) -> Catalogue:
        return node.catalogue if isinstance(node, ForceScope) else node.force.catalogue

    def categories(self, sel: Sel) -> list[str]:
        cat = sel.force.catalogue
        return [k for k in sel.keys if isinstance(k, str) and k in cat.categories]

    def primary_category(self, sel: Sel) -> str:
        return sel.force.catalogue.primary_category(sel.entry)

    # -- counting ----------------------------------------------------------------------------
    @staticmethod
    def _kids(node) -> list:
        if isinstance(node, Roster):
            return node.children
        return node.children

    def direct(self, node) -> dict:
        """How many of each key (entry, link, group, category, type …) among ``node``'s children."""
        counter = self._direct.get(id(node))
        if counter is None and isinstance(node, Roster):
            counter = self._direct[id(node)] = self._summed(self.direct, node)
        if counter is None:
            counter = {}
            get = counter.get
            for child in self._kids(node):
                number = child.number
                for key in child.keys:
                    counter[key] = get(key, 0) + number
            self._direct[id(node)] = counter
        return counter

    def deep(self, node) -> dict:
        """The same among all of ``node``'s descendants."""
        counter = self._deep.get(id(node))
        if counter is None and isinstance(node, Roster):
            counter = self._deep[id(node)] = self._summed(self.deep, node)
        if counter is None:
            counter = {}
            get = counter.get
            stack = list(self._kids(node))
            while stack:
                child = stack.pop()
                number = child.number
                for key in child.keys:
                    counter[key] = get(key, 0) + number
                stack.extend(child.children)
            self._deep[id(node)] = counter
        return counter

    @staticmethod
    def _summed(count, roster: Roster) -> dict:
        """A roster's counter from its forces' (the roster's children are the forces' roots): with one force,
        the same counter, not a second walk. Counters are read, never changed, once made."""
        forces = list(roster.all_forces())
        if len(forces) == 1:
            return count(forces[0])
        total: dict = {}
        get = total.get
        for force in forces:
            for key, number in count(force).items():
                total[key] = get(key, 0) + number
        return total

    def _scope(self, scope: str, ctx):
        """The node a query counts in, seen from ``ctx`` (a Sel or a Virtual)."""
        if scope == "self":
            return ctx
        if scope == "parent":
            return ctx.container
        if scope == "force":
            return ctx.force
        if scope == "roster":
            return self.roster
        if scope in ("ancestor", "primary-catalogue"):
            return ctx.force if scope == "primary-catalogue" else None
        if isinstance(ctx, Sel) and scope in ctx.keys:
            return ctx
        for node in ctx.ancestors():
            if scope in node.keys:
                return node
        for force in self.roster.all_forces():
            if scope in force.ids:
                return force
        if scope and scope == ctx.force.catalogue.system_id:
            return self.roster
        return None

    def count(self, q: dict, ctx) -> float:
        fld = str(q.get("field") or "selections")
        if fld.startswith("limit::"):
            return self.roster.cost_limits.get(fld[len("limit::"):], 0)
        scope = str(q.get("scope") or "")
        child = str(q.get("child") or "any")
        if scope == "primary-category":
            return self._count_primary_category(q, ctx, child, fld)
        node = self._scope(scope, ctx)
        if node is None:
            return 0
        nodes = [node]
        if isinstance(node, ForceScope) and q.get("forces"):
            nodes = [node]
            stack = list(node.forces)
            while stack:
                f = stack.pop()
                nodes.append(f)
                stack.extend(f.forces)
        if fld == "selections":
            counters = [self.deep(n) if q.get("children") else self.direct(n) for n in nodes]
            return sum(c.get(child, 0) for c in counters)
        if fld == "forces":
            forces = list(self.roster.all_forces()) if isinstance(node, Roster) else list(getattr(node, "forces", ()))
            return sum(1 for f in forces if child == "any" or child in f.ids)
        if fld in ctx.force.catalogue.cost_ids:
            total = 0.0
            for n in nodes:
                stack = list(self._kids(n))
                while stack:
                    s = stack.pop()
                    if child in s.keys:
                        total += self.cost(s).get(fld, 0) * s.number
                    if q.get("children"):
                        stack.extend(s.children)
            return total
        self.unevaluated.add((str(q.get("child") or ""), f"query field {fld!r}"))
        return 0

    def _count_primary_category(self, q: dict, ctx, child: str, fld: str) -> float:
        entry = ctx.slot.entry if ctx.slot is not None else None
        primary = ctx.force.catalogue.primary_category(entry) if entry is not None else ""
        if not primary:
            return 0
        total = 0.0
        for s in ctx.force.walk():
            if primary in s.keys and child in s.keys:
                total += s.number if fld == "selections" else self.cost(s).get(fld, 0) * s.number
        return total

    def _instance(self, q: dict, ctx) -> bool:
        child = str(q.get("child") or "")
        scope = str(q.get("scope") or "")
        if scope == "ancestor":
            return any(self._is(node, child) for node in ctx.ancestors()) or (
                not any(True for _ in ctx.ancestors()) and child in ctx.force.ids)
        node = self._scope(scope, ctx)
        return node is not None and self._is(node, child)

    @staticmethod
    def _is(node, child: str) -> bool:
        if isinstance(node, (Sel, Virtual)):
            return child == "any" or child in node.keys
        if isinstance(node, ForceScope):
            return child == "any" or child in node.ids
        return False

    def holds(self, tree, ctx) -> bool:
        if "and" in tree:
            return all(self.holds(t, ctx) for t in tree["and"])
        if "or" in tree:
            return any(self.holds(t, ctx) for t in tree["or"])
        ctype = tree.get("type")
        if ctype in INSTANCE:
            result = self._instance(tree, ctx)
            return result if ctype == "instanceOf" else not result
        compare = COMPARE.get(ctype)
        if compare is None:
            self.unevaluated.add((str(tree.get("child") or ""), f"condition type {ctype!r}"))
            return False
        return compare(self.count(tree, ctx), tree.get("value", 0))

    def _times(self, mod: dict, ctx) -> int:
        repeats = mod.get("repeats")
        if not repeats:
            return 1
        times = 0
        for rep in repeats:
            per = rep.get("value") or 0
            if per <= 0:
                self.unevaluated.add((str(rep.get("child") or ""), "a repeat every 0"))
                continue
            count = self.count(rep, ctx)
            steps = math.ceil(count / per) if rep.get("round_up") else math.floor(count / per)
            times += max(0, steps) * int(rep.get("repeats", 1))
        return times

    def _applies(self, mod: dict, ctx) -> bool:
        when = mod.get("when")
        return not when or self.holds(when, ctx)

    def modified(self, mods: Sequence, field_name: str, value, ctx, *, numeric: bool = True):
        """``value`` after every modifier of ``field_name`` whose conditions hold in ``ctx``."""
        for mod in mods:
            if mod.get("field") != field_name or not self._applies(mod, ctx):
                continue
            times = self._times(mod, ctx)
            if times <= 0:
                continue
            mtype, mvalue = mod.get("type"), mod.get("value")
            if mtype == "set":
                value = mvalue
            elif numeric and mtype == "increment":
                value = (value or 0) + (mvalue or 0) * times
            elif numeric and mtype == "decrement":
                value = (value or 0) - (mvalue or 0) * times
            elif not numeric and mtype == "append":
                value = f"{value} {mvalue}".strip()
            else:
                self.unevaluated.add((field_name, f"modifier {mtype!r}"))
        return value

    def _cost_modified(self, entries: tuple, field_name: str, value, ctx):
        """:meth:`modified` (numeric) over one field's modifiers with their conditions compiled (Facts.cost_plan)."""
        for mod, when in entries:
            if when is not None and not when(self, ctx):
                continue
            times = self._times(mod, ctx)
            if times <= 0:
                continue
            mtype, mvalue = mod.get("type"), mod.get("value")
            if mtype == "set":
                value = mvalue
            elif mtype == "increment":
                value = (value or 0) + (mvalue or 0) * times
            elif mtype == "decrement":
                value = (value or 0) - (mvalue or 0) * times
            else:
                self.unevaluated.add((field_name, f"modifier {mtype!r}"))
        return value

    # -- values of a selection -------------------------------------------------------------------
    def cost(self, sel: Sel) -> dict:
        """Costs of one of ``sel`` (not times its number), cost modifiers applied. Read-only."""
        made = sel.slot.facts or facts(sel.slot, sel.force.catalogue)
        plan = made.cost_plan  # None exactly when the entry has no cost modifier
        if plan is None:
            return made.costs
        key = id(sel)
        done = self._costs.get(key)
        if done is not None:
            return done
        if key in self._busy:  # a cost that depends on itself: BattleScribe's plain cost
            return made.costs
        self._busy.add(key)
        try:
            costs = dict(made.costs)
            for fld, entries in plan:
                costs[fld] = self._cost_modified(entries, fld, costs.get(fld, 0), sel)
        finally:
            self._busy.discard(key)
        costs = {k: tidy(v) for k, v in costs.items() if isinstance(v, (int, float))}
        self._costs[key] = costs
        return costs

    def total(self, sel: Sel) -> dict:
        return {k: v * sel.number for k, v in self.cost(sel).items()}

    def subtree(self, sel: Sel, *, skip=None) -> dict:
        """Costs of a selection and everything under it (``skip(s)`` leaves a branch out)."""
        out: dict = {}
        stack = [sel]
        while stack:
            s = stack.pop()
            if s is not sel and skip is not None and skip(s):
                continue
            for k, v in self.total(s).items():
                out[k] = out.get(k, 0) + v
            stack.extend(s.children)
        return {k: tidy(v) for k, v in out.items()}

    def roster_total(self) -> dict:
        out: dict = {}
        for sel in self.selections:
            for k, v in self.total(sel).items():
                out[k] = out.get(k, 0) + v
        return {k: tidy(v) for k, v in out.items()}

    def name(self, sel: Sel) -> str:
        made = sel.slot.facts or facts(sel.slot, sel.force.catalogue)
        mods = made.name_mods
        return str(self.modified(mods, "name", made.name, sel, numeric=False)) if mods else made.name

    def entry_hidden(self, entry: Entry, catalogue: Catalogue, ctx) -> bool:
        view = catalogue.view(entry)
        if not view.may_hide:
            return False  # neither hidden in the data nor by any modifier
        mods = view.by_kind.get("hidden")
        hidden = entry.hidden
        if mods:
            hidden = bool(self.modified(mods, "hidden", hidden, ctx, numeric=False))
        return hidden

    def slot_hidden(self, slot: Slot, container, ctx=None) -> bool:
        """Whether the data hides this slot under ``container`` (its groups included)."""
        force = container if isinstance(container, ForceScope) else container.force
        for group in slot.groups:
            if self.group_hidden(group, container):
                return True
        catalogue = force.catalogue
        if not catalogue.view(slot.entry).may_hide:
            return False  # most entries: no context to make for modifiers
        return self.entry_hidden(slot.entry, catalogue, ctx or Virtual(slot=slot, parent=container, force=force))

    def group_hidden(self, group: GroupSlot, container) -> bool:
        key = (id(group), id(container))
        hidden = self._hidden.get(key)
        if hidden is None:
            force = container if isinstance(container, ForceScope) else container.force
            catalogue = force.catalogue
            hidden = catalogue.view(group.entry).may_hide and \
                self.entry_hidden(group.entry, catalogue, Virtual(slot=None, parent=container, force=force))
            self._hidden[key] = hidden
        return hidden

    def constraint_value(self, owner_mods: list, constraint: dict, ctx) -> float:
        value = constraint.get("value", 0)
        cid = constraint.get("id")
        if cid and any(m.get("field") == cid for m in owner_mods):
            value = self.modified(owner_mods, cid, value, ctx)
        return value

    # -- checks --------------------------------------------------------------------------------
    def violations(self) -> list[Violation]:
        if self._violations is None:
            self._violations = self._check()
        return self._violations

    def first_unmet_minimum(self, only=None, settled: set | None = None) -> Violation | None:
        """The first violation :meth:`violations` lists that is an unmet minimum of an entry or group (``kind``
        "min" with a ``slot``) and that ``only(violation)`` lets through, or None: what completing a list asks
        at each step, found without checking the rest of the roster. The walk is the one :meth:`_check`
        makes and stops after the first node where such a minimum is broken; it leaves out the forces'
        category limits, whose violations have no slot (unless one could hide the minimum found, as the same
        limit already reported: then the whole check decides).

        ``settled``, for a caller that asks again and again of one roster that only grows (selections added, or
        their numbers raised, as complete_roster does), is the nodes found to report nothing whose minimums
        stay met however the list grows (``Plan.steady``): they are left out of the walk, as they would add
        nothing to it, and the nodes found so now are added. The set is the caller's, for that roster only."""
        if self._violations is not None:
            return next((v for v in self._violations if _wanted(v, only)), None)
        if self._keys_may_change:
            settled = None  # a category modifier may take a key away from a selection: a count may drop
        out: list[Violation] = []
        seen: set = set()
        looked = 0
        forces = []

        def stop(v: Violation) -> bool:
            return _wanted(v, only)

        selections = self.selections
        for force, start, end in self._spans:
            forces.append(force)
            catalogue = force.catalogue
            if settled is None or force not in settled:
                self._check_settling(force, force, plan(catalogue, catalogue.root_layout()), out, seen, settled,
                                     stop)
            found = None
            if len(out) != looked:  # only what a node added to the report is scanned, and most add nothing
                found, looked = _first_wanted(out, looked, only)
            if found is None:
                for sel in selections[start:end]:  # depth first, as _check
                    if settled is not None and sel in settled:
                        continue
                    slot = sel.slot
                    layout = slot.layout or catalogue.slot_layout(slot)
                    compiled = layout.plan or plan(catalogue, layout)
                    if not compiled.empty:
                        self._check_settling(sel, sel.force, compiled, out, seen, settled, stop)
                        if len(out) != looked:
                            found, looked = _first_wanted(out, looked, only)
                            if found is not None:
                                break
            if found is not None:
                key = (found.constraint, found.slot.entry.id if found.slot is not None else None)
                if found.slot is not None and any(key in category_keys(f.catalogue, f.entry)
                                                  for f in forces if f.entry is not None):
                    return next((v for v in self.violations() if _wanted(v, only)), None)
                return found
        return None

    def _check_settling(self, node, force: ForceScope, compiled: Plan, out: list, seen: set, settled: set | None,
                        stop) -> None:
        """:meth:`_check_container`, adding ``node`` to ``settled`` (when given) if it reported nothing and every
        minimum it has is steady and met: one skipped as hidden may be shown later, so it must be met."""
        before = len(out)
        self._check_container(node, force, compiled, out, seen, stop)
        if settled is None or len(out) != before or not compiled.steady:
            return
        for check in compiled.mins:
            value = check.value
            if value <= 0:
                continue
            fast = check.fast
            if fast == "parent":
                count = self.direct(node).get(check.key, 0)
            elif fast == "parent-deep":
                count = self._deep_count(node, check.fast_key)
            else:
                count = self._scope_counter(force, fast).get(check.fast_key, 0)
            if count < value:
                return
        settled.add(node)

    def _check(self) -> list[Violation]:
        out: list[Violation] = []
        seen: set = set()
        selections = self.selections
        for force, start, end in self._spans:
            catalogue = force.catalogue
            self._check_container(force, force, plan(catalogue, catalogue.root_layout()), out, seen)
            self._check_force_categories(force, out, seen)
            # the force's selections depth first, as ForceScope.walk (listed so when the evaluation was made)
            for sel in selections[start:end] if start or end < len(selections) else selections:
                slot = sel.slot
                layout = slot.layout or catalogue.slot_layout(slot)
                compiled = layout.plan or plan(catalogue, layout)
                if compiled.empty:
                    continue
                children = sel.children
                if len(children) == 1:
                    # most selections hold one choice that, within its numbers, leaves nothing to look at
                    child = children[0]
                    free = compiled.free.get(child.slot)
                    if free is not None and free[0] <= child.number <= free[1] \
                            and child.keys is child.slot.facts.keys:
                        continue
                self._check_container(sel, sel.force, compiled, out, seen)
        return out

    def _check_container(self, node, force: ForceScope, compiled: Plan, out: list, seen: set, stop=None) -> None:
        """Every constraint of every entry and group offered under ``node``, selected there or not, in the order
        the layout's checks were compiled (catalogue.checks). Minimums are always looked at; an entry's
        maximums only when it is chosen here (see _judge_check), a group's parent-scope maximum when one of
        it is; counts come from the watched keys of the children (``Plan``) or the scope's counters; a limit's
        modifiers and visibility are worked out only when the plain count could break it. ``stop(violation)``
        (first_unmet_minimum) ends the check at the first broken minimum it accepts: the walk ends there, and
        nothing checked after it in the node could come before it in ``out``."""
        children = node.children
        if len(children) == 1:
            child = children[0]
            slot = child.slot
            seat = compiled.seats.get(slot) or compiled.seat(slot)
            alone = seat[4]
            made = slot.facts
            if alone is not None and made is not None and child.keys is made.keys \
                    and alone[0] <= child.number <= alone[1]:
                self._check_alone(node, child, seat, force, compiled, out, seen, stop)
                return
        counts: dict = {}  # the watched keys among the children
        hidden_here = NOTHING_HIDDEN
        key = tuple([child.slot for child in children])
        combo = compiled.combos.get(key) or compiled.combo(key)
        watched = compiled.watched
        for child, seat in zip(children, combo[0], strict=True):
            slot = child.slot
            if seat[3] and self.slot_hidden(slot, node, child):
                if hidden_here is NOTHING_HIDDEN:
                    hidden_here = {}
                hidden_here[id(slot)] = True
                out.append(Violation("hidden", "entry", self.name(child), 0, child.number, "parent", "", node,
                                     (child,), slot))
            made = slot.facts
            # category modifiers may have changed what it counts as
            hits = tuple(child.keys & watched) if made is None or child.keys is not made.keys else seat[0]
            number = child.number
            for hit in hits:
                counts[hit] = counts.get(hit, 0) + number
        for check in combo[1]:
            count = counts.get(check.key, 0)
            if count and (count > check.value or check.modified):
                self._judge_check(check, count, node, force, hidden_here, out, seen, compiled)
        for check in compiled.mins:
            fast = check.fast
            if fast == "parent":
                count = counts.get(check.key, 0)
            elif fast == "parent-deep":
                count = self._deep_count(node, check.fast_key)
            elif fast:
                count = self._scope_counter(force, fast).get(check.fast_key, 0)
            else:
                count = self._check_count(check, node, force)
            if count < check.value or check.modified:
                self._judge_check(check, count, node, force, hidden_here, out, seen, compiled)
                if stop is not None and out and stop(out[-1]):
                    return  # the first wanted minimum: all first_unmet_minimum asks
        for check in combo[2]:
            fast = check.fast
            if fast == "parent-deep":
                count = self._deep_count(node, check.fast_key)
            elif fast:
                count = self._scope_counter(force, fast).get(check.fast_key, 0)
            else:
                count = self._check_count(check, node, force)
            if count and (count > check.value or check.modified or check.constraint.get("percent")):
                self._judge_check(check, count, node, force, hidden_here, out, seen, compiled)

    def _check_alone(self, node, child: Sel, seat: tuple, force: ForceScope, compiled: Plan, out: list,
                     seen: set, stop=None) -> None:
        """:meth:`_check_container` for a node holding one selection whose number breaks no parent-scope limit
        (``Plan.seat``): what is left are its visibility, the minimums counted elsewhere and its maximums in
        other scopes."""
        hidden_here = NOTHING_HIDDEN
        slot = child.slot
        if seat[3] and self.slot_hidden(slot, node, child):
            hidden_here = {id(slot): True}
            out.append(Violation("hidden", "entry", self.name(child), 0, child.number, "parent", "", node,
                                 (child,), slot))
        for check in compiled.other_mins:
            fast = check.fast
            if fast == "parent-deep":
                count = self._deep_count(node, check.fast_key)
            elif fast:
                count = self._scope_counter(force, fast).get(check.fast_key, 0)
            else:
                count = self._check_count(check, node, force)
            if count < check.value or check.modified:
                self._judge_check(check, count, node, force, hidden_here, out, seen, compiled)
                if stop is not None and out and stop(out[-1]):
                    return  # the first wanted minimum: all first_unmet_minimum asks
        later = seat[2]
        if compiled.always:
            later = (*compiled.always, *later)
        if later:
            for check in _in_order(list(later)):
                fast = check.fast
                if fast == "parent-deep":
                    count = self._deep_count(node, check.fast_key)
                elif fast:
                    count = self._scope_counter(force, fast).get(check.fast_key, 0)
                else:
                    count = self._check_count(check, node, force)
                if count and (count > check.value or check.modified or check.constraint.get("percent")):
                    self._judge_check(check, count, node, force, hidden_here, out, seen, compiled)

    def _deep_count(self, node, key) -> float:
        """``deep(node).get(key, 0)`` without counting every key of the subtree when only a few are asked for."""
        counter = self._deep.get(id(node))
        if counter is not None:
            return counter.get(key, 0)
        memo = (id(node), key)
        count = self._deep_keys.get(memo)
        if count is None:
            count = 0
            stack = list(node.children)
            while stack:
                sel = stack.pop()
                if key in sel.keys:
                    count += sel.number
                if sel.children:
                    stack.extend(sel.children)
            self._deep_keys[memo] = count
        return count

    def _scope_counter(self, force: ForceScope, fast: str) -> dict:
        """The force's or the roster's counter, by the name a compiled check asks for it."""
        if fast == "force":
            return self.direct(force)
        if fast == "force-deep":
            return self.deep(force)
        if fast == "roster":
            return self.direct(self.roster)
        return self.deep(self.roster)

    def _check_count(self, check, node, force) -> float:
        if check.scope == "parent" and not check.children:
            return self.direct(node).get(check.key, 0)
        owner = check.owner
        ctx = Virtual(slot=owner if isinstance(owner, Slot) else None, parent=node, force=force)
        if isinstance(owner, GroupSlot):
            return self._constraint_count(check.constraint, ctx, group=owner)
        return self._constraint_count(check.constraint, ctx, slot=owner)

    def _judge_check(self, check, count, node, force, hidden_here: dict, out: list, seen: set, compiled: Plan
                     ) -> None:
        owner = check.owner
        catalogue = force.catalogue
        if isinstance(owner, GroupSlot):
            if self.group_hidden(owner, node):
                return  # a hidden group's limits do not apply (its selections are flagged as hidden)
            ctx = Virtual(slot=None, parent=node, force=force)
            members = tuple(s for s in node.children if owner in s.keys)
            self._judge(check.constraint, count, self._check_limit(check, catalogue, ctx, compiled), "group",
                        owner.entry.name, ctx, node, members, owner, out, seen)
            return
        chosen = tuple(s for s in node.children if s.slot is owner)
        if not chosen and check.constraint.get("type") == "max":
            # An entry's maximum is checked where the entry is selected, as BattleScribe and New Recruit do: a
            # support link's force-wide "max 1, shared" must not count a formation's own platoons against it.
            return
        ctx = chosen[0] if chosen else Virtual(slot=owner, parent=node, force=force)
        if hidden_here.get(id(owner)) or (id(owner) not in hidden_here and self.slot_hidden(owner, node, ctx)):
            return  # a hidden entry's limits do not apply
        self._judge(check.constraint, count, self._check_limit(check, catalogue, ctx, compiled), "entry",
                    owner.entry.name, ctx, node, chosen, owner, out, seen)

    def _check_limit(self, check, catalogue: Catalogue, ctx, compiled: Plan) -> float:
        """:meth:`constraint_value` of a compiled check: the owner's modifiers of its constraint, with their
        conditions compiled (as a cost's, Facts.cost_plan), picked out once per layout and kept with its Plan (the
        owner's modifiers are looked up then only)."""
        entries = compiled.limits.get(id(check))
        cid = check.constraint.get("id")
        if entries is None:
            entries = tuple((m, condition(m["when"]) if m.get("when") else None)
                            for m in catalogue.modifiers(check.owner.entry) if m.get("field") == cid) if cid else ()
            compiled.limits[id(check)] = entries
        value = check.constraint.get("value", 0)
        return self._cost_modified(entries, cid, value, ctx) if entries else value

    def _constraint_count(self, c: dict, ctx, *, slot: Slot | None = None, group: GroupSlot | None = None) -> float:
        """A constraint's count in any scope: its entry (or group) as the child."""
        scope = c.get("scope")
        if scope in ("force", "roster") and c.get("field") == "selections" and not c.get("forces") \
                and not c.get("percent"):
            node = ctx.force if scope == "force" else self.roster
            counter = self.deep(node) if c.get("children") else self.direct(node)
            if group is not None:
                return counter.get(group.entry.id, 0)
            assert slot is not None, "a constraint counts its entry's slot or its group"
            return counter.get(slot if c.get("shared") is False else slot.entry.id, 0)
        if group is not None:
            return self.count({**c, "child": group.entry.id}, ctx)
        assert slot is not None, "a constraint counts its entry's slot or its group"
        if c.get("shared") is False:
            return self._count_slot(c, ctx, slot)
        return self.count({**c, "child": slot.entry.id}, ctx)

    def _count_slot(self, c: dict, ctx, slot: Slot) -> float:
        node = self._scope(str(c.get("scope") or ""), ctx)
        if node is None:
            return 0
        counter = self.deep(node) if c.get("children") else self.direct(node)
        return counter.get(slot, 0)

    def _judge(self, c: dict, count: float, limit: float, owner: str, name: str, ctx, node, matched, slot,
               out: list, seen: set) -> None:
        ctype = c.get("type")
        if c.get("percent"):
            whole = self.count({**c, "child": "any"}, ctx)
            limit = whole * limit / 100
        if ctype == "max":
            if limit < 0 or count <= limit:
                return
        elif ctype == "min":
            if limit <= 0 or count >= limit:
                return
        else:
            self.unevaluated.add((str(c.get("id") or ""), f"constraint type {ctype!r}"))
            return
        scope = str(c.get("scope") or "")
        where = node if scope == "parent" else self._scope(scope, ctx)
        owner_id = slot.entry.id if slot is not None else name
        # Constraint ids repeat in copied data: the entry it is on is part of what makes it one constraint.
        key = (c.get("id"), owner_id, id(where) if where is not None else id(node))
        if key in seen:
            return
        seen.add(key)
        out.append(Violation(ctype, owner, name, tidy(limit), tidy(count), scope, str(c.get("id") or ""), node,
                             tuple(matched), slot))

    def _check_force_categories(self, force: ForceScope, out: list, seen: set) -> None:
        """Limits on categories: those a force entry's category links set, and those category entries set on
        themselves (e.g. one WARRIOR per force), judged at the force ("parent" there is the force itself)."""
        entry = force.entry
        if entry is None:
            return
        ctx = Virtual(slot=None, parent=force, force=force)
        for target, c, query, mods, owner, name in category_checks(force.catalogue, entry):
            scope = query.get("scope")
            if scope in ("force", "roster") and str(query.get("field") or "selections") == "selections" \
                    and not query.get("forces"):  # count's own reading of a plain force or roster count
                node = force if scope == "force" else self.roster
                counter = self.deep(node) if query.get("children") else self.direct(node)
                count = counter.get(str(query.get("child") or "any"), 0)
                if not mods and not c.get("percent"):  # _judge's verdict on a limit no modifier changes
                    limit = c.get("value", 0)
                    ctype = c.get("type")
                    if (ctype == "max" and (limit < 0 or count <= limit)) or \
                            (ctype == "min" and (limit <= 0 or count >= limit)):
                        continue
            else:
                count = self.count(query, ctx)
            # the selections concerned, read only if the limit is broken
            members = (s for s in (force.walk() if c.get("children") else force.children) if target in s.keys)
            self._judge(c, count, self.constraint_value(mods, c, ctx), owner, name, ctx, force, members, None, out,
                        seen)


def _wanted(v: Violation, only) -> bool:
    return v.kind == "min" and v.slot is not None and (only is None or only(v))


def _first_wanted(out: list, start: int, only) -> tuple:
    """The first wanted violation in ``out`` from ``start`` on, and where to look from next time."""
    for v in out[start:]:
        if _wanted(v, only):
            return v, len(out)
    return None, len(out)


_category_checks: weakref.WeakKeyDictionary[Catalogue, dict] = weakref.WeakKeyDictionary()
_category_keys: weakref.WeakKeyDictionary[Catalogue, dict] = weakref.WeakKeyDictionary()
_category_lock = threading.Lock()


def category_checks(catalogue: Catalogue, entry: Entry) -> tuple:
    """The category limits a force of ``entry`` is checked against, each with the query that counts it: its
    category links' constraints ("category"), then the limits category entries set on themselves
    ("category-limit"). Worked out once per catalogue and force entry."""
    known = _category_checks.get(catalogue)
    found = known.get(entry.key) if known is not None else None
    if found is not None:
        return found
    out = []
    for link in catalogue.category_links(entry):
        target = str(link.get("target") or "")
        out.extend(_category_limits(catalogue, target, link.get("constraints") or (), link.get("modifiers") or [],
                                    "category"))
    for target, rule in catalogue.category_rules.items():
        out.extend(_category_limits(catalogue, target, rule.get("constraints") or (), rule.get("modifiers") or [],
                                    "category-limit"))
    found = tuple(out)
    with _category_lock:
        _category_checks.setdefault(catalogue, {})[entry.key] = found
    return found


def category_keys(catalogue: Catalogue, entry: Entry) -> frozenset:
    """The keys a force of ``entry``'s category limits, broken, are recorded under (see _judge: the constraint
    id and what it is on, a category's name there): a minimum recorded under one of them first is left out of
    the whole check. Asked at every step of completing a list, so worked out once per catalogue and force entry."""
    known = _category_keys.get(catalogue)
    found = known.get(entry.key) if known is not None else None
    if found is None:
        found = frozenset((str(c.get("id") or ""), name) for _, c, _, _, _, name in category_checks(catalogue, entry))
        with _category_lock:
            _category_keys.setdefault(catalogue, {})[entry.key] = found
    return found


def _category_limits(catalogue: Catalogue, target: str, constraints, mods: list, owner: str) -> list:
    name = catalogue.categories.get(target, target)
    out = []
    for c in constraints:
        scope = str(c.get("scope") or "")
        query = {**c, "child": target, "scope": "force" if scope == "parent" else scope}
        out.append((target, c, query, mods, owner, name))
    return out
