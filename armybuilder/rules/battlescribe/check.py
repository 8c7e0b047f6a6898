"""Check and price a Force built on imported BattleScribe books: the evaluator's verdict as the
engine's report (points per unit, formation, support and card; issues with pointers and fixes).

A system's rules module calls :func:`check_battlescribe` and adds its own rules on top (Flames of
War: support from one diagram, allies, …). Issue codes are written out in full per prefix so that
each one can be found with grep.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..force import Force
from ..report import ERROR, Report, RuleRef
from .catalogue import CatalogueError, GroupSlot, Slot
from .evaluate import Evaluation, Violation, tidy
from .force_tree import ForceRoster, force_roster
from .offers import offers, required_below
from .tree import ForceScope, Sel

LIST_NUMBER = re.compile(r"^\s*\d{1,2}\s*\)\s+")  # "1) Panzer III Platoon": an ordering prefix, not a calibre

CODES = {
    "fow": {
        "hq": "fow.hq.missing", "box_min": "fow.black_box.missing", "box_max": "fow.box.too_many",
        "min": "fow.option.too_few", "max": "fow.option.too_many", "hidden": "fow.option.hidden",
        "force_max": "fow.limit.per_force", "roster_max": "fow.limit.per_roster", "force_min": "fow.limit.force_minimum",
        "category_min": "fow.force.too_few", "category_max": "fow.force.too_many", "formations": "fow.force.no_formation",
        "not_offered": "fow.selection.not_offered", "unevaluated": "fow.data.unevaluated",
    },
    "bs": {
        "hq": "bs.box.too_few", "box_min": "bs.box.too_few", "box_max": "bs.box.too_many",
        "min": "bs.option.too_few", "max": "bs.option.too_many", "hidden": "bs.option.hidden",
        "force_max": "bs.limit.per_force", "roster_max": "bs.limit.per_roster", "force_min": "bs.limit.force_minimum",
        "category_min": "bs.force.too_few", "category_max": "bs.force.too_many", "formations": "bs.force.too_few",
        "not_offered": "bs.selection.not_offered", "unevaluated": "bs.data.unevaluated",
    },
}
FORMATIONS_CATEGORY = "formations"
SCOPE_WORDS = {"parent": "", "force": " per force", "roster": " per list", "self": ""}


def display_name(name: str) -> str:
    return LIST_NUMBER.sub("", name or "").strip() or (name or "")


@dataclass
class BattleScribeCheck:
    """What the check worked out, for callers that show more than the report (the builder, rosters)."""

    roster: ForceRoster
    evaluation: Evaluation


def rule_for(force: Force, system_name: str) -> RuleRef:
    return RuleRef(system_name, "Limits in the BattleScribe data", f"{force.handbook.name} (imported catalogue)")


def check_battlescribe(force: Force, report: Report, *, prefix: str, system_name: str) -> BattleScribeCheck | None:
    codes = CODES[prefix]
    rule = rule_for(force, system_name)
    try:
        built = force_roster(force)
    except CatalogueError as exc:
        report.add(codes["not_offered"], ERROR, f"The list cannot be checked: {exc}. Import the book again.", "/", rule)
        return None
    for problem in built.problems:
        report.add(codes["not_offered"], ERROR, f"{problem.message}; the list may come from another revision of "
                   "the book.", problem.pointer, rule, "Remove it, or move the list to the revision it was built on.")
    evaluation = Evaluation(built.roster)
    _prices(force, built, evaluation, report)
    for violation in evaluation.violations():
        _issue(violation, evaluation, report, codes, rule)
    return BattleScribeCheck(built, evaluation)


# -- points -------------------------------------------------------------------------------------------
def _prices(force: Force, built: ForceRoster, ev: Evaluation, report: Report) -> None:
    pts = built.main.catalogue.points

    def value(costs: dict) -> int:
        return int(round(costs.get(pts, 0)))

    not_unit = lambda s: s.role in ("unit", "card", "card-wrapper", "formation")  # noqa: E731
    total = 0
    support_units = set()
    for formation in force.formations:
        sel = built.formations.get(formation.pointer)
        own_units = 0
        for unit in formation.units:
            usel = built.units.get(unit.pointer)
            points = value(ev.subtree(usel, skip=not_unit)) if usel is not None else 0
            report.unit_points[unit.pointer] = points
            total += points
            if unit.box.part_of_formation:
                own_units += points
            else:
                support_units.add(unit.pointer)
                report.support_points += points
        own = value(ev.subtree(sel, skip=not_unit)) if sel is not None else 0
        if own:
            report.figures.setdefault("formation_own_points", {})[formation.pointer] = own
        report.formation_points[formation.pointer] = own_units + own
        total += own
    for unit in force.support:
        usel = built.units.get(unit.pointer)
        points = value(ev.subtree(usel, skip=not_unit)) if usel is not None else 0
        report.unit_points[unit.pointer] = points
        report.support_points += points
        total += points
    charged: set[int] = set()
    for card in force.cards:
        csel = built.cards.get(card.pointer)
        if csel is None:
            continue
        costs = ev.subtree(csel, skip=lambda s: s.role in ("unit", "card"))
        points = value(costs)
        for wrapper in built.wrappers.get(card.pointer, ()):
            if wrapper.role == "card-wrapper" and id(wrapper) not in charged:  # a force choice is priced there
                charged.add(id(wrapper))
                points += value(ev.total(wrapper))
        report.card_points += points
        report.figures.setdefault("card_points", {})[card.pointer] = points
    for index, _ in enumerate(force.selections):
        sel = next((s for s in built.main.children if s.ref == f"/selections/{index}"), None)
        if sel is not None:
            report.force_points += value(ev.subtree(sel, skip=lambda s: s.role == "card"))
    report.total_points = total + report.card_points + report.force_points
    costs = ev.roster_total()
    names = built.main.catalogue.cost_types
    report.figures["costs"] = {names.get(k, k): v for k, v in sorted(costs.items(), key=lambda kv: kv[0] != pts)}


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
    slot = violation.slot
    names = []
    try:
        available = offers(ev, violation.at)
    except CatalogueError:
        return ""
    priced = []
    for offer in available:
        inside = offer.slot in slot.slots if isinstance(slot, GroupSlot) else offer.slot is slot
        if inside and not offer.hidden:
            # What it costs once its own compulsory choices are made (a unit's cheapest size), not its bare entry.
            at_least = offer.cost.get(pts, 0) + required_below(ev, offer.slot, violation.at, pts)
            priced.append((at_least, offer.slot.index, offer))
    for at_least, _, offer in sorted(priced, key=lambda t: (t[0], t[1])):
        names.append(f"{display_name(offer.name)} (from {tidy(at_least)} pts)")
    return ", ".join(dict.fromkeys(names))


def _issue(v: Violation, ev: Evaluation, report: Report, codes: dict, rule: RuleRef) -> None:
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
        report.add(codes["hidden"], ERROR, f"{where}: {what} is not available here: the data hides it with the "
                   "choices made.", _pointer(sel or v.at), rule, f"Remove {what}.", box)
        return
    per = SCOPE_WORDS.get(v.scope, "")
    if v.owner == "category":
        code = codes["category_min"] if v.kind == "min" else codes["category_max"]
        if v.kind == "min" and what.lower() == FORMATIONS_CATEGORY:
            code = codes["formations"]
        bound = "at least" if v.kind == "min" else "at most"
        fix = f"Add {limit - count} more." if v.kind == "min" else f"Remove {count - limit}."
        report.add(code, ERROR, f"The list needs {bound} {limit} {what}{per}; it has {count}.", _pointer(v.at),
                   constraint_rule, fix)
        return
    if v.kind == "min":
        if _is_box(v):
            code = codes["hq"] if re.search(r"\bHQ\b", what) else codes["box_min"]
        else:
            code = codes["min"] if v.scope in ("parent", "self") else codes["force_min"]
        choices = _choices(ev, v, pts)
        if isinstance(v.slot, GroupSlot) or (choices and "," in choices):
            message = f"{where}: choose at least {limit} from {what}{per} (has {count})."
            fix = f"Add {'one' if limit - count == 1 else tidy(limit - count)} of: {choices}." if choices else None
        else:
            message = f"{where}: needs at least {limit} × {what}{per} (has {count})."
            fix = f"Add {tidy(limit - count)} × {what}." + (f" ({choices})" if choices else "")
        report.add(code, ERROR, message, _pointer(v.at), constraint_rule, fix, box)
        return
    if _is_box(v):
        code = codes["box_max"]
    elif v.scope == "force" or (v.scope not in ("parent", "self", "roster") and v.scope):
        code = codes["force_max"]
    elif v.scope == "roster":
        code = codes["roster_max"]
    else:
        code = codes["max"]
    target = v.selections[-1] if v.selections else None
    if isinstance(v.slot, GroupSlot):
        message = f"{where}: at most {limit} from {what}{per} (has {count})."
    else:
        message = f"{where}: at most {limit} × {what}{per} (has {count})."
    report.add(code, ERROR, message, _pointer(target or v.at), constraint_rule,
               f"Remove {tidy(count - limit)} of {what}.", box)


# -- what a unit holds ---------------------------------------------------------------------------------
TEAMS = re.compile(r"(\d+)\s*x\b", re.I)
TRANSPORT_PROFILE = "transport"


def teams_in_name(name: str) -> int:
    """Teams a size name counts ("7x MG42 with Panzerfaust, 4x Sd Kfz 251" is 11); counts in brackets
    describe the teams already counted ("2x Panzer III (1x short & 1x long)" is 2)."""
    outside = re.sub(r"\([^)]*\)", " ", name or "")
    return sum(int(n) for n in TEAMS.findall(outside))


def unit_teams(result: "BattleScribeCheck | None", pointer: str) -> int:
    """Teams in a unit: its model selections if the data counts models, else what its chosen size says."""
    if result is None:
        return 0
    sel = result.roster.units.get(pointer)
    if sel is None:
        return 0
    models = sum(s.number for s in sel.walk() if s is not sel and s.entry.type == "model" and s.role != "card")
    if models:
        return models
    ev = result.evaluation
    for child in sel.children:
        n = teams_in_name(ev.name(child))
        if n:
            return n * child.number
    return teams_in_name(ev.name(sel)) or 1


def unit_transports(result: "BattleScribeCheck | None", pointer: str) -> int:
    """Transport attachments chosen for a unit: each is a game unit of its own."""
    if result is None:
        return 0
    sel = result.roster.units.get(pointer)
    if sel is None:
        return 0
    catalogue = sel.force.catalogue
    count = 0
    for s in sel.walk():
        if s is sel:
            continue
        for ref in (s.entry.node.get("info") or ()):
            profile = catalogue.profiles.get(ref.get("profile")) if ref.get("profile") else None
            if profile and TRANSPORT_PROFILE in str(profile.get("type_name", "")).lower() and not ref.get("hidden"):
                count += 1
                break
    return count
