"""The figures panel: a report's per-system figures, labelled in each game's words.

Pure presentation. The engine computes every number (``report.figures``); this module only
picks the ones a player needs at the table, names them and adds the working a player would
otherwise have to remember ("5 + 2 per unit"). Nothing here decides what is legal.
"""
from dataclasses import dataclass, field

from armybuilder.lists.reporting import FIGURE_LABELS
from armybuilder.rules.force import Force
from armybuilder.rules.report import Report

HQ_LEVELS = {"phq": "Platoon HQ", "chq": "Company HQ", "bhq": "Battalion or Force HQ"}
LEVEL_NAMES = {"elite": "Elite", "regular": "Regular", "green": "Green", "poor": "Poor"}
WEIGHT_NAMES = {"light": "light", "medium": "medium", "heavy": "heavy"}


@dataclass
class FigureRow:
    label: str
    value: str
    detail: str = ""
    help: str = ""  # what the figure means, for the tooltip (docs/builder.md says the same)


# What the Flames of War figures mean (our own words; docs/builder.md explains them at more length).
FIGURE_HELP = {
    "formations": "Formations in the force, allied ones included.",
    "purchases": "The units you chose: one for each pick in a box of a formation, the support or an ally.",
    "game_units": "The units you put on the table. One purchase can field more than one (its transports can be "
                  "a unit of their own), so this can be higher than Units bought.",
    "teams": "Every team (model or base) in the force.",
    "observers": "Units that can spot for artillery.",
    "reserves_on_table_max": "In missions with Reserves, at most 60% of the agreed points may start on the table.",
    "command_cards": "Command Cards taken, force cards and cards given to a formation or a unit.",
}


@dataclass
class FigureGroup:
    title: str
    rows: list = field(default_factory=list)
    note: str = ""


def _number(value) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "±0"


def _plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


def _formation_names(force: Force) -> dict[str, str]:
    return {f.pointer: f.formation.name for f in force.formations}


def _unit_names(force: Force) -> dict[str, str]:
    return {u.pointer: u.unit.name for u in force.all_units()}


def option_pool_text(pool: dict) -> str:
    """{"granted": 3, "spent": 2} -> "2 of 3 options spent"."""
    granted, spent = pool.get("granted", 0), pool.get("spent", 0)
    return f"{spent} of {_plural(granted, 'option')} spent"


def oww2_groups(force: Force, report: Report) -> list[FigureGroup]:
    fig = report.figures
    units, limit = fig.get("units", 0), fig.get("unit_limit")
    army = FigureGroup("Army")
    if limit:
        army.rows.append(FigureRow("Units", f"{units} / {limit} units", "Off-table units count towards the limit"))
    else:
        army.rows.append(FigureRow("Units", _plural(units, "unit"), "No points limit set: the 8-unit limit is off"))
    base = fig.get("order_cards_base", 5)
    first = fig.get("order_cards_first_hand", base + units)
    cards = FigureGroup("Order cards")
    cards.rows.append(FigureRow("First hand", _plural(first, "card"),
                                f"{force.handbook.nation_name or 'Nation'} base {base} + 1 per unit ({units})"))
    off_hand = fig.get("order_cards_first_hand_off_table")
    off_table = fig.get("off_table_units", 0)
    if off_table and off_hand is not None and off_hand != first:
        cards.rows.append(FigureRow("First hand with off-table units held back", _plural(off_hand, "card"),
                                    "An off-table unit gets its card once the Observation Post has called it"))
    cards.rows.append(FigureRow("WAIT actions", str(fig.get("wait_actions", 0)),
                                "2 per game with an Observation Post and off-table artillery"))
    groups = [army, cards]
    pools = fig.get("option_pools") or {}
    if pools:
        names = _formation_names(force)
        pool_group = FigureGroup("Option pools", note="Each pool pays only for its own formation's options.")
        for pointer, pool in pools.items():
            left = pool.get("granted", 0) - pool.get("spent", 0)
            detail = "overspent" if left < 0 else (_plural(left, "option") + " left")
            pool_group.rows.append(FigureRow(names.get(pointer, pointer), option_pool_text(pool), detail))
        groups.append(pool_group)
    return groups


