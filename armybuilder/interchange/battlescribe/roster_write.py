"""A list on imported books as a BattleScribe 2.03 roster (``.ros`` XML, or zipped ``.rosz``).

The list's selections are written as they are: each selection's ``entryId`` is the path of entry
links traversed from its force's root, ending with its entry id, and ``entryGroupId`` names the
group it was picked from, as BattleScribe writes them. Cards go where the list holds them (under
their unit or formation, or at the force root inside their ``via`` entries). Each selection carries
its own costs as the evaluator prices them, and the roster its total per cost type; element order
follows the XSD. Ids are derived from the content, so the same list always gives the same bytes.
"""
from __future__ import annotations

import hashlib
import io
import zipfile
from xml.etree.ElementTree import Element, SubElement, tostring

from armybuilder.rules.battlescribe.catalogue import CatalogueError
from armybuilder.rules.battlescribe.evaluate import Evaluation
from armybuilder.rules.battlescribe.force_tree import force_roster
from armybuilder.rules.battlescribe.tree import ForceScope, Sel
from armybuilder.rules.force import Force

from .roster import BATTLESCRIBE_VERSION, ROSTER_NS, BattleScribeRosterError

ROSTER_TYPES = ("unit", "model", "upgrade")


def _id(seed: str, *parts) -> str:
    digest = hashlib.sha1("|".join([seed, *map(str, parts)]).encode()).hexdigest()
    return f"{digest[0:4]}-{digest[4:8]}-{digest[8:12]}-{digest[12:16]}"


def _value(v: float) -> str:
    v = float(v)
    return repr(round(v, 4)) if not v.is_integer() else f"{v:.1f}"


def _split(path: str) -> list[str]:
    return [p for p in str(path or "").split("::") if p]


def _seed(roster, name: str) -> str:
    """A digest of the bound selections (their canonical paths and numbers), so that the same list gives
    the same ids however its paths were written."""
    parts = [name]

    def walk(sel: Sel, depth: int):
        parts.append(f"{depth}:{sel.slot.path}:{sel.number}")
        for child in sel.children:
            walk(child, depth + 1)

    for scope in roster.all_forces():
        parts.append(f"force:{scope.catalogue.catalogue_id}")
        for sel in scope.children:
            walk(sel, 0)
    return hashlib.sha1("\n".join(parts).encode()).hexdigest()


