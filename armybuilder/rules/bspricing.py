"""Points as BattleScribe / New Recruit show them, for forces built on imported BSData handbooks.

Pure Python: no ORM, no HTTP. Two parts:

1. A BattleScribe cost-modifier evaluator over a *selection tree* (:class:`Sel`
   nodes under :class:`ForceNode` s, shaped like a roster). The catalogue
   importer's :mod:`armybuilder.interchange.battlescribe.costs` builds such a
   tree from the parsed XML; this module builds one from the engine's
   :class:`~armybuilder.rules.force.Force`, using the raw costs and the
   normalised cost modifiers the importer keeps in ``extra``.
2. :class:`BattleScribePricing`, the ``generic.Pricing`` plug-in registered
   as ``fow.PRICING["battlescribe"]``: a unit costs what its selection subtree
   costs (unit + size + options + filler models), a card what its selection
   costs, after every modifier whose conditions hold over the whole force.

Semantics (BattleScribe 2.03; BSData schema and wiki):

* A selection costs its entry's cost after its ``set``/``increment``/
  ``decrement`` cost modifiers, applied in order, times ``number``.
* A modifier applies when its condition tree holds; with repeats it applies
  ``sum(repeats × floor(count / value))`` times (``round_up``: ceil); a
  ``set`` applies once if that is at least one.
* Counting: the ``number`` of matching selections among the scope node's
  children (all descendants with ``children``). A child id matches a
  selection whose entry path, group path or categories hold it;
  ``model``/``unit``/``upgrade`` match the entry type; ``any`` matches all.
  A cost-type field sums those selections' costs instead.
* Scopes: ``self``, ``parent``, ``force`` (nested forces with ``forces``),
  ``roster``, ``ancestor`` (instanceOf), or an id: the nearest enclosing
  selection with that id, else a force with that entry or catalogue id, else
  the game system id (the roster). An unknown id counts 0.
* ``shared=false`` is treated like shared; category add/remove modifiers do
  not change prices in the FoW library and are not applied.

Anything else on a cost (percent values, ``limit::`` fields, other scopes or
modifier types) is *not understood*: :func:`unsupported_reason` says why,
:class:`Evaluator` raises :class:`UnsupportedModifier`, and the pricing turns
it into the engine issue ``fow.points.unpriced`` (error) with the handbook's
static price, never a silent 0.

How a Force becomes a tree (mirrors how a BattleScribe roster of the same list
looks, so an exported ``.ros`` carries the same costs):

* one force node for the list's handbook (+ one per allied formation from
  another handbook); formations and force-level support units are its roots,
  force cards too;
* a unit is a child of its formation; its size option is a child of the unit
  (model-count units instead get their models: the chosen model options and
  the rest filled with the default model); options are children of the unit,
  or of the size/option their group hangs under (``upgrade_groups[…].parent``);
* unit cards are children of their unit, formation cards of their formation.

A formation's own cost (rare in the FoW library) is charged with its first unit.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from . import fow, generic
from .force import Force, ForceCard, ForceUnit
from .report import ERROR, WARNING, Issue, RuleRef

SOURCE = "battlescribe"
UNPRICED = "fow.points.unpriced"
RULE = RuleRef("Flames of War", "Points as the BattleScribe data prices them", "the imported BSData catalogue")

COMPARISONS = {
    "lessThan": lambda a, b: a < b,
    "greaterThan": lambda a, b: a > b,
    "equalTo": lambda a, b: a == b,
    "notEqualTo": lambda a, b: a != b,
    "atLeast": lambda a, b: a >= b,
    "atMost": lambda a, b: a <= b,
}
INSTANCE = {"instanceOf", "notInstanceOf"}
COST_MODIFIER_TYPES = {"set", "increment", "decrement"}


class UnsupportedModifier(Exception):
    """A cost modifier the evaluator cannot apply: the price would be a guess."""


# -- what is understood ------------------------------------------------------
def _query_problem(q: dict, cost_ids: set[str], *, repeat: bool = False) -> str | None:
    if not isinstance(q, dict):
        return "malformed condition"
    if q.get("percent"):
        return "percentValue conditions are not supported"
    fld = q.get("field", "")
    if fld != "selections" and fld not in cost_ids:
        return f"condition field {fld!r} is not supported (only selections or a cost type)"
    scope = q.get("scope", "")
    if scope in ("primary-category", "primary-catalogue") or not scope:
        return f"scope {scope!r} is not supported"
    if not isinstance(q.get("value", 0), (int, float)) or not q.get("child"):
        return "condition without a number value or a child id"
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
    if isinstance(tree, dict) and ("and" in tree or "or" in tree):
        items = tree.get("and", tree.get("or"))
        if not isinstance(items, list):
            return "malformed condition group"
        for item in items:
            problem = _tree_problem(item, cost_ids)
            if problem:
                return problem
        return None
    return _query_problem(tree, cost_ids)


def unsupported_reason(mod: dict, cost_ids: set[str]) -> str | None:
    """Why the evaluator cannot apply this cost modifier, or None if it can."""
    if not isinstance(mod, dict):
        return "malformed modifier"
    if mod.get("type") not in COST_MODIFIER_TYPES:
        return f"modifier type {mod.get('type')!r} on a cost is not supported"
    if not isinstance(mod.get("value"), (int, float)) or isinstance(mod.get("value"), bool):
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


# -- the selection tree -------------------------------------------------------
@dataclass(eq=False)
class ForceNode:
    catalogue_id: str
    entry_id: str = ""
    children: list["Sel"] = field(default_factory=list)
    forces: list["ForceNode"] = field(default_factory=list)  # nested forces (allies)
    name: str = ""
    ref: object = None


@dataclass(eq=False)
class Sel:
    """One roster selection: what conditions see of it, and its own (unmodified) costs."""

    ids: set[str]  # entry path parts, group path parts
    categories: set[str]
    type: str  # unit | model | upgrade
    base: dict[str, float]  # costs of one, before modifiers
    modifiers: list[dict]  # cost modifiers, normalised
    force: ForceNode
    parent: "Sel | None" = None
    number: int = 1
    children: list["Sel"] = field(default_factory=list)
    name: str = ""
    path: str = ""  # roster entryId
    group: str = ""  # roster entryGroupId
    ref: object = None  # what it stands for (ForceUnit, SizeData, …), for callers
    role: str = ""  # formation | unit | size | model | option | card (Force trees)
    costs: dict[str, float] | None = None  # of one, once computed

    def add(self, child: "Sel") -> "Sel":
        child.parent = self
        self.children.append(child)
        return child

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()


def tidy(v: float) -> float | int:
    return int(v) if float(v).is_integer() else round(v, 4)


class Evaluator:
    """Prices selections of one roster (a list of force nodes, nested ones included)."""

    def __init__(self, forces: list[ForceNode], cost_ids: set[str], system_id: str = ""):
        self.cost_ids = set(cost_ids)
        self.system_id = system_id
        roster: list[ForceNode] = []
        stack = list(forces)
        while stack:  # the roster is every force, nested ones included
            f = stack.pop(0)
            roster.append(f)
            stack.extend(f.forces)
        self.roster = roster
        self._busy: set[int] = set()

    def cost(self, sel: Sel) -> dict[str, float]:
        """Costs of one of ``sel`` (not times its number), modifiers applied."""
        if sel.costs is not None:
            return sel.costs
        if id(sel) in self._busy:  # a cost condition that depends on itself: use the plain cost
            return dict(sel.base)
        self._busy.add(id(sel))
        try:
            costs = dict(sel.base)
            for mod in sel.modifiers:
                if mod.get("kind", "cost") != "cost":
                    continue
                problem = unsupported_reason(mod, self.cost_ids)
                if problem:
                    raise UnsupportedModifier(f"{sel.path or sel.name}: {problem}")
                if "when" in mod and not self.holds(mod["when"], sel):
                    continue
                times = 1
                if mod.get("repeats"):
                    times = sum(self.repeat_times(r, sel) for r in mod["repeats"])
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
        finally:
            self._busy.discard(id(sel))
        sel.costs = {k: tidy(v) for k, v in costs.items()}
        return sel.costs

    def total(self, sel: Sel) -> dict[str, float]:
        """Costs of ``sel`` times its number."""
        return {k: v * sel.number for k, v in self.cost(sel).items()}

    def holds(self, tree, sel: Sel) -> bool:
        if "and" in tree:
            return all(self.holds(t, sel) for t in tree["and"])
        if "or" in tree:
            return any(self.holds(t, sel) for t in tree["or"])
        ctype = tree["type"]
        if ctype in INSTANCE:
            result = self._instance(tree, sel)
            return result if ctype == "instanceOf" else not result
        return COMPARISONS[ctype](self.count(tree, sel), tree["value"])

    def repeat_times(self, rep: dict, sel: Sel) -> int:
        count = self.count(rep, sel)
        per = rep["value"]
        steps = math.ceil(count / per) if rep.get("round_up") else math.floor(count / per)
        return max(0, steps) * rep.get("repeats", 1)

    @staticmethod
    def matches(s: Sel, child: str) -> bool:
        if child == "any":
            return True
        if child in ("model", "unit", "upgrade"):
            return s.type == child
        return child in s.ids or child in s.categories

    def scope(self, q: dict, sel: Sel):
        scope = q["scope"]
        if scope == "self":
            return sel
        if scope == "parent":
            return sel.parent or sel.force
        if scope == "force":
            return sel.force
        if scope == "roster":
            return self.roster
        node = sel
        while node is not None:
            if scope in node.ids:
                return node
            node = node.parent
        for force in self.roster:
            if scope in (force.entry_id, force.catalogue_id):
                return force
        if scope and scope == self.system_id:
            return self.roster
        return None

    def _instance(self, q: dict, sel: Sel) -> bool:
        child = q["child"]
        if q["scope"] == "ancestor":
            node = sel.parent
            while node is not None:
                if self.matches(node, child):
                    return True
                node = node.parent
            return False
        target = self.scope(q, sel)
        if isinstance(target, Sel):
            return self.matches(target, child)
        if isinstance(target, ForceNode):
            return child in (target.entry_id, target.catalogue_id)
        return False

    def count(self, q: dict, sel: Sel) -> float:
        target = self.scope(q, sel)
        if target is None:
            return 0
        if isinstance(target, list):
            roots = [c for f in target for c in f.children]
        elif isinstance(target, ForceNode) and q.get("forces"):
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
            if self.matches(s, q["child"]):
                total += s.number if fld == "selections" else self.cost(s).get(fld, 0) * s.number
            if deep:
                stack.extend(s.children)
        return total


# -- a Force as a selection tree ----------------------------------------------------
def _parts(path: str) -> set[str]:
    return {p for p in str(path or "").split("::") if p}


def _bs(extra: dict) -> dict:
    bs = extra.get("bs") if isinstance(extra, dict) else None
    return bs if isinstance(bs, dict) else {}


def _costs(extra: dict, pts: str, fallback: float | None) -> dict[str, float]:
    """Raw BattleScribe costs kept by the importer; older imports only kept the points."""
    bs = _bs(extra)
    costs = bs.get("costs")
    if isinstance(costs, dict):
        return {k: v for k, v in costs.items() if isinstance(v, (int, float))}
    if isinstance(bs.get("cost"), (int, float)):
        return {pts: bs["cost"]}
    return {pts: fallback} if fallback is not None else {}


def _mods(extra: dict) -> list[dict]:
    mods = extra.get("cost_modifiers") if isinstance(extra, dict) else None
    return mods if isinstance(mods, list) else []


def _sel(extra: dict, *, force: ForceNode, name: str, role: str, ref, pts: str, fallback: float | None = None,
         group: str = "", number: int = 1, default_type: str = "upgrade", outer_groups=()) -> Sel:
    bs = _bs(extra)
    path = str(bs.get("path") or bs.get("entry") or "")
    ids = _parts(path) | ({str(bs["entry"])} if bs.get("entry") else set()) | _parts(group)
    for outer in outer_groups:
        ids |= _parts(outer)
    cats = bs.get("categories")
    return Sel(ids=ids, categories=set(cats) if isinstance(cats, list) else set(),
               type=str(bs.get("type") or default_type), base=_costs(extra, pts, fallback), modifiers=_mods(extra),
               force=force, number=number, name=name, path=path, group=group, ref=ref, role=role)


@dataclass
class ForceTree:
    """The Force as BattleScribe selections, with the nodes each part of the Force became."""

    forces: list[ForceNode]
    pts: str
    cost_ids: set[str]
    system_id: str
    units: dict[str, Sel] = field(default_factory=dict)  # unit pointer -> unit selection
    cards: dict[str, Sel] = field(default_factory=dict)  # card pointer -> card selection
    formations: dict[str, Sel] = field(default_factory=dict)  # formation pointer -> formation selection
    problems: list[tuple[str, str]] = field(default_factory=list)  # (pointer, message): tree could not be exact


    def as_selection_tree(self) -> dict:
        """The tree in the shape :func:`armybuilder.interchange.battlescribe.costs.evaluate_costs` reads."""
        def sel_doc(sel: Sel) -> dict:
            doc = {"entry": sel.path, "number": sel.number, "selections": [sel_doc(c) for c in sel.children]}
            if sel.group:
                doc["group"] = sel.group
            return doc

        def force_doc(node: ForceNode) -> dict:
            doc = {"catalogue": node.catalogue_id, "selections": [sel_doc(c) for c in node.children]}
            if node.entry_id:
                doc["entry"] = node.entry_id
            if node.forces:
                doc["forces"] = [force_doc(f) for f in node.forces]
            return doc

        return {"forces": [force_doc(f) for f in self.forces]}


def _handbook_bs(handbook) -> dict:
    extra = handbook.extra if isinstance(handbook.extra, dict) else {}
    bs = extra.get("battlescribe")
    return bs if isinstance(bs, dict) else {}


def points_cost_type(handbook) -> str:
    return str(_handbook_bs(handbook).get("points_cost_type") or "pts")


def force_tree(force: Force) -> ForceTree:
    """The selection tree BattleScribe would hold for this force."""
    hb = _handbook_bs(force.handbook)
    pts = points_cost_type(force.handbook)
    cost_ids = {str(c["id"]) for c in hb.get("cost_types", []) if isinstance(c, dict) and c.get("id")} | {pts}
    entries = hb.get("force_entries") or [{}]
    main = ForceNode(catalogue_id=str(hb.get("catalogue_id") or force.handbook.code),
                     entry_id=str(entries[0].get("id", "")), name=str(entries[0].get("name", "")), ref=force.handbook)
    tree = ForceTree(forces=[main], pts=pts, cost_ids=cost_ids, system_id=str(hb.get("game_system_id", "")))
    allied_nodes: dict[str, ForceNode] = {}
    for formation in force.formations:
        node = main
        if formation.allied and formation.handbook.code != force.handbook.code:
            node = allied_nodes.get(formation.handbook.code)
            if node is None:
                ahb = _handbook_bs(formation.handbook)
                aentries = ahb.get("force_entries") or [{}]
                node = ForceNode(catalogue_id=str(ahb.get("catalogue_id") or formation.handbook.code),
                                 entry_id=str(aentries[0].get("id", "")), name=str(aentries[0].get("name", "")),
                                 ref=formation.handbook)
                allied_nodes[formation.handbook.code] = node
                main.forces.append(node)
        data = formation.formation
        fsel = _sel(data.extra, force=node, name=data.name, role="formation", ref=formation, pts=pts,
                    fallback=_formation_points(data.extra))
        node.children.append(fsel)
        tree.formations[formation.pointer] = fsel
        for unit in formation.units:
            fsel.add(_unit_sel(unit, node, pts, tree))
    for unit in force.support:
        main.children.append(_unit_sel(unit, main, pts, tree))
    for card in force.cards:
        wrapper = _bs(card.card.extra).get("wrapper")
        group = str(wrapper.get("group", "")) if isinstance(wrapper, dict) else ""
        csel = _sel(card.card.extra, force=main, name=card.card.name, role="card", ref=card, pts=pts,
                    fallback=card.card.points, group=group)
        top = csel
        if isinstance(wrapper, dict):  # a choice inside a wrapper entry (e.g. a formation title)
            top = _sel({"bs": wrapper, "cost_modifiers": wrapper.get("cost_modifiers", [])}, force=main,
                       name=str(wrapper.get("name", "")), role="card", ref=card, pts=pts)
            top.add(csel)
            csel.role = "card-choice"
        holder = None
        if card.target_pointer:
            holder = tree.units.get(card.target_pointer) or tree.formations.get(card.target_pointer)
        if holder is not None:
            top.force = csel.force = holder.force
            holder.add(top)
        else:
            main.children.append(top)
        tree.cards[card.pointer] = top
    return tree


def _formation_points(extra: dict) -> float:
    value = extra.get("points", 0) if isinstance(extra, dict) else 0
    return value if isinstance(value, (int, float)) else 0


def _unit_sel(unit: ForceUnit, node: ForceNode, pts: str, tree: ForceTree) -> Sel:
    data = unit.unit
    extra = data.extra if isinstance(data.extra, dict) else {}
    box_bs = _bs(unit.box.extra)
    group, outer = "", []
    if box_bs.get("kind") == "group":
        nested = unit.box.extra.get("choice_groups")
        groups = nested.get(data.code) if isinstance(nested, dict) else None
        if isinstance(groups, list) and groups:
            group, outer = str(groups[-1]), [str(g) for g in groups[:-1]]
        else:
            group = str(box_bs.get("id", ""))
    fallback = None
    if unit.size is not None and _bs(unit.size.extra).get("single"):
        fallback = _bs(unit.size.extra).get("cost", unit.size.points)
    usel = _sel(extra, force=node, name=data.name, role="unit", ref=unit, pts=pts, group=group, default_type="unit",
                fallback=fallback if fallback is not None else _unit_base(unit, pts), outer_groups=outer)
    paths = unit.box.extra.get("choice_paths") if isinstance(unit.box.extra, dict) else None
    if isinstance(paths, dict) and isinstance(paths.get(data.code), str):  # reached through this box's own link
        usel.path = paths[data.code]
        usel.ids |= _parts(usel.path)
    tree.units[unit.pointer] = usel
    groups_info = extra.get("upgrade_groups") if isinstance(extra.get("upgrade_groups"), dict) else {}
    holders: dict[str, Sel] = {}  # size/option code -> selection, for options that hang under them
    size = unit.size
    filler = extra.get("model_filler")
    model_mode = isinstance(filler, dict)  # the size is a number of model selections, not an entry
    model_group = str(extra.get("model_group") or "")
    if size is not None and not _bs(size.extra).get("single") and not model_mode:
        size_group = extra.get("size_group", {}).get("id", "") if isinstance(extra.get("size_group"), dict) else ""
        ssel = _sel(size.extra, force=node, name=size.label, role="size", ref=size, pts=pts, group=size_group,
                    fallback=size.points)
        usel.add(ssel)
        holders[size.code] = ssel
    pending = []
    chosen_models = 0
    for index, chosen in enumerate(unit.upgrades):
        up = chosen.upgrade
        gcode, _, ocode = up.code.partition("/")
        info = groups_info.get(gcode, {}) if isinstance(groups_info.get(gcode), dict) else {}
        gbs = info.get("bs", {}) if isinstance(info.get("bs"), dict) else {}
        group_path = str(gbs.get("id", "")) if gbs.get("kind") == "group" else ""
        osel = _sel(up.extra, force=node, name=up.name, role="option", ref=chosen, pts=pts, group=group_path,
                    number=chosen.quantity, fallback=up.points)
        holders[ocode] = osel
        if model_group and gcode == model_group:
            chosen_models += chosen.quantity
        pending.append((osel, _holder_code(info, groups_info)))
    for osel, holder_code in pending:
        holder = holders.get(holder_code) if holder_code else None
        (holder or usel).add(osel)
    if model_mode and size is not None:
        missing = size.teams - chosen_models
        if missing > 0:
            fsel = _sel(filler, force=node, name=str(filler.get("name", "Team")), role="model", ref=None, pts=pts,
                        group=str(filler.get("group", "")), number=missing, default_type="model")
            usel.add(fsel)
        elif missing < 0:
            tree.problems.append((unit.pointer, f"{data.name}: {chosen_models} teams chosen for a size of {size.teams}"))
    return usel


def _holder_code(info: dict, groups_info: dict, depth: int = 0) -> str:
    """The size or option code an upgrade group hangs under ('' = the unit), through nested groups."""
    parent = info.get("parent") if isinstance(info, dict) else None
    if not parent or depth > 20:
        return ""
    if parent in groups_info and isinstance(groups_info[parent], dict):
        return _holder_code(groups_info[parent], groups_info, depth + 1)
    return str(parent)


def _unit_base(unit: ForceUnit, pts: str) -> float:
    """A unit's own cost for imports that did not keep it: the size's points less the size entry's cost."""
    size = unit.size
    if size is None:
        return 0
    bs = _bs(size.extra)
    if isinstance(bs.get("cost"), (int, float)):
        return size.points - bs["cost"]
    return 0


