"""Reads: which lists a user may see, a list as a document, a list as a Force, its report."""
from django.http import Http404

from armybuilder.interchange.listjson import FORMAT, VERSION, resolve_force
from armybuilder.rules import check
from armybuilder.rules.force import Force
from armybuilder.rules.report import Report
from handbooks.models import Handbook

from .gamedata import handbook_data, handbook_id
from .models import ArmyList, ListCard, ListFormation, ListUnit, ListUpgrade

class DbCatalog:
    """Game data from the database, for resolving list documents."""

    def handbook(self, system: str, code: str, revision: int):
        pk = handbook_id(system, code, revision)
        return handbook_data(pk) if pk is not None else None

    def revisions(self, system: str, code: str) -> list[int]:
        return list(Handbook.objects.filter(system__code=system, code=code).order_by("revision").values_list(
            "revision", flat=True))


def army_lists_visible_to(user, session_key: str | None = None):
    """Lists a user may open: their own, and their session's drafts. Shared lists are reached by token only."""
    if user is not None and user.is_authenticated:
        return ArmyList.objects.filter(owner=user)
    if session_key:
        return ArmyList.objects.filter(owner__isnull=True, session_key=session_key)
    return ArmyList.objects.none()


def army_list_get_for_user(*, user, public_id, session_key: str | None = None) -> ArmyList:
    """The list, or 404 whether it is missing or someone else's (the two must look the same)."""
    army_list = (army_lists_visible_to(user, session_key).select_related("system", "handbook")
                 .filter(public_id=public_id).first())
    if army_list is None:
        raise Http404("No such list.")
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
    if row.custom_name:
        doc["custom_name"] = row.custom_name
    if row.notes:
        doc["notes"] = row.notes


def army_list_document(army_list: ArmyList) -> dict:
    """The list in the JSON list format, in canonical form (same list -> same bytes). Five queries at most."""
    formations = list(ListFormation.objects.filter(army_list=army_list)
                      .select_related("formation__handbook", "via_box").order_by("order", "pk"))
    units = list(ListUnit.objects.filter(army_list=army_list)
                 .select_related("box", "unit", "size").order_by("order", "pk"))
    upgrades = list(ListUpgrade.objects.filter(list_unit__army_list=army_list)
                    .select_related("upgrade__group").order_by("pk"))
    cards = list(ListCard.objects.filter(army_list=army_list).select_related("card").order_by("order", "pk"))

    formation_pointer = {f.pk: f"/formations/{i}" for i, f in enumerate(formations)}
    upgrades_of: dict[int, list] = {}
    for chosen in upgrades:
        upgrades_of.setdefault(chosen.list_unit_id, []).append(chosen)
    units_of: dict[int | None, list] = {}
    for unit in units:
        units_of.setdefault(unit.list_formation_id, []).append(unit)

    unit_pointer = {}

    def unit_doc(unit: ListUnit, pointer: str) -> dict:
        unit_pointer[unit.pk] = pointer
        doc = {"box": unit.box.code, "unit": unit.unit.code}
        if unit.selection is not None:  # a book imported from BattleScribe: the selections are the unit
            doc["entry"] = unit.selection.get("entry", "")
            doc["selections"] = unit.selection.get("selections", [])
        else:
            doc["size"] = unit.size.code if unit.size else None
            doc["upgrades"] = [{"upgrade": f"{u.upgrade.group.code}/{u.upgrade.code}", "quantity": u.quantity}
                               for u in sorted(upgrades_of.get(unit.pk, []),
                                               key=lambda u: (u.upgrade.group.order, u.upgrade.order, u.pk))]
        if unit.letter:
            doc["letter"] = unit.letter
        if unit.outflank:
            doc["outflank"] = unit.outflank
        _named(doc, unit)
        return doc

    formation_docs = []
    for index, formation in enumerate(formations):
        doc = {"formation": formation.formation.code}
        if formation.formation.handbook_id != army_list.handbook_id:
            doc["handbook"] = _ref(formation.formation.handbook)
        doc["allied"] = formation.allied
        if formation.letter:
            doc["letter"] = formation.letter
        if formation.parent_id:
            doc["parent"] = formation_pointer[formation.parent_id]
        if formation.via_box_id:
            doc["via_box"] = formation.via_box.code
        if formation.selections:
            doc["selections"] = formation.selections
        _named(doc, formation)
        doc["units"] = [unit_doc(u, f"/formations/{index}/units/{i}")
                        for i, u in enumerate(units_of.get(formation.pk, []))]
        formation_docs.append(doc)
    support_docs = [unit_doc(u, f"/support/{i}") for i, u in enumerate(units_of.get(None, []))]
    card_docs = []
    for card in cards:
        doc = {"card": card.card.code}
        if card.target_formation_id:
            doc["target"] = formation_pointer[card.target_formation_id]
        elif card.target_unit_id:
            doc["target"] = unit_pointer[card.target_unit_id]
        if card.selection is not None:
            doc["entry"] = card.selection.get("entry", "")
            if card.selection.get("number", 1) != 1:
                doc["number"] = card.selection["number"]
            if card.selection.get("via"):
                doc["via"] = card.selection["via"]
            if card.selection.get("selections"):
                doc["selections"] = card.selection["selections"]
        card_docs.append(doc)
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


def army_list_force(army_list: ArmyList) -> Force:
    force, problems = resolve_force(army_list_document(army_list), DbCatalog())
    if force is None:  # the database keeps references intact, so this means corrupted data
        raise ValueError("; ".join(map(str, problems)))
    return force


def army_list_report(army_list: ArmyList) -> Report:
    return check(army_list_force(army_list))


def list_document_report(doc) -> tuple[Force, Report]:
    """Check a list document without saving it; ListDocumentError if it cannot be read as a list."""
    from armybuilder.interchange.listjson import validate_list_document
    from armybuilder.interchange.listjson.document import ListDocumentError

    problems = validate_list_document(doc)
    if problems:
        raise ListDocumentError(problems)
    force, problems = resolve_force(doc, DbCatalog())
    if problems:
        raise ListDocumentError(problems)
    return force, check(force)
