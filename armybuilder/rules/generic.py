"""Checks and sums every system shares: points, sizes, upgrades, boxes, constraints."""
from collections import Counter

from .data import BoxData, in_variant
from .force import Force, ForceCard, ForceUnit
from .issue_codes import IssueCode, diagram_codes
from .report import Report, RuleRef


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


def check_points_limit(force: Force, report: Report, rule: RuleRef, code: IssueCode) -> None:
    limit = force.points_limit
    if limit is not None and report.total_points > limit:
        over = report.total_points - limit
        report.add(code, "/points_limit", rule=rule, fix=code.fix(over=over), total=report.total_points, over=over,
                   limit=limit)


def check_unit_options(force: Force, report: Report, prefix: str, rules: dict) -> None:
    """Size chosen and offered; upgrades from the unit's own groups within their limits and the variant."""
    codes = diagram_codes(prefix)
    variant = force.variant
    for unit in force.all_units():
        data = unit.unit
        if unit.size is None:
            offered = [s.label for s in data.sizes if in_variant(s.variants, variant)]
            code = codes.size_missing
            report.add(code, unit.pointer, rule=rules.get("size"),
                       fix=code.fix(sizes=names(offered)) if offered else None, unit=data.name)
        elif not in_variant(unit.size.variants, variant):
            report.add(codes.option_not_in_variant, unit.pointer + "/size", form="size", rule=rules.get("variant"),
                       unit=data.name, size=unit.size.label)
        per_group: Counter[str | None] = Counter()  # options chosen per upgrade group
        for index, chosen in enumerate(unit.upgrades):
            upgrade = chosen.upgrade
            pointer = f"{unit.pointer}/upgrades/{index}"
            group = data.group_of(upgrade.code)
            per_group[group.code if group else None] += chosen.quantity
            if chosen.quantity > upgrade.max_quantity:
                code = codes.upgrade_too_many
                report.add(code, pointer, rule=rules.get("upgrade"),
                           fix=code.fix(upgrade=upgrade.name, most=upgrade.max_quantity), unit=data.name,
                           most=upgrade.max_quantity, upgrade=upgrade.name, quantity=chosen.quantity)
            if not in_variant(upgrade.variants, variant):
                code = codes.option_not_in_variant
                report.add(code, pointer, form="upgrade", rule=rules.get("variant"),
                           fix=code.fix("upgrade", upgrade=upgrade.name), unit=data.name, upgrade=upgrade.name)
        for group in data.groups:
            count = per_group.get(group.code, 0)
            if count < group.min_choices:
                code = codes.upgrade_group_too_few
                report.add(code, unit.pointer + "/upgrades", rule=rules.get("upgrade"),
                           fix=code.fix(options=names(u.name for u in group.upgrades)), unit=data.name,
                           least=group.min_choices, group=group.name, count=count)
            if group.max_choices is not None and count > group.max_choices:
                code = codes.upgrade_group_too_many
                report.add(code, unit.pointer + "/upgrades", rule=rules.get("upgrade"),
                           fix=code.fix(extra=count - group.max_choices), unit=data.name, most=group.max_choices,
                           group=group.name, count=count)


