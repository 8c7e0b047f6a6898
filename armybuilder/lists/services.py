"""Writes: every change a builder, the API, an import or a test makes to a list.

Each operation takes ``expected_version``: the version the caller last saw.
The version is bumped with one conditional UPDATE, so of two tabs editing the
same list the stale one fails with ``StaleListError`` and changes nothing.
"""
import dataclasses
import re
import uuid

from django.db import transaction
from django.db.models import F, Max

from armybuilder.lists.listjson import resolve_document
from armybuilder.lists.listjson.document import ListDocumentError, ListProblem
from armybuilder.rules.battlescribe import editing
from armybuilder.rules.battlescribe.catalogue import CatalogueError
from armybuilder.rules.battlescribe.choices import alternatives
from armybuilder.rules.battlescribe.force_tree import force_roster
from armybuilder.rules.battlescribe.tree import SelectionData
from armybuilder.rules.force import ForceCard, ForceFormation, ForceUnit
from handbooks import models as hb

from .catalog import handbook_data
from .errors import ListOperationError
from .history import HISTORY_LIMIT, history_baseline, history_entry, history_record
from .models import ArmyList, ListCard, ListFormation, ListUnit, ListUpgrade
from .pointers import PointerError, list_object_at, pointer_of
from .revisions import RevisionError, revision_update_for
from .selectors import (
    DbCatalog,
    army_list_document,
    army_list_document_kept,
    army_list_force,
    list_card_doc,
    list_formation_doc,
    list_unit_doc,
)


class StaleListError(Exception):
    """The list changed since the caller last saw it."""

    def __init__(self, current_version: int):
        self.current_version = current_version
        super().__init__(f"The list was changed elsewhere (now version {current_version}); reload it first.")


class ListGoneError(StaleListError):
    """The list was deleted since the caller last saw it."""

    def __init__(self):
        super().__init__(0)
        self.args = ("The list was deleted elsewhere.",)


def _bump(army_list: ArmyList, expected_version: int | None, **fields) -> None:
    """Move the list to its next version (StaleListError when it is not at ``expected_version``). ``fields``: the
    list's own columns the change sets, written in the same UPDATE (the object keeps its old values: the caller
    sets them once the change is made, so a history baseline taken here is the state before)."""
    query = ArmyList.objects.filter(pk=army_list.pk)
    if expected_version is not None:
        query = query.filter(version=expected_version)
    if not query.update(version=F("version") + 1, **fields):
        current = ArmyList.objects.filter(pk=army_list.pk).values_list("version", flat=True).first()
        if current is None:
            raise ListGoneError()
        raise StaleListError(current)
    if expected_version is not None:
        army_list.version = expected_version + 1  # the update matched exactly that version
    else:
        army_list.version = ArmyList.objects.values_list("version", flat=True).get(pk=army_list.pk)
    history_baseline(army_list, army_list.version - 1)  # only the version moved so far: this is the state before


def _next_order(queryset) -> int:
    return (queryset.aggregate(n=Max("order"))["n"] or 0) + 1


# -- the history entry's document, without reading the list again --------------------------------------------------
# A change's history entry holds the list's document after it. Reading it back costs the list's rows again (three or
# four queries); a change the builder makes starts from the version it drew, whose document this process keeps
# (selectors._DOCUMENTS), so the entry's document is that one with the change made to it the way the rows were
# changed. The keys go in the order army_list_document writes them; any case an edit cannot say falls back to the
# read. tests/lists/history/test_edited_documents.py holds each against the document read back.
_FORMATION_KEYS = ("formation", "handbook", "allied", "letter", "parent", "via_box", "selections", "custom_name",
                   "notes", "units")
_UNIT_KEYS = ("box", "unit", "entry", "selections", "size", "upgrades", "letter", "outflank", "custom_name", "notes")
_POINTER = re.compile(r"/(formations)/(\d+)(?:/units/(\d+))?|/(support|cards)/(\d+)")


class _CannotSay(Exception):
    """The edit cannot work the document out from what it has: read it."""


def _record(army_list: ArmyList, what: str, expected_version: int | None, edit, **kwargs) -> None:
    """history_record with the document after the change: the one kept for ``expected_version`` with ``edit``
    applied to it (in place), or, when none is kept or the edit cannot say, read again."""
    doc = army_list_document_kept(army_list, expected_version)
    if doc is not None:
        try:
            edit(doc)
        except (_CannotSay, LookupError, ValueError, TypeError):
            doc = None
    history_record(army_list, what, document=doc, written=doc is not None, **kwargs)


def _found(obj) -> str:
    """The pointer a formation, unit or card was found at in this request (pointers.found_at)."""
    pointer = getattr(obj, "_found_at", None)
    if pointer is None:
        raise _CannotSay
    return pointer


def _at(doc: dict, pointer: str) -> dict:
    """The formation, unit or card document at ``pointer`` ("" or "/": the list's own document)."""
    if pointer in ("", "/"):
        return doc
    match = _POINTER.fullmatch(pointer)
    if match is None:
        raise _CannotSay
    if match[1]:
        formation = doc["formations"][int(match[2])]
        return formation["units"][int(match[3])] if match[3] is not None else formation
    return doc[match[4]][int(match[5])]


def _set(part: dict, keys: tuple, **values) -> None:
    """Set fields of a formation or unit document as army_list_document writes them: only when given (truthy),
    in its order of keys."""
    for key, value in values.items():
        if value:
            part[key] = value
        else:
            part.pop(key, None)
    if set(part) - set(keys):
        raise _CannotSay
    ordered = {key: part[key] for key in keys if key in part}
    part.clear()
    part.update(ordered)


