"""Reads: which lists a user may see, a list as a document, a list as a Force, its report."""
import json
import threading
import uuid
from collections import OrderedDict

from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.http import Http404

from armybuilder.lists.listjson import FORMAT, VERSION, resolve_document, resolve_force
from armybuilder.rules import check
from armybuilder.rules.force import Force
from armybuilder.rules.report import Report
from handbooks.models import Handbook

from .catalog import handbook_data, handbook_id
from .models import ArmyList, ListCard, ListFormation, ListUnit, ListUpgrade


class DbCatalog:
    """Game data from the database, for resolving list documents."""

    def handbook(self, system: str, code: str, revision: int):
        pk = handbook_id(system, code, revision)
        return handbook_data(pk) if pk is not None else None

    def revisions(self, system: str, code: str) -> list[int]:
        return list(Handbook.objects.filter(system__code=system, code=code).order_by("revision").values_list(
            "revision", flat=True))


def army_lists_visible_to(user, session_key: str | None = None, *, lists=None):
    """Lists a user may open: their own, and their session's drafts. Shared lists are reached by token only.
    ``lists``: the query to filter (all lists when None)."""
    lists = ArmyList.objects.all() if lists is None else lists
    if user is not None and user.is_authenticated:
        return lists.filter(owner=user)
    if session_key:
        return lists.filter(owner__isnull=True, session_key=session_key)
    return lists.none()


_LIST_QUERIES: dict[bool, object] = {}


def _list_query(newer_revision: bool):
    """The builder's list query before its owner and public id are filtered in: built once per process (the
    annotation's subquery is a good part of what a small action's queries cost to build). A queryset is never
    changed by what is chained on it (each step is a copy), and this one is never evaluated itself."""
    query = _LIST_QUERIES.get(newer_revision)
    if query is None:
        query = ArmyList.objects.select_related("system", "handbook")
        if newer_revision:
            query = query.annotate(newer_revision_pk=Subquery(Handbook.objects.filter(
                system_id=OuterRef("system_id"), code=OuterRef("handbook__code"), is_current=True,
                revision__gt=OuterRef("handbook__revision")).order_by(*Handbook._meta.ordering).values("pk")[:1]))
        _LIST_QUERIES[newer_revision] = query
    return query


def army_list_get_for_user(*, user, public_id, session_key: str | None = None,
                           newer_revision: bool = False) -> ArmyList:
    """The list, or 404 whether it is missing or someone else's (the two must look the same). ``newer_revision``:
    with the key of the current revision of its book when that is newer than the list's (None when it is not), in
    the same query, for revisions.newer_revision (the builder asks on every answer)."""
    lists = army_lists_visible_to(user, session_key, lists=_list_query(newer_revision))
    try:
        # get(), not first(): the public id is unique, and get() leaves out the ORDER BY first() adds (the model's
        # ordering), which the database need not sort and Django need not compile on every builder request.
        army_list = lists.get(public_id=public_id)
    except ArmyList.DoesNotExist:
        raise Http404("No such list.") from None
    if newer_revision:
        army_list.newer_revision_of = army_list.handbook_id  # a change that moves the list to another book asks again
    return army_list


def army_list_get_shared(*, share_token) -> ArmyList:
    army_list = (ArmyList.objects.select_related("system", "handbook", "owner")
                 .filter(share_token=share_token, visibility="shared").first())
    if army_list is None:
        raise Http404("No such list.")
    return army_list


def _ref(handbook: Handbook) -> dict:
    return {"code": handbook.code, "revision": handbook.revision}


def _named(doc: dict, row) -> None:
    """The player's own name and notes, only when given (a list without them reads as before)."""
    if row["custom_name"]:
        doc["custom_name"] = row["custom_name"]
    if row["notes"]:
        doc["notes"] = row["notes"]


def list_unit_doc(unit: dict, upgrades: list) -> dict:
    """A unit's part of the list document, from its row (the columns army_list_document reads) and its upgrade
    rows (list_unit_id, group code, upgrade code, quantity, group order, upgrade order, pk)."""
    doc = {"box": unit["box__code"], "unit": unit["unit__code"]}
    selection = unit["selection"]
    if selection is not None:  # a book imported from BattleScribe: the selections are the unit
        doc["entry"] = selection.get("entry", "")
        doc["selections"] = selection.get("selections", [])
    else:
        doc["size"] = unit["size__code"]
        doc["upgrades"] = [{"upgrade": f"{group}/{code}", "quantity": quantity}
                           for _, group, code, quantity, *_ in sorted(upgrades, key=lambda u: (u[4], u[5], u[6]))]
    if unit["letter"]:
        doc["letter"] = unit["letter"]
    if unit["outflank"]:
        doc["outflank"] = unit["outflank"]
    _named(doc, unit)
    return doc


