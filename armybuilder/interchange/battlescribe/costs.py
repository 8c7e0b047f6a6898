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

The evaluation itself is :class:`armybuilder.rules.bspricing.Evaluator`, shared
with the engine's pricing of lists built on imported handbooks, so a roster
and a list of the same force cost the same. Semantics (BattleScribe 2.03, as
documented in BSData's schema and wiki):
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

from dataclasses import dataclass

from armybuilder.rules.bspricing import Evaluator, ForceNode, Sel, UnsupportedModifier, tidy, unsupported_reason

from .index import Entry, Index

__all__ = ["CostEvaluator", "CostResult", "SelectionCost", "SelectionTreeError", "UnsupportedModifier",
           "evaluate_costs", "unsupported_reason"]


class SelectionTreeError(ValueError):
    """The selection tree names an entry the data does not hold, or is malformed."""


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


def entry_for(index: Index, path: str, cat_id: str, where: str) -> Entry:
    """The entry a roster ``entryId`` path names (last id = entry, the one before = its link)."""
    from .nodes import Node

    parts = [p for p in str(path).split("::") if p]
    if not parts:
        raise SelectionTreeError(f"{where}: empty entry id")
    target = index.lookup(cat_id, parts[-1])
    link = index.link(cat_id, parts[-2]) if len(parts) > 1 else None
    if target is None and len(parts) == 1:
        link = index.link(cat_id, parts[0])
        target = index.lookup(cat_id, link.target_id) if link else None
    if not isinstance(target, Node) or target.tag != "selectionEntry":
        raise SelectionTreeError(f"{where}: unknown selection entry {path!r}")
    return Entry(node=target, link=link, catalogue_id=cat_id)


class CostEvaluator:
    def __init__(self, index: Index):
        self.index = index
        self.cost_ids = set(index.cost_types)

    def _build(self, items, parent: Sel | None, force: ForceNode, where: str) -> list[Sel]:
        out = []
        if not isinstance(items, list):
            raise SelectionTreeError(f"{where}: 'selections' must be a list")
        for i, item in enumerate(items):
            here = f"{where}.selections[{i}]"
            if not isinstance(item, dict) or "entry" not in item:
                raise SelectionTreeError(f"{here}: a selection needs an 'entry'")
            entry = entry_for(self.index, str(item["entry"]), force.catalogue_id, here)
            number = item.get("number", 1)
            if not isinstance(number, int) or isinstance(number, bool) or number < 0:
                raise SelectionTreeError(f"{here}: 'number' must be a whole number ≥ 0")
            ids = set(str(item["entry"]).split("::")) | {entry.node.id}
            if entry.link is not None:
                ids.add(entry.link.id)
            if item.get("group"):
                ids |= set(str(item["group"]).split("::"))
            sel = Sel(ids=ids, categories=entry.categories, type=entry.node.type, base=dict(entry.costs),
                      modifiers=[m for m in entry.modifiers if m["kind"] == "cost"], force=force, parent=parent,
                      number=number, name=entry.name, path=str(item["entry"]), group=str(item.get("group", "")),
                      ref=entry)
            sel.children = self._build(item.get("selections", []), sel, force, here)
            out.append(sel)
        return out

    def evaluate(self, roster: dict) -> CostResult:
        forces_in = roster.get("forces") if isinstance(roster, dict) and "forces" in roster else [roster]
        if not isinstance(forces_in, list):
            raise SelectionTreeError("forces: must be a list")

        def build_forces(items, where: str) -> list[ForceNode]:
            out = []
            for fi, f in enumerate(items):
                here = f"{where}[{fi}]"
                if not isinstance(f, dict) or not f.get("catalogue"):
                    raise SelectionTreeError(f"{here}: a force needs a 'catalogue' id")
                force = ForceNode(catalogue_id=str(f["catalogue"]), entry_id=str(f.get("entry", "")))
                force.children = self._build(f.get("selections", []), None, force, here)
                force.forces = build_forces(f.get("forces", []), f"{here}.forces")
                out.append(force)
            return out

        forces = build_forces(forces_in, "forces")
        evaluator = Evaluator(forces, self.cost_ids, self.index.system.id)
        totals: dict[str, float] = {}
        rows: list[SelectionCost] = []

        def walk(sel: Sel, depth: int):
            costs = evaluator.total(sel)
            for k, v in costs.items():
                totals[k] = totals.get(k, 0) + v
            rows.append(SelectionCost(sel.ref.path, sel.name, sel.number, costs, depth))
            for child in sel.children:
                walk(child, depth + 1)

        for force in evaluator.roster:
            for sel in force.children:
                walk(sel, 0)
        return CostResult({k: tidy(v) for k, v in totals.items()}, rows)


def evaluate_costs(index: Index, roster: dict) -> CostResult:
    """Price a selection tree (see the module docstring for its shape)."""
    return CostEvaluator(index).evaluate(roster)