def _drop(doc: dict, pointer: str) -> None:
    """Take the formation or unit at ``pointer`` out of ``doc`` as the database's cascades take it out of the list:
    a formation with its units and the formations bought with it (and theirs), and the cards given to any of
    them; the pointers after it move up."""
    match = _POINTER.fullmatch(pointer)
    if match is None or match[4] == "cards":
        raise _CannotSay
    formations = doc["formations"]
    gone, moved = set(), {}
    if match[1] and match[3] is None:
        removed = {int(match[2])}
        if int(match[2]) >= len(formations):
            raise _CannotSay
        grew = True
        while grew:
            grew = False
            for index, formation in enumerate(formations):
                parent = formation.get("parent")
                if index not in removed and parent and int(parent.rsplit("/", 1)[1]) in removed:
                    removed.add(index)
                    grew = True
        kept = [i for i in range(len(formations)) if i not in removed]
        new_index = {old: new for new, old in enumerate(kept)}

        def places(index: int, units: int) -> list[str]:
            return [f"/formations/{index}", *(f"/formations/{index}/units/{k}" for k in range(units))]

        for index, formation in enumerate(formations):
            if index in removed:
                gone.update(places(index, len(formation["units"])))
            else:
                moved.update(zip(places(index, len(formation["units"])),
                                 places(new_index[index], len(formation["units"])), strict=True))
        doc["formations"] = [formations[i] for i in kept]
        for formation in doc["formations"]:
            if formation.get("parent"):
                formation["parent"] = moved[formation["parent"]]
    else:
        prefix, units = ((f"/formations/{match[2]}/units/", formations[int(match[2])]["units"]) if match[1]
                         else ("/support/", doc["support"]))
        index = int(match[3] if match[1] else match[5])
        if index >= len(units):
            raise _CannotSay
        gone.add(pointer)
        moved.update({f"{prefix}{k}": f"{prefix}{k - 1}" for k in range(index + 1, len(units))})
        del units[index]
    doc["cards"] = [card for card in doc["cards"] if card.get("target") not in gone]
    for card in doc["cards"]:
        if card.get("target") in moved:
            card["target"] = moved[card["target"]]


def _new_unit_doc(box: hb.Box, unit: hb.UnitEntry, size: hb.SizeOption | None = None, selection=None) -> dict:
    return list_unit_doc({"box__code": box.code, "unit__code": unit.code, "size__code": size.code if size else None,
                          "selection": selection, "letter": "", "outflank": "", "custom_name": "", "notes": ""}, [])


def variant_checked(handbook: hb.Handbook, variant: str | None) -> str:
    """The variant as stored ("" for none); ListOperationError when the book has no such variant."""
    if variant and not handbook.variants.filter(code=variant).exists():
        raise ListOperationError(f"'{variant}' is not a variant of {handbook.name}")
    return variant or ""


def army_list_create(*, owner=None, session_key: str = "", handbook: hb.Handbook, name: str,
                     points_limit: int | None = None, variant: str = "", year: int | None = None) -> ArmyList:
    name = (name or "").strip() or f"{handbook.name} force"
    variant = variant_checked(handbook, variant)
    if points_limit is None and handbook.system.uses_points:
        points_limit = default_points_limit(handbook)
    army_list = ArmyList.objects.create(owner=owner, session_key=session_key if owner is None else "",
                                        name=name[:120], system=handbook.system, handbook=handbook,
                                        points_limit=points_limit, variant=variant, year=year)
    history_record(army_list, "Created the list", kind="created")
    return army_list


@transaction.atomic
def army_list_update(*, army_list: ArmyList, expected_version: int | None = None, **fields) -> ArmyList:
    allowed = {"name", "points_limit", "variant", "year", "notes", "visibility"}
    unknown = set(fields) - allowed
    if unknown:
        raise ListOperationError(f"cannot change {', '.join(sorted(unknown))}")
    if "name" in fields:
        fields["name"] = (fields["name"] or "").strip()[:120]
        if not fields["name"]:
            raise ListOperationError("a list needs a name")
    if fields.get("variant"):
        variant_checked(army_list.handbook, fields["variant"])
    if fields.get("visibility") not in (None, "private", "shared"):
        raise ListOperationError("visibility is 'private' or 'shared'")
    if fields.get("visibility") == "shared" and army_list.visibility != "shared":
        # Sharing again gives a new link: links handed out before "stop sharing" stay dead.
        fields["share_token"] = uuid.uuid4()
    _bump(army_list, expected_version, **fields)  # the fields in the version's own UPDATE
    for key, value in fields.items():
        setattr(army_list, key, value)

    def edit(doc):
        for key in ("name", "points_limit", "year", "notes"):
            if key in fields:
                doc[key] = fields[key]
        if "variant" in fields:
            doc["variant"] = fields["variant"] or None

    _record(army_list, _settings_what(army_list, fields), expected_version, edit,
            kind="sharing" if set(fields) <= {"visibility", "share_token"} else "change")
    return army_list


def _settings_what(army_list: ArmyList, fields: dict) -> str:
    parts = []
    if "name" in fields:
        parts.append(f"name “{fields['name']}”")
    if "points_limit" in fields:
        parts.append(f"points limit {fields['points_limit']}" if fields["points_limit"] else "no points limit")
    if "variant" in fields:
        # No variant chosen (the settings form sends one every time): nothing to look up.
        variant = fields["variant"] and army_list.handbook.variants.filter(code=fields["variant"]).values_list(
            "name", flat=True).first()
        parts.append(f"variant {variant}" if variant else "no variant")
    if "year" in fields:
        parts.append(f"year {fields['year']}" if fields["year"] else "no year")
    if "notes" in fields:
        parts.append("notes")
    if "visibility" in fields:
        return "Shared with a read-only link" if fields["visibility"] == "shared" else "Stopped sharing"
    return "Settings: " + ", ".join(parts) if parts else "Settings saved"


