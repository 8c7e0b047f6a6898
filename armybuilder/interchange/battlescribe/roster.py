"""Reading BattleScribe rosters: ``.ros`` / ``.rosz`` (XML, BattleScribe 2.03) and New Recruit's
JSON form (``{"roster": {...}}``, same structure). Mapping a roster onto a list is
:mod:`.roster_map`; writing one is :mod:`.roster_write`.

:func:`read_roster_bytes` / :func:`read_roster_file` turn hostile input into a plain roster dict
(sizes, zip and nesting limits; errors name the file and the place).

The plain roster dict (also what New Recruit's JSON holds)::

    {"id", "name", "gameSystemId", "gameSystemName", "gameSystemRevision",
     "costs": [{"name", "typeId", "value"}], "costLimits": [...],
     "forces": [{"id", "name", "entryId", "catalogueId", "catalogueRevision", "catalogueName",
                 "selections": [selection], "forces": [force]}]}
    selection = {"id", "name", "entryId", "entryGroupId", "number", "type",
                 "selections": [selection], "costs": [...], "categories": [...]}
"""
from __future__ import annotations

from pathlib import Path
from xml.etree.ElementTree import Element

from armybuilder.safejson import loads_strict

from .safe_read import BattleScribeReadError, ReadLimits, _read_bounded, _unzip_single, parse_xml_bytes

ROSTER_NS = "http://www.battlescribe.net/schema/rosterSchema"
BATTLESCRIBE_VERSION = "2.03"
MAX_DEPTH = 40
MAX_SELECTIONS = 20000
MAX_TEXT = 500
TEXT_LIMITS = {"customNotes": 2000}  # a player's notes on a unit may be longer than a name (docs/list-format.md)
ROSTER_SUFFIXES = {".ros", ".rosz", ".json"}
# A roster is a list of selections, far smaller than a catalogue: a large real one is a few hundred KB.
MAX_ROSTER_BYTES = 1536 * 1024
ROSTER_LIMITS = ReadLimits(max_xml_bytes=MAX_ROSTER_BYTES, max_zip_bytes=1024 * 1024)


class BattleScribeRosterError(Exception):
    """A roster that cannot be read or mapped; ``problems`` say what and where."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


# -- reading --------------------------------------------------------------------------
def read_roster_file(path: Path | str, *, limits: ReadLimits = ROSTER_LIMITS) -> dict:
    path = Path(path)
    source = path.name
    suffix = path.suffix.lower()
    if suffix not in ROSTER_SUFFIXES:
        raise BattleScribeRosterError([f"{source}: not a roster file (.ros, .rosz or New Recruit .json)"])
    limit = limits.max_zip_bytes if suffix == ".rosz" else limits.max_xml_bytes
    try:
        with path.open("rb") as stream:
            data = _read_bounded(stream, limit, source, "file")
    except BattleScribeReadError as exc:
        raise BattleScribeRosterError([str(exc)]) from None
    except OSError as exc:
        raise BattleScribeRosterError([f"{source}: cannot read file ({exc.strerror or exc})"]) from None
    return read_roster_bytes(data, source, limits=limits)


def read_roster_bytes(data: bytes, source: str, *, limits: ReadLimits = ROSTER_LIMITS) -> dict:
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
        raise BattleScribeRosterError([str(exc)]) from None
    if root.tag != f"{{{ROSTER_NS}}}roster":
        raise BattleScribeRosterError([f"{source}: root element {root.tag!r} is not a BattleScribe roster"])
    counter = [0]
    return _roster_from_xml(root, source, counter)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _children(el: Element, container: str, item: str) -> list[Element]:
    out: list[Element] = []
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


MAX_NUMBER = 10000


def _number(value, where: str, source: str) -> str:
    """A selection's ``number``: a whole count from 0 to MAX_NUMBER (BattleScribe writes "1", "2", "1.0")."""
    text = str(value).strip()
    try:
        count = float(text) if len(text) <= 20 else None
    except ValueError:
        count = None
    if count is None or not 0 <= count <= MAX_NUMBER or count != int(count):  # NaN fails the range test
        shown = text if len(text) <= 20 else text[:20] + f"… ({len(text)} characters)"
        raise BattleScribeRosterError([f"{source}: {where}/number: {shown!r} is not a count from 0 to {MAX_NUMBER}"])
    return text


def _attrs(el: Element, names: tuple) -> dict:
    return {n: v[:TEXT_LIMITS.get(n, MAX_TEXT)] for n in names if (v := el.get(n)) is not None}


