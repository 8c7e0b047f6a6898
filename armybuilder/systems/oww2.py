"""Operation World War II: the options pyramid from one Standard unit, the 8-unit limit, dates."""
from armybuilder.rules import matchups, oww2
from armybuilder.rules.force import Force
from armybuilder.rules.report import Report

from .base import GameSystem, ListExtra
from .figures import FigureGroup, FigureRow, formation_names, option_pool_text, plural
from .matchup_tools import FORCES, REPORTS, MatchupTool


def figures(force: Force, report: Report) -> list[FigureGroup]:
    fig = report.figures
    units, limit = fig.get("units", 0), fig.get("unit_limit")
    army = FigureGroup("Army")
    if limit:
        army.rows.append(FigureRow("Units", f"{units} / {limit} units", "Off-table units count towards the limit"))
    else:
        army.rows.append(FigureRow("Units", plural(units, "unit"), "No points limit set: the 8-unit limit is off"))
    base = fig.get("order_cards_base", 5)
    first = fig.get("order_cards_first_hand", base + units)
    cards = FigureGroup("Order cards")
    cards.rows.append(FigureRow("First hand", plural(first, "card"),
                                f"{force.handbook.nation_name or 'Nation'} base {base} + 1 per unit ({units})"))
    off_hand = fig.get("order_cards_first_hand_off_table")
    off_table = fig.get("off_table_units", 0)
    if off_table and off_hand is not None and off_hand != first:
        cards.rows.append(FigureRow("First hand with off-table units held back", plural(off_hand, "card"),
                                    "An off-table unit gets its card once the Observation Post has called it"))
    cards.rows.append(FigureRow("WAIT actions", str(fig.get("wait_actions", 0)),
                                "2 per game with an Observation Post and off-table artillery"))
    groups = [army, cards]
    pools = fig.get("option_pools") or {}
    if pools:
        names = formation_names(force)
        pool_group = FigureGroup("Option pools", note="Each pool pays only for its own formation's options.")
        for pointer, pool in pools.items():
            left = pool.get("granted", 0) - pool.get("spent", 0)
            detail = "overspent" if left < 0 else (plural(left, "option") + " left")
            pool_group.rows.append(FigureRow(names.get(pointer, pointer), option_pool_text(pool), detail))
        groups.append(pool_group)
    return groups


SYSTEM = GameSystem(
    code=oww2.SYSTEM,
    name="Operation World War II",
    rules=oww2,
    figures=figures,
    uses_year=True,
    grows_by_options=True,
    list_extras=(
        ListExtra("/year", "the year the force fights in: units outside their availability dates are warned of"),
        ListExtra("/formations/*/parent", "the formation whose options bought this Standard choice"),
        ListExtra("/formations/*/via_box", "the options box of the parent formation it was bought through"),
    ),
    matchup_tools=(
        MatchupTool("order-cards", "Order cards", (FORCES, REPORTS), matchups.oww2_order_cards,
                    "Each player's first hand of order cards (the nation's base + 1 per unit), with off-table "
                    "units held back, and WAIT actions."),
    ),
)