@transaction.atomic
def army_list_add_formation(*, army_list: ArmyList, formation_code: str, handbook: hb.Handbook | None = None,
                            allied: bool = False, parent: ListFormation | None = None, via_box_code: str | None = None,
                            expected_version: int | None = None) -> ListFormation:
    """Add a formation from the list's book, or (allied) from another book of the same system."""
    book = handbook or army_list.handbook
    if book.system_id != army_list.system_id:
        raise ListOperationError(f"{book.name} is not a {army_list.system.name} book")
    if book.pk != army_list.handbook_id and not allied:
        raise ListOperationError("a formation from another book can only be added as an Allied Formation")
    if book.source != army_list.handbook.source:
        raise ListOperationError(f"{book.name} is {'imported' if book.source == 'battlescribe' else 'sample'} data "
                                 f"and {army_list.handbook.name} is not: allies come from books of the same kind")
    formation = hb.Formation.objects.filter(handbook=book, code=formation_code).first()
    if formation is None:
        raise ListOperationError(f"{book.name} has no formation '{formation_code}'")
    via_box = None
    if parent is not None:
        if parent.army_list_id != army_list.pk:
            raise ListOperationError("the parent formation belongs to another list")
        via_box = hb.Box.objects.filter(formation=parent.formation, code=via_box_code).first()
        if via_box is None or not via_box.choices.filter(formation=formation).exists():
            raise ListOperationError(f"{parent.formation.name} offers no option '{formation.name}'")
    selections = _formation_choices(army_list, formation, expected_version) if book.source == "battlescribe" else []
    _bump(army_list, expected_version)
    added = ListFormation.objects.create(army_list=army_list, formation=formation, allied=allied, parent=parent,
                                         via_box=via_box, selections=selections,
                                         order=_next_order(ListFormation.objects.filter(army_list=army_list)))

    def edit(doc):
        row = {"formation__code": formation.code, "formation__handbook_id": book.pk, "allied": allied,
               "formation__handbook__code": book.code, "formation__handbook__revision": book.revision, "letter": "",
               "via_box__code": via_box.code if via_box else None, "selections": selections, "custom_name": "",
               "notes": ""}
        doc["formations"].append({**list_formation_doc(row, army_list.handbook_id,
                                                       _found(parent) if parent is not None else None), "units": []})

    _record(army_list, f"Added {'Allied Formation ' if allied else ''}{formation.name}", expected_version, edit)
    return added


@transaction.atomic
def army_list_remove_formation(*, army_list: ArmyList, list_formation: ListFormation,
                               expected_version: int | None = None) -> None:
    if list_formation.army_list_id != army_list.pk:
        raise ListOperationError("that formation belongs to another list")
    name = list_formation.custom_name or list_formation.formation.name
    _bump(army_list, expected_version)
    list_formation.delete()
    _record(army_list, f"Removed {name}", expected_version, lambda doc: _drop(doc, _found(list_formation)))


@transaction.atomic
def army_list_pick_unit(*, army_list: ArmyList, box_code: str, unit_code: str,
                        list_formation: ListFormation | None = None, size_code: str | None = None,
                        alternative: str | None = None, expected_version: int | None = None) -> ListUnit:
    """Put a unit in a box: a box of the formation, or a force-level support box of the book.

    Imported books: ``alternative`` chooses one of the alternatives an entry only groups (the "10.5cm
    Artillery Battery" of "10.5cm Gun or 15cm Armoured Artillery Battery") in the same step."""
    if list_formation is not None and list_formation.army_list_id != army_list.pk:
        raise ListOperationError("that formation belongs to another list")
    if list_formation is None:
        where = {"handbook": army_list.handbook, "formation__isnull": True}
    else:
        where = {"formation_id": list_formation.formation_id}
    # The box and its choice of the unit in one query (the box's code is unique in its book); only when there is
    # none, a second one says whether the box is missing or does not offer the unit.
    # Only the columns the pick uses (not the box's and the unit's whole rows with their ``extra`` documents); the
    # two are made as rows read with the rest deferred, so anything else asked of them is read when asked.
    choice = (hb.BoxChoice.objects.filter(unit__code=unit_code, **{f"box__{k}": v for k, v in where.items()},
                                          box__code=box_code)
              .values_list(*_PICKED_BOX, *_PICKED_UNIT).first())
    if choice is None:
        box = hb.Box.objects.filter(**where, code=box_code).first()
        if box is None:
            raise ListOperationError(f"no box '{box_code}' here")
        raise ListOperationError(f"the box '{box.name}' does not offer '{unit_code}'")
    box = _partial_row(hb.Box, dict(zip(_BOX_FIELDS, choice[:len(_PICKED_BOX)], strict=True)))
    unit = _partial_row(hb.UnitEntry, dict(zip(_UNIT_FIELDS, choice[len(_PICKED_BOX):], strict=True)))
    book = army_list.handbook if box.handbook_id == army_list.handbook_id else box.handbook
    if book.source == "battlescribe":
        selection = _unit_choices(army_list, list_formation, box, unit, alternative, expected_version)
        _bump(army_list, expected_version)
        picked = ListUnit.objects.create(army_list=army_list, list_formation=list_formation, box=box, unit=unit,
                                         selection=selection,
                                         order=_next_order(ListUnit.objects.filter(army_list=army_list,
                                                                                   list_formation=list_formation)))
        _record(army_list, f"Added {unit.name}", expected_version,
                lambda doc: _picked(doc, list_formation, _new_unit_doc(box, unit, selection=selection)))
        return picked
    sizes = list(unit.sizes.all())
    size = (next((s for s in sizes if s.code == size_code), None) if size_code
            else (sizes[0] if len(sizes) == 1 else None))
    if size_code and size is None:
        raise ListOperationError(f"{unit.name} has no size '{size_code}'")
    _bump(army_list, expected_version)
    picked = ListUnit.objects.create(army_list=army_list, list_formation=list_formation, box=box, unit=unit, size=size,
                                     order=_next_order(ListUnit.objects.filter(army_list=army_list,
                                                                               list_formation=list_formation)))
    _record(army_list, f"Added {unit.name}", expected_version,
            lambda doc: _picked(doc, list_formation, _new_unit_doc(box, unit, size=size)))
    return picked


_BOX_FIELDS = ("id", "handbook_id", "code", "name")
_UNIT_FIELDS = ("id", "code", "name")
_PICKED_BOX = tuple(f"box__{f}" for f in _BOX_FIELDS)
_PICKED_UNIT = tuple(f"unit__{f}" for f in _UNIT_FIELDS)