def check_box_picks(force: Force, report: Report, prefix: str, rules: dict) -> None:
    """Every unit sits in a box its formation offers; each box within its min/max; right units only.

    The system's codes (``issue_codes.diagram_codes``) carry its own words (e.g. Operation WW2 count ranges).
    """
    codes = diagram_codes(prefix)
    variant = force.variant
    for formation in force.formations:
        data = formation.formation
        handbook = formation.handbook
        picks: Counter[str] = Counter()  # units picked per box
        for unit in formation.units:
            box = unit.box
            picks[box.code] += 1
            if box.formation != data.code:
                report.add(codes.box_not_in_formation, unit.pointer, rule=rules.get("box"), box=box.code,
                           unit=unit.unit.name, box_name=box.name, formation=data.name)
                continue
            check_choice(unit, box, handbook, variant, report, prefix, rules)
        for box in data.boxes:
            if box.kind == "options" or not in_variant(box.variants, variant):
                continue
            count = picks.get(box.code, 0)
            if box.part_of_formation and count < box.min_picks:
                offered = choice_names(box, handbook, variant)
                short = box.min_picks - count
                wanted = "one unit" if short == 1 else f"{short} units"
                if box.kind == "hq":
                    code = codes.hq_missing
                    report.add(code, formation.pointer, form="hq", rule=rules.get("hq"), box=box.code,
                               fix=code.fix("add_from", wanted=wanted, choices=names(offered)), formation=data.name,
                               box_name=box.name)
                else:
                    code = codes.black_box_missing if box.kind == "black" else codes.box_too_few
                    needed = f"{box.min_picks} unit{'s' if box.min_picks > 1 else ''}"
                    report.add(code, formation.pointer, form="compulsory", rule=rules.get("black_box"), box=box.code,
                               fix=code.fix("add_from", wanted=wanted, choices=names(offered)), formation=data.name,
                               box_name=box.name, needed=needed, count=count)
            if count > box.max_picks:
                code = codes.box_too_many
                report.add(code, formation.pointer, form="box", rule=rules.get("grey_box"), box=box.code,
                           fix=code.fix("remove_from", extra=count - box.max_picks), formation=data.name,
                           box_name=box.name, most=box.max_picks, count=count)
        for box_code in picks:
            box = handbook.boxes.get(box_code)
            if box is not None and box.formation == data.code and not in_variant(box.variants, variant):
                report.add(codes.option_not_in_variant, formation.pointer, form="box", rule=rules.get("variant"),
                           box=box.code, formation=data.name, box_name=box.name)
    picks = Counter(unit.box.code for unit in force.support)
    for unit in force.support:
        if unit.box.formation is not None:
            report.add(codes.box_not_force_support, unit.pointer, rule=rules.get("support"), box=unit.box.code,
                       unit=unit.unit.name, box_name=unit.box.name)
            continue
        check_choice(unit, unit.box, force.handbook, variant, report, prefix, rules)
    for box_code, count in picks.items():
        box = force.handbook.boxes.get(box_code)
        if box is not None and box.formation is None and count > box.max_picks:
            code = codes.support_box_too_many
            report.add(code, "/support", form="support", rule=rules.get("support"), box=box.code,
                       fix=code.fix("remove_from", extra=count - box.max_picks), box_name=box.name,
                       most=box.max_picks, count=count)


def check_choice(unit, box, handbook, variant, report, prefix, rules) -> None:
    codes = diagram_codes(prefix)
    choice = box.unit_choice(unit.unit.code)
    if choice is None:
        offered = choice_names(box, handbook, variant)
        code = codes.box_choice_not_offered
        report.add(code, unit.pointer, rule=rules.get("box"), box=box.code,
                   fix=code.fix(choices=names(offered)) if offered else None, unit=unit.unit.name, box_name=box.name)
        return
    if not in_variant(choice.variants, variant) or not in_variant(unit.unit.variants, variant):
        report.add(codes.option_not_in_variant, unit.pointer, form="unit", rule=rules.get("variant"), box=box.code,
                   unit=unit.unit.name)


def check_constraints(force: Force, report: Report, prefix: str, rule: RuleRef | None) -> None:
    """The handbook's own min/max counts on units, formations, cards or unit types."""
    codes = diagram_codes(prefix)

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
                report.add(codes.constraint_too_few, pointer, rule=rule, restriction=constraint.description,
                           least=constraint.min_count, count=n)
            if constraint.max_count is not None and n > constraint.max_count:
                report.add(codes.constraint_too_many, pointer, rule=rule, restriction=constraint.description,
                           most=constraint.max_count, count=n)


def check_dates(force: Force, report: Report, prefix: str, rule: RuleRef | None) -> None:
    """Availability dates against the list's chosen year: a warning, since the rules allow anachronisms."""
    year = force.year
    if year is None:
        return
    codes = diagram_codes(prefix)
    for unit in force.all_units():
        data = unit.unit
        if _outside(year, data.available_from, data.available_to):
            report.add(codes.date_unit_unavailable, unit.pointer, rule=rule, unit=data.name,
                       dates=_span(data.available_from, data.available_to, data.availability_note), year=year)
        for index, chosen in enumerate(unit.upgrades):
            up = chosen.upgrade
            if _outside(year, up.available_from, up.available_to):
                report.add(codes.date_option_unavailable, f"{unit.pointer}/upgrades/{index}", rule=rule,
                           unit=data.name, upgrade=up.name, dates=_span(up.available_from, up.available_to, ""),
                           year=year)


def _outside(year, start, end) -> bool:
    return (start is not None and year < start) or (end is not None and year > end)


def _span(start, end, note) -> str:
    text = f"{start or '…'}–{end or '…'}"
    return f"{text} ({note})" if note else text
