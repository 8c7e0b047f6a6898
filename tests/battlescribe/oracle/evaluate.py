"""Evaluate a roster the way BattleScribe does: costs, hidden entries, constraints, limits.

The roster's selections are first bound to the catalogue (each selection's path names one option of
its holder: the force root or the parent selection). Then, in this order:
1. categories of every selection (static category links, then category modifiers);
2. costs of every selection (cost modifiers, evaluated in the selection's own context);
3. hidden state of every option at every holder, and of every selection;
4. every constraint of every option and group at every holder, of the force entry's category
   links and of category entries, with modifiers applied to the limits.
README.md beside this file gives every reading taken where BattleScribe's behaviour is not written
down.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .nodes import ForceRoot
from .roster import Roster

COUNT_TYPES = {"unit", "model", "upgrade"}


@dataclass(frozen=True)
class Violation:
    kind: str  # constraint | hidden | unknown-entry | cost-limit
    message: str
    constraint_id: str | None = None
    owner_kind: str | None = None  # entry | group | category | force-entry
    owner_id: str | None = None  # entry, group or category id (the target id, not the link)
    owner_path: str | None = None  # the entry's or group's path where it was evaluated
    type: str | None = None  # min | max
    limit: float | None = None  # after modifiers
    actual: float | None = None
    field: str | None = None
    scope: str | None = None
    at: str | None = None  # roster id of the selection or force it was evaluated at
    at_path: str | None = None  # that selection's entry path, or "force:<force entry id>"

    def key(self):
        """What identifies the violation across two evaluators (no message, no roster ids)."""
        return (self.kind, self.constraint_id, self.owner_id, self.type, self.limit, self.actual)


@dataclass(frozen=True)
class Unevaluated:
    what: str  # e.g. "modifier set name", "condition scope primary-category"
    where: str  # the id of the element that carries it
    detail: str = ""


@dataclass
class Verdict:
    totals: dict  # cost type id -> roster total
    costs: dict  # selection id -> {cost type id: value of that selection alone (x number)}
    violations: list
    unevaluated: list
    warnings: list = field(default_factory=list)  # structural remarks that BattleScribe tolerates
    categories: dict = field(default_factory=dict)  # selection id -> [(category id, primary)]

    @property
    def legal(self) -> bool:
        return not self.violations


# --------------------------------------------------------------------------- the bound roster
class BHolder:
    __slots__ = ()


class BForce:
    def __init__(self, force, root: ForceRoot, parent):
        self.force = force
        self.root = root
        self.parent = parent
        self.children = []
        self.sels = []  # every selection of this force, preorder
        self.subforces = []
        self.index = {}
        self.child_prefix = ()
        self.ids = {force.entry_id, force.catalogue_id}
        self.node = None
        self.bforce = self

    @property
    def options(self):
        return self.root.options

    @property
    def group_instances(self):
        return self.root.group_instances

    def describe(self):
        return f"force:{self.force.entry_id}"


class BSel:
    __slots__ = ("sel", "option", "node", "parent", "bforce", "children", "path", "gpaths", "child_prefix",
                 "keys", "categories", "primary", "number", "pre", "post", "own_cost", "total_cost")

    def __init__(self, sel, option, parent, bforce, path):
        self.sel = sel
        self.option = option
        self.node = option.node
        self.parent = parent
        self.bforce = bforce
        self.children = []
        self.path = path
        self.child_prefix = tuple(path.split("::"))[:-1]
        prefix = "::".join(parent.child_prefix)
        self.gpaths = {(prefix + "::" if prefix else "") + "::".join(g.rel) for g in option.groups}
        self.number = sel.number
        self.own_cost = {}
        self.total_cost = {}

    @property
    def options(self):
        return self.node.options

    @property
    def group_instances(self):
        return self.node.group_instances

    def describe(self):
        return self.path


# --------------------------------------------------------------------------- the evaluator
class Evaluation:
    def __init__(self, lib, roster: Roster, focus=None):
        self.focus = focus  # python ids of the Selection/Force objects whose own checks to run; None: all
        self.lib = lib
        self.roster = roster
        self.violations = []
        self.unevaluated = {}
        self.warnings = []
        self.forces = []  # top-level BForce
        self.all_forces = []
        self.sels = []
        self._memo = {}
        self.gst_cost_types = list(lib.cost_types)

    # -- binding ------------------------------------------------------------------------------
    def bind(self):
        for f in self.roster.forces:
            self.forces.append(self._bind_force(f, None))

    def _bind_force(self, force, parent):
        if force.catalogue_id not in self.lib.catalogues:
            self.violations.append(Violation("unknown-entry", f"force {force.id}: no catalogue {force.catalogue_id}",
                                             at=force.id))
            root = None
        else:
            try:
                root = self.lib.force_root(force.catalogue_id, force.entry_id or None)
            except KeyError:
                self.violations.append(Violation("unknown-entry", f"force {force.id}: no force entry {force.entry_id}",
                                                 at=force.id))
                root = None
        bf = BForce(force, root, parent)
        self.all_forces.append(bf)
        if root is not None:
            by_rel = _options_by_rel(root)
            for s in force.selections:
                b = self._bind_sel(s, bf, bf, by_rel)
                if b is not None:
                    bf.children.append(b)
        for sub in force.forces:
            bf.subforces.append(self._bind_force(sub, bf))
        return bf

    def _bind_sel(self, sel, parent, bf, by_rel):
        parts = tuple(sel.entry_id.split("::"))
        prefix = parent.child_prefix
        opt = None
        if parts[:len(prefix)] == prefix:
            opt = by_rel.get(parts[len(prefix):])
        if opt is None:
            self.violations.append(Violation(
                "unknown-entry",
                f"selection {sel.id} ({sel.name or sel.entry_id}): entry {sel.entry_id} is not an option "
                f"of {parent.describe()}", owner_id=parts[-1], at=sel.id, at_path=sel.entry_id))
            return None
        b = BSel(sel, opt, parent, bf, sel.entry_id)
        want_group = None
        if opt.groups:
            p = "::".join(prefix)
            want_group = (p + "::" if p else "") + "::".join(opt.groups[-1].rel)
        if (sel.entry_group_id or None) != want_group:
            self.warnings.append(f"selection {sel.id} {sel.entry_id}: entryGroupId {sel.entry_group_id!r}, "
                                 f"catalogue says {want_group!r}")
        if sel.type != opt.node.type:
            self.warnings.append(f"selection {sel.id} {sel.entry_id}: type {sel.type!r}, entry is {opt.node.type!r}")
        if sel.number < 1:
            self.warnings.append(f"selection {sel.id} {sel.entry_id}: number {sel.number}")
        child_rel = _options_by_rel(opt.node)
        for c in sel.children:
            cb = self._bind_sel(c, b, bf, child_rel)
            if cb is not None:
                b.children.append(cb)
        return b

    def _number(self):
        """Preorder numbers, per-force lists and match keys (after categories are known)."""
        for bf in self.all_forces:
            order = []

            def walk(x, order=order):
                x.pre = len(order)
                order.append(x)
                for c in x.children:
                    walk(c)
                x.post = len(order) - 1

            for c in bf.children:
                walk(c)
            bf.sels = order
            self.sels.extend(order)

    def _keys(self):
        for bf in self.all_forces:
            idx = {}
            for x in bf.sels:
                keys = {x.node.id, x.node.type, "any"}
                if x.node.link is not None:
                    keys.add(x.node.link.id)
                for g in x.option.groups:
                    keys.add(g.node.id)
                    if g.node.link is not None:
                        keys.add(g.node.link.id)
                keys |= x.categories
                x.keys = keys
                for k in keys:
                    idx.setdefault(k, []).append(x)
                idx.setdefault(("path", x.path), []).append(x)
                for gp in x.gpaths:
                    idx.setdefault(("gpath", gp), []).append(x)
            bf.index = idx

    # -- notes --------------------------------------------------------------------------------
    def note(self, what, where, detail=""):
        key = (what, where)
        if key not in self.unevaluated:
            self.unevaluated[key] = Unevaluated(what, where, detail)

    # -- scopes and counting -----------------------------------------------------------------
    def _forces_under(self, anchor, include_child_forces):
        base = list(self.forces) if anchor == "roster" else [anchor]
        if not include_child_forces:
            return base
        out, todo = [], list(base)
        while todo:
            f = todo.pop(0)
            out.append(f)
            todo = f.subforces + todo
        return out

    def candidates(self, anchor, key, ics, icf):
        """Selections under `anchor` that carry `key` (a match key or ('path'|'gpath', str))."""
        if anchor is None:
            return []
        if anchor == "roster" or isinstance(anchor, BForce):
            forces = self._forces_under(anchor, icf)
            if ics:
                out = []
                for f in forces:
                    out.extend(f.index.get(key, ()))
                return out
            out = []
            for f in forces:
                out.extend(x for x in f.children if _has(x, key))
            return out
        if ics:
            lst = anchor.bforce.index.get(key, ())
            return [x for x in lst if anchor.pre < x.pre <= anchor.post]
        return [x for x in anchor.children if _has(x, key)]

    def measure(self, q, key, anchor, where):
        """The value a query measures: a count of selections, a sum of a cost, or a cost limit."""
        if q.field.startswith("limit::"):
            return self.roster.cost_limits.get(q.field[len("limit::"):], -1.0)
        memo_key = (id(anchor) if not isinstance(anchor, str) else anchor, key, q.field, q.child_selections,
                    q.child_forces)
        got = self._memo.get(memo_key)
        if got is not None:
            return got
        if q.field == "forces":
            forces = self._forces_under(anchor, True) if anchor is not None else []
            if isinstance(anchor, BForce):
                forces = [f for f in forces if f is not anchor]
            val = float(sum(1 for f in forces if key == "any" or key in f.ids))
        elif q.field == "selections":
            val = float(sum(x.number for x in self.candidates(anchor, key, q.child_selections, q.child_forces)))
        else:
            val = 0.0
            for x in self.candidates(anchor, key, q.child_selections, q.child_forces):
                val += x.total_cost.get(q.field, 0.0)
        if q.percent:
            total = self._percent_base(q, anchor)
            val = 100.0 * val / total if total else 0.0
        self._memo[memo_key] = val
        return val

    def _percent_base(self, q, anchor):
        if q.field == "selections":
            return float(sum(x.number for x in self.candidates(anchor, "any", q.child_selections, q.child_forces)))
        if q.field == "forces":
            return float(len(self._forces_under("roster", True)))
        return self.totals.get(q.field, 0.0)

    def resolve_scope(self, scope, holder, self_sel, where):
        """The selection, force or 'roster' a query counts under."""
        if scope == "parent":
            return holder
        if scope == "self":
            return self_sel
        if scope == "force":
            return holder.bforce
        if scope == "roster":
            return "roster"
        if scope in ("primary-category", "primary-catalogue", "ancestor"):
            self.note(f"scope {scope}", where)
            return None
        x = self_sel if self_sel is not None else holder
        while x is not None:
            if isinstance(x, BForce):
                if scope in x.ids:
                    return x
                x = x.parent
            else:
                if x.node.id == scope or (x.node.link is not None and x.node.link.id == scope):
                    return x
                x = x.parent
        return None  # the scope entry is not an ancestor here: nothing to count

    # -- conditions and modifiers ------------------------------------------------------------
    def is_instance(self, x, child_id):
        if x is None:
            return False
        if isinstance(x, BForce):
            return child_id in x.ids or child_id == "any"
        return child_id in x.keys

    def condition(self, c, holder, self_sel, where):
        if c.type in ("instanceOf", "notInstanceOf"):
            if c.q.scope == "ancestor":
                found, x = False, holder
                while x is not None:
                    if self.is_instance(x, c.child_id):
                        found = True
                        break
                    x = x.parent
            else:
                anchor = self.resolve_scope(c.q.scope, holder, self_sel, where)
                found = anchor is not None and anchor != "roster" and self.is_instance(anchor, c.child_id)
            return found if c.type == "instanceOf" else not found
        if c.q.scope == "ancestor":
            self.note("condition scope ancestor with a count", where, c.type)
            return False
        anchor = self.resolve_scope(c.q.scope, holder, self_sel, where)
        n = self.measure(c.q, c.child_id, anchor, where)
        v = c.q.value
        t = c.type
        if t == "lessThan":
            return n < v
        if t == "greaterThan":
            return n > v
        if t == "equalTo":
            return n == v
        if t == "notEqualTo":
            return n != v
        if t == "atLeast":
            return n >= v
        if t == "atMost":
            return n <= v
        self.note(f"condition type {t}", where)
        return False

    def group_holds(self, g, holder, self_sel, where):
        results = [self.condition(c, holder, self_sel, where) for c in g.conditions]
        results += [self.group_holds(sub, holder, self_sel, where) for sub in g.groups]
        if g.type == "or":
            return any(results)
        return all(results)

    def times(self, m, holder, self_sel, where):
        """0 when the modifier does not apply, else how many times it applies."""
        for c in m.conditions:
            if not self.condition(c, holder, self_sel, where):
                return 0
        for g in m.groups:
            if not self.group_holds(g, holder, self_sel, where):
                return 0
        if not m.repeats:
            return 1
        total = 0
        for r in m.repeats:
            if r.q.value <= 0:
                continue
            anchor = self.resolve_scope(r.q.scope, holder, self_sel, where)
            n = self.measure(r.q, r.child_id, anchor, where)
            steps = math.ceil(n / r.q.value) if r.round_up else math.floor(n / r.q.value)
            total += steps * r.repeats
        return total

    def number_value(self, mods, field_id, base, holder, self_sel, where):
        v = base
        for m in mods:
            if m.field != field_id:
                continue
            k = self.times(m, holder, self_sel, where)
            if not k:
                continue
            try:
                val = float(m.value)
            except ValueError:
                self.note(f"modifier {m.type} with a non-number value", where, m.value)
                continue
            if m.type == "set":
                v = val
            elif m.type == "increment":
                v += val * k
            elif m.type == "decrement":
                v -= val * k
            else:
                self.note(f"modifier {m.type} on a number", where, field_id)
        return v

    def hidden(self, node, holder, self_sel):
        h = node.hidden
        for m in node.modifiers:
            if m.field != "hidden":
                continue
            if m.type != "set":
                self.note(f"modifier {m.type} hidden", node.id)
                continue
            if self.times(m, holder, self_sel, node.id):
                h = m.value.strip().lower() == "true"
        return h

    # -- the passes ---------------------------------------------------------------------------
    def categories(self):
        for x in self.sels:
            cats = {c.target_id for c in x.node.categories}
            primary = x.node.primary_category
            for m in x.node.modifiers:
                if m.field != "category":
                    continue
                if m.conditions or m.groups or m.repeats:
                    # categories are settled before any count that could depend on them
                    self.note("conditional category modifier (applied without its conditions)", x.node.id)
                if m.type in ("add",):
                    cats.add(m.value)
                elif m.type == "remove":
                    cats.discard(m.value)
                    if primary == m.value:
                        primary = None
                elif m.type == "set-primary":
                    cats.add(m.value)
                    primary = m.value
                elif m.type == "unset-primary":
                    if primary == m.value:
                        primary = None
                else:
                    self.note(f"modifier {m.type} category", x.node.id)
            x.categories = cats
            x.primary = primary

    def costs(self):
        cost_types = self.gst_cost_types
        self.totals = {t: 0.0 for t in cost_types}
        for x in reversed(self.sels):  # before modifiers, cost queries see the plain costs
            tot = {t: v * x.number for t, v in x.node.costs.items()}
            for c in x.children:
                for t, v in c.total_cost.items():
                    tot[t] = tot.get(t, 0.0) + v
            x.total_cost = tot
        for x in self.sels:
            own = {}
            fields = set(x.node.costs) | {m.field for m in x.node.modifiers if m.field in self.lib.cost_types}
            for t in cost_types:
                if t in fields:
                    per = self.number_value(x.node.modifiers, t, x.node.costs.get(t, 0.0), x.parent, x, x.node.id)
                else:
                    per = 0.0
                own[t] = per * x.number
            x.own_cost = own
        for x in reversed(self.sels):
            tot = dict(x.own_cost)
            for c in x.children:
                for t, v in c.total_cost.items():
                    tot[t] = tot.get(t, 0.0) + v
            x.total_cost = tot
        for x in self.sels:
            for t, v in x.own_cost.items():
                self.totals[t] = self.totals.get(t, 0.0) + v
        self._memo.clear()  # counts of costs seen so far used costs before modifiers

    def other_modifiers(self):
        known = {"hidden", "category"} | set(self.lib.cost_types)
        for x in self.sels:
            cids = {c.id for c in x.node.constraints}
            for m in x.node.modifiers:
                if m.field in known or m.field in cids:
                    continue
                what = m.field if m.field in ("name", "page", "annotation") else "of another field"
                self.note(f"modifier {m.type} {what}", x.node.id, m.field)

    def selection_hidden(self):
        focus = self.focus
        for x in self.sels:
            if focus is not None and id(x.parent.sel if isinstance(x.parent, BSel) else x.parent.force) not in focus:
                continue
            if self.hidden(x.node, x.parent, x):
                self.violations.append(self._hidden_violation(x, x.node, "entry", x.path))
                continue
            prefix = "::".join(x.parent.child_prefix)
            for g in x.option.groups:
                if self.hidden(g.node, x.parent, None):
                    gp = (prefix + "::" if prefix else "") + "::".join(g.rel)
                    self.violations.append(self._hidden_violation(x, g.node, "group", gp))
                    break

    def _hidden_violation(self, x, node, kind, path):
        return Violation("hidden", f"{x.path} is selected but {kind} {node.id} is hidden there",
                         owner_kind=kind, owner_id=node.id, owner_path=path, at=x.sel.id, at_path=x.path)

    def constraints(self):
        holders = [f for f in self.all_forces if f.root is not None] + self.sels
        focus = self.focus
        if focus is not None:
            holders = [h for h in holders if id(h.sel if isinstance(h, BSel) else h.force) in focus]
        seen = set()
        for h in holders:
            prefix = "::".join(h.child_prefix)
            pre = prefix + "::" if prefix else ""
            hidden_groups = {}
            for g, outer in h.group_instances:
                gh = self.hidden(g.node, h, None) or any(hidden_groups.get(o.rel, False) for o in outer)
                hidden_groups[g.rel] = gh
                self._check(g.node, "group", pre + "::".join(g.rel), h, None, gh, seen)
            for opt in h.options:
                path = pre + "::".join(opt.rel)
                mine = h.bforce.index.get(("path", path), ())
                self_sel = next((x for x in mine if x.parent is h), None)
                hid = self.hidden(opt.node, h, self_sel) or any(hidden_groups.get(g.rel, False) for g in opt.groups)
                self._check(opt.node, "entry", path, h, self_sel, hid, seen, selected=self_sel is not None)
        for bf in self.all_forces:
            if bf.root is None or (focus is not None and id(bf.force) not in focus):
                continue
            fe = bf.root.force_entry
            for cl in fe.categories:
                for c in cl.constraints:
                    self._check_one(c, cl.modifiers, "category", cl.target_id, None, ("cat", cl.target_id), bf, None,
                                    seen)
            for cat in bf.root.catalogue.all_categories():
                for c in cat.constraints:
                    self._check_one(c, cat.modifiers, "category", cat.id, None, ("cat", cat.id), bf, None, seen)
            for c in fe.constraints:
                self._check_one(c, fe.modifiers, "force-entry", fe.id, None, ("force", fe.id), bf, None, seen)

    def _check(self, node, kind, path, holder, self_sel, hidden, seen, selected=True):
        if hidden:
            return  # a hidden entry or group is not on offer: none of its constraints apply (see README)
        for c in node.constraints:
            if c.type == "max" and not selected:
                continue  # an entry's maximum is checked where it is selected (see README)
            if kind == "entry":
                key = node.id if c.q.shared else ("path", path)
            else:
                key = node.id if c.q.shared else ("gpath", path)
            self._check_one(c, node.modifiers, kind, node.id, path, key, holder, self_sel, seen)

    def _check_one(self, c, modifiers, kind, owner_id, path, key, holder, self_sel, seen):
        where = owner_id
        if c.q.scope == "self":
            anchor = self_sel
            if anchor is None:
                return
        else:
            anchor = self.resolve_scope(c.q.scope, holder, self_sel, where)
        if anchor is None:
            return
        if isinstance(key, tuple) and key[0] == "cat" or isinstance(key, tuple) and key[0] == "force":
            key = key[1]
        # the same constraint reached from several holders counts once per place it counts in; ids are
        # not unique in the data (copied entries keep their constraint ids), so the owner is part of it
        dedupe = (c.id, c.type, owner_id, id(anchor) if not isinstance(anchor, str) else anchor,
                  key if isinstance(key, tuple) else None)
        if dedupe in seen:
            return
        seen.add(dedupe)
        limit = self.number_value(modifiers, c.id, c.q.value, holder, self_sel, where)
        if c.q.field == "forces":
            actual = self.measure(c.q, key, anchor, where)
        else:
            actual = self.measure(c.q, key, anchor, where)
        bad = actual < limit if c.type == "min" else (limit >= 0 and actual > limit)
        if c.type not in ("min", "max"):
            self.note(f"constraint type {c.type}", c.id)
            return
        if bad:
            at = holder.force.id if isinstance(holder, BForce) else holder.sel.id
            self.violations.append(Violation(
                "constraint", f"{kind} {owner_id}: {c.type} {limit:g} {c.q.field} in {c.q.scope}, found {actual:g}",
                constraint_id=c.id, owner_kind=kind, owner_id=owner_id, owner_path=path, type=c.type, limit=limit,
                actual=actual, field=c.q.field, scope=c.q.scope, at=at, at_path=holder.describe()))

    def cost_limits(self):
        for t, lim in self.roster.cost_limits.items():
            if lim >= 0 and self.totals.get(t, 0.0) > lim:
                self.violations.append(Violation("cost-limit",
                                                 f"total {self.totals[t]:g} of {t} over the limit {lim:g}",
                                                 owner_kind="roster", owner_id=t, type="max", limit=lim,
                                                 actual=self.totals[t], field=t, scope="roster"))

    def run(self) -> Verdict:
        self.bind()
        self._number()
        self.categories()
        self._keys()
        self.costs()
        self.other_modifiers()
        self.selection_hidden()
        self.constraints()
        self.cost_limits()
        costs = {x.sel.id: dict(x.own_cost) for x in self.sels}
        cats = {x.sel.id: sorted((c, c == x.primary) for c in x.categories) for x in self.sels}
        return Verdict(totals=dict(self.totals), costs=costs, violations=self.violations,
                       unevaluated=list(self.unevaluated.values()), warnings=self.warnings, categories=cats)


def _has(x, key):
    if isinstance(key, tuple):
        if key[0] == "path":
            return x.path == key[1]
        if key[0] == "gpath":
            return key[1] in x.gpaths
        return False
    return key in x.keys


def _options_by_rel(holder):
    return holder.options_by_rel


def evaluate(lib, roster, focus=None) -> Verdict:
    return Evaluation(lib, roster, focus).run()


def library_unevaluated(lib) -> list:
    """Every kind of construct in the library the oracle does not evaluate, with how often it occurs."""
    counts = {}
    cost_types = set(lib.cost_types)
    for cat in [lib.game_system, *lib.catalogues.values()]:
        for what, n in cat.not_read.items():
            counts[what] = counts.get(what, 0) + n
    seen = set()

    def visit(node, depth=0):
        if id(node) in seen or depth > 30:
            return
        seen.add(id(node))
        cids = {c.id for c in node.constraints}
        for m in node.modifiers:
            if m.field in ("hidden", "category") or m.field in cost_types or m.field in cids:
                continue
            what = f"modifier {m.type} {m.field if m.field in ('name', 'page', 'annotation') else 'of another field'}"
            counts[what] = counts.get(what, 0) + 1
        for c in node.constraints:
            if c.q.percent:
                key = "percentValue (read as a share, see README)"
                counts[key] = counts.get(key, 0) + 1
        for ch in node.children:
            visit(ch, depth + 1)

    for cat in lib.catalogues.values():
        for ch in lib.force_root(cat.id).children:
            visit(ch)
    return [Unevaluated(what, "library", f"{n} in the data") for what, n in sorted(counts.items())]