# -- pricing -------------------------------------------------------------------
def subtree_costs(evaluator: Evaluator, sel: Sel, *, skip_roles=("card",)) -> dict[str, float]:
    """Costs of a selection and its descendants (cards excluded: they are priced on their own)."""
    out: dict[str, float] = {}
    stack = [sel]
    while stack:
        s = stack.pop()
        if s is not sel and s.role in skip_roles:
            continue
        for k, v in evaluator.total(s).items():
            out[k] = out.get(k, 0) + v
        stack.extend(s.children)
    return {k: tidy(v) for k, v in out.items()}


def _points(value: float) -> int:
    return int(round(value))


class BattleScribePricing(generic.Pricing):
    """Prices units and cards by evaluating the imported cost modifiers over the whole force.

    ``issues`` lists what could not be priced exactly (``fow.points.unpriced``); ``costs``
    holds every cost type's total (e.g. points and fuel) for figures.
    """

    def __init__(self, force: Force):
        super().__init__(force)
        self.issues: list[Issue] = []
        self.unit_prices: dict[str, int] = {}
        self.card_prices: dict[str, int] = {}
        self.costs: dict[str, float] = {}
        try:
            self.tree = force_tree(force)
        except Exception as exc:  # bad data must never crash a check: say so and price statically
            self.tree = None
            self._issue(ERROR, f"The BattleScribe prices could not be worked out ({exc}); the handbook's "
                        "static points are shown instead.", "/")
            return
        self.evaluator = Evaluator(self.tree.forces, self.tree.cost_ids, self.tree.system_id)
        for pointer, message in self.tree.problems:
            self._issue(WARNING, message + "; the price may differ from BattleScribe's.", pointer)
        first_unit_of: dict[str, str] = {}
        for formation in force.formations:
            if formation.units:
                first_unit_of[formation.pointer] = formation.units[0].pointer
        for unit in force.all_units():
            self.unit_prices[unit.pointer] = self._price(unit.pointer, self.tree.units.get(unit.pointer),
                                                         lambda u=unit: generic.unit_points(u), unit.unit.name)
        for formation in force.formations:
            fsel = self.tree.formations.get(formation.pointer)
            if fsel is None:
                continue
            try:
                own = self.evaluator.total(fsel)
            except UnsupportedModifier as exc:
                self._unpriced(formation.pointer, formation.formation.name, str(exc), 0)
                continue
            self._add_costs(own)
            value = own.get(self.tree.pts, 0)
            if value:
                holder = first_unit_of.get(formation.pointer)
                if holder is None:
                    self._issue(WARNING, f"{formation.formation.name} costs {tidy(value)} points of its own in "
                                "BattleScribe; add a unit to the formation to count them.", formation.pointer)
                else:
                    self.unit_prices[holder] += _points(value)
        for card in force.cards:
            self.card_prices[card.pointer] = self._price(card.pointer, self.tree.cards.get(card.pointer),
                                                         lambda c=card: generic.card_points(c), card.card.name)

    def _issue(self, severity: str, message: str, pointer: str) -> None:
        self.issues.append(Issue(UNPRICED, severity, message, pointer, RULE))

    def _unpriced(self, pointer: str, name: str, reason: str, static: int) -> None:
        self._issue(ERROR, f"{name}: a BattleScribe cost modifier is not understood ({reason}); its price is "
                    f"uncertain, the static {static} points are counted.", pointer)

    def _add_costs(self, costs: dict) -> None:
        for k, v in costs.items():
            self.costs[k] = tidy(self.costs.get(k, 0) + v)

    def _price(self, pointer: str, sel: Sel | None, static, name: str) -> int:
        if sel is None:
            return static()
        try:
            costs = subtree_costs(self.evaluator, sel)
        except UnsupportedModifier as exc:
            value = static()
            self._unpriced(pointer, name, str(exc), value)
            return value
        self._add_costs(costs)
        return _points(costs.get(self.tree.pts, 0))

    def unit(self, unit: ForceUnit) -> int:
        if unit.pointer in self.unit_prices:
            return self.unit_prices[unit.pointer]
        return generic.unit_points(unit)

    def card(self, card: ForceCard) -> int:
        if card.pointer in self.card_prices:
            return self.card_prices[card.pointer]
        return generic.card_points(card)

    def report_into(self, report) -> None:
        """Add the pricing issues and the per-cost-type totals (figures["costs"]) to a report."""
        report.issues.extend(self.issues)
        if self.costs:
            report.figures["costs"] = self.costs_by_name()

    def costs_by_name(self) -> dict[str, float]:
        names = {}
        hb = _handbook_bs(self.force.handbook)
        for c in hb.get("cost_types", []):
            if isinstance(c, dict) and c.get("id"):
                names[str(c["id"])] = str(c.get("name") or c["id"])
        return {names.get(k, k): v for k, v in sorted(self.costs.items(), key=lambda kv: kv[0] != self.tree.pts)}