def hof_groups(force: Force, report: Report) -> list[FigureGroup]:
    fig = report.figures
    units = fig.get("units", 0)
    force_group = FigureGroup("Force")
    force_group.rows.append(FigureRow("Break limit", str(fig.get("break_limit", 5 + 2 * units)),
                                      f"5 + 2 per unit ({units}); the force breaks when its Break Points exceed it"))
    dice = fig.get("order_dice", 0)
    low, high = fig.get("order_points_range", [1, dice + 1])
    force_group.rows.append(FigureRow("Order dice", str(dice), "1 per Platoon Leader and per Vehicle Unit"))
    force_group.rows.append(FigureRow("Expected Order Points", _number(fig.get("expected_order_points", 0)),
                                      f"each die gives 1 on a 4+, plus 1 always; from {low} to {high}"))
    hero_low, hero_high = fig.get("hero_points_range", [3, 6])
    force_group.rows.append(FigureRow("Hero Points", f"{hero_low}–{hero_high}", "1d6 before the game, 1–2 count as 3"))
    force_group.rows.append(FigureRow("Objectives if defending", str(fig.get("objectives_if_defending", 1)),
                                      "the attacker places 1 + 1 per two defending units"))
    qualities = fig.get("qualities") or {}
    if any(qualities.values()):
        text = ", ".join(f"{n} {LEVEL_NAMES.get(q, q).lower()}" for q, n in qualities.items() if n)
        force_group.rows.append(FigureRow("Unit quality", text))
    groups = [force_group]
    artillery = fig.get("artillery") or {}
    fire = FigureGroup("Artillery fire missions", note="" if artillery else "No artillery unit in the force.")
    for entry in artillery.values():
        weight = WEIGHT_NAMES.get(entry.get("weight"), entry.get("weight") or "")
        fire.rows.append(FigureRow(entry.get("unit", ""), _plural(entry.get("fire_missions", 0), "fire mission"),
                                   f"{weight} artillery; {_plural(entry.get('barrage_rfps', 0), 'RFP')} per barrage hit"))
    groups.append(fire)
    return groups


def waf_groups(force: Force, report: Report) -> list[FigureGroup]:
    fig = report.figures
    setup = FigureGroup("Set-up")
    setup.rows.append(FigureRow("Dummy cards", str(fig.get("dummy_cards", 2)), "placed face down with the real cards"))
    flanking = fig.get("outflanking", 0)
    setup.rows.append(FigureRow("Outflanking", f"{flanking} of at most 3",
                                "up to d3 cards; each arrives from turn 2 on a d6 ≤ the turn"))
    activation = FigureGroup("Activation", note="The dice themselves depend on both forces: see a match-up.")
    modifier = fig.get("nation_activation_modifier", 0)
    activation.rows.append(FigureRow("Nation modifier", _signed(modifier),
                                     f"{force.handbook.nation_name or force.handbook.nation} on the nationality table"))
    activation.rows.append(FigureRow("Entirely elite", "yes, +1" if fig.get("all_elite") else "no"))
    coherency = FigureGroup("Coherency", note="Distance from the HQ before a unit tests as out of command.")
    for level, inches in (fig.get("coherency_inches") or {}).items():
        coherency.rows.append(FigureRow(HQ_LEVELS.get(level, level), f'{inches}"'))
    morale = FigureGroup("Morale", note="Test on 2d6: pass on the target or less.")
    for entry in (fig.get("morale") or {}).values():
        target = entry.get("target")
        level = LEVEL_NAMES.get(entry.get("level"), entry.get("level") or "no level")
        value = f"{target} or less" if target else "—"
        detail = level
        if entry.get("casualties_for_test"):
            detail += f"; tests at {_plural(entry['casualties_for_test'], 'casualty', 'casualties')} (25%)"
        morale.rows.append(FigureRow(entry.get("unit", ""), value, detail))
    return [setup, activation, coherency, morale]


def generic_groups(force: Force, report: Report) -> list[FigureGroup]:
    rows = [FigureRow(FIGURE_LABELS.get(k, k.replace("_", " ").capitalize()), _number(v),
                      help=FIGURE_HELP.get(k, "") if force.system == "fow4" else "")
            for k, v in report.figures.items() if isinstance(v, (int, float, str)) and not isinstance(v, bool)]
    return [FigureGroup("", rows)] if rows else []


BY_SYSTEM = {"oww2": oww2_groups, "hof": hof_groups, "waf": waf_groups}


def figure_groups(force: Force, report: Report) -> list[FigureGroup]:
    """The figures panel for any system; never raises on a half-built force."""
    return BY_SYSTEM.get(force.system, generic_groups)(force, report)
