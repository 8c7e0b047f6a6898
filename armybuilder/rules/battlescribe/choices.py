"""What a player chooses between, worked out from the data: entries that only group alternatives
("10.5cm Gun or 15cm Armoured Artillery Battery" holds a pick-one "Type" group of two batteries), and the
cheapest price a choice can be bought at once its own compulsory choices are made (the builder's "from").

Pure functions over a :class:`Catalogue`; prices are kept per catalogue (a handbook revision never changes).
"""
from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass

from .catalogue import Catalogue, Entry, GroupSlot, Slot, teams_in_name
from .evaluate import Evaluation
from .offers import complete
from .tree import bind_draft

CARD = "card"


@dataclass(frozen=True, slots=True)
class Alternative:
    """One of the alternatives a container entry groups: chosen under the container through ``slot``."""

    slot: Slot
    group: GroupSlot

    @property
    def path(self) -> str:
        return self.slot.path

    @property
    def name(self) -> str:
        return self.slot.entry.name


def _parent_limit(catalogue: Catalogue, entry: Entry, kind: str) -> float | None:
    values = [c.get("value", 0) for c in catalogue.constraints(entry)
              if c.get("type") == kind and c.get("scope") == "parent" and c.get("field", "selections") == "selections"
              and not c.get("percent")]
    return max(values) if kind == "min" and values else (min(values) if values else None)


def alternatives(catalogue: Catalogue, entry: Entry) -> tuple[Alternative, ...]:
    """The alternatives ``entry`` only groups, or ``()`` when it is a unit of its own.

    A container holds one top-level group from which exactly one is chosen (min 1, max 1), whose every
    choice is a unit entry; beside it there may be nothing else to choose but command cards.
    """
    layout = catalogue.layout(entry)
    tops = [g for g in layout.groups if g.parent is None and not _is_card_group(g)]
    if len(tops) != 1:
        return ()
    group = tops[0]
    if _parent_limit(catalogue, group.entry, "min") != 1 or _parent_limit(catalogue, group.entry, "max") != 1:
        return ()
    inside = [s for s in group.slots if s.groups and s.groups[0] is group]
    if len(inside) < 2 or any(s.entry.type != "unit" for s in inside):
        return ()
    others = [s for s in layout.slots if s not in inside and s.entry.role != CARD]
    if others:
        return ()
    return tuple(Alternative(slot=s, group=group) for s in inside)


def _is_card_group(group: GroupSlot) -> bool:
    return bool(group.slots) and all(s.entry.role == CARD for s in group.slots)


# -- the cheapest price of a choice ------------------------------------------------------------------
_prices: weakref.WeakKeyDictionary[Catalogue, dict] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def cheapest_price(catalogue: Catalogue, slot: Slot, *, parent: Slot | None = None, inside: str = "") -> float | None:
    """What the selection ``slot`` (under the root selection ``parent``, e.g. its formation, or at the root
    when None) costs at least once every minimum inside it is met the cheapest way; with ``inside`` (a
    slot path under it: an alternative of a container) that choice is made first. None: the data cannot
    complete it (a minimum nothing visible can meet). Command cards are not counted."""
    key = (parent.path if parent is not None else "", slot.path, inside)
    with _lock:
        known = _prices.setdefault(catalogue, {})
        if key in known:
            return known[key]
    price = _price(catalogue, slot, parent, inside)
    with _lock:
        known[key] = price
    return price


def _price(catalogue: Catalogue, slot: Slot, parent: Slot | None, inside: str) -> float | None:
    unit = {"entry": slot.path, "number": 1, "selections": [{"entry": inside, "number": 1}] if inside else []}
    roots = [{"entry": parent.path, "number": 1, "selections": [unit]}] if parent is not None else [unit]
    draft = {"forces": [{"catalogue": catalogue.catalogue_id, "entry": "", "selections": roots}]}
    catalogues = {catalogue.catalogue_id: catalogue}

    def bind() -> Evaluation:
        roster, _ = bind_draft(catalogues, draft)
        return Evaluation(roster)

    def within(violation) -> bool:
        node = violation.at
        while node is not None and hasattr(node, "ref"):
            if node.ref is unit:
                return True
            node = getattr(node, "parent", None)
        return False

    evaluation, done = complete(bind, points=catalogue.points, only=within)
    if not done:
        return None
    sel = next((s for s in evaluation.selections if s.ref is unit), None)
    if sel is None:
        return None
    return evaluation.subtree(sel, skip=lambda s: s.entry.role == CARD).get(catalogue.points, 0)


def size_teams(catalogue: Catalogue, entry: Entry) -> tuple[int, ...]:
    """The team counts an entry can be bought at, from its sizes: the counts its pick-one group's choices
    state ("2x 10.5cm howitzer", "4x …"), or the range of a group of models (3 to 5 tanks)."""
    layout = catalogue.layout(entry)
    for group in layout.groups:
        if group.parent is not None or _is_card_group(group):
            continue
        low = _parent_limit(catalogue, group.entry, "min")
        high = _parent_limit(catalogue, group.entry, "max")
        members = [s for s in group.slots if s.entry.role != CARD]
        stated = [teams_in_name(s.entry.name) for s in members]
        if high == 1 and members and all(stated):
            return tuple(sorted(set(stated)))
        if members and all(s.entry.type == "model" for s in members) and low and high and high > 1 and high - low < 20:
            return tuple(range(int(low), int(high) + 1))
    teams = teams_in_name(entry.name)
    return (teams,) if teams else ()
