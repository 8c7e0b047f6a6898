"""Hail of Fire: no points. Complete unit records, transport loads, and the force's figures."""
from . import generic
from . import issue_codes as c
from .force import Force, ForceUnit
from .report import Report, RuleRef

SYSTEM = "hof"
P = "hof"


def _rule(name: str, where: str = "Hail of Fire rules") -> RuleRef:
    return RuleRef("Hail of Fire", name, where)


RULES = {
    "box": _rule("Units come from the force's list"),
    "grey_box": _rule("Units come from the force's list"),
    "black_box": _rule("Units come from the force's list"),
    "hq": _rule("Units come from the force's list"),
    "record": _rule("Unit quality, teams and leaders", "Hail of Fire rules, Units"),
    "transport": _rule("Transports carry two to four teams and one towed gun", "Hail of Fire rules, Transports"),
    "size": _rule("Unit entry", "the force list"),
    "upgrade": _rule("Unit options", "the force list"),
    "variant": _rule("Variant", "the force list"),
    "constraint": _rule("Force list restriction", "the force list"),
}
FIRE_MISSIONS = {"light": 4, "medium": 3, "heavy": 2}
BARRAGE_RFPS = {"light": 1, "medium": 2, "heavy": 3}
PASSENGERS_PER_TRANSPORT = (2, 4)


def check(force: Force, report: Report) -> None:
    generic.sum_points(force, report)  # all zero, but keeps per-unit entries for every list view
    units = list(force.all_units())
    if not units:
        report.add(c.HOF_FORCE_EMPTY, "/formations", rule=RULES["box"], fix=c.HOF_FORCE_EMPTY.fix())
    generic.check_box_picks(force, report, P, RULES)
    generic.check_unit_options(force, report, P, RULES)
    for unit in units:
        check_record(unit, report)
        check_transport(unit, report)
    generic.check_constraints(force, report, P, RULES["constraint"])
    figures(force, report, units)


def check_record(unit: ForceUnit, report: Report) -> None:
    data = unit.unit
    missing = []
    if not data.quality:
        missing.append("quality (elite, regular or poor)")
    if not data.teams:
        missing.append("its teams")
    if data.artillery_weight == "" and "artillery" in data.unit_type.lower():
        missing.append("artillery weight")
    if not data.is_vehicle_unit and not (data.has_platoon_leader or any(t.is_leader for t in data.teams)):
        missing.append("a Platoon Leader")
    if missing:
        code = c.HOF_UNIT_INCOMPLETE
        report.add(code, unit.pointer, rule=RULES["record"], fix=code.fix(), unit=data.name,
                   missing=generic.names(missing))


def transport_load(unit: ForceUnit) -> tuple[int, int, int]:
    """(transport vehicles, passenger teams, towed guns) from the unit's record."""
    teams = unit.unit.teams
    vehicles = sum(t.count for t in teams if t.is_transport)
    towed = sum(t.count for t in teams if t.towed)
    passengers = sum(t.count for t in teams if not t.is_transport and not t.towed
                     and (t.man_portable or t.team_type.lower() in ("infantry", "")))
    return vehicles, passengers, towed


def check_transport(unit: ForceUnit, report: Report) -> None:
    vehicles, passengers, towed = transport_load(unit)
    if not vehicles:
        return
    per_vehicle = min(unit.unit.transport_capacity or PASSENGERS_PER_TRANSPORT[1], PASSENGERS_PER_TRANSPORT[1])
    if passengers > vehicles * per_vehicle or towed > vehicles:
        code = c.HOF_TRANSPORT_OVER_CAPACITY
        report.add(code, unit.pointer, rule=RULES["transport"], fix=code.fix(), unit=unit.unit.name,
                   vehicles=vehicles, capacity=vehicles * per_vehicle, passengers=passengers, towed=towed)


def figures(force: Force, report: Report, units) -> None:
    leaders = sum(1 for u in units if not u.unit.is_vehicle_unit
                  and (u.unit.has_platoon_leader or any(t.is_leader for t in u.unit.teams)))
    vehicle_units = sum(1 for u in units if u.unit.is_vehicle_unit)
    order_dice = leaders + vehicle_units
    artillery = {u.pointer: {"unit": u.unit.name, "weight": u.unit.artillery_weight,
                             "fire_missions": FIRE_MISSIONS[u.unit.artillery_weight],
                             "barrage_rfps": BARRAGE_RFPS[u.unit.artillery_weight]}
                 for u in units if u.unit.artillery_weight in FIRE_MISSIONS}
    report.figures.update({
        "units": len(units),
        "break_limit": 5 + 2 * len(units),
        "order_dice": order_dice,
        # Each die gives an Order Point on 4+, and one more point is always added.
        "expected_order_points": order_dice / 2 + 1,
        "order_points_range": [1, order_dice + 1],
        "hero_points_range": [3, 6],
        "objectives_if_defending": 1 + len(units) // 2,
        "artillery": artillery,
        "qualities": {q: sum(1 for u in units if u.unit.quality == q) for q in ("elite", "regular", "poor")},
    })
