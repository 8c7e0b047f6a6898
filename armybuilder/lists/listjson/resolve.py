"""Resolve a schema-valid list document against game data into the engine's Force.

Game data comes through a ``Catalog`` (any object with ``handbook(system, code,
revision)`` and ``revisions(system, code)``), so this module stays free of the ORM.
"""
from typing import Protocol

from armybuilder.rules.battlescribe.catalogue import CatalogueError
from armybuilder.rules.battlescribe.force_tree import force_roster
from armybuilder.rules.battlescribe.tree import SelectionData
from armybuilder.rules.data import HandbookData
from armybuilder.rules.force import Force, ForceCard, ForceFormation, ForceUnit, ForceUpgrade

from . import legacy
from .document import ListDocumentError, ListProblem, validate_list_document


class Catalog(Protocol):
    def handbook(self, system: str, code: str, revision: int) -> HandbookData | None: ...

    def revisions(self, system: str, code: str) -> list[int]: ...


def _handbook(catalog: Catalog, system: str, ref: dict, pointer: str, problems: list) -> HandbookData | None:
    data = catalog.handbook(system, ref["code"], ref["revision"])
    if data is None:
        known = catalog.revisions(system, ref["code"])
        detail = (f"known revisions: {', '.join(map(str, known))}" if known
                  else f"no handbook '{ref['code']}' is loaded for {system}")
        problems.append(ListProblem(pointer, f"unknown handbook '{ref['code']}' revision {ref['revision']} ({detail})"))
    return data


def _unit(doc: dict, pointer: str, handbook: HandbookData, formation_index, problems, formation=None
          ) -> ForceUnit | None:
    box = handbook.boxes.get(doc["box"])
    unit = handbook.units.get(doc["unit"])
    if box is None:
        problems.append(ListProblem(pointer + "/box", f"unknown box '{doc['box']}' in {handbook.name}"))
    if unit is None:
        problems.append(ListProblem(pointer + "/unit", f"unknown unit '{doc['unit']}' in {handbook.name}"))
    if box is None or unit is None:
        return None
    if handbook.catalogue is not None:
        return _imported_unit(doc, pointer, box, unit, formation_index, problems, handbook, formation)
    size = None
    if doc.get("size") is not None:
        size = unit.size(doc["size"])
        if size is None:
            problems.append(ListProblem(pointer + "/size", f"{unit.name} has no size '{doc['size']}' "
                                        f"(sizes: {', '.join(s.code for s in unit.sizes)})"))
    upgrades = []
    for index, item in enumerate(doc.get("upgrades", [])):
        upgrade = unit.upgrade(item["upgrade"])
        if upgrade is None:
            problems.append(ListProblem(f"{pointer}/upgrades/{index}/upgrade",
                                        f"{unit.name} has no option '{item['upgrade']}'"))
            continue
        upgrades.append(ForceUpgrade(upgrade, item.get("quantity", 1)))
    return ForceUnit(pointer=pointer, box=box, unit=unit, size=size, upgrades=tuple(upgrades),
                     formation_index=formation_index, letter=doc.get("letter", ""), outflank=doc.get("outflank", ""),
                     custom_name=doc.get("custom_name", ""), notes=doc.get("notes", ""))


def selections(items) -> tuple:
    return tuple(SelectionData.from_dict(item) for item in items or ())


def _imported_unit(doc: dict, pointer: str, box, unit, formation_index, problems, handbook=None,
                   formation=None) -> ForceUnit | None:
    """A unit of a book imported from BattleScribe: its entry path and selections are the list. A version-1
    unit (a size and options) is placed into selections where the data offers them."""
    if "entry" not in doc:
        doc = {**doc, **(legacy.unit_selection(doc, pointer, handbook.catalogue, formation, box, unit, problems)
                         or {"entry": ""})}
        if not doc["entry"]:
            return None
    return ForceUnit(pointer=pointer, box=box, unit=unit, formation_index=formation_index,
                     letter=doc.get("letter", ""), outflank=doc.get("outflank", ""),
                     selection=SelectionData(entry=doc["entry"], children=selections(doc.get("selections"))),
                     custom_name=doc.get("custom_name", ""), notes=doc.get("notes", ""))


def _bind_imported(force: Force, problems: list) -> None:
    """Every selection must be something the data offers where it is: bind the tree once."""
    if force.handbook.catalogue is None:
        return
    try:
        built = force_roster(force)
    except CatalogueError as exc:
        problems.append(ListProblem("/handbook", f"the book's BattleScribe data cannot be read ({exc})"))
        return
    problems.extend(ListProblem(p.pointer, p.message) for p in built.problems)