def _partial_row(model, values: dict):
    """A row of ``model`` as Django makes one read with only some columns (the others deferred: read when
    asked)."""
    fields = model._meta.concrete_fields
    return model.from_db(model.objects.db, [f.attname for f in fields if f.attname in values],
                         [values[f.attname] for f in fields if f.attname in values])


def _picked(doc: dict, list_formation: ListFormation | None, unit_doc: dict) -> None:
    """A unit just picked goes last in its formation (or the support): its order is one more than any there."""
    (doc["support"] if list_formation is None else _at(doc, _found(list_formation))["units"]).append(unit_doc)


@transaction.atomic
def army_list_remove_unit(*, army_list: ArmyList, list_unit: ListUnit, expected_version: int | None = None) -> None:
    if list_unit.army_list_id != army_list.pk:
        raise ListOperationError("that unit belongs to another list")
    name = list_unit.custom_name or list_unit.unit.name
    _bump(army_list, expected_version)
    list_unit.delete()
    _record(army_list, f"Removed {name}", expected_version, lambda doc: _drop(doc, _found(list_unit)))


@transaction.atomic
def army_list_set_size(*, army_list: ArmyList, list_unit: ListUnit, size_code: str,
                       expected_version: int | None = None) -> ListUnit:
    if list_unit.army_list_id != army_list.pk:
        raise ListOperationError("that unit belongs to another list")
    size = hb.SizeOption.objects.filter(unit_id=list_unit.unit_id, code=size_code).first()
    if size is None:
        raise ListOperationError(f"{list_unit.unit.name} has no size '{size_code}'")
    _bump(army_list, expected_version)
    list_unit.size = size
    ListUnit.objects.filter(pk=list_unit.pk).update(size=size)

    def edit(doc):
        part = _at(doc, _found(list_unit))
        if "size" not in part:
            raise _CannotSay
        part["size"] = size.code

    _record(army_list, f"{list_unit.unit.name}: {size.label}", expected_version, edit)
    return list_unit


@transaction.atomic
def army_list_set_upgrade(*, army_list: ArmyList, list_unit: ListUnit, upgrade_code: str, quantity: int,
                          expected_version: int | None = None) -> None:
    """Take an option (quantity ≥ 1) or drop it (quantity 0). ``upgrade_code`` is '<group>/<option>'."""
    if list_unit.army_list_id != army_list.pk:
        raise ListOperationError("that unit belongs to another list")
    group_code, _, option_code = upgrade_code.partition("/")
    upgrade = hb.Upgrade.objects.filter(group__unit_id=list_unit.unit_id, group__code=group_code,
                                        code=option_code).first()
    if upgrade is None:
        raise ListOperationError(f"{list_unit.unit.name} has no option '{upgrade_code}'")
    if quantity < 0 or quantity > 100:
        raise ListOperationError("quantity must be between 0 and 100")
    _bump(army_list, expected_version)
    if quantity == 0:
        ListUpgrade.objects.filter(list_unit=list_unit, upgrade=upgrade).delete()
        history_record(army_list, f"{list_unit.unit.name}: dropped {upgrade.name}")
    else:
        ListUpgrade.objects.update_or_create(list_unit=list_unit, upgrade=upgrade, defaults={"quantity": quantity})
        history_record(army_list, f"{list_unit.unit.name}: {upgrade.name}" + (f" ×{quantity}" if quantity > 1 else ""))


@transaction.atomic
def army_list_add_card(*, army_list: ArmyList, card_code: str, target_formation: ListFormation | None = None,
                       target_unit: ListUnit | None = None, expected_version: int | None = None) -> ListCard:
    card = hb.CommandCard.objects.filter(handbook=army_list.handbook, code=card_code).first()
    if card is None:
        raise ListOperationError(f"{army_list.handbook.name} has no command card '{card_code}'")
    for target in (target_formation, target_unit):
        if target is not None and target.army_list_id != army_list.pk:
            raise ListOperationError("the card's target belongs to another list")
    if target_formation is not None and target_unit is not None:
        raise ListOperationError("a card goes to one formation or one unit, not both")
    selection = None
    if army_list.handbook.source == "battlescribe":
        selection = _card_choices(army_list, card, target_formation or target_unit, expected_version)
    _bump(army_list, expected_version)
    added = ListCard.objects.create(army_list=army_list, card=card, target_formation=target_formation,
                                    target_unit=target_unit, selection=selection,
                                    order=_next_order(ListCard.objects.filter(army_list=army_list)))

    def edit(doc):
        target = target_formation or target_unit
        doc["cards"].append(list_card_doc({"card__code": card.code, "selection": selection},
                                          _found(target) if target is not None else None))

    _record(army_list, f"Added the card {card.name}", expected_version, edit)
    return added


@transaction.atomic
def army_list_remove_card(*, army_list: ArmyList, list_card: ListCard, expected_version: int | None = None) -> None:
    if list_card.army_list_id != army_list.pk:
        raise ListOperationError("that card belongs to another list")
    name = list_card.card.name
    _bump(army_list, expected_version)
    list_card.delete()

    def edit(doc):
        index = int(_found(list_card).removeprefix("/cards/"))
        if index >= len(doc["cards"]):
            raise _CannotSay
        del doc["cards"][index]

    _record(army_list, f"Removed the card {name}", expected_version, edit)


def army_list_import(*, doc, owner=None, session_key: str = "", name: str | None = None) -> ArmyList:
    """Create a list from a JSON document; every problem is reported at once and nothing is written on any."""
    resolve_document(doc, DbCatalog())
    return _write_document(doc, owner=owner, session_key=session_key, name=name)


def _books_of(doc: dict) -> tuple[hb.Handbook, dict]:
    system = doc["system"]
    refs = {(doc["handbook"]["code"], doc["handbook"]["revision"])}
    refs |= {(f["handbook"]["code"], f["handbook"]["revision"]) for f in doc.get("formations", []) if "handbook" in f}
    books = {(b.code, b.revision): b for b in hb.Handbook.objects.select_related("system").filter(
        system__code=system, code__in={c for c, _ in refs}) if (b.code, b.revision) in refs}
    return books[(doc["handbook"]["code"], doc["handbook"]["revision"])], books


