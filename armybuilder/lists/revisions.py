"""Book updates explained: what moving a list to a newer revision of its book changes for that list.

A changed data file becomes revision N+1 of its book (handbooks/services.py); a list stays on the
revision it was built on until its player moves it. ``revision_update`` works out, for one list, the
document it would have on the new revision and what changes on the way: the points of each unit that
moves up or down, and every formation, unit, size, option or card the new revision no longer offers (it
is dropped). It reads game data through the same ``Catalog`` as the list format's resolver, so it is
plain Python over documents; ``revision_update_for`` is the database-facing selector.
"""
import copy
from dataclasses import dataclass, field

from armybuilder.lists.listjson import resolve_force
from armybuilder.rules import check
from handbooks.models import Handbook

from .selectors import DbCatalog, army_list_document

MAX_ROUNDS = 40  # each round drops at least one thing; a list holds far fewer than this many layers


class RevisionError(Exception):
    """The list cannot be moved to that revision automatically (the reason says why)."""


@dataclass(frozen=True)
class PointsChange:
    pointer: str  # where the unit is on the new revision
    name: str
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before

    def as_dict(self) -> dict:
        return {"pointer": self.pointer, "name": self.name, "before": self.before, "after": self.after,
                "delta": self.delta}


@dataclass(frozen=True)
class Removal:
    kind: str  # formation | unit | size | option | card | choice
    name: str
    where: str  # the pointer it had in the list before the update
    reason: str

    def as_dict(self) -> dict:
        return {"kind": self.kind, "name": self.name, "pointer": self.where, "reason": self.reason}


@dataclass
class RevisionUpdate:
    book_name: str
    from_revision: int
    to_revision: int
    points_before: int
    points_after: int
    changes: list = field(default_factory=list)  # PointsChange
    removed: list = field(default_factory=list)  # Removal
    card_points_before: int = 0
    card_points_after: int = 0
    document: dict = field(default_factory=dict, repr=False)

    @property
    def delta(self) -> int:
        return self.points_after - self.points_before

    @property
    def summary(self) -> str:
        parts = []
        up = sum(1 for c in self.changes if c.delta > 0)
        down = sum(1 for c in self.changes if c.delta < 0)
        if up:
            parts.append(f"{up} unit{'s' if up != 1 else ''} dearer")
        if down:
            parts.append(f"{down} unit{'s' if down != 1 else ''} cheaper")
        if self.removed:
            parts.append(f"{len(self.removed)} removed")
        return ", ".join(parts) or "no change for this list"

    def as_dict(self) -> dict:
        return {"book": self.book_name, "from_revision": self.from_revision, "to_revision": self.to_revision,
                "points_before": self.points_before, "points_after": self.points_after, "delta": self.delta,
                "card_points_before": self.card_points_before, "card_points_after": self.card_points_after,
                "summary": self.summary, "changes": [c.as_dict() for c in self.changes],
                "removed": [r.as_dict() for r in self.removed]}


def _segments(pointer: str) -> list[str]:
    return [p for p in pointer.split("/") if p != ""]


def _index(text: str) -> int | None:
    return int(text) if text.isdigit() else None


