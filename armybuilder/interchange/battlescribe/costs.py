"""Cost evaluation of a BattleScribe selection tree over the imported data, without the database.

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

The evaluation itself is :class:`armybuilder.rules.battlescribe.evaluate.Evaluation`, the one that
prices and checks lists built on imported handbooks, so a roster and a list of the same force cost the
same; its semantics (BattleScribe 2.03: counting, scopes, modifiers, conditions, repeats) are described
at the top of that module. The tree is bound loosely (``bind_draft(..., loose=True)``) against catalogue
documents holding every entry the catalogue can reach, so an entry is priced even where the data does not
offer it under that parent. An entry path the data does not hold raises :class:`SelectionTreeError`; a construct the
evaluator met but does not evaluate raises :class:`UnsupportedModifier` rather than pricing it as 0.
:func:`unsupported_reason` checks the shape of one cost modifier. The import report lists what the
evaluator does not evaluate through :func:`armybuilder.rules.battlescribe.audit.unevaluated`.
"""
from __future__ import annotations

from dataclasses import dataclass

from armybuilder.rules.battlescribe.catalogue import Catalogue
from armybuilder.rules.battlescribe.evaluate import Evaluation, tidy
from armybuilder.rules.battlescribe.tree import Sel, bind_draft

from .catalogue_doc import catalogue_document
from .index import Index

__all__ = ["CostResult", "SelectionCost", "SelectionTreeError", "UnsupportedModifier", "evaluate_costs",
           "unsupported_reason"]


class SelectionTreeError(ValueError):
    """The selection tree names an entry the data does not hold, or is malformed."""


class UnsupportedModifier(Exception):
    """A modifier the evaluator cannot apply: the price would be a guess."""


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


COST_MODIFIER_TYPES = {"set", "increment", "decrement"}


def unsupported_reason(mod: dict, cost_ids: set[str]) -> str | None:
    """Why a cost modifier cannot be applied, or None if it can (the importer reports these)."""
    if not isinstance(mod, dict):
        return "malformed modifier"
    if mod.get("type") not in COST_MODIFIER_TYPES:
        return f"modifier type {mod.get('type')!r} on a cost is not supported"
    value = mod.get("value")
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return f"cost value {value!r} is not a number"
    return None


def _check_tree(items, where: str) -> None:
    if not isinstance(items, list):
        raise SelectionTreeError(f"{where}: 'selections' must be a list")
    for i, item in enumerate(items):
        here = f"{where}.selections[{i}]"
        if not isinstance(item, dict) or "entry" not in item:
            raise SelectionTreeError(f"{here}: a selection needs an 'entry'")
        number = item.get("number", 1)
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            raise SelectionTreeError(f"{here}: 'number' must be a whole number ≥ 0")
        _check_tree(item.get("selections", []), here)


def evaluate_costs(index: Index, roster: dict, *, cost_limits: dict | None = None) -> CostResult:
    """Price a selection tree (see the module docstring for its shape) with the rules engine's evaluator."""
    forces = roster.get("forces") if isinstance(roster, dict) and "forces" in roster else [roster]
    if not isinstance(forces, list):
        raise SelectionTreeError("forces: must be a list")
    catalogues: dict[str, Catalogue] = {}
    stack = [(f, f"forces[{i}]") for i, f in enumerate(forces)]
    while stack:
        force, where = stack.pop()
        if not isinstance(force, dict) or not force.get("catalogue"):
            raise SelectionTreeError(f"{where}: a force needs a 'catalogue' id")
        cat = index.catalogues.get(force["catalogue"])
        if cat is None:
            raise SelectionTreeError(f"{where}: unknown catalogue {force['catalogue']!r}")
        if cat.id not in catalogues:
            catalogues[cat.id] = Catalogue(catalogue_document(index, cat, everything=True))
        _check_tree(force.get("selections", []), where)
        stack += [(sub, f"{where}.forces[{i}]") for i, sub in enumerate(force.get("forces") or [])]
    bound, problems = bind_draft(catalogues, {"forces": forces}, cost_limits=cost_limits, loose=True)
    if problems:
        raise SelectionTreeError(f"{problems[0].pointer}: unknown selection entry ({problems[0].message})")
    evaluation = Evaluation(bound)
    rows: list[SelectionCost] = []

    def walk(sel: Sel, depth: int):
        entry = sel.ref.get("entry") if isinstance(sel.ref, dict) else None  # bind_draft's ref is the draft's dict
        rows.append(SelectionCost(str(entry), evaluation.name(sel), sel.number,
                                  evaluation.total(sel), depth))
        for child in sel.children:
            walk(child, depth + 1)

    for force in bound.all_forces():
        for sel in force.children:
            walk(sel, 0)
    if evaluation.unevaluated:
        what = ", ".join(sorted(f"{w} ({i})" for i, w in evaluation.unevaluated))
        raise UnsupportedModifier(f"not evaluated: {what}")
    return CostResult({k: tidy(v) for k, v in evaluation.roster_total().items()}, rows)
