"""Flames of War (4th edition) force-building rules."""
from collections import Counter, defaultdict

from . import generic
from . import issue_codes as c
from .battlescribe.check import check_battlescribe, unit_figures
from .data import in_variant
from .force import Force, ForceFormation, ForceUnit
from .report import ERROR, Report, RuleRef

SYSTEM = "fow4"
BOOK = "Flames of War rulebook, Building a Force"


def _rule(name: str, where: str = BOOK) -> RuleRef:
    return RuleRef("Flames of War", name, where)


RULES = {
    "formations": _rule("A force needs at least one Formation"),
    "hq": _rule("Every Formation has its HQ Unit", f"{BOOK}: Formation diagrams"),
    "black_box": _rule("Black boxes are compulsory", f"{BOOK}: Formation diagrams"),
    "grey_box": _rule("At most one Unit from each box", f"{BOOK}: Formation diagrams"),
    "box": _rule("Units come from the boxes of the diagram", f"{BOOK}: Formation diagrams"),
    "support": _rule("Support from one Formation's diagram only", f"{BOOK}: Support Units"),
    "same_book": _rule("All Formations from the same book, nation and division", f"{BOOK}: Multiple Formations"),
    "allies": _rule("Allied Formations only from listed nations", f"{BOOK}: Allied Formations"),
    "observer": _rule("One Observer Team per force", "Flames of War rulebook, Observers"),
    "variant": _rule("Choose one variant and stick to it", f"{BOOK}: Variants and divisional symbols"),
    "cards": _rule("Command Cards", "Command Card rules"),
    "points": _rule("Points limit", f"{BOOK}: Points"),
    "size": _rule("Unit size and points", "the handbook's unit entry"),
    "upgrade": _rule("Unit options", "the handbook's unit entry"),
    "constraint": _rule("Handbook restriction", "the handbook"),
    "last_stand": _rule("Formation Last Stand", "Flames of War rulebook, Formation Last Stand"),
}
P = "fow"


def check(force: Force, report: Report) -> None:
    if force.handbook.catalogue is not None:
        check_imported(force, report)
        return
    generic.sum_points(force, report)
    check_formations(force, report)
    generic.check_box_picks(force, report, P, RULES)
    generic.check_unit_options(force, report, P, RULES)
    check_variant(force, report)
    check_support_sources(force, report)
    check_same_book(force, report)
    check_allies(force, report)
    check_observers(force, report)
    check_cards(force, report)
    generic.check_constraints(force, report, P, RULES["constraint"])
    generic.check_points_limit(force, report, RULES["points"], c.FOW_POINTS_OVER_LIMIT)
    check_formation_strength(force, report)
    figures(force, report)


def check_imported(force: Force, report: Report) -> None:
    """A force on books imported from BattleScribe: the data's own costs, limits and visibility decide
    (evaluated over the list's selections), with the diagram rules the data does not hold on top."""
    result = check_battlescribe(force, report, prefix=P, system_name="Flames of War")
    report.context = result
    check_formations(force, report, counted_by_data=True)
    check_support_sources(force, report)
    check_same_book(force, report)
    check_allies(force, report)
    check_observers(force, report)
    generic.check_points_limit(force, report, RULES["points"], c.FOW_POINTS_OVER_LIMIT)
    check_formation_strength(force, report)
    figures(force, report, result)


def formation_names(force: Force) -> str:
    return generic.names(f.name for f in force.handbook.formations.values()
                         if in_variant(f.variants, force.variant))


def check_formations(force: Force, report: Report, *, counted_by_data: bool = False) -> None:
    """``counted_by_data``: imported books say themselves what counts as a formation (any root choice in their
    Formations category, e.g. a Formation Support unit that is one), so only the allies rule is ours."""
    if not force.formations and not counted_by_data:
        code = c.FOW_FORCE_NO_FORMATION
        report.add(code, "/formations", rule=RULES["formations"],
                   fix=code.fix("add_formation", formations=formation_names(force)))
    elif force.formations and all(f.allied for f in force.formations):
        code = c.FOW_FORCE_ONLY_ALLIED
        report.add(code, "/formations", rule=RULES["formations"], fix=code.fix(formations=formation_names(force)))
    for formation in force.formations:
        if formation.handbook.system != SYSTEM:
            report.add(c.FOW_FORMATION_WRONG_SYSTEM, formation.pointer, formation=formation.formation.name)


