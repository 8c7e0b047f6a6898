"""Checks and sums every system shares: points, sizes, upgrades, boxes, constraints."""
from collections import Counter

from .force import Force, ForceCard, ForceUnit
from .data import BoxData, in_variant
from .report import ERROR, WARNING, Report, RuleRef


def unit_points(unit: ForceUnit) -> int:
    points = unit.size.points if unit.size else 0
    for chosen in unit.upgrades:
        upgrade = chosen.upgrade
        per = unit.teams if upgrade.cost_basis == "team" else 1
        points += upgrade.points * per * chosen.quantity
    return points


def card_points(card: ForceCard) -> int:
    if card.card.cost_basis == "team" and isinstance(card.target, ForceUnit):
        return card.card.points * card.target.teams
    return card.card.points


def sum_points(force: Force, report: Report) -> None:
    """Points per unit, per formation (its own units), support, cards and the total."""
    total = 0
    for formation in force.formations:
        own = 0
        for unit in formation.units:
            points = unit_points(unit)
            report.unit_points[unit.pointer] = points
            if unit.box.part_of_formation:
                own += points
            else:
                report.support_points += points
            total += points
        report.formation_points[formation.pointer] = own
    for unit in force.support:
        points = unit_points(unit)
        report.unit_points[unit.pointer] = points
        report.support_points += points
        total += points
    for card in force.cards:
        report.card_points += card_points(card)
    report.total_points = total + report.card_points


def names(items) -> str:
    return ", ".join(items)


def choice_names(box: BoxData, handbook, variant) -> list[str]:
    out = []
    for choice in box.choices:
        if not in_variant(choice.variants, variant):
            continue
        if choice.unit and choice.unit in handbook.units and in_variant(handbook.units[choice.unit].variants, variant):
            out.append(handbook.units[choice.unit].name)
        elif choice.formation and choice.formation in handbook.formations:
            out.append(handbook.formations[choice.formation].name)
    return out


def check_points_limit(force: Force, report: Report, rule: RuleRef, code: str) -> None:
    limit = force.points_limit
    if limit is not None and report.total_points > limit:
        over = report.total_points - limit
        report.add(code, ERROR, f"The force costs {report.total_points} points, {over} more than the "
                   f"{limit}-point limit.", "/points_limit", rule, f"Remove or shrink units worth at least {over} points.")


def check_unit_options(force: Force, report: Report, prefix: str, rules: dict) -> None:
    """Size chosen and offered; upgrades from the unit's own groups within their limits and the variant."""
    variant = force.variant
    for unit in force.all_units():
        data = unit.unit
        if unit.size is None:
            offered = [s.label for s in data.sizes if in_variant(s.variants, variant)]
            report.add(f"{prefix}.unit.size_missing", ERROR, f"{data.name}: no size chosen.", unit.pointer,
                       rules.get("size"), f"Choose a size: {names(offered)}." if offered else None)
        elif not in_variant(unit.size.variants, variant):
            report.add(f"{prefix}.variant.option_not_in_variant", ERROR,
                       f"{data.name}: the size '{unit.size.label}' is not available to your chosen variant.",
                       unit.pointer + "/size", rules.get("variant"))
        per_group = Counter()
        for index, chosen in enumerate(unit.upgrades):
            upgrade = chosen.upgrade
            pointer = f"{unit.pointer}/upgrades/{index}"
            group = data.group_of(upgrade.code)
            per_group[group.code if group else None] += chosen.quantity
            if chosen.quantity > upgrade.max_quantity:
                report.add(f"{prefix}.upgrade.too_many", ERROR,
                           f"{data.name}: at most {upgrade.max_quantity} × {upgrade.name}, not {chosen.quantity}.",
                           pointer, rules.get("upgrade"), f"Reduce {upgrade.name} to {upgrade.max_quantity}.")
            if not in_variant(upgrade.variants, variant):
                report.add(f"{prefix}.variant.option_not_in_variant", ERROR,
                           f"{data.name}: {upgrade.name} is not available to your chosen variant.", pointer,
                           rules.get("variant"), f"Remove {upgrade.name}.")
        for group in data.groups:
            count = per_group.get(group.code, 0)
            if count < group.min_choices:
                report.add(f"{prefix}.upgrade_group.too_few", ERROR,
                           f"{data.name}: choose at least {group.min_choices} from {group.name} (has {count}).",
                           unit.pointer + "/upgrades", rules.get("upgrade"),
                           "Add one of: " + names(u.name for u in group.upgrades) + ".")
            if group.max_choices is not None and count > group.max_choices:
                report.add(f"{prefix}.upgrade_group.too_many", ERROR,
                           f"{data.name}: at most {group.max_choices} from {group.name} (has {count}).",
                           unit.pointer + "/upgrades", rules.get("upgrade"),
                           f"Remove {count - group.max_choices} of them.")