@transaction.atomic
def _write_document(doc: dict, *, owner, session_key: str, name: str | None) -> ArmyList:
    """Write a resolved document with a fixed number of queries, whatever the list's size."""
    handbook, books = _books_of(doc)
    army_list = ArmyList.objects.create(
        owner=owner, session_key=session_key if owner is None else "", name=(name or doc["name"])[:120],
        system=handbook.system, handbook=handbook, points_limit=doc.get("points_limit"),
        variant=doc.get("variant") or "", year=doc.get("year"), notes=doc.get("notes", ""),
        selections=doc.get("selections", []),
    )
    _write_parts(army_list, doc, handbook, books)
    history_record(army_list, "Created the list" if name is None else f"Created the list as “{army_list.name}”",
                   kind="created")
    return army_list


def _write_parts(army_list: ArmyList, doc: dict, handbook: hb.Handbook, books: dict) -> None:
    """The formations, units, options and cards of a resolved document, into a list that has none."""

    def book_of(item) -> hb.Handbook:
        return books[(item["handbook"]["code"], item["handbook"]["revision"])] if "handbook" in item else handbook

    unit_docs = [(book_of(f), u) for f in doc.get("formations", []) for u in f.get("units", [])]
    unit_docs += [(handbook, u) for u in doc.get("support", [])]
    book_ids = [b.pk for b in books.values()]
    formations = {(f.handbook_id, f.code): f for f in hb.Formation.objects.filter(
        handbook_id__in=book_ids, code__in={f["formation"] for f in doc.get("formations", [])})}
    box_codes = {u["box"] for _, u in unit_docs} | {f["via_box"] for f in doc.get("formations", []) if "via_box" in f}
    boxes = {(b.handbook_id, b.code): b for b in hb.Box.objects.filter(handbook_id__in=book_ids, code__in=box_codes)}
    units = {(u.handbook_id, u.code): u for u in hb.UnitEntry.objects.filter(
        handbook_id__in=book_ids, code__in={u["unit"] for _, u in unit_docs})}
    unit_ids = [u.pk for u in units.values()]
    sizes = {(s.unit_id, s.code): s for s in hb.SizeOption.objects.filter(unit_id__in=unit_ids)}
    upgrades = {(u.group.unit_id, u.group.code, u.code): u
                for u in hb.Upgrade.objects.select_related("group").filter(group__unit_id__in=unit_ids)}
    cards = {c.code: c for c in hb.CommandCard.objects.filter(
        handbook=handbook, code__in={c["card"] for c in doc.get("cards", [])})}

    list_formations = []
    for index, item in enumerate(doc.get("formations", [])):
        book = book_of(item)
        list_formations.append(ListFormation(
            army_list=army_list, formation=formations[(book.pk, item["formation"])], allied=item.get("allied", False),
            order=index, letter=item.get("letter", ""), selections=item.get("selections", []),
            custom_name=item.get("custom_name", ""), notes=item.get("notes", ""),
            via_box=boxes[(book.pk, item["via_box"])] if "via_box" in item else None))
    ListFormation.objects.bulk_create(list_formations)
    with_parent = []
    for item, list_formation in zip(doc.get("formations", []), list_formations, strict=False):
        if "parent" in item:
            list_formation.parent = list_formations[int(item["parent"].rsplit("/", 1)[1])]
            with_parent.append(list_formation)
    if with_parent:
        ListFormation.objects.bulk_update(with_parent, ["parent"])

    by_pointer: dict[str, object] = {f"/formations/{i}": f for i, f in enumerate(list_formations)}
    list_units: list[tuple[ListUnit, dict, hb.UnitEntry]] = []

    def queue_unit(unit_doc, book, list_formation, order, pointer):
        unit = units[(book.pk, unit_doc["unit"])]
        selection = None
        if "entry" in unit_doc:
            selection = {"entry": unit_doc["entry"], "selections": unit_doc.get("selections", [])}
        size = sizes[(unit.pk, unit_doc["size"])] if unit_doc.get("size") else None
        list_unit = ListUnit(army_list=army_list, list_formation=list_formation, box=boxes[(book.pk, unit_doc["box"])],
                             unit=unit, size=size, order=order, letter=unit_doc.get("letter", ""),
                             outflank=unit_doc.get("outflank", ""), selection=selection,
                             custom_name=unit_doc.get("custom_name", ""), notes=unit_doc.get("notes", ""))
        list_units.append((list_unit, unit_doc, unit))
        by_pointer[pointer] = list_unit

    for index, item in enumerate(doc.get("formations", [])):
        for u_index, unit_doc in enumerate(item.get("units", [])):
            queue_unit(unit_doc, book_of(item), list_formations[index], u_index, f"/formations/{index}/units/{u_index}")
    for index, unit_doc in enumerate(doc.get("support", [])):
        queue_unit(unit_doc, handbook, None, index, f"/support/{index}")
    ListUnit.objects.bulk_create([lu for lu, _, _ in list_units])

    quantities: dict[tuple[int, int], int] = {}
    for list_unit, unit_doc, unit in list_units:
        for item in unit_doc.get("upgrades", []):
            group_code, _, option_code = item["upgrade"].partition("/")
            upgrade = upgrades[(unit.pk, group_code, option_code)]
            key = (list_unit.pk, upgrade.pk)  # the same option listed twice: the quantities add up
            quantities[key] = quantities.get(key, 0) + item.get("quantity", 1)
    ListUpgrade.objects.bulk_create([ListUpgrade(list_unit_id=lu, upgrade_id=up, quantity=q)
                                     for (lu, up), q in quantities.items()])

    list_cards = []
    for index, item in enumerate(doc.get("cards", [])):
        target = by_pointer.get(item.get("target")) if item.get("target") else None
        selection = None
        if "entry" in item:
            selection = {"entry": item["entry"], "via": item.get("via", []), "selections": item.get("selections", [])}
            if item.get("number", 1) != 1:
                selection["number"] = item["number"]
        list_cards.append(ListCard(army_list=army_list, card=cards[item["card"]], order=index, selection=selection,
                                   target_formation=target if isinstance(target, ListFormation) else None,
                                   target_unit=target if isinstance(target, ListUnit) else None))
    ListCard.objects.bulk_create(list_cards)