def check_variant(force: Force, report: Report) -> None:
    variants = force.handbook.variants
    if force.variant is not None and force.variant not in variants:
        code = c.FOW_VARIANT_UNKNOWN
        report.add(code, "/variant", rule=RULES["variant"], fix=code.fix(variants=generic.names(variants.values())),
                   variant=force.variant, book=force.handbook.name)
        return
    if variants and force.variant is None and _uses_variant_items(force):
        code = c.FOW_VARIANT_NOT_CHOSEN
        report.add(code, "/variant", rule=RULES["variant"], fix=code.fix(variants=generic.names(variants.values())),
                   book=force.handbook.name)
    for formation in force.formations:
        if not formation.allied and not in_variant(formation.formation.variants, force.variant):
            report.add(c.FOW_VARIANT_OPTION_NOT_IN_VARIANT, formation.pointer, form="formation",
                       rule=RULES["variant"], formation=formation.formation.name)


def _uses_variant_items(force: Force) -> bool:
    for formation in force.formations:
        if formation.formation.variants:
            return True
    for unit in force.all_units():
        if unit.unit.variants or (unit.size and unit.size.variants) or any(u.upgrade.variants for u in unit.upgrades):
            return True
        choice = unit.box.unit_choice(unit.unit.code)
        if choice and choice.variants:
            return True
    return False


def check_support_sources(force: Force, report: Report) -> None:
    """Support comes from one diagram: one formation's Support column, or the book's force diagram."""
    sources: dict[str, list[ForceUnit]] = defaultdict(list)
    for formation in force.formations:
        for unit in formation.units:
            if not unit.box.part_of_formation:
                sources[f"formation:{formation.formation.code}"].append(unit)
    for unit in force.support:
        sources["force"].append(unit)
    if len(sources) > 1:
        labels = [_source_label(force, key) for key in sources]
        first, *others = list(sources)
        for key in others:
            for unit in sources[key]:
                code = c.FOW_SUPPORT_SEVERAL_DIAGRAMS
                report.add(code, unit.pointer, rule=RULES["support"], fix=code.fix(diagram=labels[0]),
                           box=unit.box.code, diagrams=generic.names(labels), unit=unit.unit.name)
    # Each Support box is used at most its max across all copies of the same formation.
    per_box = Counter(u.box.code for units in sources.values() for u in units if u.box.formation is not None)
    for box_code, count in per_box.items():
        box = next(u.box for units in sources.values() for u in units if u.box.code == box_code)
        if count > box.max_picks:
            code = c.FOW_SUPPORT_BOX_REUSED
            report.add(code, "/formations", rule=RULES["support"], fix=code.fix(extra=count - box.max_picks),
                       box=box.code, box_name=box.name, count=count, most=box.max_picks)


def _source_label(force: Force, key: str) -> str:
    if key == "force":
        return "the force diagram"
    code = key.split(":", 1)[1]
    formation = force.handbook.formations.get(code)
    return f"the {formation.name if formation else code} diagram"


def _higher(formation: ForceFormation) -> str:
    return formation.formation.higher_formation or formation.handbook.higher_formation


def check_same_book(force: Force, report: Report) -> None:
    own = [f for f in force.formations if not f.allied]
    if not own:
        return
    base_book, base_nation, base_higher = force.handbook.code, force.handbook.nation, _higher(own[0])
    for formation in own:
        problems = []
        if formation.handbook.code != base_book:
            problems.append(f"comes from {formation.handbook.name}, not {force.handbook.name}")
        if formation.handbook.nation != base_nation:
            problems.append(f"is {formation.handbook.nation_name or formation.handbook.nation}")
        elif _higher(formation) and base_higher and _higher(formation) != base_higher:
            problems.append(f"belongs to {_higher(formation)}, not {base_higher}")
        if problems:
            code = c.FOW_FORMATION_MIXED_SOURCES
            report.add(code, formation.pointer, rule=RULES["same_book"], fix=code.fix(),
                       formation=formation.formation.name, problems="; ".join(problems))


