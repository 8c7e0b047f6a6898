"""BattleScribe rosters in and out: ``.ros`` / ``.rosz`` (XML, BattleScribe 2.03) and New Recruit's
JSON form (``{"roster": {...}}``, same structure).

Pure Python over the engine's ``HandbookData`` (given through a catalog, as for list documents):

* :func:`read_roster_bytes` / :func:`read_roster_file`: hostile input → a plain roster dict
  (sizes, zip and nesting limits; errors name the file and the place).
* :func:`roster_to_document`: roster dict → our list document (JSON format v1), mapping entry
  paths (``link::target``, deeper ``a::b::c``) and ``entryGroupId`` back to our codes.
  Selections our model cannot hold are reported as warnings with their cost, never guessed.
* :func:`force_to_ros` / :func:`document_to_ros`: a list → roster XML bytes, element order per the
  XSD, each selection's costs as BattleScribe prices it (:mod:`armybuilder.rules.bspricing`),
  the roster's total per cost type. Ids are derived from the content, so exporting the same
  list twice gives the same bytes (export → import → export is byte-identical).

The plain roster dict (also what New Recruit's JSON holds)::

    {"id", "name", "gameSystemId", "gameSystemName", "gameSystemRevision",
     "costs": [{"name", "typeId", "value"}], "costLimits": [...],
     "forces": [{"id", "name", "entryId", "catalogueId", "catalogueRevision", "catalogueName",
                 "selections": [selection], "forces": [force]}]}
    selection = {"id", "name", "entryId", "entryGroupId", "number", "type",
                 "selections": [selection], "costs": [...], "categories": [...]}
"""
from __future__ import annotations

import hashlib
import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree.ElementTree import Element, SubElement, tostring

from armybuilder.rules import bspricing
from armybuilder.rules.force import Force

from .safe_read import DEFAULT_LIMITS, BattleScribeReadError, ReadLimits, _read_bounded, _unzip_single, parse_xml_bytes

ROSTER_NS = "http://www.battlescribe.net/schema/rosterSchema"
BATTLESCRIBE_VERSION = "2.03"
MAX_DEPTH = 40
MAX_SELECTIONS = 20000
MAX_TEXT = 500
ROSTER_SUFFIXES = {".ros", ".rosz", ".json"}