def _selection_from_xml(el: Element, where: str, depth: int, counter: list, source: str) -> dict:
    if depth > MAX_DEPTH:
        raise BattleScribeRosterError([f"{source}: {where}: selections nested deeper than {MAX_DEPTH} levels"])
    counter[0] += 1
    if counter[0] > MAX_SELECTIONS:
        raise BattleScribeRosterError([f"{source}: more than {MAX_SELECTIONS} selections"])
    sel = _attrs(el, ("id", "name", "entryId", "entryGroupId", "type", "customName", "customNotes"))
    sel["number"] = _number(el.get("number", "1"), where, source)
    sel["costs"] = _costs_xml(el)
    sel["categories"] = [_attrs(c, ("id", "name", "entryId", "primary"))
                         for c in _children(el, "categories", "category")]
    sel["selections"] = [_selection_from_xml(c, f"{where}/selections/{i}", depth + 1, counter, source)
                         for i, c in enumerate(_children(el, "selections", "selection"))]
    return sel


def _force_from_xml(el: Element, where: str, depth: int, counter: list, source: str) -> dict:
    if depth > 8:
        raise BattleScribeRosterError([f"{source}: {where}: forces nested deeper than 8 levels"])
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
        doc = loads_strict(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise BattleScribeRosterError([f"{source}: not valid JSON ({exc})"]) from None
    except RecursionError:
        raise BattleScribeRosterError([f"{source}: JSON nested too deeply"]) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("roster"), dict):
        raise BattleScribeRosterError([f"{source}: a New Recruit roster is an object with a 'roster' object"])
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
        raise BattleScribeRosterError([f"{where}: expected a list"])
    return value


def _json_attrs(obj: dict, names: tuple) -> dict:
    out = {}
    for n in names:
        v = obj.get(n)
        if v is not None and not isinstance(v, (dict, list)):
            out[n] = str(v)[:TEXT_LIMITS.get(n, MAX_TEXT)]
    return out


def _json_costs(value, item: str, where: str) -> list[dict]:
    out = []
    for i, c in enumerate(_json_list(value, item, where)):
        if not isinstance(c, dict):
            raise BattleScribeRosterError([f"{where}/{i}: a cost is an object"])
        out.append({"name": str(c.get("name", ""))[:MAX_TEXT], "typeId": str(c.get("typeId", ""))[:MAX_TEXT],
                    "value": _num(c.get("value"))})
    return out


def _json_selection(obj, where: str, depth: int, counter: list, source: str) -> dict:
    if not isinstance(obj, dict):
        raise BattleScribeRosterError([f"{source}: {where}: a selection is an object"])
    if depth > MAX_DEPTH:
        raise BattleScribeRosterError([f"{source}: {where}: selections nested deeper than {MAX_DEPTH} levels"])
    counter[0] += 1
    if counter[0] > MAX_SELECTIONS:
        raise BattleScribeRosterError([f"{source}: more than {MAX_SELECTIONS} selections"])
    sel = _json_attrs(obj, ("id", "name", "entryId", "entryGroupId", "type", "customName", "customNotes"))
    sel["number"] = _number(obj.get("number", "1"), where, source)
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
        raise BattleScribeRosterError([f"{source}: {where}: a force is an object"])
    if depth > 8:
        raise BattleScribeRosterError([f"{source}: {where}: forces nested deeper than 8 levels"])
    force = _json_attrs(obj, ("id", "name", "entryId", "catalogueId", "catalogueRevision", "catalogueName"))
    force["selections"] = [_json_selection(c, f"{where}/selections/{i}", 1, counter, source)
                           for i, c in enumerate(_json_list(obj.get("selections"), "selection",
                                                            f"{source}: {where}/selections"))]
    force["forces"] = [_json_force(c, f"{where}/forces/{i}", depth + 1, counter, source)
                       for i, c in enumerate(_json_list(obj.get("forces"), "force", f"{source}: {where}/forces"))]
    return force


# -- helpers for mapping -----------------------------------------------------------------------------
def _keys(path: str) -> list[str]:
    """Lookup keys of a roster entry path: its last two ids (link::target), then its last id."""
    parts = [p for p in str(path or "").split("::") if p]
    keys = []
    if len(parts) >= 2:
        keys.append(f"{parts[-2]}::{parts[-1]}")
    if parts:
        keys.append(parts[-1])
    return keys


def _count(sel: dict) -> int:
    try:
        n = int(float(sel.get("number", 1)))
    except (TypeError, ValueError, OverflowError):
        return 1
    return max(0, min(n, 10000))