class _Move:
    """The working copy of a document on its way to the new revision, remembering where everything was."""

    def __init__(self, doc: dict, names: dict):
        self.doc = copy.deepcopy(doc)
        self.names = names  # original pointer -> name (from the list as it is)
        self.origin: dict[int, str] = {}  # id(dict in the copy) -> its pointer in the original document
        for i, formation in enumerate(self.doc.get("formations", [])):
            self.origin[id(formation)] = f"/formations/{i}"
            for j, unit in enumerate(formation.get("units", [])):
                self.origin[id(unit)] = f"/formations/{i}/units/{j}"
        for j, unit in enumerate(self.doc.get("support", [])):
            self.origin[id(unit)] = f"/support/{j}"
        for k, card in enumerate(self.doc.get("cards", [])):
            self.origin[id(card)] = f"/cards/{k}"
        self.removed: list[Removal] = []

    def name_of(self, obj: dict) -> str:
        return self.names.get(self.origin.get(id(obj), ""), "")

    def remove(self, kind: str, obj: dict, reason: str) -> None:
        self.removed.append(Removal(kind, self.name_of(obj) or obj.get(kind if kind != "option" else "upgrade", ""),
                                    self.origin.get(id(obj), ""), reason))

    def pointers(self) -> dict[int, str]:
        now = {}
        for i, formation in enumerate(self.doc.get("formations", [])):
            now[id(formation)] = f"/formations/{i}"
            for j, unit in enumerate(formation.get("units", [])):
                now[id(unit)] = f"/formations/{i}/units/{j}"
        for j, unit in enumerate(self.doc.get("support", [])):
            now[id(unit)] = f"/support/{j}"
        return now

    def unit_at(self, segs: list[str]) -> dict | None:
        if segs[0] == "support" and len(segs) > 1 and _index(segs[1]) is not None:
            items = self.doc.get("support", [])
            return items[int(segs[1])] if int(segs[1]) < len(items) else None
        if segs[0] == "formations" and len(segs) > 3 and segs[2] == "units" and _index(segs[1]) is not None \
                and _index(segs[3]) is not None:
            formations = self.doc.get("formations", [])
            if int(segs[1]) < len(formations):
                units = formations[int(segs[1])].get("units", [])
                return units[int(segs[3])] if int(segs[3]) < len(units) else None
        return None

    def drop_round(self, problems: list) -> None:
        """Drop what each problem names; then fix the pointers of what is left (card targets, parents)."""
        before = self.pointers()
        gone: set[int] = set()
        for problem in problems:
            segs = _segments(problem.pointer)
            reason = problem.message
            if not segs or segs[0] in ("handbook", "system"):
                raise RevisionError(f"the list cannot be moved: {reason}")
            head = segs[0]
            if head == "cards" and len(segs) > 1 and _index(segs[1]) is not None:
                cards = self.doc.get("cards", [])
                if int(segs[1]) < len(cards) and id(cards[int(segs[1])]) not in gone:
                    gone.add(id(cards[int(segs[1])]))
                    self.remove("card", cards[int(segs[1])], reason)
                continue
            if head == "selections" and len(segs) > 1 and _index(segs[1]) is not None:
                chosen = self.doc.get("selections", [])
                if int(segs[1]) < len(chosen) and id(chosen[int(segs[1])]) not in gone:
                    gone.add(id(chosen[int(segs[1])]))
                    self.removed.append(Removal("choice", "a choice of the force", problem.pointer, reason))
                continue
            unit = self.unit_at(segs)
            if unit is not None:
                rest = segs[4:] if head == "formations" else segs[2:]
                if rest[:1] == ["size"]:
                    where = self.origin.get(id(unit), "")
                    size = self.names.get(f"{where}/size", unit.get("size"))
                    self.removed.append(Removal("size", f"{self.name_of(unit)}: {size}", where, reason))
                    unit["size"] = None
                elif rest[:1] == ["upgrades"] and len(rest) > 1 and _index(rest[1]) is not None:
                    upgrades = unit.get("upgrades", [])
                    if int(rest[1]) < len(upgrades):
                        item = upgrades[int(rest[1])]
                        if id(item) not in gone:
                            gone.add(id(item))
                            where = self.origin.get(id(unit), "")
                            option = self.names.get(f"{where}/upgrades/{item['upgrade']}", item["upgrade"])
                            self.removed.append(Removal("option", f"{self.name_of(unit)}: {option}", where, reason))
                elif id(unit) not in gone:
                    gone.add(id(unit))
                    self.remove("unit", unit, reason)
                continue
            if head == "formations" and len(segs) > 1 and _index(segs[1]) is not None:
                formations = self.doc.get("formations", [])
                if int(segs[1]) < len(formations) and id(formations[int(segs[1])]) not in gone:
                    gone.add(id(formations[int(segs[1])]))
                    self.remove("formation", formations[int(segs[1])], reason)
                continue
            raise RevisionError(f"the list cannot be moved: {problem}")
        self._apply(gone, before)

    def _apply(self, gone: set[int], before: dict[int, str]) -> None:
        doc = self.doc
        for formation in doc.get("formations", []):
            for unit in formation.get("units", []):
                if unit.get("upgrades"):
                    unit["upgrades"] = [u for u in unit["upgrades"] if id(u) not in gone]
            formation["units"] = [u for u in formation.get("units", []) if id(u) not in gone]
        for unit in doc.get("support", []):
            if unit.get("upgrades"):
                unit["upgrades"] = [u for u in unit["upgrades"] if id(u) not in gone]
        doc["support"] = [u for u in doc.get("support", []) if id(u) not in gone]
        if doc.get("selections"):
            doc["selections"] = [s for s in doc["selections"] if id(s) not in gone]
        # A formation bought with a dropped formation's options goes with it.
        while True:
            kept = [f for f in doc.get("formations", []) if id(f) not in gone]
            by_old = {before[id(f)]: f for f in doc.get("formations", []) if id(f) in before}
            orphans = [f for f in kept if "parent" in f and id(by_old.get(f["parent"], {})) in gone]
            if not orphans:
                break
            for orphan in orphans:
                gone.add(id(orphan))
                self.remove("formation", orphan, "it was bought with the options of a formation that was dropped")
        by_old = {before[id(f)]: f for f in doc.get("formations", []) if id(f) in before}
        doc["formations"] = [f for f in doc.get("formations", []) if id(f) not in gone]
        after = self.pointers()
        moved = {old: after[key] for key, old in before.items() if key in after}
        for formation in doc["formations"]:
            if "parent" in formation:
                formation["parent"] = after[id(by_old[formation["parent"]])]
        cards = []
        for card in doc.get("cards", []):
            if id(card) in gone:
                continue
            if card.get("target") is not None:
                if card["target"] not in moved:
                    self.remove("card", card, "what it was given to is no longer in the list")
                    continue
                card["target"] = moved[card["target"]]
            cards.append(card)
        doc["cards"] = cards