def check_allies(force: Force, report: Report) -> None:
    allowed = set(force.handbook.allied_nations)
    for formation in force.formations:
        if not formation.allied:
            allowed |= formation.formation.allied_nations
    allied = [f for f in force.formations if f.allied]
    for formation in allied:
        nation = formation.handbook.nation
        if nation == force.handbook.nation:
            code = c.FOW_ALLIED_SAME_NATION
            report.add(code, formation.pointer, rule=RULES["allies"], fix=code.fix(),
                       formation=formation.formation.name)
        elif formation.handbook.source != force.handbook.source:
            kind = {"battlescribe": "imported data", "file": "a sample data file"}
            code = c.FOW_ALLIED_OTHER_SOURCE
            report.add(code, formation.pointer, rule=RULES["allies"], fix=code.fix(),
                       formation=formation.formation.name,
                       their_kind=kind.get(formation.handbook.source, "other data"),
                       our_kind=kind.get(force.handbook.source, "other data"))
        elif formation.handbook.period and force.handbook.period and formation.handbook.period != force.handbook.period:
            code = c.FOW_ALLIED_OTHER_PERIOD
            report.add(code, formation.pointer, rule=RULES["allies"], fix=code.fix(force_period=force.handbook.period),
                       formation=formation.formation.name, period=formation.handbook.period,
                       force_period=force.handbook.period)
        elif nation not in allowed:
            code = c.FOW_ALLIED_NATION_NOT_PERMITTED
            report.add(code, formation.pointer, rule=RULES["allies"], fix=code.fix(),
                       formation=formation.formation.name, nation=formation.handbook.nation_name or nation,
                       listed=generic.names(sorted(allowed)) or "none")
    if len(allied) > 1:
        report.add(c.FOW_ALLIED_MORE_THAN_ONE, allied[1].pointer, rule=RULES["allies"], count=len(allied))


def check_observers(force: Force, report: Report) -> None:
    units = list(force.all_units())
    observers = [u for u in units if u.unit.is_observer]
    present = {u.unit.code for u in units if not u.unit.is_observer}
    for extra in observers[1:]:
        code = c.FOW_OBSERVER_TOO_MANY
        report.add(code, extra.pointer, rule=RULES["observer"], fix=code.fix(unit=extra.unit.name), box=extra.box.code,
                   unit=extra.unit.name, number=observers.index(extra) + 1)
    for observer in observers:
        source = observer.unit.observer_source
        if source and source not in present:
            source_name = _unit_name(force, source)
            code = c.FOW_OBSERVER_SOURCE_MISSING
            report.add(code, observer.pointer, rule=RULES["observer"], fix=code.fix(source=source_name),
                       box=observer.box.code, unit=observer.unit.name, source=source_name)


def _unit_name(force: Force, code: str) -> str:
    for formation in force.formations:
        if code in formation.handbook.units:
            return formation.handbook.units[code].name
    unit = force.handbook.units.get(code)
    return unit.name if unit else code


def check_cards(force: Force, report: Report) -> None:
    per_force = Counter(c.card.code for c in force.cards)
    seen_force_limit = set()
    per_target: Counter[tuple] = Counter()  # (card code, target pointer) -> copies
    rating_cards = defaultdict(list)
    for card in force.cards:
        data = card.card
        if data.max_per_force is not None and per_force[data.code] > data.max_per_force \
                and data.code not in seen_force_limit:
            seen_force_limit.add(data.code)
            code = c.FOW_CARD_OVER_FORCE_LIMIT
            report.add(code, card.pointer, rule=RULES["cards"],
                       fix=code.fix(extra=per_force[data.code] - data.max_per_force),
                       card=data.name, most=data.max_per_force, count=per_force[data.code])
        if data.scope == "force":
            if card.target is not None:
                code = c.FOW_CARD_WRONG_TARGET
                report.add(code, card.pointer, form="force", rule=RULES["cards"], fix=code.fix("remove_target"),
                           card=data.name)
            continue
        wanted = "formation" if data.scope == "formation" else "unit"
        if card.target is None:
            allowed = data.target_formations if wanted == "formation" else data.target_units
            code = c.FOW_CARD_TARGET_MISSING
            report.add(code, card.pointer, form="listed" if allowed else "", rule=RULES["cards"],
                       fix=_card_target_hint(force, data, wanted, code), card=data.name, wanted=wanted)
            continue
        target_is_formation = isinstance(card.target, ForceFormation)
        if (wanted == "formation") != target_is_formation:
            code = c.FOW_CARD_WRONG_TARGET
            report.add(code, card.pointer, form="kind", rule=RULES["cards"],
                       fix=_card_target_hint(force, data, wanted, code), card=data.name,
                       given="formation" if target_is_formation else "unit", wanted=wanted)
            continue
        target_code = card.target.formation.code if target_is_formation else card.target.unit.code
        allowed = data.target_formations if target_is_formation else data.target_units
        if allowed and target_code not in allowed:
            target_name = card.target.formation.name if target_is_formation else card.target.unit.name
            code = c.FOW_CARD_WRONG_TARGET
            report.add(code, card.pointer, form="target", rule=RULES["cards"],
                       fix=_card_target_hint(force, data, wanted, code), card=data.name, target=target_name)
            continue
        per_target[(data.code, card.target_pointer)] += 1
        if per_target[(data.code, card.target_pointer)] == data.max_per_target + 1:
            code = c.FOW_CARD_OVER_TARGET_LIMIT
            report.add(code, card.pointer, rule=RULES["cards"], fix=code.fix(), card=data.name, wanted=wanted,
                       most=data.max_per_target)
        if data.changes_rating and not target_is_formation:
            rating_cards[card.target_pointer].append(card)
    for cards in rating_cards.values():
        for card in cards[1:]:
            code = c.FOW_CARD_RATING_TWICE
            report.add(code, card.pointer, rule=RULES["cards"], fix=code.fix(card=card.card.name),
                       unit=card.target.unit.name, first=cards[0].card.name, card=card.card.name)


