"""A read roster (see :mod:`.roster`) as our list document (format version 2), selection for selection.

A BattleScribe roster and a list on an imported book hold the same tree, so nothing is translated
but the top: a root selection that is a formation becomes a formation of the list (its units and
cards taken out, everything else kept as its selections); a root unit is force-level support; a
card goes to the formation or unit that holds it (or the force); a root entry that only holds cards
(e.g. a "Command Cards" entry) becomes the cards' ``via``. Every other selection is kept where it
is, with its number. What cannot be placed at all (an entry the book does not offer there) is
reported with its cost, never dropped silently.

Pure Python over the engine's ``HandbookData`` (through a catalog, as for list documents).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from armybuilder.rules.battlescribe.catalogue import Catalogue, Slot
from armybuilder.systems import systems_with_mapping

from .roster import BattleScribeRosterError, _count, _keys

MAX_NUMBER = 10_000
# A roster's unit or formation with number N stands for N of them; we place that many (each is a row
# the checks count, so an over-max count is caught), up to this many, which no force reaches legally.
MAX_COPIES = 50


@dataclass
class MappedRoster:
    document: dict
    warnings: list[str] = field(default_factory=list)
    costs: dict[str, float] = field(default_factory=dict)  # the roster's own totals by cost-type name
    skipped_costs: dict[str, float] = field(default_factory=dict)  # costs of selections not imported


def relative_path(full: str, parent_full: str | None) -> str:
    """A roster entryId relative to its parent selection: BattleScribe writes the link ids traversed from
    the force root, so the parent's path without its own entry id is the prefix to drop."""
    parts = [p for p in str(full or "").split("::") if p]
    if parent_full is None:
        return "::".join(parts)
    prefix = [p for p in str(parent_full).split("::") if p][:-1]
    if prefix and parts[:len(prefix)] == prefix:
        parts = parts[len(prefix):]
    return "::".join(parts)


class _Book:
    """Where the flattened handbook keeps what each catalogue entry became (formations, units, boxes, cards)."""

    def __init__(self, hb):
        self.hb = hb
        self.catalogue: Catalogue = hb.catalogue
        self.formations: dict[str, str] = {}
        for f in hb.formations.values():
            bs = f.extra.get("bs", {}) if isinstance(f.extra, dict) else {}
            for k in (bs.get("path"), bs.get("entry"), f.code):
                if k:
                    self.formations.setdefault(k, f.code)
        self.units: dict[str, str] = {}
        for u in hb.units.values():
            bs = u.extra.get("bs", {}) if isinstance(u.extra, dict) else {}
            self.units.setdefault(u.code, u.code)
            if bs.get("entry"):
                self.units.setdefault(bs["entry"], u.code)
        self.cards: dict[str, str] = {}
        for c in hb.cards.values():
            bs = c.extra.get("bs", {}) if isinstance(c.extra, dict) else {}
            for k in (bs.get("path"), bs.get("entry"), c.code):
                if k:
                    self.cards.setdefault(k, c.code)

    def formation_of(self, slot: Slot) -> str | None:
        return self.formations.get(slot.path) or self.formations.get(slot.entry.id)

    def unit_of(self, slot: Slot) -> str | None:
        return self.units.get(slot.path) or self.units.get(slot.entry.id)

    def card_of(self, slot: Slot) -> str | None:
        return self.cards.get(slot.path) or self.cards.get(slot.entry.id)

    def box_of(self, slot: Slot, formation_code: str | None) -> str | None:
        """The diagram box a unit sits in: its outermost group under the formation, or its own slot."""
        place = slot.groups[0].path if slot.groups else slot.path
        boxes = self.hb.formations[formation_code].boxes if formation_code else self.hb.support_boxes
        for box in boxes:
            bs = box.extra.get("bs", {}) if isinstance(box.extra, dict) else {}
            if bs.get("id") == place or box.code == place:
                return box.code
        for box in boxes:  # a unit reached through another link than the box records
            if box.unit_choice(self.unit_of(slot) or ""):
                return box.code
        return None

    def is_card(self, slot: Slot) -> bool:
        return slot.entry.role == "card" or self.card_of(slot) is not None