def check_box_picks(force: Force, report: Report, prefix: str, rules: dict, codes: dict | None = None) -> None:
    """Every unit sits in a box its formation offers; each box within its min/max; right units only.

    ``codes`` renames the issue codes for systems with their own words (e.g. Operation WW2 count ranges).
    """
    codes = {"hq": f"{prefix}.hq.missing", "black": f"{prefix}.black_box.missing", "too_few": f"{prefix}.box.too_few",
             "too_many": f"{prefix}.box.too_many", **(codes or {})}
    variant = force.variant
    for formation in force.formations:
        data = formation.formation
        handbook = formation.handbook
        picks = Counter()
        for unit in formation.units:
            box = unit.box
            picks[box.code] += 1
            if box.formation != data.code:
                report.add(f"{prefix}.box.not_in_formation", ERROR,
                           f"{unit.unit.name} is in box '{box.name}', which is not on the {data.name} diagram.",
                           unit.pointer, rules.get("box"), box=box.code)
                continue
            check_choice(unit, box, handbook, variant, report, prefix, rules)
        for box in data.boxes:
            if box.kind == "options" or not in_variant(box.variants, variant):
                continue
            count = picks.get(box.code, 0)
            if box.part_of_formation and count < box.min_picks:
                offered = choice_names(box, handbook, variant)
                fix = f"Add {'one unit' if box.min_picks - count == 1 else f'{box.min_picks - count} units'} from: {names(offered)}."
                if box.kind == "hq":
                    report.add(codes["hq"], ERROR, f"{data.name} has no HQ: the box '{box.name}' is empty.",
                               formation.pointer, rules.get("hq"), fix, box.code)
                else:
                    code = codes["black"] if box.kind == "black" else codes["too_few"]
                    report.add(code, ERROR, f"{data.name}: the compulsory box '{box.name}' needs "
                               f"{box.min_picks} unit{'s' if box.min_picks > 1 else ''}, it has {count}.",
                               formation.pointer, rules.get("black_box"), fix, box.code)
            if count > box.max_picks:
                report.add(codes["too_many"], ERROR,
                           f"{data.name}: the box '{box.name}' holds at most {box.max_picks}, it has {count}.",
                           formation.pointer, rules.get("grey_box"), f"Remove {count - box.max_picks} unit(s) from it.",
                           box.code)
        for box_code in picks:
            box = handbook.boxes.get(box_code)
            if box is not None and box.formation == data.code and not in_variant(box.variants, variant):
                report.add(f"{prefix}.variant.option_not_in_variant", ERROR,
                           f"{data.name}: the box '{box.name}' is not on the diagram for your chosen variant.",
                           formation.pointer, rules.get("variant"), box=box.code)
    picks = Counter(unit.box.code for unit in force.support)
    for unit in force.support:
        if unit.box.formation is not None:
            report.add(f"{prefix}.box.not_force_support", ERROR,
                       f"{unit.unit.name} is listed as force support, but '{unit.box.name}' is a formation's box.",
                       unit.pointer, rules.get("support"), box=unit.box.code)
            continue
        check_choice(unit, unit.box, force.handbook, variant, report, prefix, rules)
    for box_code, count in picks.items():
        box = force.handbook.boxes.get(box_code)
        if box is not None and box.formation is None and count > box.max_picks:
            report.add(f"{prefix}.box.too_many", ERROR,
                       f"Support box '{box.name}' holds at most {box.max_picks}, it has {count}.", "/support",
                       rules.get("support"), f"Remove {count - box.max_picks} unit(s) from it.", box.code)