def check_pricing(force: Force, report) -> BattleScribePricing:
    """Price a BattleScribe force and add what the pricing found to ``report`` (issues, figures)."""
    pricing = BattleScribePricing(force)
    pricing.report_into(report)
    return pricing


class GenericRules:
    """Rules for a game system imported from BattleScribe that has no rules module of its own
    (e.g. the Phalanx sample system): points and every cost type as BattleScribe prices them, box
    limits, unit options and handbook constraints. Register with ``engine.register(GenericRules(code))``."""

    RULES = {
        "box": RuleRef("BattleScribe data", "Units come from the boxes offered", "the imported catalogue"),
        "support": RuleRef("BattleScribe data", "Units come from the boxes offered", "the imported catalogue"),
        "grey_box": RuleRef("BattleScribe data", "Box limits", "the imported catalogue"),
        "size": RuleRef("BattleScribe data", "Unit entries", "the imported catalogue"),
        "upgrade": RuleRef("BattleScribe data", "Unit options", "the imported catalogue"),
    }
    PREFIX = "bs"

    def __init__(self, system: str):
        self.SYSTEM = system

    def check(self, force: Force, report) -> None:
        generic.sum_points(force, report, BattleScribePricing(force))
        generic.check_box_picks(force, report, self.PREFIX, self.RULES)
        generic.check_unit_options(force, report, self.PREFIX, self.RULES)
        generic.check_constraints(force, report, self.PREFIX, RuleRef("BattleScribe data", "Restrictions",
                                                                       "the imported catalogue"))
        generic.check_points_limit(force, report, RuleRef("BattleScribe data", "Points limit", "the roster"),
                                   f"{self.PREFIX}.points.over_limit")
        report.figures.update({"units": sum(1 for _ in force.all_units()), "teams": sum(u.teams for u in force.all_units())})


def check_force(force: Force):
    """The engine's report for a force on imported BattleScribe data, whatever its system (kept for callers;
    the engine itself now prices BattleScribe data and falls back to :class:`GenericRules`)."""
    from . import engine

    return engine.check(force)


# Lists on imported BattleScribe data are priced by their modifiers, over the whole force.
fow.PRICING[SOURCE] = BattleScribePricing

__all__ = ["BattleScribePricing", "Evaluator", "ForceNode", "ForceTree", "GenericRules", "Sel", "UnsupportedModifier",
           "check_force", "check_pricing", "force_tree", "points_cost_type", "subtree_costs", "unsupported_reason"]