def force_to_ros(force: Force, *, name: str | None = None) -> bytes:
    """The force as roster XML bytes; BattleScribeRosterError when its book was not imported from BattleScribe."""
    if force.handbook.catalogue is None:
        raise BattleScribeRosterError([f"{force.handbook.name} was not imported from BattleScribe data; "
                                       "only such lists export as .ros"])
    try:
        built = force_roster(force)
    except CatalogueError as exc:
        raise BattleScribeRosterError([f"cannot export: {exc}"]) from None
    if built.problems:
        raise BattleScribeRosterError([f"cannot export: {p.pointer}: {p.message}" for p in built.problems])
    evaluation = Evaluation(built.roster)
    # The player's own names and notes, on the selections their formations and units are made through.
    named = {}
    for item in (*force.formations, *force.all_units()):
        sel = {**built.formations, **built.units}.get(item.pointer)
        if sel is not None and (item.custom_name or item.notes):
            named[id(sel)] = (item.custom_name, item.notes)
    title = (name or force.name or "Roster")[:120]
    seed = _seed(built.roster, title)
    catalogue = built.main.catalogue
    cost_types = [(cid, cname) for cid, cname in catalogue.cost_types.items()] or [(catalogue.points, "pts")]
    totals = {cid: 0.0 for cid, _ in cost_types}

    def costs_el(parent: Element, costs: dict) -> None:
        box = SubElement(parent, "costs")
        for cid, cname in cost_types:
            SubElement(box, "cost", {"name": cname, "typeId": cid, "value": _value(costs.get(cid, 0))})

    def categories_el(parent: Element, sel: Sel, pos: str) -> None:
        cat = sel.force.catalogue
        primary = cat.primary_category(sel.entry)
        cats = sorted(evaluation.categories(sel), key=lambda c: (c != primary, c))
        if not cats:
            return
        box = SubElement(parent, "categories")
        for i, cid in enumerate(cats):
            attrs = {"id": _id(seed, pos, "c", i), "name": cat.categories.get(cid, cid), "entryId": cid}
            if cid == primary:
                attrs["primary"] = "true"
            SubElement(box, "category", attrs)

    def selection_el(parent: Element, sel: Sel, prefix: list[str], pos: str) -> None:
        parts = prefix + _split(sel.slot.path)
        attrs = {"id": _id(seed, pos), "name": evaluation.name(sel) or "Selection", "entryId": "::".join(parts)}
        if sel.slot.group_path:
            attrs["entryGroupId"] = "::".join(prefix + _split(sel.slot.group_path))
        attrs["number"] = str(sel.number)
        attrs["type"] = sel.entry.type if sel.entry.type in ROSTER_TYPES else "upgrade"
        custom_name, custom_notes = named.get(id(sel), ("", ""))
        if custom_name:
            attrs["customName"] = custom_name
        if custom_notes:
            attrs["customNotes"] = custom_notes
        el = SubElement(parent, "selection", attrs)
        costs = evaluation.total(sel)
        for k, v in costs.items():
            if k in totals:
                totals[k] += v
        if sel.children:
            box = SubElement(el, "selections")
            for i, child in enumerate(sel.children):
                selection_el(box, child, parts[:-1], f"{pos}.{i}")
        costs_el(el, costs)
        categories_el(el, sel, pos)

    root = Element("roster", {"id": _id(seed, "roster"), "name": title, "battleScribeVersion": BATTLESCRIBE_VERSION,
                              "gameSystemId": catalogue.system_id,
                              "gameSystemName": str((catalogue.doc.get("game_system") or {}).get("name", "")),
                              "gameSystemRevision": str((catalogue.doc.get("game_system") or {}).get("revision", 0)),
                              "xmlns": ROSTER_NS})
    costs_box = SubElement(root, "costs")
    limits = SubElement(root, "costLimits") if force.points_limit is not None else None
    forces_el = SubElement(root, "forces")

    def force_el(parent: Element, scope: ForceScope, pos: str) -> None:
        cat = scope.catalogue
        info = cat.doc.get("catalogue") or {}
        el = SubElement(parent, "force", {
            "id": _id(seed, pos), "name": scope.entry.name if scope.entry else "Force",
            "entryId": scope.entry.id if scope.entry else "", "catalogueId": cat.catalogue_id,
            "catalogueRevision": str(info.get("revision", 0)), "catalogueName": str(info.get("name", ""))})
        if scope.children:
            box = SubElement(el, "selections")
            for i, sel in enumerate(scope.children):
                selection_el(box, sel, [], f"{pos}.{i}")
        if scope.forces:
            sub = SubElement(el, "forces")
            for i, nested in enumerate(scope.forces):
                force_el(sub, nested, f"{pos}.f{i}")

    for i, scope in enumerate(built.roster.forces):
        force_el(forces_el, scope, f"f{i}")
    for cid, cname in cost_types:  # costs come first in the document, but are only known now
        SubElement(costs_box, "cost", {"name": cname, "typeId": cid, "value": _value(totals.get(cid, 0))})
    if limits is not None and force.points_limit is not None:  # limits is made exactly when there is one
        pts_name = catalogue.cost_types.get(catalogue.points, "pts")
        SubElement(limits, "costLimit", {"name": pts_name, "typeId": catalogue.points,
                                         "value": _value(force.points_limit)})
    _indent(root)
    return b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + tostring(root, encoding="utf-8",
                                                                                  xml_declaration=False) + b"\n"


def _indent(el: Element, level: int = 0) -> None:
    pad = "\n" + "  " * (level + 1)
    if len(el):
        el.text = pad
        for child in el:
            _indent(child, level + 1)
            child.tail = pad
        el[-1].tail = "\n" + "  " * level


def zip_roster(xml: bytes, name: str = "roster.ros") -> bytes:
    """A .rosz: a zip holding the one .ros file."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(info, xml)
    return out.getvalue()
