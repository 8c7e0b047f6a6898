"""Check and price a Force built on imported BattleScribe books: the evaluator's verdict as the
engine's report (points per unit, formation, support and card; issues with pointers and fixes).

A system's rules module calls :func:`check_battlescribe` and adds its own rules on top (Flames of
War: support from one diagram, allies, …). Its issue codes, one set per system, are those of
``issue_codes.battlescribe_codes``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..force import Force
from ..issue_codes import BattleScribeCodes, battlescribe_codes
from ..report import Report, RuleRef
from . import kept
from .catalogue import CatalogueError, GroupSlot, Slot, teams_in_name
from .choices import cheapest_price
from .evaluate import Evaluation, Violation, facts, tidy
from .force_tree import ForceRoster, force_roster
from .names import display_name
from .offers import probe_cost, required_below
from .tree import ForceScope, Sel

FORMATIONS_CATEGORY = "formations"
HQ = re.compile(r"\bHQ\b")  # a box for the formation's HQ, by its name
SCOPE_WORDS = {"parent": "", "force": " per force", "roster": " per list", "self": ""}


@dataclass
class BattleScribeCheck:
    """What the check worked out, for callers that show more than the report (the builder, rosters)."""

    roster: ForceRoster
    evaluation: Evaluation
    figures: dict | None = None  # unit pointer -> (teams, transport attachments), once worked out


def rule_for(force: Force, system_name: str) -> RuleRef:
    return RuleRef(system_name, "Limits in the BattleScribe data", f"{force.handbook.name} (imported catalogue)")


def check_battlescribe(force: Force, report: Report, *, prefix: str, system_name: str) -> BattleScribeCheck | None:
    codes = battlescribe_codes(prefix)
    rule = rule_for(force, system_name)
    reused = kept.take(force)  # the evaluation an edit just made of this very force (kept.py)
    if reused is not None:
        built, evaluation = reused
    else:
        try:
            built = force_roster(force)
        except CatalogueError as exc:
            report.add(codes.not_offered, "/", form="unreadable", rule=rule, error=exc)
            return None
    for problem in built.problems:
        report.add(codes.not_offered, problem.pointer, form="stale", rule=rule, fix=codes.not_offered.fix("stale"),
                   problem=problem.message)
    if reused is None:
        evaluation = Evaluation(built.roster)
    _prices(force, built, evaluation, report)
    for violation in evaluation.violations():
        _issue(violation, evaluation, report, codes, rule)
    return BattleScribeCheck(built, evaluation)


# -- points -------------------------------------------------------------------------------------------
CHARGED_ROLES = ("formation", "unit", "card", "card-wrapper", "force-option")


def _charges(built: ForceRoster, ev: Evaluation) -> tuple[dict, dict]:
    """Every selection's points added to what it is charged to (the nearest formation, unit, card, card-wrapper or
    force choice at or above it, a root being one), and the roster's totals per cost type: one pass over the
    evaluation's selections, each read after its parent (depth first). A selection hashes as itself (by identity),
    so the holders are the keys."""
    pts = built.main.catalogue.points
    charged: dict[Sel, float] = {}  # holder -> its points
    totals: dict = {}
    holders: dict[Sel, Sel] = {}  # selection with children -> what its children are charged to
    cost = ev.cost
    get = charged.get
    points = 0  # the roster's points, added in the same order as the other cost types
    for sel in ev.selections:
        parent = sel.parent
        holder = sel if parent is None or sel.role in CHARGED_ROLES else holders[parent]
        if sel.children:
            holders[sel] = holder
        made = sel.slot.facts or facts(sel.slot, sel.force.catalogue)  # made by the evaluation: read, not made
        costs = made.costs if made.cost_mods is None else cost(sel)
        if not costs:
            continue
        number = sel.number
        if len(costs) == 1 and pts in costs:  # most selections cost points only
            if pts not in totals:
                totals[pts] = 0
            value = costs[pts] * number
            points += value
            charged[holder] = get(holder, 0) + value
            continue
        for k, v in costs.items():
            value = v * number
            if k == pts:
                if pts not in totals:
                    totals[pts] = 0
                points += value
                charged[holder] = get(holder, 0) + value
            else:
                totals[k] = totals.get(k, 0) + value
    if pts in totals:
        totals[pts] = points
    return charged, {k: tidy(v) for k, v in totals.items()}


def _prices(force: Force, built: ForceRoster, ev: Evaluation, report: Report) -> None:
    pts = built.main.catalogue.points
    charged, totals = _charges(built, ev)

    def value(sel) -> int:
        return int(round(charged.get(sel, 0))) if sel is not None else 0

    total = 0
    for formation in force.formations:
        own_units = 0
        for unit in formation.units:
            points = value(built.units.get(unit.pointer))
            report.unit_points[unit.pointer] = points
            total += points
            if unit.box.part_of_formation:
                own_units += points
            else:
                report.support_points += points
        own = value(built.formations.get(formation.pointer))
        if own:
            report.figures.setdefault("formation_own_points", {})[formation.pointer] = own
        report.formation_points[formation.pointer] = own_units + own
        total += own
    for unit in force.support:
        points = value(built.units.get(unit.pointer))
        report.unit_points[unit.pointer] = points
        report.support_points += points
        total += points
    wrappers_charged: set[int] = set()
    for card in force.cards:
        csel = built.cards.get(card.pointer)
        if csel is None:
            continue
        points = value(csel)
        for wrapper in built.wrappers.get(card.pointer, ()):
            if wrapper.role == "card-wrapper" and id(wrapper) not in wrappers_charged:  # a force choice is priced there
                wrappers_charged.add(id(wrapper))
                points += value(wrapper)
        report.card_points += points
        report.figures.setdefault("card_points", {})[card.pointer] = points
    for sel in built.main.children:
        if sel.role == "force-option":
            report.force_points += value(sel)
    report.total_points = total + report.card_points + report.force_points
    names = built.main.catalogue.cost_types
    report.figures["costs"] = {names.get(k, k): v for k, v in sorted(totals.items(), key=lambda kv: kv[0] != pts)}


# -- issues -------------------------------------------------------------------------------------------
def _where(node, ev: Evaluation) -> str:
    if isinstance(node, ForceScope):
        return "The force"
    return display_name(ev.name(node))


def _pointer(node) -> str:
    return str(node.ref) if node is not None and node.ref is not None else "/"


def _is_box(violation: Violation) -> bool:
    at = violation.at
    if not isinstance(at, Sel) or at.role != "formation":
        return False
    slot = violation.slot
    if isinstance(slot, GroupSlot):
        return slot.parent is None
    return isinstance(slot, Slot) and not slot.groups


def _choices(ev: Evaluation, violation: Violation, pts: str) -> str:
    """What the player can add to meet a minimum: the visible choices of that slot or group, cheapest first,
    each at what it costs once its own compulsory choices are made."""
    slot = violation.slot
    container = violation.at
    slots = slot.slots if isinstance(slot, GroupSlot) else [slot] if slot is not None else []
    priced = []
    for candidate in slots:
        if ev.slot_hidden(candidate, container):
            continue
        at_least = _from_price(ev, candidate, container, pts)
        priced.append((at_least, candidate.index, candidate))
    names = [f"{display_name(c.entry.name)} (from {tidy(p)} pts)" for p, _, c in sorted(priced, key=lambda t: t[:2])]
    return ", ".join(dict.fromkeys(names))


def _from_price(ev: Evaluation, slot, at, pts: str) -> float:
    """A choice's cheapest completed price where it is offered: worked out in full for the force's roots and
    their direct choices (formations' boxes), one level of look-ahead deeper down."""
    catalogue = ev.catalogue_of(at)
    price = None
    if isinstance(at, ForceScope):
        price = cheapest_price(catalogue, slot)
    elif isinstance(at, Sel) and at.parent is None:
        price = cheapest_price(catalogue, slot, parent=at.slot)
    if price is None:
        price = probe_cost(ev, slot, at).get(pts, 0) + required_below(ev, slot, at, pts)
    return price


def _issue(v: Violation, ev: Evaluation, report: Report, codes: BattleScribeCodes, rule: RuleRef) -> None:
    where = _where(v.at, ev)
    what = display_name(v.name)
    limit, count = tidy(v.limit), tidy(v.count)
    catalogue = ev.catalogue_of(v.at)
    pts = catalogue.points
    constraint_rule = RuleRef(rule.system, rule.name, f"{rule.where}, constraint {v.constraint}" if v.constraint
                              else rule.where)
    box = v.slot.path if _is_box(v) and v.slot is not None else None
    if v.kind == "hidden":
        sel = v.selections[0] if v.selections else None
        report.add(codes.hidden, _pointer(sel or v.at), rule=rule, fix=codes.hidden.fix(what=what), box=box,
                   where=where, what=what)
        return
    per = SCOPE_WORDS.get(v.scope, "")
    fix: str | None
    if v.owner in ("category", "category-limit"):
        if v.owner == "category":  # the force's make-up (its force entry's categories)
            code = codes.category_min if v.kind == "min" else codes.category_max
            if v.kind == "min" and what.lower() == FORMATIONS_CATEGORY:
                code = codes.formations
        elif v.kind == "min":  # a limit a category sets on whatever carries it (one WARRIOR per force)
            code = codes.force_min
        else:
            code = codes.roster_max if v.scope == "roster" else codes.force_max
        if v.kind == "min":
            form, fix = "category_min", code.fix("add_more", n=limit - count)
        else:
            names = sorted({ev.name(s) for s in v.selections})
            form = "category_max"
            fix = (code.fix("remove_of", n=count - limit, names=", ".join(names)) if names
                   else code.fix("remove_count", n=count - limit))
        report.add(code, _pointer(v.at), form=form, rule=constraint_rule, fix=fix, limit=limit, what=what, per=per,
                   count=count)
        return
    if v.kind == "min":
        if _is_box(v):
            code = codes.hq if HQ.search(what) else codes.box_min
        else:
            code = codes.min if v.scope in ("parent", "self") else codes.force_min
        choices = _choices(ev, v, pts)
        if isinstance(v.slot, GroupSlot) or (choices and "," in choices):
            form = "choose"
            fix = (code.fix("add_choices", n="one" if limit - count == 1 else tidy(limit - count), choices=choices)
                   if choices else None)
        else:
            form = "needs"
            fix = (code.fix("add_times_choices", n=tidy(limit - count), what=what, choices=choices) if choices
                   else code.fix("add_times", n=tidy(limit - count), what=what))
        report.add(code, _pointer(v.at), form=form, rule=constraint_rule, fix=fix, box=box, where=where,
                   limit=limit, what=what, per=per, count=count)
        return
    if _is_box(v):
        code = codes.box_max
    elif v.scope == "force" or (v.scope not in ("parent", "self", "roster") and v.scope):
        code = codes.force_max
    elif v.scope == "roster":
        code = codes.roster_max
    else:
        code = codes.max
    target = v.selections[-1] if v.selections else None
    form = "at_most_from" if isinstance(v.slot, GroupSlot) else "at_most_times"
    report.add(code, _pointer(target or v.at), form=form, rule=constraint_rule,
               fix=code.fix("remove_times", n=tidy(count - limit), what=what), box=box, where=where, limit=limit,
               what=what, per=per, count=count)


# -- what a unit holds ---------------------------------------------------------------------------------
def _unit_figures(result: BattleScribeCheck) -> dict:
    """Teams and transport attachments of every unit, worked out in one walk of each and kept on the result."""
    if result.figures is not None:
        return result.figures
    ev = result.evaluation
    out = {}
    for pointer, sel in result.roster.units.items():
        teams, transports = _figures_below(ev, sel, 0)
        if not teams:
            made = sel.slot.facts
            stated = made.teams if made is not None and made.teams is not None else teams_in_name(ev.name(sel))
            teams = stated or 1
        out[pointer] = (teams, transports)
    result.figures = out
    return out


def _figures_below(ev: Evaluation, sel: Sel, depth: int) -> tuple[int, int]:
    """The teams under ``sel`` (as :func:`selection_teams` counts them) and the transport attachments under it
    (every choice but a card that is a transport, a card's own choices too), read in the same walk."""
    teams = 0
    transports = 0
    for child in sel.children:
        made = child.slot.facts or facts(child.slot, child.force.catalogue)
        card = child.role == "card"
        if made.transport and not card:
            transports += 1
        if card or made.card or depth > 12:
            if child.children:
                transports += _transports_below(child)
            continue
        stated = made.teams if made.teams is not None else teams_in_name(ev.name(child))
        if stated or made.model:
            teams += stated * child.number if stated else child.number
            if child.children:
                transports += _transports_below(child)
        else:
            below, carried = _figures_below(ev, child, depth + 1)
            teams += below * child.number
            transports += carried
    return teams, transports


def _transports_below(sel: Sel) -> int:
    transports = 0
    stack = list(sel.children)
    while stack:
        s = stack.pop()
        if s.children:
            stack.extend(s.children)
        if s.role != "card" and (s.slot.facts or facts(s.slot, s.force.catalogue)).transport:
            transports += 1
    return transports


def selection_teams(ev: Evaluation, sel: Sel, depth: int = 0) -> int:
    """Teams under a selection, read down: a choice that states a count ("2x Panzer III (1x short & 1x long)",
    "4x 10.5cm howitzer") counts that many times its number and nothing under it; a model without a count
    is one team; any other choice (a container's alternative, a "Type" wrapper) is read further down.
    Command cards count nothing."""
    return _figures_below(ev, sel, depth)[0]


def unit_figures(result: BattleScribeCheck | None) -> dict:
    """Every unit's (teams, transport attachments) by its pointer, as :func:`unit_teams` and
    :func:`unit_transports` read them one unit at a time; {} without a result."""
    return {} if result is None else _unit_figures(result)


def unit_teams(result: BattleScribeCheck | None, pointer: str) -> int:
    """Teams in a unit, as :func:`selection_teams` reads them; no count anywhere: its name, else one team."""
    if result is None:
        return 0
    return _unit_figures(result).get(pointer, (0, 0))[0]


def unit_transports(result: BattleScribeCheck | None, pointer: str) -> int:
    """Transport attachments chosen for a unit: each is a game unit of its own."""
    if result is None:
        return 0
    return _unit_figures(result).get(pointer, (0, 0))[1]