def army_list_copy(*, army_list: ArmyList, owner=None, session_key: str = "", name: str | None = None) -> ArmyList:
    """A full copy through the JSON format, so the copy is exactly what an export/import would give."""
    doc = army_list_document(army_list)
    return _write_document(doc, owner=owner, session_key=session_key, name=name or f"Copy of {army_list.name}")


@transaction.atomic
def army_list_delete(*, army_list: ArmyList, expected_version: int | None = None) -> None:
    """Delete the list; with ``expected_version``, only if nobody changed it since.

    The version is bumped first, with the same conditional UPDATE as every other write: it takes the
    row's write lock until the delete commits, so a PATCH sent at the same moment either lands first
    (and this fails as stale, deleting nothing) or waits and then finds the list gone.
    """
    _bump(army_list, expected_version)
    ArmyList.objects.filter(pk=army_list.pk).delete()


@transaction.atomic
def army_list_new_share_link(*, army_list: ArmyList, expected_version: int | None = None) -> ArmyList:
    """A new share token: the old link stops working at once, the list stays shared."""
    if army_list.visibility != "shared":
        raise ListOperationError("the list is not shared; share it first")
    _bump(army_list, expected_version)
    army_list.share_token = uuid.uuid4()
    ArmyList.objects.filter(pk=army_list.pk).update(share_token=army_list.share_token)
    _record(army_list, "New share link (the old one stopped working)", expected_version, lambda doc: None,
            kind="sharing")  # the document holds no link
    return army_list


def document_problem(pointer: str, message: str) -> ListDocumentError:
    return ListDocumentError([ListProblem(pointer, message)])


@transaction.atomic
def army_list_set_setup(*, army_list: ArmyList, list_unit: ListUnit | None = None,
                        list_formation: ListFormation | None = None, letter: str | None = None,
                        outflank: str | None = None, expected_version: int | None = None) -> None:
    """War Ain't Fair set-up: a card letter for a unit or formation, and a unit's outflanking flank."""
    target = list_unit or list_formation
    if target is None or target.army_list_id != army_list.pk:
        raise ListOperationError("that unit or formation belongs to another list")
    fields = {}
    if letter is not None:
        letter = letter.strip().upper()
        if len(letter) > 4 or (letter and not letter.isalnum()):
            raise ListOperationError("a set-up letter is one to four letters or digits")
        fields["letter"] = letter
    if outflank is not None:
        if list_unit is None:
            raise ListOperationError("only a unit can be set to outflank")
        if outflank not in ("", "left", "right"):
            raise ListOperationError("outflank is 'left', 'right' or empty")
        fields["outflank"] = outflank
    _bump(army_list, expected_version)
    type(target).objects.filter(pk=target.pk).update(**fields)
    for key, value in fields.items():
        setattr(target, key, value)
    name = target.unit.name if isinstance(target, ListUnit) else target.formation.name
    _record(army_list, f"Set-up of {name}: " + ", ".join(f"{k} {v}" if v else f"no {k}" for k, v in fields.items()),
            expected_version, lambda doc: _set(_at(doc, _found(target)),
                                               _UNIT_KEYS if isinstance(target, ListUnit) else _FORMATION_KEYS,
                                               **fields))