class _Mapper:
    def __init__(self, roster: dict, catalog, systems: tuple[str, ...]):
        self.roster = roster
        self.catalog = catalog
        self.systems = systems
        self.source = roster.get("source", "roster")
        self.warnings: list[str] = []
        self.errors: list[str] = []
        self.skipped: dict[str, float] = {}

    def warn(self, where: str, message: str) -> None:
        self.warnings.append(f"{self.source}: {where}: {message}")

    def error(self, where: str, message: str) -> None:
        self.errors.append(f"{self.source}: {where}: {message}")

    def skip(self, sel: dict, where: str, why: str) -> None:
        total: dict[str, float] = {}
        stack = [sel]
        while stack:
            s = stack.pop()
            for c in s.get("costs", []):
                key = c.get("name") or c.get("typeId")
                total[key] = total.get(key, 0) + c["value"]
            stack.extend(s.get("selections", []))
        for k, v in total.items():
            self.skipped[k] = self.skipped.get(k, 0) + v
        costs = ", ".join(f"{v:g} {k}" for k, v in total.items() if v)
        self.warn(where, f"{sel.get('name') or sel.get('entryId')!r} ({sel.get('entryId')}) {why}; not imported"
                  + (f" (it costs {costs})" if costs else ""))

    # -- handbooks --------------------------------------------------------------------------
    def handbook(self, force: dict, where: str):
        code = force.get("catalogueId") or ""
        if not code:
            self.error(where, "the force names no catalogueId")
            return None, None
        wanted = str(force.get("catalogueRevision") or "")
        for system in self.systems:
            revisions = self.catalog.revisions(system, code)
            if not revisions:
                continue
            data = self.catalog.handbook(system, code, max(revisions))  # the newest import of that catalogue
            if data is not None:
                if data.catalogue is None:
                    self.error(where, f"{data.name} was not imported from BattleScribe; import its catalogue again")
                    return None, None
                have = str((data.catalogue.doc.get("catalogue") or {}).get("revision", ""))
                if wanted.isdigit() and have and wanted != have:
                    self.warn(where, f"the roster was made with revision {wanted} of {data.name}; the imported "
                              f"catalogue is revision {have}, so prices and limits may differ")
                return data, system
        self.error(where, f"catalogue {code!r} ({force.get('catalogueName', '?')}) is not imported; import its "
                   "BattleScribe data first (python manage.py import_battlescribe)")
        return None, None

    def points_limit(self, hb) -> int | None:
        pts = hb.catalogue.points
        for c in self.roster.get("costLimits", []):
            if c.get("typeId") == pts and c["value"] > 0:
                return int(min(c["value"], 100000))
        return None

    def map(self) -> MappedRoster:
        forces = self.roster.get("forces", [])
        if not forces:
            raise BattleScribeRosterError([f"{self.source}: the roster has no forces"])
        main, system = self.handbook(forces[0], "/roster/forces/0")
        if main is None:
            raise BattleScribeRosterError(self.errors)
        self.doc = {"format": "armybuilder-list", "version": 2,
                    "name": (self.roster.get("name") or "Imported roster").strip()[:120] or "Imported roster",
                    "system": system, "handbook": {"code": main.code, "revision": main.revision},
                    "points_limit": self.points_limit(main), "variant": None, "year": None, "notes": "",
                    "formations": [], "support": [], "cards": []}
        self.system, self.main = system, main
        self.force(forces[0], main, "/roster/forces/0", allied=False)
        pending = [(f, f"/roster/forces/{i}") for i, f in enumerate(forces[1:], start=1)]
        pending += [(f, f"/roster/forces/0/forces/{i}") for i, f in enumerate(forces[0].get("forces", []))]
        while pending:
            f, where = pending.pop(0)
            data, fsystem = self.handbook(f, where)
            if data is not None and fsystem != system:
                self.error(where, f"force from another game system ({fsystem}); not imported")
            elif data is not None:
                self.force(f, data, where, allied=True)
            pending += [(sub, f"{where}/forces/{i}") for i, sub in enumerate(f.get("forces", []))]
        if self.errors:
            raise BattleScribeRosterError(self.errors)
        costs = {}
        for c in self.roster.get("costs", []):
            costs[c.get("name") or c.get("typeId")] = c["value"]
        return MappedRoster(self.doc, self.warnings, costs, self.skipped)

    # -- selections -----------------------------------------------------------------------------
    def subtree(self, sel: dict, parent_full: str, layout_of, where: str) -> list[dict]:
        """The children of ``sel`` as our selections: bound one level at a time so that each path is made
        relative to its parent and checked against what the data offers there."""
        out = []
        for i, child in enumerate(sel.get("selections", [])):
            here = f"{where}/selections/{i}"
            slot = layout_of.find(relative_path(child.get("entryId", ""), parent_full))
            if slot is None:
                self.skip(child, here, "is not something this entry offers in the imported data")
                continue
            out.append(self.selection(child, slot, here))
        return out

    def selection(self, sel: dict, slot: Slot, where: str, holder: str | None = None, chain: tuple = ()) -> dict:
        """A selection and what is under it; inside a unit (``holder``), a card further down becomes a card of
        that unit, ``via`` the selections on the way (``chain``)."""
        number = _count(sel)
        doc: dict = {"entry": slot.path}
        if number != 1:
            doc["number"] = max(1, min(number, MAX_NUMBER))
        layout = self.book.catalogue.layout(slot.entry)
        kids = []
        for i, child in enumerate(sel.get("selections", [])):
            here = f"{where}/selections/{i}"
            cslot = layout.find(relative_path(child.get("entryId", ""), sel.get("entryId", "")))
            if cslot is None:
                self.skip(child, here, "is not something this entry offers in the imported data")
            elif holder is not None and self.book.is_card(cslot) and self.book.card_of(cslot) is not None:
                self.card(child, cslot, holder, (*chain, slot.path), here)
            else:
                kids.append(self.selection(child, cslot, here, holder, (*chain, slot.path) if holder else ()))
        if kids:
            doc["selections"] = kids
        return doc

    def force(self, force: dict, hb, where: str, allied: bool) -> None:
        self.book = book = _Book(hb)
        root = book.catalogue.root_layout()
        for i, sel in enumerate(force.get("selections", [])):
            here = f"{where}/selections/{i}"
            slot = root.find(relative_path(sel.get("entryId", ""), None))
            if slot is None:
                self.skip(sel, here, "is not an entry of this book's force")
                continue
            formation_code = book.formation_of(slot)
            if formation_code is not None:
                for _ in range(self.copies(sel, here, "formation")):
                    self.formation(sel, slot, formation_code, here, allied)
            elif allied:
                self.skip(sel, here, "is not a formation (an allied force holds formations only here)")
            elif book.unit_of(slot) is not None and not book.is_card(slot):
                for _ in range(self.copies(sel, here, "unit")):
                    unit = self.unit(sel, slot, None, here, f"/support/{len(self.doc['support'])}")
                    if unit is None:
                        break
                    self.doc["support"].append(unit)
            elif book.is_card(slot) and book.card_of(slot) is not None:
                self.card(sel, slot, None, (), here)
            else:
                self.force_choice(sel, slot, here)

    def force_choice(self, sel: dict, slot: Slot, where: str) -> None:
        """A root entry that is no formation, unit or card (e.g. a "Command Cards" entry holding cards, or a
        system's game options): kept as the force's own choice; cards inside it become the force's cards,
        ``via`` it."""
        layout = self.book.catalogue.layout(slot.entry)
        doc: dict = {"entry": slot.path}
        if _count(sel) != 1:
            doc["number"] = max(1, min(_count(sel), MAX_NUMBER))
        kids = []
        for i, child in enumerate(sel.get("selections", [])):
            here = f"{where}/selections/{i}"
            cslot = layout.find(relative_path(child.get("entryId", ""), sel.get("entryId", "")))
            if cslot is None:
                self.skip(child, here, f"is not something {sel.get('name')!r} offers in the imported data")
            elif self.book.is_card(cslot) and self.book.card_of(cslot) is not None:
                self.card(child, cslot, None, (slot.path,), here)
            else:
                kids.append(self.selection(child, cslot, here))
        if kids:
            doc["selections"] = kids
        self.doc.setdefault("selections", []).append(doc)

    def formation(self, sel: dict, slot: Slot, code: str, where: str, allied: bool) -> None:
        hb = self.book.hb
        pointer = f"/formations/{len(self.doc['formations'])}"
        fdoc: dict = {"formation": code}
        if hb.code != self.main.code or hb.revision != self.main.revision:
            fdoc["handbook"] = {"code": hb.code, "revision": hb.revision}
        fdoc["allied"] = allied
        _named(fdoc, sel)
        self.doc["formations"].append(fdoc)
        layout = self.book.catalogue.layout(slot.entry)
        options: list[dict] = []
        units: list[dict] = []
        for i, child in enumerate(sel.get("selections", [])):
            here = f"{where}/selections/{i}"
            cslot = layout.find(relative_path(child.get("entryId", ""), sel.get("entryId", "")))
            if cslot is None:
                self.skip(child, here, f"is not something {sel.get('name')!r} offers in the imported data")
                continue
            if self.book.is_card(cslot):
                self.card(child, cslot, pointer, (), here)
            elif cslot.entry.role == "unit" or (self.book.unit_of(cslot) and self.book.box_of(cslot, code)):
                for _ in range(self.copies(child, here, "unit")):
                    unit = self.unit(child, cslot, code, here, f"{pointer}/units/{len(units)}", full_parent=sel)
                    if unit is None:
                        break
                    units.append(unit)
            else:
                options.append(self.selection(child, cslot, here))
        if options:
            fdoc["selections"] = options
        fdoc["units"] = units

    def unit(self, sel: dict, slot: Slot, formation_code: str | None, where: str, pointer: str,
             full_parent: dict | None = None) -> dict | None:
        unit_code = self.book.unit_of(slot)
        box = self.book.box_of(slot, formation_code)
        if unit_code is None or box is None:
            self.skip(sel, where, "is a unit our diagrams of this book do not place")
            return None
        layout = self.book.catalogue.layout(slot.entry)
        kids = []
        for i, child in enumerate(sel.get("selections", [])):
            here = f"{where}/selections/{i}"
            cslot = layout.find(relative_path(child.get("entryId", ""), sel.get("entryId", "")))
            if cslot is None:
                self.skip(child, here, f"is not an option {sel.get('name')!r} offers in the imported data")
                continue
            if self.book.is_card(cslot) and self.book.card_of(cslot) is not None:
                self.card(child, cslot, pointer, (), here)
                continue
            kids.append(self.selection(child, cslot, here, holder=pointer))
        return _named({"box": box, "unit": unit_code, "entry": slot.path, "selections": kids}, sel)

    def copies(self, sel: dict, where: str, what: str) -> int:
        """How many of a unit or formation a selection stands for."""
        number = _count(sel)
        if number > MAX_COPIES:
            self.warn(where, f"number {number} of a {what} is read as {MAX_COPIES}")
            return MAX_COPIES
        return max(1, number)

    def card(self, sel: dict, slot: Slot, target: str | None, via: tuple, where: str) -> None:
        code = self.book.card_of(slot)
        if code is None:
            self.skip(sel, where, "is a card this book's data does not list")
            return
        doc: dict = {"card": code}
        if target:
            doc["target"] = target
        doc["entry"] = slot.path
        if _count(sel) != 1:
            doc["number"] = max(1, min(_count(sel), 100))
        if via:
            doc["via"] = list(via)
        kids = self.subtree(sel, sel.get("entryId", ""), self.book.catalogue.layout(slot.entry), where)
        if kids:
            doc["selections"] = kids
        self.doc["cards"].append(doc)