class RosterError(Exception):
    """A roster that cannot be read or mapped; ``problems`` say what and where."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


# -- reading --------------------------------------------------------------------------
def read_roster_file(path: Path | str, *, limits: ReadLimits = DEFAULT_LIMITS) -> dict:
    path = Path(path)
    source = path.name
    suffix = path.suffix.lower()
    if suffix not in ROSTER_SUFFIXES:
        raise RosterError([f"{source}: not a roster file (.ros, .rosz or New Recruit .json)"])
    limit = limits.max_zip_bytes if suffix == ".rosz" else limits.max_xml_bytes
    try:
        with path.open("rb") as stream:
            data = _read_bounded(stream, limit, source, "file")
    except BattleScribeReadError as exc:
        raise RosterError([str(exc)]) from None
    except OSError as exc:
        raise RosterError([f"{source}: cannot read file ({exc.strerror or exc})"]) from None
    return read_roster_bytes(data, source, limits=limits)


def read_roster_bytes(data: bytes, source: str, *, limits: ReadLimits = DEFAULT_LIMITS) -> dict:
    """A roster from file content: zip (.rosz), XML (.ros) or New Recruit JSON, told apart by content."""
    try:
        if data[:4] == b"PK\x03\x04":
            source, data = _unzip_single(data, source, limits)
        elif len(data) > limits.max_xml_bytes:
            raise BattleScribeReadError(source, f"file is {len(data)} bytes; the limit is {limits.max_xml_bytes}")
        head = data.lstrip()[:1]
        if head in (b"{", b"["):
            return _from_json(data, source)
        root = parse_xml_bytes(data, source)
    except BattleScribeReadError as exc:
        raise RosterError([str(exc)]) from None
    if root.tag != f"{{{ROSTER_NS}}}roster":
        raise RosterError([f"{source}: root element {root.tag!r} is not a BattleScribe roster"])
    counter = [0]
    return _roster_from_xml(root, source, counter)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _children(el: Element, container: str, item: str) -> list[Element]:
    out = []
    for c in el:
        if _local(c.tag) == container:
            out.extend(x for x in c if _local(x.tag) == item)
    return out


def _costs_xml(el: Element, container="costs", item="cost") -> list[dict]:
    out = []
    for c in _children(el, container, item):
        out.append({"name": c.get("name", ""), "typeId": c.get("typeId", ""), "value": _num(c.get("value"))})
    return out


def _num(text) -> float:
    try:
        value = float(text)
    except (TypeError, ValueError):
        return 0.0
    return value if value == value and abs(value) < 1e9 else 0.0  # no NaN, no absurd values


def _attrs(el: Element, names: tuple) -> dict:
    return {n: el.get(n)[:MAX_TEXT] for n in names if el.get(n) is not None}


def _selection_from_xml(el: Element, where: str, depth: int, counter: list, source: str) -> dict:
    if depth > MAX_DEPTH:
        raise RosterError([f"{source}: {where}: selections nested deeper than {MAX_DEPTH} levels"])
    counter[0] += 1
    if counter[0] > MAX_SELECTIONS:
        raise RosterError([f"{source}: more than {MAX_SELECTIONS} selections"])
    sel = _attrs(el, ("id", "name", "entryId", "entryGroupId", "type", "customName"))
    sel["number"] = el.get("number", "1")
    sel["costs"] = _costs_xml(el)
    sel["categories"] = [_attrs(c, ("id", "name", "entryId", "primary")) for c in _children(el, "categories", "category")]
    sel["selections"] = [_selection_from_xml(c, f"{where}/selections/{i}", depth + 1, counter, source)
                         for i, c in enumerate(_children(el, "selections", "selection"))]
    return sel


def _force_from_xml(el: Element, where: str, depth: int, counter: list, source: str) -> dict:
    if depth > 8:
        raise RosterError([f"{source}: {where}: forces nested deeper than 8 levels"])
    force = _attrs(el, ("id", "name", "entryId", "catalogueId", "catalogueRevision", "catalogueName"))
    force["selections"] = [_selection_from_xml(c, f"{where}/selections/{i}", 1, counter, source)
                           for i, c in enumerate(_children(el, "selections", "selection"))]
    force["forces"] = [_force_from_xml(c, f"{where}/forces/{i}", depth + 1, counter, source)
                       for i, c in enumerate(_children(el, "forces", "force"))]
    return force


def _roster_from_xml(root: Element, source: str, counter: list) -> dict:
    roster = _attrs(root, ("id", "name", "gameSystemId", "gameSystemName", "gameSystemRevision"))
    roster["source"] = source
    roster["costs"] = _costs_xml(root)
    roster["costLimits"] = _costs_xml(root, "costLimits", "costLimit")
    roster["forces"] = [_force_from_xml(f, f"/roster/forces/{i}", 1, counter, source)
                        for i, f in enumerate(_children(root, "forces", "force"))]
    return roster


# New Recruit JSON: the same structure; containers may be lists or {"<item>": [...]} objects.
def _from_json(data: bytes, source: str) -> dict:
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise RosterError([f"{source}: not valid JSON ({exc})"]) from None
    except RecursionError:
        raise RosterError([f"{source}: JSON nested too deeply"]) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("roster"), dict):
        raise RosterError([f"{source}: a New Recruit roster is an object with a 'roster' object"])
    counter = [0]
    root = doc["roster"]
    roster = _json_attrs(root, ("id", "name", "gameSystemId", "gameSystemName", "gameSystemRevision"))
    roster["source"] = source
    roster["costs"] = _json_costs(root.get("costs"), "cost", f"{source}: /roster/costs")
    roster["costLimits"] = _json_costs(root.get("costLimits"), "costLimit", f"{source}: /roster/costLimits")
    roster["forces"] = [_json_force(f, f"/roster/forces/{i}", 1, counter, source)
                        for i, f in enumerate(_json_list(root.get("forces"), "force", f"{source}: /roster/forces"))]
    return roster


def _json_list(value, item: str, where: str) -> list:
    if value is None:
        return []
    if isinstance(value, dict) and item in value:
        value = value[item]
        if isinstance(value, dict):
            value = [value]
    if not isinstance(value, list):
        raise RosterError([f"{where}: expected a list"])
    return value


def _json_attrs(obj: dict, names: tuple) -> dict:
    out = {}
    for n in names:
        v = obj.get(n)
        if v is not None and not isinstance(v, (dict, list)):
            out[n] = str(v)[:MAX_TEXT]
    return out


def _json_costs(value, item: str, where: str) -> list[dict]:
    out = []
    for i, c in enumerate(_json_list(value, item, where)):
        if not isinstance(c, dict):
            raise RosterError([f"{where}/{i}: a cost is an object"])
        out.append({"name": str(c.get("name", ""))[:MAX_TEXT], "typeId": str(c.get("typeId", ""))[:MAX_TEXT],
                    "value": _num(c.get("value"))})
    return out


def _json_selection(obj, where: str, depth: int, counter: list, source: str) -> dict:
    if not isinstance(obj, dict):
        raise RosterError([f"{source}: {where}: a selection is an object"])
    if depth > MAX_DEPTH:
        raise RosterError([f"{source}: {where}: selections nested deeper than {MAX_DEPTH} levels"])
    counter[0] += 1
    if counter[0] > MAX_SELECTIONS:
        raise RosterError([f"{source}: more than {MAX_SELECTIONS} selections"])
    sel = _json_attrs(obj, ("id", "name", "entryId", "entryGroupId", "type", "customName"))
    sel["number"] = str(obj.get("number", "1"))
    sel["costs"] = _json_costs(obj.get("costs"), "cost", f"{source}: {where}/costs")
    sel["categories"] = [_json_attrs(c, ("id", "name", "entryId", "primary")) for c in
                         _json_list(obj.get("categories"), "category", f"{source}: {where}/categories")
                         if isinstance(c, dict)]
    sel["selections"] = [_json_selection(c, f"{where}/selections/{i}", depth + 1, counter, source)
                         for i, c in enumerate(_json_list(obj.get("selections"), "selection",
                                                          f"{source}: {where}/selections"))]
    return sel


def _json_force(obj, where: str, depth: int, counter: list, source: str) -> dict:
    if not isinstance(obj, dict):
        raise RosterError([f"{source}: {where}: a force is an object"])
    if depth > 8:
        raise RosterError([f"{source}: {where}: forces nested deeper than 8 levels"])
    force = _json_attrs(obj, ("id", "name", "entryId", "catalogueId", "catalogueRevision", "catalogueName"))
    force["selections"] = [_json_selection(c, f"{where}/selections/{i}", 1, counter, source)
                           for i, c in enumerate(_json_list(obj.get("selections"), "selection",
                                                            f"{source}: {where}/selections"))]
    force["forces"] = [_json_force(c, f"{where}/forces/{i}", depth + 1, counter, source)
                       for i, c in enumerate(_json_list(obj.get("forces"), "force", f"{source}: {where}/forces"))]
    return force


# -- roster -> list document -------------------------------------------------------------------
def _keys(path: str) -> list[str]:
    """Lookup keys of a roster entry path: its last two ids (link::target), then its last id."""
    parts = [p for p in str(path or "").split("::") if p]
    keys = []
    if len(parts) >= 2:
        keys.append(f"{parts[-2]}::{parts[-1]}")
    if parts:
        keys.append(parts[-1])
    return keys


def _bs(extra) -> dict:
    bs = extra.get("bs") if isinstance(extra, dict) else None
    return bs if isinstance(bs, dict) else {}


def _entry_keys(extra) -> list[str]:
    bs = _bs(extra)
    return [k for k in (bs.get("path"), bs.get("entry")) if k]


def _count(sel: dict) -> int:
    try:
        n = int(float(sel.get("number", 1)))
    except (TypeError, ValueError):
        return 1
    return max(0, min(n, 10000))


@dataclass
class MappedRoster:
    document: dict
    warnings: list[str] = field(default_factory=list)
    costs: dict[str, float] = field(default_factory=dict)  # the roster's own totals by cost-type name
    skipped_costs: dict[str, float] = field(default_factory=dict)  # costs of selections not imported


class _BookIndex:
    """Where each BattleScribe entry of one handbook went in our data."""

    def __init__(self, hb):
        self.hb = hb
        self.formations: dict[str, str] = {}
        for f in hb.formations.values():
            for k in _entry_keys(f.extra):
                self.formations.setdefault(k, f.code)
        self.support: dict[str, list] = {}  # unit key -> [(box, unit)]
        for box in hb.support_boxes:
            for choice in box.choices:
                unit = hb.units.get(choice.unit) if choice.unit else None
                if unit is not None:
                    for k in _entry_keys(unit.extra):
                        self.support.setdefault(k, []).append((box, unit))
        self.cards: dict[str, list] = {}
        self.wrappers: dict[str, list] = {}
        for card in hb.cards.values():
            for k in _entry_keys(card.extra):
                self.cards.setdefault(k, []).append(card)
            wrapper = _bs(card.extra).get("wrapper")
            if isinstance(wrapper, dict):
                for k in (wrapper.get("path"), wrapper.get("entry")):
                    if k:
                        self.wrappers.setdefault(k, []).append(card)

    def find(self, table: dict, path: str):
        for k in _keys(path):
            if k in table:
                return table[k]
        return None


class _Mapper:
    def __init__(self, roster: dict, catalog, systems: tuple[str, ...]):
        self.roster = roster
        self.catalog = catalog
        self.systems = systems
        self.source = roster.get("source", "roster")
        self.warnings: list[str] = []
        self.errors: list[str] = []
        self.skipped: dict[str, float] = {}
        self.cost_names = {c.get("typeId"): c.get("name") for c in roster.get("costs", [])}

    def warn(self, where: str, message: str) -> None:
        self.warnings.append(f"{self.source}: {where}: {message}")

    def error(self, where: str, message: str) -> None:
        self.errors.append(f"{self.source}: {where}: {message}")

    def skip(self, sel: dict, where: str, why: str) -> None:
        total = {}
        stack = [sel]
        while stack:
            s = stack.pop()
            for c in s.get("costs", []):
                total[c.get("name") or c.get("typeId")] = total.get(c.get("name") or c.get("typeId"), 0) + c["value"]
            stack.extend(s.get("selections", []))
        for k, v in total.items():
            self.skipped[k] = self.skipped.get(k, 0) + v
        costs = ", ".join(f"{v:g} {k}" for k, v in total.items() if v)
        self.warn(where, f"{sel.get('name') or sel.get('entryId')!r} ({sel.get('entryId')}) {why}; not imported"
                  + (f" (it costs {costs})" if costs else ""))

    # handbooks
    def handbook(self, force: dict, where: str):
        code = force.get("catalogueId") or ""
        if not code:
            self.error(where, "the force names no catalogueId")
            return None, None
        wanted = force.get("catalogueRevision")
        for system in self.systems:
            revisions = self.catalog.revisions(system, code)
            if not revisions:
                continue
            revision = max(revisions)
            if wanted and wanted.isdigit() and int(wanted) in revisions:
                revision = int(wanted)
            elif wanted and wanted.isdigit():
                self.warn(where, f"catalogue revision {wanted} is not loaded; using revision {revision}")
            data = self.catalog.handbook(system, code, revision)
            if data is not None:
                return data, system
        self.error(where, f"catalogue {code!r} ({force.get('catalogueName', '?')}) is not imported; import its "
                   "BattleScribe data first (python manage.py import_battlescribe)")
        return None, None

    def map(self) -> MappedRoster:
        forces = self.roster.get("forces", [])
        if not forces:
            raise RosterError([f"{self.source}: the roster has no forces"])
        main, system = self.handbook(forces[0], "/roster/forces/0")
        if main is None:
            raise RosterError(self.errors)
        self.doc = {"format": "armybuilder-list", "version": 1,
                    "name": (self.roster.get("name") or "Imported roster").strip()[:120] or "Imported roster",
                    "system": system, "handbook": {"code": main.code, "revision": main.revision},
                    "points_limit": self.points_limit(main), "variant": None, "year": None, "notes": "",
                    "formations": [], "support": [], "cards": []}
        self.system = system
        self.main = main
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
            raise RosterError(self.errors)
        costs = {}
        for c in self.roster.get("costs", []):
            costs[c.get("name") or c.get("typeId")] = c["value"]
        return MappedRoster(self.doc, self.warnings, costs, self.skipped)

    def points_limit(self, hb) -> int | None:
        pts = bspricing.points_cost_type(hb)
        for c in self.roster.get("costLimits", []):
            if c.get("typeId") == pts and c["value"] > 0:
                return int(c["value"])
        return None

    def force(self, force: dict, hb, where: str, allied: bool) -> None:
        index = _BookIndex(hb)
        for i, sel in enumerate(force.get("selections", [])):
            here = f"{where}/selections/{i}"
            path = sel.get("entryId", "")
            formation_code = index.find(index.formations, path)
            if formation_code is not None:
                self.formation(sel, hb, index, formation_code, here, allied)
                continue
            if allied:
                self.skip(sel, here, "is not a formation (an allied force holds formations only here)")
                continue
            placed = index.find(index.support, path)
            if placed:
                box, unit = self.pick_box(placed, sel)
                doc = self.unit(sel, hb, unit, box.code, here, f"/support/{len(self.doc['support'])}", index)
                if doc is not None:
                    self.doc["support"].append(doc)
                continue
            cards = index.find(index.cards, path)
            if cards:
                self.card(cards, None, here)
                continue
            wrapped = index.find(index.wrappers, path)
            if wrapped:
                for j, child in enumerate(sel.get("selections", [])):
                    chosen = [c for c in wrapped if any(k in _keys(child.get("entryId", "")) for k in _entry_keys(c.extra))]
                    if chosen:
                        self.card(chosen, None, f"{here}/selections/{j}")
                    else:
                        self.skip(child, f"{here}/selections/{j}", "is not a card of this handbook")
                continue
            self.skip(sel, here, "is not a formation, support unit or card of this handbook")

    @staticmethod
    def pick_box(placed: list, sel: dict):
        group_keys = set(_keys(sel.get("entryGroupId", "")))
        for box, unit in placed:
            if _bs(box.extra).get("id") in group_keys:
                return box, unit
        return placed[0]

    def formation(self, sel: dict, hb, index: _BookIndex, code: str, where: str, allied: bool) -> None:
        formation = hb.formations[code]
        f_index = len(self.doc["formations"])
        pointer = f"/formations/{f_index}"
        fdoc = {"formation": code}
        if hb.code != self.main.code or hb.revision != self.main.revision:
            fdoc["handbook"] = {"code": hb.code, "revision": hb.revision}
        fdoc["allied"] = allied
        fdoc["units"] = []
        self.doc["formations"].append(fdoc)
        by_unit: dict[str, list] = {}
        for box in formation.boxes:
            paths = box.extra.get("choice_paths", {}) if isinstance(box.extra, dict) else {}
            for choice in box.choices:
                unit = hb.units.get(choice.unit) if choice.unit else None
                if unit is not None:
                    keys = _entry_keys(unit.extra)
                    if isinstance(paths, dict) and paths.get(unit.code):
                        keys = [paths[unit.code]] + keys
                    for k in keys:
                        by_unit.setdefault(k, []).append((box, unit))
        formation_cards = {k: [c] for c in hb.cards.values() for k in _entry_keys(c.extra)}
        for i, child in enumerate(sel.get("selections", [])):
            here = f"{where}/selections/{i}"
            path = child.get("entryId", "")
            placed = index.find(by_unit, path)
            if placed:
                box, unit = self.box_for(placed, child)
                doc = self.unit(child, hb, unit, box.code, here, f"{pointer}/units/{len(fdoc['units'])}", index)
                if doc is not None:
                    fdoc["units"].append(doc)
                continue
            cards = index.find(formation_cards, path)
            if cards:
                self.card(cards, pointer, here)
                continue
            self.skip(child, here, f"is not a unit or card of {formation.name!r} in our data (e.g. a "
                      "formation-level option)")
        if sel.get("number") not in (None, "1") and _count(sel) != 1:
            self.warn(where, f"number {sel.get('number')} of a formation is read as 1")

    @staticmethod
    def box_for(placed: list, sel: dict):
        """The box a unit selection was made in: its group (entryGroupId), or the box that is the
        entry link itself (a lone link in the formation); else the first box offering the unit."""
        group_keys = set(_keys(sel.get("entryGroupId", "")))
        entry_keys = set(_keys(sel.get("entryId", "")))
        for box, unit in placed:
            bs = _bs(box.extra)
            nested = box.extra.get("choice_groups", {}) if isinstance(box.extra, dict) else {}
            groups = nested.get(unit.code, []) if isinstance(nested, dict) else []
            if bs.get("kind") == "group" and (bs.get("id") in group_keys or (groups and groups[-1] in group_keys)):
                return box, unit
            if bs.get("kind") == "entry" and not group_keys and bs.get("id") in entry_keys:
                return box, unit
        return placed[0]

    def card(self, cards: list, target: str | None, where: str) -> None:
        card = cards[0]
        doc = {"card": card.code}
        if card.scope != "force" and target:
            doc["target"] = target
        elif card.scope != "force":
            self.warn(where, f"card {card.name!r} applies to a {card.scope} but sits at the force level; imported "
                      "without a target")
        self.doc["cards"].append(doc)

    def unit(self, sel: dict, hb, unit, box_code: str, where: str, pointer: str, index: _BookIndex) -> dict | None:
        extra = unit.extra if isinstance(unit.extra, dict) else {}
        options: dict[str, list] = {}
        for group in unit.groups:
            for up in group.upgrades:
                for k in _entry_keys(up.extra):
                    options.setdefault(k, []).append(up)
        sizes = {k: s for s in unit.sizes for k in _entry_keys(s.extra)}
        filler = extra.get("model_filler")
        filler_keys = set(_entry_keys(filler)) if isinstance(filler, dict) else set()
        chosen: dict[str, int] = {}
        size_code = None
        teams = 0
        unit_cards = {k: [c] for c in hb.cards.values() for k in _entry_keys(c.extra)}

        def walk(items, base):
            nonlocal size_code, teams
            for i, child in enumerate(items):
                here = f"{base}/selections/{i}"
                path = child.get("entryId", "")
                keys = _keys(path)
                number = _count(child)
                if isinstance(filler, dict) and child.get("type") == "model":
                    teams += number
                    if any(k in filler_keys for k in keys):
                        walk(child.get("selections", []), here)
                        continue
                size = next((sizes[k] for k in keys if k in sizes), None)
                if size is not None and not isinstance(filler, dict):
                    size_code = size.code
                    walk(child.get("selections", []), here)
                    continue
                ups = next((options[k] for k in keys if k in options), None)
                if ups:
                    up = self.choose_option(ups, child, unit)
                    chosen[up.code] = chosen.get(up.code, 0) + number
                    walk(child.get("selections", []), here)
                    continue
                cards = next((unit_cards[k] for k in keys if k in unit_cards), None)
                if cards:
                    self.card(cards, pointer, here)
                    continue
                self.skip(child, here, f"is not an option of {unit.name!r} in our data")

        walk(sel.get("selections", []), where)
        if isinstance(filler, dict):
            exact = [s for s in unit.sizes if s.teams == teams and "plus" not in s.code.rsplit("/", 1)[-1]]
            atleast = sorted((s for s in unit.sizes if s.teams <= teams), key=lambda s: -s.teams)
            pick = exact[0] if exact else (atleast[0] if atleast else None)
            if pick is None:
                self.warn(where, f"{unit.name}: {teams} teams match no size ({', '.join(s.label for s in unit.sizes)})")
            size_code = pick.code if pick else None
        elif size_code is None and len(unit.sizes) == 1:
            size_code = unit.sizes[0].code
        elif size_code is None:
            self.warn(where, f"{unit.name}: no size chosen")
        if _count(sel) != 1:
            self.warn(where, f"number {sel.get('number')} of a unit is read as 1")
        upgrades = []
        order = {u.code: i for i, u in enumerate(u for g in unit.groups for u in g.upgrades)}
        for code in sorted(chosen, key=lambda c: order.get(c, 0)):
            if chosen[code] > 0:
                upgrades.append({"upgrade": code, "quantity": min(chosen[code], 100)})
        return {"box": box_code, "unit": unit.code, "size": size_code, "upgrades": upgrades}

    @staticmethod
    def choose_option(ups: list, sel: dict, unit):
        if len(ups) == 1:
            return ups[0]
        group_keys = set(_keys(sel.get("entryGroupId", "")))
        info = unit.extra.get("upgrade_groups", {}) if isinstance(unit.extra, dict) else {}
        for up in ups:
            gcode = up.code.split("/", 1)[0]
            gbs = info.get(gcode, {}).get("bs", {}) if isinstance(info.get(gcode), dict) else {}
            if gbs.get("id") in group_keys or gcode in group_keys:
                return up
        return ups[0]


def roster_to_document(roster: dict, catalog, *, systems: tuple[str, ...] = ("fow4",)) -> MappedRoster:
    """Map a roster (as read by :func:`read_roster_bytes`) onto our list document.

    ``catalog`` is any object with ``handbook(system, code, revision)`` and ``revisions(system, code)``
    (e.g. ``armybuilder.lists.selectors.DbCatalog``); ``systems`` are the game-system codes to look
    the roster's catalogues up in. Raises :class:`RosterError` when the roster cannot be mapped at
    all; selections our model cannot hold become ``warnings``.
    """
    if not isinstance(roster, dict):
        raise RosterError(["a roster is an object"])
    return _Mapper(roster, catalog, tuple(systems)).map()


# -- list -> roster XML ---------------------------------------------------------------------------------
def _id(seed: str, *parts) -> str:
    digest = hashlib.sha1("|".join([seed, *map(str, parts)]).encode()).hexdigest()
    return f"{digest[0:4]}-{digest[4:8]}-{digest[8:12]}-{digest[12:16]}"


def _value(v: float) -> str:
    v = float(v)
    return repr(round(v, 4)) if not v.is_integer() else f"{v:.1f}"


def force_to_ros(force: Force, *, name: str | None = None) -> bytes:
    """The force as a BattleScribe 2.03 roster (XML bytes), costs per selection and in total."""
    hb = force.handbook
    hbx = hb.extra.get("battlescribe", {}) if isinstance(hb.extra, dict) else {}
    if not isinstance(hbx, dict) or not hbx:
        raise RosterError([f"{hb.name} was not imported from BattleScribe data; only such lists export as .ros"])
    tree = bspricing.force_tree(force)
    evaluator = bspricing.Evaluator(tree.forces, tree.cost_ids, tree.system_id)
    cost_types = [c for c in hbx.get("cost_types", []) if isinstance(c, dict) and c.get("id")] or \
        [{"id": tree.pts, "name": "pts"}]
    seed = hashlib.sha1(json.dumps(tree.as_selection_tree(), sort_keys=True).encode() +
                        (name or force.name or "").encode()).hexdigest()
    totals = {c["id"]: 0.0 for c in cost_types}
    problems = []

    def costs_el(parent: Element, costs: dict) -> None:
        box = SubElement(parent, "costs")
        for c in cost_types:
            SubElement(box, "cost", {"name": str(c["name"]), "typeId": str(c["id"]), "value": _value(costs.get(c["id"], 0))})

    def selection(parent: Element, sel: bspricing.Sel, links: list[str], pos: str) -> None:
        parts = [p for p in sel.path.split("::") if p]
        group_parts = [p for p in sel.group.split("::") if p]
        entry_id = "::".join(links + group_parts[:-1] + parts) if parts else ""
        attrs = {"id": _id(seed, pos), "name": sel.name or "Selection", "entryId": entry_id}
        if group_parts:
            attrs["entryGroupId"] = "::".join(links + group_parts)
        attrs["number"] = str(sel.number)
        attrs["type"] = sel.type if sel.type in ("unit", "model", "upgrade") else "upgrade"
        el = SubElement(parent, "selection", attrs)
        try:
            costs = evaluator.total(sel)
        except bspricing.UnsupportedModifier as exc:
            problems.append(str(exc))
            costs = {k: v * sel.number for k, v in sel.base.items()}
        for k, v in costs.items():
            if k in totals:
                totals[k] += v
        child_links = links + group_parts[:-1] + parts[:-1]
        if sel.children:
            box = SubElement(el, "selections")
            for i, child in enumerate(sel.children):
                selection(box, child, child_links, f"{pos}.{i}")
        costs_el(el, costs)

    root = Element("roster", {"id": _id(seed, "roster"), "name": (name or force.name or "Roster")[:120],
                              "battleScribeVersion": BATTLESCRIBE_VERSION,
                              "gameSystemId": str(hbx.get("game_system_id", "")),
                              "gameSystemName": str(hbx.get("game_system_name", "")),
                              "gameSystemRevision": str(hbx.get("game_system_revision", "")),
                              "xmlns": ROSTER_NS})
    costs_box = SubElement(root, "costs")
    limits = SubElement(root, "costLimits") if force.points_limit is not None else None
    forces_el = SubElement(root, "forces")

    def force_el(parent: Element, node: bspricing.ForceNode, pos: str) -> None:
        data = node.ref
        fhx = data.extra.get("battlescribe", {}) if data is not None and isinstance(data.extra, dict) else {}
        el = SubElement(parent, "force", {"id": _id(seed, pos), "name": node.name or "Force", "entryId": node.entry_id,
                                          "catalogueId": node.catalogue_id,
                                          "catalogueRevision": str(fhx.get("revision", data.revision if data else "")),
                                          "catalogueName": data.name if data else ""})
        if node.children:
            box = SubElement(el, "selections")
            for i, sel in enumerate(node.children):
                selection(box, sel, [], f"{pos}.{i}")
        if node.forces:
            sub = SubElement(el, "forces")
            for i, f in enumerate(node.forces):
                force_el(sub, f, f"{pos}.f{i}")

    for i, node in enumerate(tree.forces):
        force_el(forces_el, node, f"f{i}")
    for c in cost_types:  # costs come first in the document, but are only known now
        SubElement(costs_box, "cost", {"name": str(c["name"]), "typeId": str(c["id"]),
                                       "value": _value(totals.get(c["id"], 0))})
    if limits is not None:
        pts_name = next((str(c["name"]) for c in cost_types if c["id"] == tree.pts), "pts")
        SubElement(limits, "costLimit", {"name": pts_name, "typeId": tree.pts, "value": _value(force.points_limit)})
    if problems:
        raise RosterError([f"cannot price for export: {p}" for p in problems])
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


def document_to_ros(doc: dict, catalog) -> bytes:
    """A list document (JSON format v1) as roster XML; RosterError if it does not resolve."""
    from armybuilder.interchange.listjson import resolve_force, validate_list_document

    problems = validate_list_document(doc)
    if not problems:
        force, problems = resolve_force(doc, catalog)
    if problems:
        raise RosterError([str(p) for p in problems])
    return force_to_ros(force, name=doc.get("name"))


def zip_roster(xml: bytes, name: str = "roster.ros") -> bytes:
    """A .rosz: a zip holding the one .ros file."""
    import io

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(info, xml)
    return out.getvalue()