def list_formation_doc(formation: dict, list_handbook_id: int, parent_pointer: str | None) -> dict:
    """A formation's part of the list document without its units (``units`` comes last), from its row."""
    doc = {"formation": formation["formation__code"]}
    if formation["formation__handbook_id"] != list_handbook_id:
        doc["handbook"] = {"code": formation["formation__handbook__code"],
                           "revision": formation["formation__handbook__revision"]}
    doc["allied"] = formation["allied"]
    if formation["letter"]:
        doc["letter"] = formation["letter"]
    if parent_pointer:
        doc["parent"] = parent_pointer
    if formation["via_box__code"]:
        doc["via_box"] = formation["via_box__code"]
    if formation["selections"]:
        doc["selections"] = formation["selections"]
    _named(doc, formation)
    return doc


def list_card_doc(card: dict, target_pointer: str | None) -> dict:
    """A command card's part of the list document, from its row and the pointer of its target."""
    doc = {"card": card["card__code"]}
    if target_pointer:
        doc["target"] = target_pointer
    selection = card["selection"]
    if selection is not None:
        doc["entry"] = selection.get("entry", "")
        if selection.get("number", 1) != 1:
            doc["number"] = selection["number"]
        if selection.get("via"):
            doc["via"] = selection["via"]
        if selection.get("selections"):
            doc["selections"] = selection["selections"]
    return doc


def army_list_document(army_list: ArmyList) -> dict:
    """The list in the JSON list format, in canonical form (same list -> same bytes). Four queries at most
    (three for a book imported from BattleScribe, whose units hold selections, not upgrade rows).

    Each query names only the columns the document uses (codes, not whole game-data rows with their
    ``extra`` documents): building the document runs on every builder action, twice for some.
    """
    formations = list(ListFormation.objects.filter(army_list=army_list).order_by("order", "pk").values(
        "pk", "formation__code", "formation__handbook_id", "formation__handbook__code",
        "formation__handbook__revision", "allied", "letter", "parent_id", "via_box__code", "selections",
        "custom_name", "notes"))
    units = list(ListUnit.objects.filter(army_list=army_list).order_by("order", "pk").values(
        "pk", "list_formation_id", "box__code", "unit__code", "size__code", "selection", "letter", "outflank",
        "custom_name", "notes"))
    upgrades = []
    # Units of a book imported from BattleScribe hold selections, never upgrade rows: no query for those.
    if army_list.handbook.source != "battlescribe" or any(unit["selection"] is None for unit in units):
        upgrades = list(ListUpgrade.objects.filter(list_unit__army_list=army_list).order_by("pk").values_list(
            "list_unit_id", "upgrade__group__code", "upgrade__code", "quantity", "upgrade__group__order",
            "upgrade__order", "pk"))
    cards = list(ListCard.objects.filter(army_list=army_list).order_by("order", "pk").values(
        "card__code", "target_formation_id", "target_unit_id", "selection"))

    formation_pointer = {f["pk"]: f"/formations/{i}" for i, f in enumerate(formations)}
    upgrades_of: dict[int, list] = {}
    for chosen in upgrades:
        upgrades_of.setdefault(chosen[0], []).append(chosen)
    units_of: dict[int | None, list] = {}
    for unit in units:
        units_of.setdefault(unit["list_formation_id"], []).append(unit)

    unit_pointer = {}

    def unit_doc(unit: dict, pointer: str) -> dict:
        unit_pointer[unit["pk"]] = pointer
        return list_unit_doc(unit, upgrades_of.get(unit["pk"], []))

    formation_docs = []
    for index, formation in enumerate(formations):
        doc = list_formation_doc(formation, army_list.handbook_id, formation_pointer.get(formation["parent_id"]))
        doc["units"] = [unit_doc(u, f"/formations/{index}/units/{i}")
                        for i, u in enumerate(units_of.get(formation["pk"], []))]
        formation_docs.append(doc)
    support_docs = [unit_doc(u, f"/support/{i}") for i, u in enumerate(units_of.get(None, []))]
    card_docs = [list_card_doc(card, formation_pointer[card["target_formation_id"]] if card["target_formation_id"]
                               else unit_pointer[card["target_unit_id"]] if card["target_unit_id"] else None)
                 for card in cards]
    return {
        "format": FORMAT,
        # Version 2 adds BattleScribe selections; a list without them stays readable by version-1 readers.
        "version": VERSION if army_list.handbook.source == "battlescribe" else 1,
        "name": army_list.name,
        "system": army_list.system.code,
        "handbook": _ref(army_list.handbook),
        "points_limit": army_list.points_limit,
        "variant": army_list.variant or None,
        "year": army_list.year,
        "notes": army_list.notes,
        "formations": formation_docs,
        "support": support_docs,
        "cards": card_docs,
        **({"selections": army_list.selections} if army_list.selections else {}),
    }


