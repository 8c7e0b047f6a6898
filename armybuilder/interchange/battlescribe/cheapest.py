"""The cheapest force the engine calls legal for a formation: a check of imported data.

Pure Python over the engine's ``HandbookData``: the formation with, for every
box that must be filled (HQ and black boxes), the cheapest unit, size and
compulsory options as BattleScribe prices them *in that formation*; nothing
else. Used by the test that walks every formation of the BSData library, and
handy as a "starter list".
"""
from __future__ import annotations

from dataclasses import dataclass, field

from armybuilder.rules import bspricing
from armybuilder.rules.force import Force, ForceCard, ForceFormation, ForceUnit, ForceUpgrade
from armybuilder.rules.gamedata import FormationData, HandbookData, UnitData, in_variant
from armybuilder.rules.report import Report


@dataclass
class CheapestResult:
    formation: FormationData
    force: Force | None
    report: Report | None
    problems: list[str] = field(default_factory=list)  # why no force could be built

    @property
    def legal(self) -> bool:
        return self.report is not None and self.report.legal and not self.problems

    def reasons(self) -> list[str]:
        if self.problems:
            return list(self.problems)
        return [f"{i.code} at {i.pointer}: {i.message}" for i in (self.report.errors if self.report else [])]


def engine_check(force: Force) -> Report:
    """The engine's report, with the BattleScribe pricing's own issues and figures
    (see :func:`armybuilder.rules.bspricing.check_force`)."""
    return bspricing.check_force(force)


def required_upgrades(unit: UnitData, variant=None) -> list[tuple]:
    """The cheapest options that satisfy every group's minimum (static points as the guide)."""
    out = []
    for group in unit.groups:
        if group.min_choices <= 0:
            continue
        options = sorted((u for u in group.upgrades if in_variant(u.variants, variant)), key=lambda u: u.points)
        out.extend(ForceUpgrade(u, 1) for u in options[: group.min_choices])
    return out


def _formation_force(handbook: HandbookData, formation: FormationData, units: list[tuple],
                     cards: list = ()) -> Force:
    pointer = "/formations/0"
    force_units = tuple(
        ForceUnit(pointer=f"{pointer}/units/{i}", box=box, unit=unit, size=size, upgrades=tuple(upgrades),
                  formation_index=0)
        for i, (box, unit, size, upgrades) in enumerate(units))
    ff = ForceFormation(pointer=pointer, index=0, handbook=handbook, formation=formation, units=force_units)
    force_cards = []
    for i, card in enumerate(cards):
        target = None
        if card.scope == "formation":
            target = ff
        elif card.scope == "unit":
            target = next((u for u in force_units if not card.target_units or u.unit.code in card.target_units), None)
        force_cards.append(ForceCard(pointer=f"/cards/{i}", card=card, target=target,
                                     target_pointer=target.pointer if target is not None else None))
    return Force(system=handbook.system, handbook=handbook, name=f"Cheapest {formation.name}", points_limit=None,
                 formations=(ff,), cards=tuple(force_cards))


def required_cards(handbook: HandbookData) -> tuple[list, list[str]]:
    """Cards the handbook's own constraints demand (e.g. "min 1 <card> per force"), and what cannot be met."""
    cards, problems = [], []
    for c in handbook.constraints:
        if not c.min_count:
            continue
        if c.target_kind != "card":
            problems.append(f"constraint {c.code} ({c.description}) needs {c.target_kind}s, which a minimal force "
                            "does not add")
            continue
        offered = sorted((handbook.cards[code] for code in c.target_codes if code in handbook.cards),
                         key=lambda card: (card.points, card.code))
        if not offered:
            problems.append(f"constraint {c.code} ({c.description}) names no card of the handbook")
            continue
        cards.extend([offered[0]] * c.min_count)
    return cards, problems


def candidates(handbook: HandbookData, box, variant=None) -> list[tuple]:
    out = []
    for choice in box.choices:
        if not choice.unit or not in_variant(choice.variants, variant):
            continue
        unit = handbook.units.get(choice.unit)
        if unit is None or not in_variant(unit.variants, variant):
            continue
        for size in unit.sizes:
            if in_variant(size.variants, variant):
                out.append((box, unit, size, required_upgrades(unit, variant), choice.max_count))
    return out


def unit_price(handbook: HandbookData, formation: FormationData, box, unit, size, upgrades) -> int:
    """What the unit costs alone in the formation, as BattleScribe prices it (static points otherwise)."""
    force = _formation_force(handbook, formation, [(box, unit, size, upgrades)])
    pricing_class = bspricing.fow.PRICING.get(handbook.source)
    if pricing_class is None:
        from armybuilder.rules.generic import unit_points

        return unit_points(force.formations[0].units[0])
    return pricing_class(force).unit(force.formations[0].units[0])


def cheapest_force(handbook: HandbookData, formation_code: str) -> CheapestResult:
    formation = handbook.formations[formation_code]
    picks: list[tuple] = []
    problems: list[str] = []
    for box in formation.boxes:
        if not box.part_of_formation or not in_variant(box.variants, None) or box.min_picks <= 0:
            continue
        priced = sorted(((unit_price(handbook, formation, b, u, s, ups), i, (b, u, s, ups, mx))
                         for i, (b, u, s, ups, mx) in enumerate(candidates(handbook, box))),
                        key=lambda t: (t[0], t[1]))
        need = box.min_picks
        for _, _, (b, u, s, ups, mx) in priced:
            if need <= 0:
                break
            take = need if mx is None else min(need, mx)
            picks.extend([(b, u, s, ups)] * take)
            need -= take
        if need > 0:
            problems.append(f"box {box.code} ({box.name!r}) needs {box.min_picks} unit(s); its choices offer "
                            f"{box.min_picks - need}")
    cards, card_problems = required_cards(handbook)
    problems += card_problems
    if problems:
        return CheapestResult(formation, None, None, problems)
    force = _formation_force(handbook, formation, picks, cards)
    return CheapestResult(formation, force, engine_check(force))