def _names(force) -> dict:
    """Pointer -> the name a player knows it by (and "<unit>/size", "<unit>/upgrades/<code>" for its parts)."""
    names = {}
    for formation in force.formations:
        names[formation.pointer] = formation.custom_name or formation.formation.name
    for unit in force.all_units():
        names[unit.pointer] = unit.custom_name or unit.unit.name
        if unit.size is not None:
            names[f"{unit.pointer}/size"] = unit.size.label
        for chosen in unit.upgrades:
            names[f"{unit.pointer}/upgrades/{chosen.upgrade.code}"] = chosen.upgrade.name
    for card in force.cards:
        names[card.pointer] = card.card.name
    return names


def revision_update(doc: dict, to_revision: int, catalog) -> RevisionUpdate:
    """What moving ``doc`` to ``to_revision`` of its book changes (RevisionError if it cannot be done)."""
    old_force, problems = resolve_force(doc, catalog)
    if old_force is None:
        raise RevisionError(f"the list does not read on its own revision: {problems[0]}")
    old_report = check(old_force)
    code, from_revision = doc["handbook"]["code"], doc["handbook"]["revision"]
    move = _Move(doc, _names(old_force))
    move.doc["handbook"] = {"code": code, "revision": to_revision}
    for formation in move.doc.get("formations", []):  # formations of the same book named with their revision
        if formation.get("handbook", {}).get("code") == code:
            formation["handbook"] = {"code": code, "revision": to_revision}
    new_force = None
    for _ in range(MAX_ROUNDS):
        new_force, problems = resolve_force(move.doc, catalog)
        if new_force is not None:
            break
        move.drop_round(problems)
    if new_force is None:
        raise RevisionError("the list could not be fitted to the new revision")
    new_report = check(new_force)
    changes = []
    now = move.pointers()
    for key, old_pointer in move.origin.items():
        new_pointer = now.get(key)
        if new_pointer is None or ("/units/" not in new_pointer and not new_pointer.startswith("/support/")):
            continue
        before = old_report.unit_points.get(old_pointer, 0)
        after = new_report.unit_points.get(new_pointer, 0)
        if before != after:
            changes.append(PointsChange(new_pointer, move.names.get(old_pointer, ""), before, after))
    changes.sort(key=lambda c: (c.pointer.startswith("/support"), [int(p) if p.isdigit() else p
                                                                   for p in _segments(c.pointer)]))
    return RevisionUpdate(book_name=new_force.handbook.name, from_revision=from_revision, to_revision=to_revision,
                          points_before=old_report.total_points, points_after=new_report.total_points,
                          changes=changes, removed=move.removed, card_points_before=old_report.card_points,
                          card_points_after=new_report.card_points, document=move.doc)


# -- reads from the database ------------------------------------------------------------------------------------
def newer_revision(army_list) -> Handbook | None:
    """The current revision of the list's book when it is newer than the list's (one query; none when the list was
    read with the key of that revision, selectors.army_list_get_for_user's ``newer_revision``, on the revision it is
    on now, and there is none)."""
    if getattr(army_list, "newer_revision_of", None) == army_list.handbook_id:
        if army_list.newer_revision_pk is None:
            return None
        return Handbook.objects.filter(pk=army_list.newer_revision_pk).only("pk", "revision", "name").first()
    return (Handbook.objects.filter(system_id=army_list.system_id, code=army_list.handbook.code, is_current=True,
                                    revision__gt=army_list.handbook.revision).only("pk", "revision", "name").first())


def revision_update_for(army_list, *, revision: int | None = None) -> RevisionUpdate | None:
    """The update report for moving a list to ``revision`` (default: the newest), or None when none is newer."""
    if revision is None:
        newer = newer_revision(army_list)
        if newer is None:
            return None
        revision = newer.revision
    elif revision <= army_list.handbook.revision:
        raise RevisionError(f"revision {revision} is not newer than the list's ({army_list.handbook.revision})")
    elif not Handbook.objects.filter(system_id=army_list.system_id, code=army_list.handbook.code,
                                     revision=revision).exists():
        raise RevisionError(f"{army_list.handbook.name} has no revision {revision}")
    return revision_update(army_list_document(army_list), revision, DbCatalog())