# The documents of lists as they were at a version, in this process: (list public id, version) -> JSON text (the
# public id is random and never reused, unlike a row id after a rolled-back insert). Only a
# document read whole at one committed version goes in (remember_document checks the version after reading; a
# writer's own document goes in when its transaction commits), and it is read back for exactly that version
# (army_list_force's ``version``): by a writer that will bump that version, whose write fails as stale unless the
# list is still at it, so it never acts on a document that is not the list's; and by the builder drawing that
# version (the version its answer then carries, so the page's next action is stale if the list moved on).
_DOCUMENTS: "OrderedDict[tuple[uuid.UUID, int], str]" = OrderedDict()
_DOCUMENTS_MAX = 512
_documents_lock = threading.Lock()


def remember_document(army_list: ArmyList, doc: dict) -> None:
    """Keep ``doc`` (just read for ``army_list.version``) if the list is still at that version (one query)."""
    if army_list.pk is None or not ArmyList.objects.filter(pk=army_list.pk, version=army_list.version).exists():
        return
    _keep_document((army_list.public_id, army_list.version), json.dumps(doc))


def remember_written_document(army_list: ArmyList, doc: dict) -> None:
    """Keep ``doc``, which a writer just read inside its transaction for the version it wrote, once that
    transaction commits (a write rolled back keeps nothing): the builder's answer then draws the list from it
    instead of reading the list again."""
    if army_list.pk is None:
        return
    key, text = (army_list.public_id, army_list.version), json.dumps(doc)
    transaction.on_commit(lambda: _keep_document(key, text))


def _keep_document(key: tuple, text: str) -> None:
    with _documents_lock:
        _DOCUMENTS[key] = text
        while len(_DOCUMENTS) > _DOCUMENTS_MAX:
            _DOCUMENTS.popitem(last=False)


def army_list_document_kept(army_list: ArmyList, version: int | None) -> dict | None:
    """The list's document at ``version`` if this process keeps it (see _DOCUMENTS), a copy of its own; else None.
    For a writer that expects ``version`` (its write fails as stale unless the list is still at it)."""
    if version is None:
        return None
    text = _DOCUMENTS.get((army_list.public_id, version))
    return json.loads(text) if text is not None else None


def army_list_force(army_list: ArmyList, *, version: int | None = None, remember: bool = False) -> Force:
    """The list as a Force. ``version``: a writer's expected version, or the version the builder draws (see
    _DOCUMENTS); ``remember``: keep the document read for the next writer (the builder does, after each answer)."""
    doc = None
    if version is not None and version == army_list.version:
        text = _DOCUMENTS.get((army_list.public_id, version))
        doc = json.loads(text) if text is not None else None
    if doc is None:
        doc = army_list_document(army_list)
        if remember:
            remember_document(army_list, doc)
    force, problems = resolve_force(doc, DbCatalog())
    if force is None:  # the database keeps references intact, so this means corrupted data
        raise ValueError("; ".join(map(str, problems)))
    return force


def army_list_report(army_list: ArmyList) -> Report:
    return check(army_list_force(army_list))


def list_document_report(doc) -> tuple[Force, Report]:
    """Check a list document without saving it; ListDocumentError if it cannot be read as a list."""
    force = resolve_document(doc, DbCatalog())
    return force, check(force)