def _card_target_hint(force: Force, data, wanted: str, code: c.IssueCode) -> str | None:
    """The fix of ``code`` (a card target problem): the force's parts the card can go to, else what to add."""
    if wanted == "formation":
        candidates = [f.formation.name for f in force.formations
                      if not data.target_formations or f.formation.code in data.target_formations]
        allowed_names = [force.handbook.formations[c].name for c in sorted(data.target_formations)
                         if c in force.handbook.formations]
    else:
        candidates = [u.unit.name for u in force.all_units()
                      if not data.target_units or u.unit.code in data.target_units]
        allowed_names = [force.handbook.units[c].name for c in sorted(data.target_units) if c in force.handbook.units]
    if candidates:
        return code.fix("give", targets=generic.names(dict.fromkeys(candidates)))
    if allowed_names:
        return code.fix("add", targets=generic.names(allowed_names))
    return None


def check_formation_strength(force: Force, report: Report) -> None:
    """A formation with fewer than two units of its own is destroyed at the start of the game."""
    for formation in force.formations:
        if not formation.units:
            continue  # an empty formation already has its missing HQ and black boxes to fix
        own = [u for u in formation.units if u.box.part_of_formation]
        if len(own) < 2 and not any(i.pointer == formation.pointer and i.severity == ERROR for i in report.issues):
            code = c.FOW_FORMATION_TOO_FEW_UNITS
            report.add(code, formation.pointer, rule=RULES["last_stand"], fix=code.fix(),
                       formation=formation.formation.name, count=len(own))


def game_units(unit: ForceUnit) -> int:
    return unit.unit.game_units + sum(u.upgrade.adds_game_units * u.quantity for u in unit.upgrades)


def figures(force: Force, report: Report, imported=None) -> None:
    units = list(force.all_units())
    limit = force.points_limit
    basis = limit if limit is not None else report.total_points
    if imported is not None:
        counted = unit_figures(imported)  # pointer -> (teams, transport attachments)
        teams = {u.pointer: counted.get(u.pointer, (0, 0))[0] for u in units}
        report.figures["unit_teams"] = teams
        team_count = sum(teams.values())
        game_unit_count = sum(1 + counted.get(u.pointer, (0, 0))[1] for u in units)
    else:
        team_count = sum(u.teams for u in units)
        game_unit_count = sum(game_units(u) for u in units)
    report.figures.update({
        "formations": len(force.formations),
        "allied_formations": sum(1 for f in force.formations if f.allied),
        "purchases": len(units),
        "game_units": game_unit_count,
        "teams": team_count,
        "observers": sum(1 for u in units if u.unit.is_observer),
        # In missions with Reserves at most 60% of the agreed points may start on the table.
        "reserves_on_table_max": basis * 60 // 100,
        "command_cards": len(force.cards),
    })
