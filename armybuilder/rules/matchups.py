"""Figures that depend on two forces: Hail of Fire's Force Parity Procedure,
War Ain't Fair's activation dice and hidden set-up, Operation WW2's order-card
hands, and Flames of War's side-by-side and Reserves comparison.

Where a rule leaves judgement to the players (which unit is more threatening,
who has the heavy hitters), the answers come in as input and are recorded;
the tool only suggests what it can measure (size, by team count).
"""
from dataclasses import dataclass, field
from typing import Any

from . import waf
from .force import Force, ForceUnit

SIDES = ("a", "b")


class MatchupError(ValueError):
    """The match-up input does not fit the two forces."""


# --- Hail of Fire ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ParityPair:
    rank: int
    unit_a: str  # pointer in force A
    unit_b: str
    threat: str | None  # "a" | "b" | None: whose unit is more threatening
    heavy_hitter: str | None
    size: str | None
    points_a: int
    points_b: int


@dataclass
class ParityResult:
    pairs: list = field(default_factory=list)
    unpaired_a: list = field(default_factory=list)
    unpaired_b: list = field(default_factory=list)
    total_a: int = 0
    total_b: int = 0
    stronger: str | None = None  # the side that takes the Penalty Points
    penalty_points: int = 0
    spending: dict | None = None  # {"break_points": n, "hero_points": n, "reductions": n}
    suggestions: list = field(default_factory=list)  # per pair: the size winner by team count

    def as_dict(self) -> dict:
        return {"pairs": [p.__dict__ for p in self.pairs], "unpaired_a": self.unpaired_a,
                "unpaired_b": self.unpaired_b, "total_a": self.total_a, "total_b": self.total_b,
                "stronger": self.stronger, "penalty_points": self.penalty_points, "spending": self.spending,
                "suggestions": self.suggestions}


def _units(force: Force) -> dict[str, ForceUnit]:
    return {u.pointer: u for u in force.all_units()}


def _check_ranking(ranking: list[str], units: dict, who: str) -> None:
    if sorted(ranking) != sorted(units) or len(set(ranking)) != len(ranking):
        raise MatchupError(f"the ranking of force {who.upper()}'s units must list each of its {len(units)} units once")


def size_suggestion(unit_a: ForceUnit, unit_b: ForceUnit) -> str | None:
    if unit_a.teams == unit_b.teams:
        return None
    return "a" if unit_a.teams > unit_b.teams else "b"


def hof_parity(a: Force, b: Force, *, ranking_a: list[str], ranking_b: list[str], judgements: list[dict],
               spending: dict | None = None) -> ParityResult:
    """Force Parity Procedure.

    ``ranking_a`` is force A's units from strongest to weakest as ranked by B's player,
    ``ranking_b`` force B's units as ranked by A's player. Units pair by rank. For each
    pair ``judgements[i]`` says which side ("a", "b" or None) is more threatening (1 point),
    has the heavy hitters (+1) and the size advantage (+1). Each unit without a partner
    scores 2 for its side. The side with more takes the difference as Penalty Points,
    spent as its own starting Break Points, Hero Points for the opponent, or reductions.
    """
    units_a, units_b = _units(a), _units(b)
    _check_ranking(ranking_a, units_a, "a")
    _check_ranking(ranking_b, units_b, "b")
    paired = min(len(ranking_a), len(ranking_b))
    if len(judgements) != paired:
        raise MatchupError(f"{paired} pair(s) need a judgement each, {len(judgements)} given")
    result = ParityResult()
    for rank in range(paired):
        judgement = judgements[rank] or {}
        for key in ("threat", "heavy_hitter", "size"):
            if judgement.get(key) not in (None, "a", "b"):
                raise MatchupError(f"pair {rank + 1}: '{key}' must be 'a', 'b' or empty")
        points = {"a": 0, "b": 0}
        for key in ("threat", "heavy_hitter", "size"):
            if judgement.get(key):
                points[judgement[key]] += 1
        unit_a, unit_b = units_a[ranking_a[rank]], units_b[ranking_b[rank]]
        result.pairs.append(ParityPair(rank + 1, unit_a.pointer, unit_b.pointer, judgement.get("threat"),
                                       judgement.get("heavy_hitter"), judgement.get("size"), points["a"], points["b"]))
        result.suggestions.append({"size": size_suggestion(unit_a, unit_b)})
        result.total_a += points["a"]
        result.total_b += points["b"]
    result.unpaired_a = ranking_a[paired:]
    result.unpaired_b = ranking_b[paired:]
    result.total_a += 2 * len(result.unpaired_a)
    result.total_b += 2 * len(result.unpaired_b)
    if result.total_a != result.total_b:
        result.stronger = "a" if result.total_a > result.total_b else "b"
        result.penalty_points = abs(result.total_a - result.total_b)
    if spending is not None:
        keys = ("break_points", "hero_points", "reductions")
        if set(spending) - set(keys) or any(not isinstance(spending.get(k, 0), int) or spending.get(k, 0) < 0
                                            for k in keys):
            raise MatchupError("spending takes whole numbers for break_points, hero_points and reductions")
        if sum(spending.get(k, 0) for k in keys) != result.penalty_points:
            raise MatchupError(f"the Penalty Points spent must add up to {result.penalty_points}")
        result.spending = {k: spending.get(k, 0) for k in keys}
    return result


