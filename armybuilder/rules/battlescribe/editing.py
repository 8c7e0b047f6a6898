"""Changing the selections of a list on imported books, the way BattleScribe does: pure functions over
a Force, for the list services.

* :func:`set_number` changes how many of an entry are chosen under one selection (0 removes it); a
  choice in a pick-one group replaces the one already made there; what a new choice needs (its own
  compulsory entries) is chosen with it, the cheapest way.
* :func:`completed` fills a selection's unmet minimums (a unit picked in a box gets its default size
  and compulsory options).
* :func:`card_place` finds where a command card goes under what it is given to.

Selections are edited as plain dicts (``{"entry", "number", "selections"}``); a location inside a
holder is the list of child indices from the holder down.
"""
from __future__ import annotations

import copy
import dataclasses

from ..force import Force
from . import kept
from .catalogue import Catalogue, Entry, GroupSlot, Layout, Slot
from .evaluate import Evaluation
from .force_tree import force_roster
from .offers import _cheapest_for, group_limit, offers
from .tree import ForceScope, Sel, SelectionData

MAX_STEPS = 200  # choices one edit may add; a catalogue that needs more is broken


class EditError(ValueError):
    """The change makes no sense here (an entry not offered at that place, a location that is not there)."""


def _data(doc: dict) -> SelectionData:
    return SelectionData.from_dict(doc)


def _one(doc: dict | list) -> SelectionData:
    """The one selection a unit or a card is made through."""
    if not isinstance(doc, dict):
        raise EditError("a unit or a card is one selection (an object), not a list of them")
    return _data(doc)


def with_selection(force: Force, pointer: str, doc: dict | list) -> Force:
    """The force with the selection at ``pointer`` (a unit, formation, card or "" for the force) replaced:
    a dict ``{"entry", "selections"}`` for a unit or card, a list of selections for a formation or the force."""
    if pointer == "":
        return dataclasses.replace(force, selections=tuple(_data(d) for d in doc))
    formations = list(force.formations)
    for i, formation in enumerate(formations):
        if formation.pointer == pointer:
            formations[i] = dataclasses.replace(formation, selections=tuple(_data(d) for d in doc))
            return dataclasses.replace(force, formations=tuple(formations))
        units = list(formation.units)
        for j, unit in enumerate(units):
            if unit.pointer == pointer:
                units[j] = dataclasses.replace(unit, selection=_one(doc))
                formations[i] = dataclasses.replace(formation, units=tuple(units))
                return dataclasses.replace(force, formations=tuple(formations))
    support = list(force.support)
    for j, unit in enumerate(support):
        if unit.pointer == pointer:
            support[j] = dataclasses.replace(unit, selection=_one(doc))
            return dataclasses.replace(force, support=tuple(support))
    cards = list(force.cards)
    for j, card in enumerate(cards):
        if card.pointer == pointer:
            cards[j] = dataclasses.replace(card, selection=_one(doc))
            return dataclasses.replace(force, cards=tuple(cards))
    raise EditError(f"nothing at {pointer!r} in this list")


def _children(doc: dict | list) -> list:
    return doc if isinstance(doc, list) else doc.setdefault("selections", [])


def _node_at(doc: dict | list, at: tuple) -> dict | list:
    node = doc
    for index in at:
        kids = _children(node)
        if not isinstance(index, int) or not 0 <= index < len(kids):
            raise EditError(f"no selection at {list(at)}")
        node = kids[index]
    return node


def _pointer_of(holder_pointer: str, at: tuple) -> str:
    if holder_pointer == "":
        return f"/selections/{at[0]}" + "".join(f"/selections/{i}" for i in at[1:]) if at else ""
    return holder_pointer + "".join(f"/selections/{i}" for i in at)


def _evaluate(force: Force):
    built = force_roster(force)
    return built, Evaluation(built.roster)


