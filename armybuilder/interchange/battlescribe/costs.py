"""Cost evaluation for BattleScribe data: a pure-Python modifier evaluator.

Input: a *selection tree*, shaped like a BattleScribe roster::

    roster    = {"forces": [force, ...]}            # or just one force dict
    force     = {"catalogue": "<catalogue id>",     # whose entries the ids refer to
                 "entry": "<forceEntry id>",        # optional
                 "selections": [selection, ...],
                 "forces": [force, ...]}            # optional nested forces (allies)
    selection = {"entry": "<entry id>" | "<link id>::<entry id>",   # as .ros entryId
                 "group": "<group id>",             # optional: the group it was picked from
                 "number": 1,                       # optional, default 1
                 "selections": [selection, ...]}    # children, optional

An entry path may hold several ids joined by ``::`` (enclosing links); the
last one is the selection entry, the one before it (if any) the entry link it
was selected through, whose modifiers/costs are merged over the entry.

Output: :class:`CostResult` with the total per cost type and the cost of
every selection (already multiplied by its ``number``), in tree order.

Semantics (BattleScribe 2.03, as documented in BSData's schema and wiki):
* A selection costs its entry's cost (link costs win) after the entry's and
  the link's ``set``/``increment``/``decrement`` modifiers on that cost type,
  applied in document order (target's, then link's), times ``number``.
* A modifier applies when its conditions hold; with repeats it applies
  ``sum(repeats × floor(count/value))`` times (``roundUp`` uses ceil); a
  ``set`` applies once if that is at least one.
* Condition counts: ``number`` of matching selections among the scope node's
  children (all descendants with ``includeChildSelections``). A child id
  matches a selection whose entry path, group or categories hold the id;
  ``model``/``unit``/``upgrade`` match the entry type; ``any`` matches all.
  A cost-type field sums those selections' costs instead.
* Scopes: ``self``, ``parent``, ``force`` (with its nested forces when
  ``includeChildForces``), ``roster`` (every force), ``ancestor`` (for
  instanceOf), or an id: the nearest enclosing selection with that entry id,
  else a force with that entry or catalogue id. An unknown scope counts 0.
* ``shared="false"`` is treated like shared (counts through any link), and
  category add/remove modifiers are not applied: neither changes a price in
  the FoW library.

Anything outside this (percent values, ``limit::`` fields, other scopes or
modifier types on a cost) is *not understood*: :func:`unsupported_reason`
says why, the importer reports it as an error, and :func:`evaluate` raises
:class:`UnsupportedModifier` rather than silently pricing it as 0.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .index import Entry, Index

COMPARISONS = {
    "lessThan": lambda a, b: a < b,
    "greaterThan": lambda a, b: a > b,
    "equalTo": lambda a, b: a == b,
    "notEqualTo": lambda a, b: a != b,
    "atLeast": lambda a, b: a >= b,
    "atMost": lambda a, b: a <= b,
}
INSTANCE = {"instanceOf", "notInstanceOf"}
NAMED_SCOPES = {"self", "parent", "force", "roster", "ancestor"}
COST_MODIFIER_TYPES = {"set", "increment", "decrement"}


class UnsupportedModifier(Exception):
    pass


class SelectionTreeError(ValueError):
    """The selection tree names an entry the data does not hold, or is malformed."""


# -- what is understood -------------------------------------------------
def _query_problem(q: dict, cost_ids: set[str], *, repeat: bool = False) -> str | None:
    if q.get("percent"):
        return "percentValue conditions are not supported"
    fld = q.get("field", "")
    if fld != "selections" and fld not in cost_ids:
        return f"condition field {fld!r} is not supported (only selections or a cost type)"
    scope = q.get("scope", "")
    if scope in ("primary-category", "primary-catalogue") or not scope:
        return f"scope {scope!r} is not supported"
    if repeat:
        if not q.get("value"):
            return "a repeat with value 0 never ends"
        return None
    ctype = q.get("type", "")
    if ctype not in COMPARISONS and ctype not in INSTANCE:
        return f"condition type {ctype!r} is not supported"
    if scope == "ancestor" and ctype not in INSTANCE:
        return "counting in scope 'ancestor' is not supported"
    return None


def _tree_problem(tree, cost_ids) -> str | None:
    if "and" in tree or "or" in tree:
        for item in tree.get("and", tree.get("or", [])):
            problem = _tree_problem(item, cost_ids)
            if problem:
                return problem
        return None
    return _query_problem(tree, cost_ids)


def unsupported_reason(mod: dict, cost_ids: set[str]) -> str | None:
    """Why the evaluator cannot apply this cost modifier, or None if it can."""
    if mod.get("type") not in COST_MODIFIER_TYPES:
        return f"modifier type {mod.get('type')!r} on a cost is not supported"
    if not isinstance(mod.get("value"), (int, float)):
        return f"cost value {mod.get('value')!r} is not a number"
    if "when" in mod:
        problem = _tree_problem(mod["when"], cost_ids)
        if problem:
            return problem
    for rep in mod.get("repeats", []):
        problem = _query_problem(rep, cost_ids, repeat=True)
        if problem:
            return "repeat: " + problem
    return None


# -- the selection tree --------------------------------------------------
@dataclass(eq=False)
class _Sel:
    entry: Entry
    ids: set[str]  # entry path parts, group path parts
    categories: set[str]
    number: int
    parent: "_Sel | None"
    force: "_Force"
    children: list["_Sel"] = field(default_factory=list)
    costs: dict[str, float] | None = None  # per-unit costs once computed

    @property
    def type(self) -> str:
        return self.entry.node.type


@dataclass(eq=False)
class _Force:
    catalogue_id: str
    entry_id: str
    children: list[_Sel] = field(default_factory=list)
    forces: list["_Force"] = field(default_factory=list)  # nested forces (e.g. allied)


@dataclass
class SelectionCost:
    path: str  # entry path as given
    name: str
    number: int
    costs: dict[str, float]  # this selection alone, times number (children not included)
    depth: int


@dataclass
class CostResult:
    totals: dict[str, float]
    selections: list[SelectionCost]

    def total(self, cost_type: str) -> float:
        return self.totals.get(cost_type, 0)


class CostEvaluator:
    def __init__(self, index: Index):
        self.index = index
        self.cost_ids = set(index.cost_types)

    # building
    def _entry_for(self, path: str, cat_id: str, where: str) -> Entry:
        parts = [p for p in path.split("::") if p]
        if not parts:
            raise SelectionTreeError(f"{where}: empty entry id")
        target = self.index.lookup(cat_id, parts[-1])
        link = self.index.link(cat_id, parts[-2]) if len(parts) > 1 else None
        if target is None and len(parts) == 1:
            link = self.index.link(cat_id, parts[0])
            target = self.index.lookup(cat_id, link.target_id) if link else None
        from .nodes import Node
        if not isinstance(target, Node) or target.tag != "selectionEntry":
            raise SelectionTreeError(f"{where}: unknown selection entry {path!r}")
        return Entry(node=target, link=link, catalogue_id=cat_id)

    def _build(self, items, parent, force: _Force, where: str) -> list[_Sel]:
        out = []
        if not isinstance(items, list):
            raise SelectionTreeError(f"{where}: 'selections' must be a list")
        for i, item in enumerate(items):
            here = f"{where}.selections[{i}]"
            if not isinstance(item, dict) or "entry" not in item:
                raise SelectionTreeError(f"{here}: a selection needs an 'entry'")
            entry = self._entry_for(str(item["entry"]), force.catalogue_id, here)
            number = item.get("number", 1)
            if not isinstance(number, int) or number < 0:
                raise SelectionTreeError(f"{here}: 'number' must be a whole number ≥ 0")
            ids = set(str(item["entry"]).split("::")) | {entry.node.id}
            if entry.link is not None:
                ids.add(entry.link.id)
            if item.get("group"):
                ids |= set(str(item["group"]).split("::"))
            sel = _Sel(entry=entry, ids=ids, categories=entry.categories, number=number, parent=parent, force=force)
            sel.children = self._build(item.get("selections", []), sel, force, here)
            out.append(sel)
        return out

    # evaluating
    def evaluate(self, roster: dict) -> CostResult:
        forces_in = roster.get("forces") if isinstance(roster, dict) and "forces" in roster else [roster]

        def build_forces(items, where: str) -> list[_Force]:
            out = []
            for fi, f in enumerate(items):
                here = f"{where}[{fi}]"
                if not isinstance(f, dict) or not f.get("catalogue"):
                    raise SelectionTreeError(f"{here}: a force needs a 'catalogue' id")
                force = _Force(catalogue_id=f["catalogue"], entry_id=f.get("entry", ""))
                force.children = self._build(f.get("selections", []), None, force, here)
                force.forces = build_forces(f.get("forces", []), f"{here}.forces")
                out.append(force)
            return out

        forces = []
        for force in build_forces(forces_in, "forces"):
            stack = [force]
            while stack:  # the roster is every force, nested ones included
                f = stack.pop(0)
                forces.append(f)
                stack.extend(f.forces)
        self._roster = forces
        self._busy: set[int] = set()
        totals: dict[str, float] = {}
        rows: list[SelectionCost] = []

        def walk(sel: _Sel, depth: int):
            unit = self._cost(sel)
            costs = {k: v * sel.number for k, v in unit.items()}
            for k, v in costs.items():
                totals[k] = totals.get(k, 0) + v
            rows.append(SelectionCost(sel.entry.path, sel.entry.name, sel.number, costs, depth))
            for child in sel.children:
                walk(child, depth + 1)

        for force in forces:
            for sel in force.children:
                walk(sel, 0)
        return CostResult({k: _tidy(v) for k, v in totals.items()}, rows)

    def _cost(self, sel: _Sel) -> dict[str, float]:
        if sel.costs is not None:
            return sel.costs
        if id(sel) in self._busy:  # a cost condition that depends on itself: use the plain cost
            return dict(sel.entry.costs)
        self._busy.add(id(sel))
        costs = dict(sel.entry.costs)
        for mod in sel.entry.modifiers:
            if mod["kind"] != "cost":
                continue
            problem = unsupported_reason(mod, self.cost_ids)
            if problem:
                raise UnsupportedModifier(f"{sel.entry.path}: {problem}")
            if "when" in mod and not self._holds(mod["when"], sel):
                continue
            times = 1
            if mod.get("repeats"):
                times = sum(self._repeat_times(r, sel) for r in mod["repeats"])
                if times <= 0:
                    continue
            fld, value = mod["field"], mod["value"]
            current = costs.get(fld, 0)
            if mod["type"] == "set":
                costs[fld] = value
            elif mod["type"] == "increment":
                costs[fld] = current + value * times
            else:
                costs[fld] = current - value * times
        self._busy.discard(id(sel))
        sel.costs = {k: _tidy(v) for k, v in costs.items()}
        return sel.costs

    def _holds(self, tree, sel: _Sel) -> bool:
        if "and" in tree:
            return all(self._holds(t, sel) for t in tree["and"])
        if "or" in tree:
            return any(self._holds(t, sel) for t in tree["or"])
        ctype = tree["type"]
        if ctype in INSTANCE:
            result = self._instance(tree, sel)
            return result if ctype == "instanceOf" else not result
        return COMPARISONS[ctype](self._count(tree, sel), tree["value"])

    def _repeat_times(self, rep: dict, sel: _Sel) -> int:
        count = self._count(rep, sel)
        per = rep["value"]
        steps = math.ceil(count / per) if rep.get("round_up") else math.floor(count / per)
        return max(0, steps) * rep.get("repeats", 1)

    def _matches(self, s: _Sel, child: str) -> bool:
        if child == "any":
            return True
        if child in ("model", "unit", "upgrade"):
            return s.type == child
        return child in s.ids or child in s.categories

    def _scope(self, q: dict, sel: _Sel):
        scope = q["scope"]
        if scope == "self":
            return sel
        if scope == "parent":
            return sel.parent or sel.force
        if scope == "force":
            return sel.force
        if scope == "roster":
            return self._roster
        node = sel
        while node is not None:
            if scope in node.ids:
                return node
            node = node.parent
        for force in self._roster:
            if scope in (force.entry_id, force.catalogue_id):
                return force
        if scope == self.index.system.id:
            return self._roster
        return None

    def _instance(self, q: dict, sel: _Sel) -> bool:
        child = q["child"]
        if q["scope"] == "ancestor":
            node = sel.parent
            while node is not None:
                if self._matches(node, child):
                    return True
                node = node.parent
            return False
        target = self._scope(q, sel)
        if isinstance(target, _Sel):
            return self._matches(target, child)
        if isinstance(target, _Force):
            return child in (target.entry_id, target.catalogue_id)
        return False

    def _count(self, q: dict, sel: _Sel) -> float:
        target = self._scope(q, sel)
        if target is None:
            return 0
        if isinstance(target, list):
            roots = [c for f in target for c in f.children]
        elif isinstance(target, _Force) and q.get("forces"):
            roots, stack = [], [target]
            while stack:
                f = stack.pop()
                roots.extend(f.children)
                stack.extend(f.forces)
        else:
            roots = target.children
        deep = q.get("children", False)
        fld = q["field"]
        total = 0.0
        stack = list(roots)
        while stack:
            s = stack.pop()
            if self._matches(s, q["child"]):
                total += s.number if fld == "selections" else self._cost(s).get(fld, 0) * s.number
            if deep:
                stack.extend(s.children)
        return total


def _tidy(v: float) -> float | int:
    return int(v) if float(v).is_integer() else round(v, 4)


def evaluate_costs(index: Index, roster: dict) -> CostResult:
    """Price a selection tree (see the module docstring for its shape)."""
    return CostEvaluator(index).evaluate(roster)
