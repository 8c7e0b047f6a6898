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
  whose entry offers the constrained entry or group. ``shared="false"`` counts only the
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
from collections import Counter
from dataclasses import dataclass

from .catalogue import Catalogue, Entry, GroupSlot, Slot
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
    at: object  # the Sel or ForceScope it was evaluated at
    selections: tuple = ()  # the selections concerned (their refs point into the list)
    slot: object = None  # Slot or GroupSlot (for fixes: what to add or remove)


@dataclass(slots=True)
class Virtual:
    """An entry that could be selected under ``parent`` but is not: the context of its modifiers."""

    slot: Slot | None
    parent: object  # Sel | ForceScope
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


class Evaluation:
    """Everything BattleScribe would say about one roster. Values are worked out on demand and kept."""

    def __init__(self, roster: Roster):
        self.roster = roster
        self.unevaluated: set[tuple[str, str]] = set()
        self._direct: dict[int, Counter] = {}
        self._deep: dict[int, Counter] = {}
        self._costs: dict[int, dict] = {}
        self._busy: set[int] = set()
        self._hidden: dict[tuple, bool] = {}
        self._primary: dict[int, str] = {}
        self._violations: list | None = None
        self.selections: list[Sel] = [s for force in roster.all_forces() for s in force.walk()]
        for sel in self.selections:
            sel.keys = self._static_keys(sel)
        self._apply_category_modifiers()

    # -- what a selection counts as ------------------------------------------------------------
    def _static_keys(self, sel: Sel) -> frozenset:
        entry = sel.entry
        cats = {str(c.get("target")) for c in sel.force.catalogue.category_links(entry) if c.get("target")}
        return sel.slot.ids | cats | {entry.type, "any", sel.slot}

    def _apply_category_modifiers(self) -> None:
        changed = False
        for sel in self.selections:
            mods = [m for m in sel.force.catalogue.modifiers(sel.entry) if m.get("kind") == "category"]
            if not mods:
                continue
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

    def direct(self, node) -> Counter:
        counter = self._direct.get(id(node))
        if counter is None:
            counter = Counter()
            for child in self._kids(node):
                for key in child.keys:
                    counter[key] += child.number
            self._direct[id(node)] = counter
        return counter

    def deep(self, node) -> Counter:
        counter = self._deep.get(id(node))
        if counter is None:
            counter = Counter()
            stack = list(self._kids(node))
            while stack:
                child = stack.pop()
                for key in child.keys:
                    counter[key] += child.number
                stack.extend(child.children)
            self._deep[id(node)] = counter
        return counter

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

    def modified(self, mods: list, field_name: str, value, ctx, *, numeric: bool = True):
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

    # -- values of a selection -------------------------------------------------------------------
    def cost(self, sel: Sel) -> dict:
        """Costs of one of ``sel`` (not times its number), cost modifiers applied."""
        key = id(sel)
        done = self._costs.get(key)
        if done is not None:
            return done
        catalogue = sel.force.catalogue
        base = catalogue.costs(sel.entry)
        if key in self._busy:  # a cost that depends on itself: BattleScribe's plain cost
            return base
        self._busy.add(key)
        try:
            mods = [m for m in catalogue.modifiers(sel.entry) if m.get("kind") == "cost"]
            costs = dict(base)
            for fld in dict.fromkeys(m.get("field") for m in mods):
                costs[fld] = self.modified(mods, fld, costs.get(fld, 0), sel)
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
        mods = [m for m in sel.force.catalogue.modifiers(sel.entry) if m.get("kind") == "name"]
        return str(self.modified(mods, "name", sel.entry.name, sel, numeric=False)) if mods else sel.entry.name

    def entry_hidden(self, entry: Entry, catalogue: Catalogue, ctx) -> bool:
        mods = [m for m in catalogue.modifiers(entry) if m.get("kind") == "hidden"]
        hidden = entry.hidden
        if mods:
            hidden = bool(self.modified(mods, "hidden", hidden, ctx, numeric=False))
        return hidden

    def slot_hidden(self, slot: Slot, container, ctx=None) -> bool:
        """Whether the data hides this slot under ``container`` (its groups included)."""
        force = container if isinstance(container, ForceScope) else container.force
        catalogue = force.catalogue
        ctx = ctx or Virtual(slot=slot, parent=container, force=force)
        for group in slot.groups:
            if self.group_hidden(group, container):
                return True
        return self.entry_hidden(slot.entry, catalogue, ctx)

    def group_hidden(self, group: GroupSlot, container) -> bool:
        key = (id(group), id(container))
        hidden = self._hidden.get(key)
        if hidden is None:
            force = container if isinstance(container, ForceScope) else container.force
            ctx = Virtual(slot=None, parent=container, force=force)
            hidden = self.entry_hidden(group.entry, force.catalogue, ctx)
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

    def _check(self) -> list[Violation]:
        out: list[Violation] = []
        seen: set = set()
        for force in self.roster.all_forces():
            self._check_container(force, force.catalogue.root_layout(), out, seen)
            self._check_force_categories(force, out, seen)
            for sel in force.walk():
                self._check_container(sel, force.catalogue.layout(sel.entry), out, seen)
        return out

    def _check_container(self, node, layout, out: list, seen: set) -> None:
        """Every constraint of every entry and group offered under ``node``, selected there or not: a count is
        worked out first, and the limit (with its modifiers) and visibility only when it could be broken."""
        force = node if isinstance(node, ForceScope) else node.force
        catalogue = force.catalogue
        here: dict[int, list] = {}
        for child in node.children:
            here.setdefault(id(child.slot), []).append(child)
        for group in layout.groups:
            constraints = catalogue.constraints(group.entry)
            if not constraints:
                continue
            members = [s for slot in group.slots for s in here.get(id(slot), ())]
            ctx = None
            for c in constraints:
                if c.get("scope") == "parent" and not c.get("children"):
                    count = sum(s.number for s in members)
                else:
                    ctx = ctx or Virtual(slot=None, parent=node, force=force)
                    count = self._constraint_count(c, ctx, group=group)
                if c.get("type") == "max" and count == 0:
                    continue  # nothing counted: no maximum can be passed
                if self.group_hidden(group, node):
                    break  # a hidden group's limits do not apply (its selections are flagged as hidden)
                ctx = ctx or Virtual(slot=None, parent=node, force=force)
                self._judge(c, count, self.constraint_value(catalogue.modifiers(group.entry), c, ctx), "group",
                            group.entry.name, ctx, node, members, group, out, seen)
        for slot in layout.slots:
            chosen = here.get(id(slot), ())
            hidden = None
            for sel in chosen:
                if self.slot_hidden(slot, node, sel):
                    hidden = True
                    out.append(Violation("hidden", "entry", self.name(sel), 0, sel.number, "parent", "", node,
                                         (sel,), slot))
            constraints = catalogue.constraints(slot.entry)
            if not constraints or hidden:
                continue
            ctx = chosen[0] if chosen else None
            for c in constraints:
                if c.get("scope") == "parent" and not c.get("children"):
                    counter = self.direct(node)
                    count = counter.get(slot, 0) if c.get("shared") is False else counter.get(slot.entry.id, 0)
                else:
                    ctx = ctx or Virtual(slot=slot, parent=node, force=force)
                    count = self._constraint_count(c, ctx, slot=slot)
                if c.get("type") == "max" and count == 0:
                    continue
                ctx = ctx or Virtual(slot=slot, parent=node, force=force)
                if hidden is None:
                    hidden = self.slot_hidden(slot, node, ctx)
                if hidden:
                    break  # a hidden entry's limits do not apply
                self._judge(c, count, self.constraint_value(catalogue.modifiers(slot.entry), c, ctx), "entry",
                            slot.entry.name, ctx, node, chosen, slot, out, seen)

    def _constraint_count(self, c: dict, ctx, *, slot: Slot | None = None, group: GroupSlot | None = None) -> float:
        """A constraint's count in any scope: its entry (or group) as the child."""
        if group is not None:
            return self.count({**c, "child": group.entry.id}, ctx)
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
        if not matched and ctype == "max" and isinstance(slot, Slot) and where is not None:
            # Counted elsewhere in the scope (e.g. a force-wide limit on an entry not chosen here): point at those.
            want = slot if c.get("shared") is False else slot.entry.id
            stack = list(self._kids(where))
            found = []
            while stack:
                s = stack.pop(0)
                if want in s.keys:
                    found.append(s)
                stack.extend(s.children)
            matched = found
        out.append(Violation(ctype, owner, name, tidy(limit), tidy(count), scope, str(c.get("id") or ""), node,
                             tuple(matched), slot))

    def _check_force_categories(self, force: ForceScope, out: list, seen: set) -> None:
        entry = force.entry
        if entry is None:
            return
        catalogue = force.catalogue
        ctx = Virtual(slot=None, parent=force, force=force)
        for link in catalogue.category_links(entry):
            target = str(link.get("target") or "")
            constraints = link.get("constraints") or ()
            mods = link.get("modifiers") or []
            for c in constraints:
                scope = str(c.get("scope") or "")
                # On a force entry's category, "parent" is the force itself.
                q = {**c, "child": target, "scope": "force" if scope == "parent" else scope}
                count = self.count(q, ctx)
                members = tuple(s for s in (force.walk() if c.get("children") else force.children) if target in s.keys)
                self._judge(c, count, self.constraint_value(mods, c, ctx), "category",
                            catalogue.categories.get(target, target), ctx, force, members, None, out, seen)