def _container(built, pointer: str):
    """The bound selection (or force) a pointer names."""
    if pointer == "":
        return built.main
    for scope in built.roster.all_forces():
        for sel in scope.walk():
            if sel.ref == pointer:
                return sel
    raise EditError(f"nothing at {pointer!r} in this list")


def _inside(pointer: str, node) -> bool:
    if isinstance(node, ForceScope):
        return pointer == ""
    ref = str(node.ref or "")
    if pointer == "":
        return ref.startswith("/selections/")
    return ref == pointer or ref.startswith(pointer + "/selections/")


def completed(force: Force, pointer: str, doc: dict | list, *, points: str, skip_roles: tuple = ("unit",)
              ) -> dict | list:
    """``doc`` (the selection at ``pointer``) with every unmet minimum inside it filled, the cheapest way.
    Slots whose entries are ``skip_roles`` (units in a formation's boxes: the player picks them) are left."""
    return _fill(force, pointer, copy.deepcopy(doc), (), points, skip_roles)


def _fill(force: Force, pointer: str, doc, at: tuple, points: str, skip_roles: tuple = ()):
    """Fill the unmet minimums inside the selection at ``at`` of the holder at ``pointer``, and nothing else."""
    inner = _pointer_of(pointer, at)

    def wanted(v) -> bool:
        return _inside(inner, v.at) and not _all_roles(v.slot, skip_roles)

    for _ in range(MAX_STEPS):
        edited = with_selection(force, pointer, doc)
        built, evaluation = _evaluate(edited)
        # The first unmet minimum only (the evaluator stops there), as the whole check would list it first.
        v = evaluation.first_unmet_minimum(wanted)
        if v is None:
            # Nothing more to fill: this is the force as it will be saved, evaluated and not changed since; the
            # check of the saved list may take it (kept.take) rather than evaluate it again.
            kept.keep(edited, built, evaluation)
            break
        slot = _default_for(evaluation, v) or _cheapest_for(evaluation, v, v.at, points)
        if slot is None:
            break
        kids = _children(_node_at(doc, _location(pointer, v.at)))
        same = next((k for k in kids if k.get("entry") == slot.path), None)
        if same is not None:
            same["number"] = int(same.get("number", 1)) + 1
        else:
            kids.append({"entry": slot.path})
    return doc


def allied_force_choices(force: Force, pointer: str, doc: list, *, points: str) -> list:
    """``doc`` (an allied formation's choices) with what its own force needs at the root added, the cheapest
    way (the data's default first): BattleScribe holds an ally as a force of its own."""
    doc = copy.deepcopy(doc)
    for _ in range(MAX_STEPS):
        built, evaluation = _evaluate(with_selection(force, pointer, doc))
        root = built.formations.get(pointer)
        if root is None or root.force is built.main:
            return doc
        unmet = [v for v in evaluation.violations() if v.kind == "min" and v.at is root.force and v.slot is not None
                 and not _all_roles(v.slot, ("formation", "unit", "card"))]
        if not unmet:
            return doc
        slot = _default_for(evaluation, unmet[0]) or _cheapest_for(evaluation, unmet[0], root.force, points)
        if slot is None or slot.entry.role in ("formation", "unit"):
            return doc
        doc.append({"entry": slot.path})
    return doc


def _default_for(evaluation: Evaluation, v) -> Slot | None:
    """The data's default choice of a group with an unmet minimum (its ``defaultSelectionEntryId``), when it is
    offered there and not full: BattleScribe selects it first, so the player starts from the data's default."""
    group = v.slot
    if not isinstance(group, GroupSlot) or not group.entry.default:
        return None
    default = group.entry.default
    for offer in offers(evaluation, v.at):
        slot = offer.slot
        if slot not in group.slots or offer.hidden or not (slot.entry.id == default or default in slot.links):
            continue
        if offer.limit.high is not None and offer.chosen >= offer.limit.high:
            return None
        return slot
    return None


