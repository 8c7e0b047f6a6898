"""Operation World War II: the options pyramid, the 8-unit limit, off-table fire, dates."""
from collections import Counter

from . import generic
from . import issue_codes as c
from .force import Force
from .report import Report, RuleRef

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


def check(force: Force, report: Report) -> None:
    generic.sum_points(force, report)
    check_standard_root(force, report)
    generic.check_box_picks(force, report, P, RULES)
    check_option_pools(force, report)
    generic.check_unit_options(force, report, P, RULES)
    check_unit_limit(force, report)
    check_off_table(force, report)
    generic.check_dates(force, report, P, RULES["dates"])
    generic.check_constraints(force, report, P, RULES["constraint"])
    generic.check_points_limit(force, report, RULES["points"], c.OWW2_POINTS_OVER_LIMIT)
    figures(force, report)


def _standard_names(force: Force) -> str:
    return generic.names(f.name for f in force.handbook.formations.values() if f.is_standard)


def check_standard_root(force: Force, report: Report) -> None:
    roots = [f for f in force.formations if f.parent_index is None]
    if not roots:
        code = c.OWW2_STANDARD_NONE
        report.add(code, "/formations", rule=RULES["standard"], fix=code.fix(standards=_standard_names(force)))
        return
    for formation in roots:
        if not formation.formation.is_standard:
            code = c.OWW2_STANDARD_NOT_STANDARD
            report.add(code, formation.pointer, rule=RULES["standard"], fix=code.fix(standards=_standard_names(force)),
                       formation=formation.formation.name)
    for formation in roots[1:]:
        code = c.OWW2_STANDARD_MORE_THAN_ONE
        report.add(code, formation.pointer, rule=RULES["standard"], fix=code.fix(), first=roots[0].formation.name,
                   formation=formation.formation.name)


def _option_cost(box, formation_code=None, unit_code=None) -> int:
    choice = box.formation_choice(formation_code) if formation_code else box.unit_choice(unit_code)
    return choice.option_cost if choice else 0


def check_option_pools(force: Force, report: Report) -> None:
    """Each formation's pool pays only for its own options; pools never add together."""
    by_index = {f.index: f for f in force.formations}
    spent: Counter[int] = Counter()  # options spent per formation index
    for formation in force.formations:
        picks: Counter[str] = Counter()  # units picked per box
        for unit in formation.units:
            if unit.box.kind == "options":
                picks[unit.box.code] += 1
                spent[formation.index] += _option_cost(unit.box, unit_code=unit.unit.code)
        for box in formation.formation.boxes:
            if box.kind == "options" and picks[box.code] > box.max_picks:
                report.add(c.OWW2_COUNT_TOO_MANY, formation.pointer, form="options", rule=RULES["count"], box=box.code,
                           formation=formation.formation.name, most=box.max_picks, box_name=box.name,
                           count=picks[box.code])
        if formation.parent_index is None:
            continue
        parent = by_index.get(formation.parent_index)
        box = formation.via_box
        if parent is None or box is None or box.formation != parent.formation.code \
                or box.formation_choice(formation.formation.code) is None:
            code = c.OWW2_OPTION_NOT_OFFERED
            report.add(code, formation.pointer, rule=RULES["options"], fix=code.fix(),
                       formation=formation.formation.name, parent=parent.formation.name if parent else "its parent")
            continue
        spent[parent.index] += _option_cost(box, formation_code=formation.formation.code)
    for formation in force.formations:
        pool = formation.formation.grants_options
        used = spent[formation.index]
        report.figures.setdefault("option_pools", {})[formation.pointer] = {"granted": pool, "spent": used}
        if used > pool:
            code = c.OWW2_OPTIONS_OVERSPENT
            report.add(code, formation.pointer, rule=RULES["options"], fix=code.fix(extra=used - pool),
                       formation=formation.formation.name, pool=pool, used=used)


def _units(force: Force):
    return list(force.all_units())


def check_unit_limit(force: Force, report: Report) -> None:
    units = _units(force)
    if force.points_limit is not None and len(units) > MAX_UNITS:
        code = c.OWW2_UNITS_TOO_MANY
        report.add(code, "/formations", rule=RULES["units"], fix=code.fix(extra=len(units) - MAX_UNITS),
                   count=len(units), most=MAX_UNITS)


def check_off_table(force: Force, report: Report) -> None:
    units = _units(force)
    if any(u.unit.is_observation_post for u in units):
        return
    for unit in units:
        if unit.unit.off_table:
            code = c.OWW2_OFF_TABLE_NO_OBSERVATION_POST
            report.add(code, unit.pointer, rule=RULES["off_table"], fix=code.fix(), unit=unit.unit.name)


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