# --- War Ain't Fair ------------------------------------------------------------------------------------

def waf_activation_dice(a: Force, b: Force) -> dict:
    """Units on both sides; the larger force's count minus 2 is the base; each side adjusts by its nation
    (and +1 if every unit is elite). Shown with its working."""
    count = {"a": sum(1 for _ in a.all_units()), "b": sum(1 for _ in b.all_units())}
    base = max(count.values()) - 2
    out: dict[str, Any] = {"units": count, "base": base, "sides": {}}
    for side, force in (("a", a), ("b", b)):
        units = list(force.all_units())
        nation = force.handbook.activation_modifier or 0
        elite = 1 if units and all(u.unit.morale_level == "elite" for u in units) else 0
        dice = max(base + nation + elite, 0)
        working = f"{max(count.values())} units in the larger force − 2 = {base}; nation {nation:+d}"
        if elite:
            working += "; all elite +1"
        out["sides"][side] = {"nation": force.handbook.nation_name or force.handbook.nation, "nation_modifier": nation,
                              "all_elite_bonus": elite, "dice": dice, "working": f"{working} → {dice}"}
    dice_of = {s: out["sides"][s]["dice"] for s in SIDES}
    out["fewer_dice"] = None if dice_of["a"] == dice_of["b"] else min(SIDES, key=dice_of.__getitem__)
    return out


# --- Flames of War ----------------------------------------------------------------------------------------

def fow_matchup(a: Force, b: Force, report_a, report_b) -> dict:
    """Side-by-side figures; in Reserves missions each side may start 60% of its agreed points on the table."""
    sides = {}
    for side, force, report in (("a", a, report_a), ("b", b, report_b)):
        sides[side] = {"points": report.total_points, "points_limit": force.points_limit,
                       "reserves_on_table_max": report.figures.get("reserves_on_table_max"),
                       "formations": report.figures.get("formations"), "game_units": report.figures.get("game_units"),
                       "units_bought": report.figures.get("purchases"), "teams": report.figures.get("teams"),
                       "support_points": sum(report.unit_points.get(u.pointer, 0) for u in force.support),
                       "card_points": report.card_points,
                       "forces": _fow_forces(force, report)}
    on_table = {s: sides[s]["reserves_on_table_max"] or 0 for s in SIDES}
    more = None if on_table["a"] == on_table["b"] else max(SIDES, key=on_table.__getitem__)
    difference = {key: (sides["a"].get(key) or 0) - (sides["b"].get(key) or 0) for key in FOW_COMPARED}
    return {"sides": sides, "more_on_table_in_reserves": more, "difference": difference}


# the figures a Flames of War match-up compares (force A less force B)
FOW_COMPARED = ("points", "formations", "units_bought", "game_units", "teams", "reserves_on_table_max",
                "support_points", "card_points")


def _fow_forces(force: Force, report) -> list[dict]:
    """Each formation (and the support) with its points and its units' points and teams, in list order."""
    def unit_row(unit: ForceUnit) -> dict:
        teams = unit.teams if unit.selection is None else report.figures.get("unit_teams", {}).get(unit.pointer, 0)
        return {"pointer": unit.pointer, "name": unit.unit.name, "points": report.unit_points.get(unit.pointer, 0),
                "teams": teams}

    out = [{"pointer": f.pointer, "name": f.formation.name, "allied": f.allied,
            "points": report.formation_points.get(f.pointer, sum(report.unit_points.get(u.pointer, 0)
                                                                 for u in f.units)),
            "units": [unit_row(u) for u in f.units]} for f in force.formations]
    if force.support:
        out.append({"pointer": "/support", "name": "Support", "allied": False,
                    "points": sum(report.unit_points.get(u.pointer, 0) for u in force.support),
                    "units": [unit_row(u) for u in force.support]})
    return out


