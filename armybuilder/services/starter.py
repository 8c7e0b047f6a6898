"""A starter list: the cheapest legal force for one formation of a book.

Books imported from BattleScribe use the evaluator's cheapest completion
(:func:`armybuilder.interchange.battlescribe.cheapest.cheapest_list`: at each unmet minimum the cheapest
visible choice, a quantity minimum met by repeating that one cheapest choice, never a spread of distinct
options). Authored books are filled the same way from their diagrams: each box's minimum with its
cheapest unit, size and compulsory options, repeated as often as the minimum asks. The result is checked
by the rules engine like any list; it is saved only when the engine calls it legal.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from armybuilder.interchange.battlescribe.cheapest import cheapest_list
from armybuilder.lists.catalog import handbook_data
from armybuilder.lists.listjson.document import ListDocumentError, ListProblem
from armybuilder.lists.selectors import list_document_report
from armybuilder.lists.services import army_list_import
from armybuilder.rules.data import HandbookData


@dataclass
class Starter:
    document: dict | None
    legal: bool
    points: float = 0
    problems: list[str] = field(default_factory=list)


def _unit_price(unit, size) -> tuple[float, list]:
    """The unit at this size with the cheapest upgrades its compulsory groups need: (points, upgrades)."""
    points, chosen = size.points, []
    for group in unit.groups:
        if group.min_choices <= 0:
            continue
        priced = sorted(group.upgrades, key=lambda u: (u.points * (size.teams if u.cost_basis == "team" else 1),
                                                       u.code))
        for upgrade in priced[:group.min_choices]:
            points += upgrade.points * (size.teams if upgrade.cost_basis == "team" else 1)
            chosen.append({"upgrade": upgrade.code, "quantity": 1})
    return points, chosen


def _cheapest_unit(book: HandbookData, box, variant: str | None):
    best = None
    for choice in box.choices:
        if choice.unit is None or (choice.variants and variant not in choice.variants):
            continue
        unit = book.units.get(choice.unit)
        if unit is None:
            continue
        for size in unit.sizes:
            if size.variants and variant not in size.variants:
                continue
            price, upgrades = _unit_price(unit, size)
            key = (price + choice.option_cost, unit.code, size.code)
            if best is None or key < best[0]:
                best = (key, {"box": box.code, "unit": unit.code, "size": size.code, "upgrades": upgrades})
    return best[1] if best else None


def authored_starter(book: HandbookData, formation_code: str) -> dict:
    formation = book.formations[formation_code]
    units = []
    for box in formation.boxes:
        if box.min_picks <= 0:
            continue
        pick = _cheapest_unit(book, box, None)
        if pick is not None:
            units += [dict(pick, upgrades=list(pick["upgrades"])) for _ in range(box.min_picks)]
    if not units:  # no compulsory box (Hail of Fire): a force still needs a unit, the cheapest on offer
        picks = [p for p in (_cheapest_unit(book, box, None) for box in formation.boxes if box.max_picks) if p]
        if picks:
            units.append(min(picks, key=lambda p: (_unit_price(book.units[p["unit"]], next(
                z for z in book.units[p["unit"]].sizes if z.code == p["size"]))[0], p["unit"])))
    return {"format": "armybuilder-list", "version": 1, "name": f"{formation.name} (cheapest)"[:120],
            "system": book.system, "handbook": {"code": book.code, "revision": book.revision},
            "points_limit": None, "variant": None, "year": None, "notes": "",
            "formations": [{"formation": formation_code, "allied": False, "units": units}], "support": [],
            "cards": []}


def starter_for(*, handbook, formation_code: str) -> Starter:
    """The cheapest force of one formation, checked (nothing is saved)."""
    book = handbook_data(handbook.pk)
    if formation_code not in book.formations:
        return Starter(None, False, problems=[f"{formation_code!r} is not a formation of {book.name}"])
    if book.catalogue is not None:
        result = cheapest_list(book, formation_code)
        doc, problems = result.document, list(result.problems)
    else:
        doc, problems = authored_starter(book, formation_code), []
    if doc is None:
        return Starter(None, False, problems=problems or ["no cheapest force could be found"])
    try:
        _force, report = list_document_report(doc)
    except ListDocumentError as exc:
        return Starter(doc, False, problems=[str(p) for p in exc.problems])
    problems += [issue.message for issue in report.errors]
    return Starter(doc, report.legal, report.total_points, problems)


def army_list_start_cheapest(*, handbook, formation_code: str, owner=None, session_key: str = "",
                             points_limit: int | None = None):
    """Save the cheapest legal force of the formation as a new list (with ``points_limit``, or its own cost when
    that is more); ListDocumentError says why there is none."""
    starter = starter_for(handbook=handbook, formation_code=formation_code)
    if not starter.legal:
        raise ListDocumentError([ListProblem("", "no legal force of this formation could be built from its "
                                                 "cheapest choices: " + "; ".join(starter.problems[:5]))])
    doc = dict(starter.document)
    if handbook.system.uses_points:
        doc["points_limit"] = max(points_limit or 0, 1, int(-(-starter.points // 1)))
    return army_list_import(doc=doc, owner=owner, session_key=session_key)