def resolve_document(doc, catalog: Catalog) -> Force:
    """A list document as a Force: checked against the schema first, then resolved against the game data.
    ListDocumentError holds every problem of the first step that found any (nothing is resolved from a document
    the schema refuses)."""
    problems = validate_list_document(doc)
    if problems:
        raise ListDocumentError(problems)
    force, problems = resolve_force(doc, catalog)
    if force is None or problems:
        raise ListDocumentError(problems)
    return force


def resolve_force(doc: dict, catalog: Catalog) -> tuple[Force | None, list[ListProblem]]:
    """A Force, or None with every reference that could not be resolved."""
    problems: list[ListProblem] = []
    system = doc["system"]
    handbook = _handbook(catalog, system, doc["handbook"], "/handbook", problems)
    if handbook is None:
        return None, problems
    if handbook.system != system:
        problems.append(ListProblem("/system", f"the handbook is for {handbook.system}, not {system}"))

    formations = []
    for index, item in enumerate(doc.get("formations", [])):
        pointer = f"/formations/{index}"
        book = handbook
        if "handbook" in item:
            book = _handbook(catalog, system, item["handbook"], pointer + "/handbook", problems)
            if book is None:
                continue
        formation = book.formations.get(item["formation"])
        if formation is None:
            problems.append(ListProblem(pointer + "/formation",
                                        f"unknown formation '{item['formation']}' in {book.name}"))
            continue
        units = []
        for u_index, unit_doc in enumerate(item.get("units", [])):
            unit = _unit(unit_doc, f"{pointer}/units/{u_index}", book, index, problems, formation)
            if unit is not None:
                units.append(unit)
        parent_index = None
        if "parent" in item:
            parent_index = int(item["parent"].rsplit("/", 1)[1])
            if parent_index >= index:
                problems.append(ListProblem(pointer + "/parent", "a parent must be an earlier formation in the list"))
        via_box = None
        if "via_box" in item:
            via_box = book.boxes.get(item["via_box"])
            if via_box is None:
                problems.append(ListProblem(pointer + "/via_box", f"unknown box '{item['via_box']}' in {book.name}"))
        formations.append(ForceFormation(pointer=pointer, index=index, handbook=book, formation=formation,
                                         allied=item.get("allied", False), units=tuple(units),
                                         parent_index=parent_index, via_box=via_box, letter=item.get("letter", ""),
                                         selections=selections(item.get("selections")),
                                         custom_name=item.get("custom_name", ""), notes=item.get("notes", "")))
    support = []
    for index, unit_doc in enumerate(doc.get("support", [])):
        unit = _unit(unit_doc, f"/support/{index}", handbook, None, problems)
        if unit is not None:
            support.append(unit)

    targets = {f.pointer: f for f in formations}
    for formation in formations:
        targets.update({u.pointer: u for u in formation.units})
    targets.update({u.pointer: u for u in support})
    cards = []
    for index, item in enumerate(doc.get("cards", [])):
        pointer = f"/cards/{index}"
        card = handbook.cards.get(item["card"])
        if card is None:
            problems.append(ListProblem(pointer + "/card", f"unknown command card '{item['card']}' in {handbook.name}"))
            continue
        target_pointer = item.get("target")
        target = None
        if target_pointer is not None:
            target = targets.get(target_pointer)
            if target is None:
                problems.append(ListProblem(pointer + "/target",
                                            f"'{target_pointer}' is not a formation or unit of this list"))
                continue
        selection = None
        if handbook.catalogue is not None:
            if "entry" not in item:  # a version-1 card: where the data offers it under its target
                placed = legacy.card_place(handbook.catalogue, card, target, formations)
                if placed is None:
                    problems.append(ListProblem(pointer, f"{card.name} is not offered there by the book's data"))
                    continue
                item = {**item, "via": list(placed[0]), "entry": placed[1]}
            selection = SelectionData(entry=item["entry"], number=item.get("number", 1),
                                      children=selections(item.get("selections")))
        cards.append(ForceCard(pointer=pointer, card=card, target_pointer=target_pointer, target=target,
                               selection=selection, via=tuple(item.get("via") or ())))

    if problems:
        return None, problems
    force = Force(system=system, handbook=handbook, name=doc["name"], points_limit=doc.get("points_limit"),
                  variant=doc.get("variant") or None, year=doc.get("year"), formations=tuple(formations),
                  support=tuple(support), cards=tuple(cards), selections=selections(doc.get("selections")))
    _bind_imported(force, problems)
    if problems:
        return None, problems
    return force, []