def check_choice(unit, box, handbook, variant, report, prefix, rules) -> None:
    choice = box.unit_choice(unit.unit.code)
    if choice is None:
        offered = choice_names(box, handbook, variant)
        report.add(f"{prefix}.box.choice_not_offered", ERROR,
                   f"{unit.unit.name} cannot be taken in the box '{box.name}'.", unit.pointer, rules.get("box"),
                   f"Pick one of: {names(offered)}." if offered else None, box.code)
        return
    if not in_variant(choice.variants, variant) or not in_variant(unit.unit.variants, variant):
        report.add(f"{prefix}.variant.option_not_in_variant", ERROR,
                   f"{unit.unit.name} is not available to your chosen variant.", unit.pointer, rules.get("variant"),
                   box=box.code)


def check_constraints(force: Force, report: Report, prefix: str, rule: RuleRef | None) -> None:
    """The handbook's own min/max counts on units, formations, cards or unit types."""
    def count(kind, codes, units, formations, cards):
        if kind == "unit":
            return sum(1 for u in units if u.unit.code in codes)
        if kind == "unit_type":
            return sum(1 for u in units if u.unit.unit_type in codes)
        if kind == "formation":
            return sum(1 for f in formations if f.formation.code in codes)
        return sum(1 for c in cards if c.card.code in codes)

    for constraint in force.handbook.constraints:
        scopes = ([(f.pointer, list(f.units), [f], []) for f in force.formations] if constraint.scope == "formation"
                  else [("", list(force.all_units()), list(force.formations), list(force.cards))])
        for pointer, units, formations, cards in scopes:
            n = count(constraint.target_kind, constraint.target_codes, units, formations, cards)
            if constraint.min_count is not None and n < constraint.min_count:
                report.add(f"{prefix}.constraint.too_few", ERROR,
                           f"{constraint.description}: needs at least {constraint.min_count}, has {n}.", pointer, rule)
            if constraint.max_count is not None and n > constraint.max_count:
                report.add(f"{prefix}.constraint.too_many", ERROR,
                           f"{constraint.description}: at most {constraint.max_count}, has {n}.", pointer, rule)


def check_dates(force: Force, report: Report, prefix: str, rule: RuleRef | None) -> None:
    """Availability dates against the list's chosen year: a warning, since the rules allow anachronisms."""
    year = force.year
    if year is None:
        return
    for unit in force.all_units():
        data = unit.unit
        if _outside(year, data.available_from, data.available_to):
            report.add(f"{prefix}.date.unit_unavailable", WARNING,
                       f"{data.name} is dated {_span(data.available_from, data.available_to, data.availability_note)}, "
                       f"outside {year}.", unit.pointer, rule)
        for index, chosen in enumerate(unit.upgrades):
            up = chosen.upgrade
            if _outside(year, up.available_from, up.available_to):
                report.add(f"{prefix}.date.option_unavailable", WARNING,
                           f"{data.name}: {up.name} is dated {_span(up.available_from, up.available_to, '')}, "
                           f"outside {year}.", f"{unit.pointer}/upgrades/{index}", rule)


def _outside(year, start, end) -> bool:
    return (start is not None and year < start) or (end is not None and year > end)


def _span(start, end, note) -> str:
    text = f"{start or '…'}–{end or '…'}"
    return f"{text} ({note})" if note else text
