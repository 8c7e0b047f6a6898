"""Version 1 documents of lists on books imported from BattleScribe: their units named a size and options
(the flattened rows); version 2 holds the selections themselves. Reading an old file places each of those
codes where the book's data offers its entry, under the unit or under a choice already placed, and then
fills what the data requires the cheapest way (a model-count unit's default models). What cannot be
placed is a problem with its pointer, never a guess."""
from __future__ import annotations

from armybuilder.rules.battlescribe import editing
from armybuilder.rules.battlescribe.catalogue import Catalogue, Entry
from armybuilder.rules.data import BoxData, FormationData, UnitData

from .document import ListProblem

MAX_DEPTH = 6


def _entry_of(extra: dict, code: str) -> str:
    bs = extra.get("bs", {}) if isinstance(extra, dict) else {}
    return str(bs.get("entry") or code)


def _place(catalogue: Catalogue, holder: Entry, selections: list, entry_id: str, number: int) -> bool:
    """Put ``entry_id`` under the holder, or under a selection already made in it (breadth first)."""
    frontier = [(holder, selections)]
    for _ in range(MAX_DEPTH):
        nxt = []
        for entry, kids in frontier:
            layout = catalogue.layout(entry)
            slot = next((s for s in layout.slots if s.entry.id == entry_id), None)
            if slot is not None:
                same = next((k for k in kids if k["entry"] == slot.path), None)
                if same is not None:
                    same["number"] = same.get("number", 1) + number
                else:
                    kids.append({"entry": slot.path, "number": number, "selections": []})
                return True
            for kid in kids:
                child = layout.find(kid["entry"])
                if child is not None:
                    nxt.append((child.entry, kid.setdefault("selections", [])))
        frontier = nxt
    return False


def unit_selection(doc: dict, pointer: str, catalogue: Catalogue, formation: FormationData | None, box: BoxData,
                   unit: UnitData, problems: list) -> dict | None:
    """The version-2 selection of a version-1 unit: {"entry", "selections"}, or None with problems."""
    root = catalogue.root_layout()
    holder_layout = root
    if formation is not None:
        formation_slot = root.find(str(formation.extra.get("bs", {}).get("path") or formation.code))
        if formation_slot is None:
            problems.append(ListProblem(pointer, f"{formation.name} is not in the book's data"))
            return None
        holder_layout = catalogue.layout(formation_slot.entry)
    place = str(box.extra.get("bs", {}).get("id") or box.code)
    entry_id = _entry_of(unit.extra, unit.code)
    slot = next((s for s in holder_layout.slots if s.entry.id == entry_id
                 and (s.path == place or (s.groups and s.groups[0].path == place))), None)
    slot = slot or next((s for s in holder_layout.slots if s.entry.id == entry_id), None)
    if slot is None:
        problems.append(ListProblem(pointer, f"{unit.name} is not offered in '{box.name}' by the book's data"))
        return None
    selections: list = []
    size = unit.size(doc.get("size")) if doc.get("size") else None
    models = 0
    if size is not None and not size.extra.get("bs", {}).get("single"):
        models = int(size.extra.get("bs", {}).get("models") or 0)
        if not models and not _place(catalogue, slot.entry, selections, _entry_of(size.extra, size.code), 1):
            problems.append(ListProblem(pointer + "/size", f"{unit.name}: the size '{size.label}' cannot be placed"))
    for index, item in enumerate(doc.get("upgrades", [])):
        upgrade = unit.upgrade(item["upgrade"])
        if upgrade is None or not _place(catalogue, slot.entry, selections, _entry_of(upgrade.extra, upgrade.code),
                                         int(item.get("quantity", 1))):
            problems.append(ListProblem(f"{pointer}/upgrades/{index}", f"{unit.name}: the option "
                                        f"'{item['upgrade']}' cannot be placed in the book's data"))
    if models:  # a size counted in teams: the teams no option names are the group's default model
        _fill_models(catalogue, slot.entry, selections, models)
    return {"entry": slot.path, "selections": selections}


def _fill_models(catalogue: Catalogue, unit_entry: Entry, selections: list, models: int) -> None:
    layout = catalogue.layout(unit_entry)
    for group in layout.groups:
        if not group.slots or any(s.entry.type != "model" for s in group.slots):
            continue
        paths = {s.path for s in group.slots}
        have = sum(k.get("number", 1) for k in selections if k["entry"] in paths)
        if have >= models:
            return
        default = next((s for s in group.slots if group.entry.default in (s.entry.id, s.path)), None)
        default = default or min(group.slots, key=lambda s: catalogue.costs(s.entry).get(catalogue.points, 0))
        same = next((k for k in selections if k["entry"] == default.path), None)
        if same is not None:
            same["number"] = same.get("number", 1) + models - have
        else:
            selections.append({"entry": default.path, "number": models - have, "selections": []})
        return


def card_place(catalogue: Catalogue, card, target, formations: list) -> tuple | None:
    """(via, entry path) of a version-1 card under its target (a resolved ForceUnit or ForceFormation, or None
    for the force), the nearest place the data offers it."""
    root = catalogue.root_layout()

    def formation_entry(formation):
        slot = root.find(str(formation.formation.extra.get("bs", {}).get("path") or formation.formation.code))
        return slot.entry if slot is not None else None

    holder = None
    if target is not None:
        if getattr(target, "units", None) is not None:  # a formation
            holder = formation_entry(target)
        elif target.formation_index is None:  # force-level support
            slot = root.find(target.selection.entry)
            holder = slot.entry if slot is not None else None
        else:
            parent = next((f for f in formations if f.index == target.formation_index), None)
            parent_entry = formation_entry(parent) if parent is not None else None
            slot = catalogue.layout(parent_entry).find(target.selection.entry) if parent_entry else None
            holder = slot.entry if slot is not None else None
        if holder is None:
            return None
    return editing.card_place(catalogue, holder, _entry_of(card.extra, card.code))
