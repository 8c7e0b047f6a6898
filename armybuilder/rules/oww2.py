"""Operation World War II: the options pyramid, the 8-unit limit, off-table fire, dates."""
from collections import Counter

from . import generic
from .force import Force
from .report import ERROR, WARNING, Report, RuleRef

SYSTEM = "oww2"
P = "oww2"
BOOK = "Operation WW2 core rules, Army lists"


def _rule(name: str, where: str = BOOK) -> RuleRef:
    return RuleRef("Operation WW2", name, where)


RULES = {
    "standard": _rule("The army grows from one Standard choice"),
    "options": _rule("Options are spent only on the granting unit's own list"),
    "count": _rule("Unit counts such as 0-1 and 2-3"),
    "box": _rule("Units come from their platoon's list"),
    "units": _rule("At most 8 units in a points game", "Operation WW2 core rules, Scenarios"),
    "off_table": _rule("Off-table fire needs an Observation Post", "Operation WW2 core rules, Artillery"),
    "dates": _rule("Reference dates", BOOK),
    "points": _rule("Points limit", BOOK),
    "size": _rule("Unit entry", "the army list"),
    "upgrade": _rule("Equipment and items", "the army list"),
    "variant": _rule("Army list variant", "the army list"),
    "constraint": _rule("Army list restriction", "the army list"),
}
MAX_UNITS = 8
COUNT_CODES = {"hq": f"{P}.count.too_few", "black": f"{P}.count.too_few", "too_few": f"{P}.count.too_few",
               "too_many": f"{P}.count.too_many"}


def check(force: Force, report: Report) -> None:
    generic.sum_points(force, report)
    check_standard_root(force, report)
    generic.check_box_picks(force, report, P, RULES, COUNT_CODES)
    check_option_pools(force, report)
    generic.check_unit_options(force, report, P, RULES)
    check_unit_limit(force, report)
    check_off_table(force, report)
    generic.check_dates(force, report, P, RULES["dates"])
    generic.check_constraints(force, report, P, RULES["constraint"])
    generic.check_points_limit(force, report, RULES["points"], f"{P}.points.over_limit")
    figures(force, report)


def _standard_names(force: Force) -> str:
    return generic.names(f.name for f in force.handbook.formations.values() if f.is_standard)


def check_standard_root(force: Force, report: Report) -> None:
    roots = [f for f in force.formations if f.parent_index is None]
    if not roots:
        report.add(f"{P}.standard.none", ERROR, "The army has no Standard choice to grow from.", "/formations",
                   RULES["standard"], f"Start with one of: {_standard_names(force)}.")
        return
    for formation in roots:
        if not formation.formation.is_standard:
            report.add(f"{P}.standard.not_standard", ERROR,
                       f"{formation.formation.name} is not a Standard choice; it can only be bought with options.",
                       formation.pointer, RULES["standard"], f"Start the army with one of: {_standard_names(force)}.")
    for formation in roots[1:]:
        report.add(f"{P}.standard.more_than_one", ERROR,
                   f"The army starts from {roots[0].formation.name}; "
                   f"{formation.formation.name} must be bought with options, not as a second starting choice.",
                   formation.pointer, RULES["standard"], "Buy it through an options list, or remove it.")


def _option_cost(box, formation_code=None, unit_code=None) -> int:
    choice = box.formation_choice(formation_code) if formation_code else box.unit_choice(unit_code)
    return choice.option_cost if choice else 0


def check_option_pools(force: Force, report: Report) -> None:
    """Each formation's pool pays only for its own options; pools never add together."""
    by_index = {f.index: f for f in force.formations}
    spent = Counter()
    for formation in force.formations:
        picks = Counter()
        for unit in formation.units:
            if unit.box.kind == "options":
                picks[unit.box.code] += 1
                spent[formation.index] += _option_cost(unit.box, unit_code=unit.unit.code)
        for box in formation.formation.boxes:
            if box.kind == "options" and picks[box.code] > box.max_picks:
                report.add(f"{P}.count.too_many", ERROR,
                           f"{formation.formation.name}: at most {box.max_picks} from '{box.name}', it has "
                           f"{picks[box.code]}.", formation.pointer, RULES["count"], box=box.code)
        if formation.parent_index is None:
            continue
        parent = by_index.get(formation.parent_index)
        box = formation.via_box
        if parent is None or box is None or box.formation != parent.formation.code \
                or box.formation_choice(formation.formation.code) is None:
            where = parent.formation.name if parent else "its parent"
            report.add(f"{P}.option.not_offered", ERROR,
                       f"{formation.formation.name} is not on the options list of {where}.", formation.pointer,
                       RULES["options"], "Buy it through a list that offers it, or remove it.")
            continue
        spent[parent.index] += _option_cost(box, formation_code=formation.formation.code)
    for formation in force.formations:
        pool = formation.formation.grants_options
        used = spent[formation.index]
        report.figures.setdefault("option_pools", {})[formation.pointer] = {"granted": pool, "spent": used}
        if used > pool:
            report.add(f"{P}.options.overspent", ERROR,
                       f"{formation.formation.name} grants {pool} option(s) but {used} are spent on its list; "
                       "other units' options cannot help.", formation.pointer, RULES["options"],
                       f"Remove options worth {used - pool}.")


def _units(force: Force):
    return list(force.all_units())


def check_unit_limit(force: Force, report: Report) -> None:
    units = _units(force)
    if force.points_limit is not None and len(units) > MAX_UNITS:
        report.add(f"{P}.units.too_many", ERROR,
                   f"The army has {len(units)} units; a points game allows {MAX_UNITS} (off-table units count).",
                   "/formations", RULES["units"], f"Remove {len(units) - MAX_UNITS} unit(s).")


def check_off_table(force: Force, report: Report) -> None:
    units = _units(force)
    if any(u.unit.is_observation_post for u in units):
        return
    for unit in units:
        if unit.unit.off_table:
            report.add(f"{P}.off_table.no_observation_post", WARNING,
                       f"{unit.unit.name} can only fire from off the table if the army has an Observation Post; "
                       "without one it must deploy on the table.", unit.pointer, RULES["off_table"],
                       "Buy an Observation Post, or plan to deploy it on the table.")


def figures(force: Force, report: Report) -> None:
    units = _units(force)
    base = force.handbook.order_card_base if force.handbook.order_card_base is not None else 5
    off_table = sum(1 for u in units if u.unit.off_table)
    has_op = any(u.unit.is_observation_post for u in units)
    report.figures.update({
        "units": len(units),
        "unit_limit": MAX_UNITS if force.points_limit is not None else None,
        "order_cards_base": base,
        # First hand: the nation's base plus one per unit; an off-table unit gets its card only after a call.
        "order_cards_first_hand": base + len(units),
        "order_cards_first_hand_off_table": base + len(units) - (off_table if has_op else 0),
        "off_table_units": off_table,
        "wait_actions": 2 if has_op and off_table else 0,
    })