# -- books imported from BattleScribe: the list holds the selections themselves --------------------------
def _edit(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except editing.EditError as exc:
        raise ListOperationError(str(exc)) from None


def _root_entry(data, formation_code: str):
    catalogue = data.catalogue
    slot = catalogue.root_layout().find(data.formations[formation_code].extra.get("bs", {}).get("path", formation_code))
    if slot is None:
        raise ListOperationError(f"{data.formations[formation_code].name} is not offered by the book's data")
    return slot


def _formation_choices(army_list: ArmyList, formation: hb.Formation, expected_version: int | None = None) -> list:
    """A new formation's own compulsory choices (not its units: those the player picks in its boxes)."""
    force = army_list_force(army_list, version=expected_version)
    data = handbook_data(formation.handbook_id)
    pointer = f"/formations/{len(force.formations)}"
    added = ForceFormation(pointer=pointer, index=len(force.formations), handbook=data,
                           formation=data.formations[formation.code],
                           allied=formation.handbook_id != army_list.handbook_id)
    force = dataclasses.replace(force, formations=(*force.formations, added))
    doc = _edit(editing.completed, force, pointer, [], points=data.catalogue.points, skip_roles=("unit",))
    if added.allied:
        doc = _edit(editing.allied_force_choices, force, pointer, doc, points=data.catalogue.points)
    return doc


def _unit_choices(army_list: ArmyList, list_formation: ListFormation | None, box: hb.Box, unit: hb.UnitEntry,
                  alternative: str | None = None, expected_version: int | None = None) -> dict:
    """A unit picked in a box, as the selection it is made through with its compulsory choices made (its
    default size, the cheapest way, as BattleScribe selects them)."""
    force = army_list_force(army_list, version=expected_version)
    data = handbook_data(box.handbook_id)
    box_data, unit_data = data.boxes[box.code], data.units[unit.code]
    place = box_data.extra.get("bs", {}).get("id", box.code)
    entry = unit_data.extra.get("bs", {}).get("entry", unit.code)
    if list_formation is None:
        slot = editing.unit_slot(data.catalogue, None, entry, place)
        pointer = f"/support/{len(force.support)}"
        added = ForceUnit(pointer=pointer, box=box_data, unit=unit_data,
                          selection=SelectionData(slot.path) if slot else None)
        new_force = dataclasses.replace(force, support=(*force.support, added))
    else:
        index = pointer_of(army_list, list_formation)
        formation = next(f for f in force.formations if f.pointer == index)
        root = _root_entry(data, formation.formation.code)
        slot = editing.unit_slot(data.catalogue, root.entry, entry, place)
        pointer = f"{index}/units/{len(formation.units)}"
        added = ForceUnit(pointer=pointer, box=box_data, unit=unit_data, formation_index=formation.index,
                          selection=SelectionData(slot.path) if slot else None)
        formations = [dataclasses.replace(f, units=(*f.units, added)) if f is formation else f
                      for f in force.formations]
        new_force = dataclasses.replace(force, formations=tuple(formations))
    if slot is None:
        raise ListOperationError(f"the data offers no {unit.name} in the box '{box.name}'")
    inside = []
    if alternative:
        paths = [a.path for a in alternatives(data.catalogue, slot.entry)]
        if alternative not in paths:
            raise ListOperationError(f"{unit.name} offers no choice '{alternative[:80]}'")
        inside = [{"entry": alternative}]
    return _edit(editing.completed, new_force, pointer, {"entry": slot.path, "selections": inside},
                 points=data.catalogue.points, skip_roles=())


def _card_choices(army_list: ArmyList, card: hb.CommandCard, target, expected_version: int | None = None) -> dict:
    """Where a card goes under its target (or the force) and its own compulsory sub-choices."""
    force = army_list_force(army_list, version=expected_version)
    data = handbook_data(army_list.handbook_id)
    catalogue = data.catalogue
    entry = card.extra.get("bs", {}).get("entry", card.code) if isinstance(card.extra, dict) else card.code
    holder, target_pointer = None, None
    if target is not None:
        target_pointer = pointer_of(army_list, target)
        doc = next(s for s in _selections_by_pointer(force) if s[0] == target_pointer)
        holder = doc[1]
    place = editing.card_place(catalogue, holder, entry)
    if place is None:
        where = "the force" if target is None else str(target)
        raise ListOperationError(f"{card.name} cannot be given to {where}: the data does not offer it there")
    via, path = place
    pointer = f"/cards/{len(force.cards)}"
    target_view = None
    if target_pointer is not None:
        target_view = next((u for u in force.all_units() if u.pointer == target_pointer), None) or \
            next((f for f in force.formations if f.pointer == target_pointer), None)
    added = ForceCard(pointer=pointer, card=data.cards[card.code], target_pointer=target_pointer, target=target_view,
                      selection=SelectionData(path), via=tuple(via))
    new_force = dataclasses.replace(force, cards=(*force.cards, added))
    done = _edit(editing.completed, new_force, pointer, {"entry": path, "selections": []}, points=catalogue.points,
                 skip_roles=())
    return {"entry": path, "via": list(via), "selections": done.get("selections", [])}


def _selections_by_pointer(force):
    """(pointer, the entry it is selected through) for every formation and unit of a force."""
    built = force_roster(force)
    for pointer, sel in {**built.formations, **built.units}.items():
        yield pointer, sel.entry


def _entry_name(catalogue, path: str) -> str:
    try:
        return catalogue.resolve(path.rsplit("::", 1)[-1]).name
    except CatalogueError:  # a name for the history line only: an unreadable path is already refused above
        return ""


def _holder_doc(obj):
    if isinstance(obj, ArmyList):
        return list(obj.selections or [])
    if isinstance(obj, ListFormation):
        return list(obj.selections or [])
    return dict(obj.selection or {"entry": "", "selections": []})


@transaction.atomic
def army_list_set_selection(*, army_list: ArmyList, pointer: str, at: tuple = (), entry: str, number: int,
                            expected_version: int | None = None):
    """Choose ``number`` of ``entry`` under a selection of a list on an imported book (0 removes it).

    ``pointer`` names what holds the selections ("" for the force, a formation, a unit or a card) and ``at``
    the child indices from it down to the selection the choice is made under. A choice in a pick-one group
    replaces the one already made there, and a new choice comes with its own compulsory choices.
    """
    if army_list.handbook.source != "battlescribe":
        raise ListOperationError(f"{army_list.handbook.name} has sizes and options, not selections")
    try:
        holder = list_object_at(army_list, pointer)
    except PointerError as exc:
        raise ListOperationError(str(exc)) from None
    force = army_list_force(army_list, version=expected_version)
    catalogue = force.handbook.catalogue
    doc = _edit(editing.set_number, force, pointer if pointer != "/" else "", _holder_doc(holder), tuple(at),
                entry, number, points=catalogue.points)
    _bump(army_list, expected_version)
    if isinstance(holder, ArmyList):
        ArmyList.objects.filter(pk=holder.pk).update(selections=doc)
        army_list.selections = doc
    elif isinstance(holder, ListFormation):
        ListFormation.objects.filter(pk=holder.pk).update(selections=doc)
    else:
        if isinstance(holder, ListCard):
            doc = {**(holder.selection or {}), **doc}
        type(holder).objects.filter(pk=holder.pk).update(selection=doc)
    name = _entry_name(catalogue, entry)

    def edit(whole):
        part = _at(whole, pointer)
        if isinstance(holder, ArmyList):
            whole.pop("selections", None)
            if doc:
                whole["selections"] = doc  # the last key
        elif isinstance(holder, ListFormation):
            _set(part, _FORMATION_KEYS, selections=doc)
        elif isinstance(holder, ListCard):
            card_code, target = part["card"], part.get("target")
            part.clear()
            part.update(list_card_doc({"card__code": card_code, "selection": doc}, target))
        else:
            if "entry" not in part:
                raise _CannotSay
            part["entry"], part["selections"] = doc.get("entry", ""), doc.get("selections", [])

    _record(army_list, f"Chose {name or 'an option'}" + (f" ×{number}" if number > 1 else "")
            if number else f"Dropped {name or 'an option'}", expected_version, edit)
    return holder


# -- defaults -----------------------------------------------------------------------------------------------------
def default_points_limit(handbook: hb.Handbook) -> int | None:
    """A new list's points limit, from the system's data file (``default_points_limit``: its usual game
    size). None when the system has no points or its data names no size: no limit beats a wrong one
    (Operation WW2's one squad costs 180, so the old fixed 100 made every new list illegal)."""
    system = handbook.system
    return system.default_points_limit if system.uses_points else None


# -- names and notes ----------------------------------------------------------------------------------------------
MAX_CUSTOM_NAME = 120
MAX_ITEM_NOTES = 2000


@transaction.atomic
def army_list_set_name_notes(*, army_list: ArmyList, target: ListFormation | ListUnit, custom_name: str | None = None,
                             notes: str | None = None, expected_version: int | None = None) -> None:
    """The player's own name and notes for a formation or a unit (empty clears them)."""
    if target is None or target.army_list_id != army_list.pk:
        raise ListOperationError("that unit or formation belongs to another list")
    fields = {}
    if custom_name is not None:
        custom_name = " ".join(custom_name.split())
        if len(custom_name) > MAX_CUSTOM_NAME:
            raise ListOperationError(f"a name is at most {MAX_CUSTOM_NAME} characters "
                                     f"(this one has {len(custom_name)})")
        fields["custom_name"] = custom_name
    if notes is not None:
        notes = notes.replace("\r\n", "\n").strip()
        if len(notes) > MAX_ITEM_NOTES:
            raise ListOperationError(f"notes are at most {MAX_ITEM_NOTES} characters (these have {len(notes)})")
        fields["notes"] = notes
    if not fields:
        raise ListOperationError("give a name or notes")
    if all(getattr(target, k) == v for k, v in fields.items()):
        return  # nothing changes: no new version
    book_name = target.unit.name if isinstance(target, ListUnit) else target.formation.name
    _bump(army_list, expected_version)
    type(target).objects.filter(pk=target.pk).update(**fields)
    for key, value in fields.items():
        setattr(target, key, value)
    said = []
    if "custom_name" in fields:
        said.append(f"named “{fields['custom_name']}”" if fields["custom_name"] else "name cleared")
    if "notes" in fields:
        said.append("notes changed" if fields["notes"] else "notes cleared")
    _record(army_list, f"{book_name}: {', '.join(said)}", expected_version,
            lambda doc: _set(_at(doc, _found(target)), _UNIT_KEYS if isinstance(target, ListUnit) else _FORMATION_KEYS,
                             **fields))


# -- history: restore, undo, redo ---------------------------------------------------------------------------------
def _replace_contents(army_list: ArmyList, doc: dict) -> None:
    """Make the list hold exactly ``doc`` (its settings, book revision and contents); its owner, sharing and
    identity stay. Refuses, writing nothing, when the document no longer resolves against the game data."""
    try:
        resolve_document(doc, DbCatalog())
    except ListDocumentError as exc:
        raise ListOperationError(f"that version can no longer be restored: {exc.problems[0]}") from None
    handbook, books = _books_of(doc)
    ListCard.objects.filter(army_list=army_list).delete()
    ListUnit.objects.filter(army_list=army_list).delete()
    ListFormation.objects.filter(army_list=army_list).delete()
    fields = {"name": doc["name"][:120], "handbook": handbook, "points_limit": doc.get("points_limit"),
              "variant": doc.get("variant") or "", "year": doc.get("year"), "notes": doc.get("notes", ""),
              "selections": doc.get("selections", [])}
    ArmyList.objects.filter(pk=army_list.pk).update(**fields)
    for key, value in fields.items():
        setattr(army_list, key, value)
    _write_parts(army_list, doc, handbook, books)


def _history_step(army_list: ArmyList, expected_version: int | None, pick) -> None:
    current_version = army_list.version if expected_version is None else expected_version
    current = history_entry(army_list, current_version)
    target_version, kind, what, undo_to, redo_to = pick(current)
    target = history_entry(army_list, target_version) if target_version is not None else None
    if target is None:
        raise ListOperationError(f"version {target_version} is no longer kept (the newest {HISTORY_LIMIT} are)")
    _bump(army_list, expected_version)
    _replace_contents(army_list, target.document)
    history_record(army_list, what(target), kind=kind, undo_to=undo_to(target), redo_to=redo_to(target),
                   document=target.document)


@transaction.atomic
def army_list_restore(*, army_list: ArmyList, version: int, expected_version: int | None = None) -> None:
    """Bring back an earlier version as a new version (history stays whole: this too can be undone)."""
    before = army_list.version if expected_version is None else expected_version

    def pick(current):
        return (version, "restore", lambda t: f"Restored version {t.version} ({t.what})",
                lambda t: before, lambda t: None)
    if version == before:
        raise ListOperationError(f"version {version} is the list as it is now")
    _history_step(army_list, expected_version, pick)


@transaction.atomic
def army_list_undo(*, army_list: ArmyList, expected_version: int | None = None) -> None:
    def pick(current):
        if current is None or current.undo_to is None:
            raise ListOperationError("there is nothing to undo")
        return (current.undo_to, "undo", lambda t: f"Undid “{current.what}”",
                lambda t: t.undo_to, lambda t: current.version)
    _history_step(army_list, expected_version, pick)


@transaction.atomic
def army_list_redo(*, army_list: ArmyList, expected_version: int | None = None) -> None:
    def pick(current):
        if current is None or current.redo_to is None:
            raise ListOperationError("there is nothing to redo")
        return (current.redo_to, "redo", lambda t: f"Redid “{t.what}”",
                lambda t: current.version, lambda t: t.redo_to)
    _history_step(army_list, expected_version, pick)


# -- book updates ---------------------------------------------------------------------------------------------------
@transaction.atomic
def army_list_move_to_revision(*, army_list: ArmyList, revision: int | None = None,
                               expected_version: int | None = None) -> None:
    """Move the list to the newest revision of its book (or ``revision``), as a new version: what the new
    revision no longer offers is dropped, as the update report (lists/revisions.py) says. Undo goes back."""
    try:
        update = revision_update_for(army_list, revision=revision)
    except RevisionError as exc:
        raise ListOperationError(str(exc)) from None
    if update is None:
        raise ListOperationError(f"{army_list.handbook.name} has no newer revision")
    _bump(army_list, expected_version)
    _replace_contents(army_list, update.document)
    history_record(army_list, f"Moved to revision {update.to_revision} of {update.book_name}"
                   + (f" ({update.summary})" if update.summary else ""), kind="revision")