def _named(doc: dict, sel: dict) -> dict:
    """BattleScribe's customName and customNotes become the list's own name and notes (docs/list-format.md)."""
    name = " ".join(str(sel.get("customName") or "").split())[:120]
    notes = str(sel.get("customNotes") or "").strip()[:2000]
    if name:
        doc["custom_name"] = name
    if notes:
        doc["notes"] = notes
    return doc


def roster_to_document(roster: dict, catalog, *, systems: tuple[str, ...] | None = None) -> MappedRoster:
    """Map a roster (as read by :func:`.roster.read_roster_bytes`) onto our list document.

    ``catalog`` is any object with ``handbook(system, code, revision)`` and ``revisions(system, code)``
    (e.g. ``armybuilder.lists.selectors.DbCatalog``); ``systems`` are the game-system codes to look
    the roster's catalogues up in (by default those with a BattleScribe mapping). Raises
    :class:`BattleScribeRosterError` when the roster cannot be mapped at all; selections the book does not offer
    where they sit become ``warnings`` with their cost.
    """
    if not isinstance(roster, dict):
        raise BattleScribeRosterError(["a roster is an object"])
    if systems is None:
        systems = tuple(s.code for s in systems_with_mapping())
    return _Mapper(roster, catalog, tuple(systems)).map()


__all__ = ["MappedRoster", "relative_path", "roster_to_document", "_keys"]