def _all_roles(slot, roles: tuple) -> bool:
    if not roles:
        return False
    slots = slot.slots if isinstance(slot, GroupSlot) else [slot]
    return bool(slots) and all(s.entry.role in roles for s in slots)


def _location(pointer: str, node) -> tuple:
    if isinstance(node, ForceScope):
        return ()
    ref = str(node.ref or "")
    rest = ref[len(pointer):] if pointer else ref
    parts = [p for p in rest.split("/") if p]
    return tuple(int(p) for p in parts[1::2])


def set_number(force: Force, pointer: str, doc: dict | list, at: tuple, entry: str, number: int, *,
               points: str) -> dict | list:
    """``doc`` with ``number`` of ``entry`` chosen under the selection at ``at`` (0 removes it)."""
    if not 0 <= number <= 10_000:
        raise EditError("a number is between 0 and 10000")
    doc = copy.deepcopy(doc)
    built, evaluation = _evaluate(with_selection(force, pointer, doc))
    parent = _container(built, _pointer_of(pointer, at))
    cat = _catalogue(parent)
    layout = cat.root_layout() if isinstance(parent, ForceScope) else cat.layout(parent.entry)
    slot = layout.find(entry)
    if slot is None:
        where = "the force" if isinstance(parent, ForceScope) else evaluation.name(parent)
        raise EditError(f"{where} offers no {entry!r}")
    kids = _children(_node_at(doc, at))
    index = next((i for i, k in enumerate(kids) if layout.find(str(k.get("entry"))) is slot), None)
    if number == 0:
        if index is not None:
            del kids[index]
        return doc
    if index is not None:
        kids[index]["number"] = number
        kids[index]["entry"] = slot.path
        return doc
    if slot.groups:  # a pick-one group: the new choice replaces the one made there
        group = slot.groups[-1]
        limit = group_limit(evaluation, group, parent)
        if limit.high == 1:
            members = {id(s) for s in group.slots}
            kids[:] = [k for k in kids if id(layout.find(str(k.get("entry")))) not in members]
    kids.append({"entry": slot.path, **({"number": number} if number != 1 else {})})
    new_at = (*at, len(kids) - 1)
    return _fill(force, pointer, doc, new_at, points)


def _catalogue(node) -> Catalogue:
    return node.catalogue if isinstance(node, ForceScope) else node.force.catalogue


def card_place(catalogue: Catalogue, holder: Entry | None, card_entry: str, max_depth: int = 3
               ) -> tuple[tuple, str] | None:
    """Where a card entry can be chosen under a holder (its target's entry, or None for the force): the
    entries on the way (``via``) and its own path there, nearest first."""
    layout = catalogue.root_layout() if holder is None else catalogue.layout(holder)
    frontier: list[tuple[tuple, Layout]] = [((), layout)]
    for _ in range(max_depth):
        nxt: list[tuple[tuple, Layout]] = []
        for via, lay in frontier:
            for slot in lay.slots:
                if slot.entry.id == card_entry or slot.path == card_entry:
                    return via, slot.path
            for slot in lay.slots:
                if slot.entry.role not in ("unit", "formation"):
                    nxt.append(((*via, slot.path), catalogue.layout(slot.entry)))
        frontier = nxt
    return None


def unit_slot(catalogue: Catalogue, formation_entry: Entry | None, entry_id: str, place: str) -> Slot | None:
    """The slot a unit entry is picked through in a box (``place``: the box's group or lone-entry path)."""
    layout = catalogue.root_layout() if formation_entry is None else catalogue.layout(formation_entry)
    for slot in layout.slots:
        if slot.entry.id == entry_id and (slot.path == place or (slot.groups and slot.groups[0].path == place)):
            return slot
    hits = [s for s in layout.slots if s.entry.id == entry_id]
    return hits[0] if len(hits) == 1 else None


__all__ = ["EditError", "allied_force_choices", "card_place", "completed", "offers", "set_number", "unit_slot",
           "with_selection", "Sel"]