# --- each system's match-up tools, with the keyword arguments armybuilder.lists.matchups.tools passes ---------
# (forces: a, b; reports: report_a, report_b; answers: the players' recorded answers)

def hof_parity_procedure(a: Force, b: Force, *, answers: dict) -> dict | None:
    """The Force Parity Procedure from the players' recorded answers; None until both rankings are given."""
    if not answers.get("ranking_a") or not answers.get("ranking_b"):
        return None
    return hof_parity(a, b, ranking_a=answers["ranking_a"], ranking_b=answers["ranking_b"],
                      judgements=answers.get("judgements") or [], spending=answers.get("spending")).as_dict()


def oww2_order_cards(a: Force, b: Force, report_a, report_b) -> dict:
    """Each side's first hand of order cards (the nation's base + 1 per unit), read from its own check's figures,
    and which side draws more."""
    sides = {}
    for side, force, report in (("a", a, report_a), ("b", b, report_b)):
        figures = report.figures
        sides[side] = {"nation": force.handbook.nation_name or force.handbook.nation,
                       "base": figures.get("order_cards_base", 0), "units": figures.get("units", 0),
                       "unit_limit": figures.get("unit_limit"),
                       "first_hand": figures.get("order_cards_first_hand", 0),
                       # an off-table unit's card comes only once the Observation Post has called it
                       "first_hand_off_table": figures.get("order_cards_first_hand_off_table", 0),
                       "off_table_units": figures.get("off_table_units", 0),
                       "wait_actions": figures.get("wait_actions", 0)}
    hands = {s: sides[s]["first_hand"] for s in SIDES}
    more = None if hands["a"] == hands["b"] else max(SIDES, key=hands.__getitem__)
    return {"sides": sides, "more_cards": more, "difference": abs(hands["a"] - hands["b"])}


WAF_CARD_SPACING_INCHES = 4  # no card within this of an enemy card already placed


def waf_setup(a: Force, b: Force) -> dict:
    """Hidden set-up: each side's face-down cards, one per set-up letter (a platoon's, or a company's that
    covers its platoons without a letter of their own), plus the dummies. Outflanking cards wait off the
    table; which ones, and on which flank, stays with their owner, so only their number is given."""
    sides: dict[str, dict[str, Any]] = {}
    for side, force in (("a", a), ("b", b)):
        cards, without = [], []
        for formation in force.formations:
            if formation.letter:
                cards.append({"letter": formation.letter.upper(), "name": formation.formation.name,
                              "pointer": formation.pointer})
            for unit in formation.units:
                if unit.letter:
                    cards.append({"letter": unit.letter.upper(), "name": unit.unit.name, "pointer": unit.pointer})
                elif not formation.letter:
                    without.append({"name": unit.unit.name, "pointer": unit.pointer})
        for unit in force.support:
            if unit.letter:
                cards.append({"letter": unit.letter.upper(), "name": unit.unit.name, "pointer": unit.pointer})
            else:
                without.append({"name": unit.unit.name, "pointer": unit.pointer})
        letters = [card["letter"] for card in cards]
        outflanking = sum(1 for unit in force.all_units() if unit.outflank)
        sides[side] = {"cards": sorted(cards, key=lambda card: (card["letter"], card["pointer"])),
                       "real_cards": len(cards), "dummy_cards": waf.DUMMY_CARDS, "outflanking": outflanking,
                       "face_down_on_table": max(len(cards) - outflanking, 0) + waf.DUMMY_CARDS,
                       "without_letter": without,
                       "repeated_letters": sorted({x for x in letters if letters.count(x) > 1})}
    on_table = {s: sides[s]["face_down_on_table"] for s in SIDES}
    more = None if on_table["a"] == on_table["b"] else max(SIDES, key=on_table.__getitem__)
    return {"sides": sides, "more_cards_on_table": more, "card_spacing_inches": WAF_CARD_SPACING_INCHES,
            "max_outflanking": waf.MAX_OUTFLANK}
