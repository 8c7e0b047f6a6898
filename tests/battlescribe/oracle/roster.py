"""Rosters as plain data, and BattleScribe 2.03 .ros/.rosz reading and writing.

A selection names its entry by path (`entry_id`): the ids of every entryLink passed from the force
root, then the final entry id, joined by '::'; `entry_group_id` names the innermost group the same
way. `number` is the selection's own count as stored in the file (never multiplied by ancestors).
"""
from __future__ import annotations

import io
import itertools
import zipfile
from dataclasses import dataclass, field
from xml.etree import ElementTree as ET

from defusedxml import ElementTree as SafeET

NS = "http://www.battlescribe.net/schema/rosterSchema"
_ids = itertools.count(1)


def new_id() -> str:
    """A roster-unique id in BattleScribe's xxxx-xxxx-xxxx-xxxx shape (deterministic per process)."""
    n = next(_ids)
    h = f"{n:016x}"
    return f"{h[0:4]}-{h[4:8]}-{h[8:12]}-{h[12:16]}"


@dataclass
class Selection:
    entry_id: str
    entry_group_id: str | None = None
    number: int = 1
    type: str = "upgrade"
    name: str = ""
    id: str = field(default_factory=new_id)
    children: list = field(default_factory=list)
    # As read from a file (or filled by `fill_costs`); evaluation never reads these.
    costs: dict = field(default_factory=dict)
    categories: list = field(default_factory=list)  # (category id, name, primary)

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()


@dataclass
class Force:
    catalogue_id: str
    entry_id: str  # the force entry
    selections: list = field(default_factory=list)
    name: str = ""
    catalogue_name: str = ""
    catalogue_revision: int = 0
    id: str = field(default_factory=new_id)
    forces: list = field(default_factory=list)  # nested forces
    categories: list = field(default_factory=list)  # (category id, name, primary) as written

    def walk(self):
        for s in self.selections:
            yield from s.walk()


@dataclass
class Roster:
    game_system_id: str
    forces: list = field(default_factory=list)
    name: str = "Oracle roster"
    id: str = field(default_factory=new_id)
    game_system_name: str = ""
    game_system_revision: int = 0
    cost_limits: dict = field(default_factory=dict)  # cost type id -> limit
    costs: dict = field(default_factory=dict)  # as read, or filled by `annotate`
    cost_names: dict = field(default_factory=dict)  # cost type id -> name, for writing

    def all_forces(self):
        todo = list(self.forces)
        while todo:
            f = todo.pop(0)
            yield f
            todo = list(f.forces) + todo


def _fmt(v: float) -> str:
    return f"{float(v):.1f}" if float(v) == int(v) else repr(float(v))


def _sub(parent, tag, **attrs):
    el = ET.SubElement(parent, f"{{{NS}}}{tag}")
    for k, v in attrs.items():
        if v is not None and v != "":
            el.set(k, str(v))
    return el


def _costs_el(parent, costs: dict, names: dict):
    if not costs:
        return
    el = _sub(parent, "costs")
    for type_id, value in costs.items():
        _sub(el, "cost", name=names.get(type_id, type_id), typeId=type_id, value=_fmt(value))


def _categories_el(parent, categories, owner_id):
    if not categories:
        return
    el = _sub(parent, "categories")
    for n, (cid, name, primary) in enumerate(categories):
        # BattleScribe gives each category element its own id and keeps the category id in entryId;
        # ours derive from the owner's id so that the same roster always writes the same bytes
        _sub(el, "category", id=f"{owner_id}-c{n}", name=name or cid, entryId=cid,
             primary="true" if primary else "false")


def _selection_el(parent, s: Selection, names):
    el = _sub(parent, "selection", id=s.id, name=s.name or s.entry_id.rsplit("::", 1)[-1], entryId=s.entry_id,
              entryGroupId=s.entry_group_id, number=int(s.number), type=s.type)
    # element order per the XSD: (customNotes, rules, profiles), selections, costs, categories
    if s.children:
        sels = _sub(el, "selections")
        for c in s.children:
            _selection_el(sels, c, names)
    _costs_el(el, s.costs, names)
    _categories_el(el, s.categories, s.id)


def _force_el(parent, f: Force, names):
    el = _sub(parent, "force", id=f.id, name=f.name or "Force", entryId=f.entry_id, catalogueId=f.catalogue_id,
              catalogueRevision=f.catalogue_revision or None, catalogueName=f.catalogue_name or None)
    if f.selections:
        sels = _sub(el, "selections")
        for s in f.selections:
            _selection_el(sels, s, names)
    _categories_el(el, f.categories, f.id)
    if f.forces:
        forces = _sub(el, "forces")
        for sub in f.forces:
            _force_el(forces, sub, names)


def write_ros(roster: Roster, cost_names: dict | None = None) -> bytes:
    """The roster as BattleScribe 2.03 .ros XML (UTF-8 bytes)."""
    names = dict(roster.cost_names)
    names.update(cost_names or {})
    root = ET.Element(f"{{{NS}}}roster")
    for k, v in (("id", roster.id), ("name", roster.name), ("battleScribeVersion", "2.03"),
                 ("gameSystemId", roster.game_system_id), ("gameSystemName", roster.game_system_name or None),
                 ("gameSystemRevision", roster.game_system_revision or None)):
        if v is not None:
            root.set(k, str(v))
    _costs_el(root, roster.costs, names)
    if roster.cost_limits:
        limits = _sub(root, "costLimits")
        for type_id, value in roster.cost_limits.items():
            _sub(limits, "costLimit", name=names.get(type_id, type_id), typeId=type_id, value=_fmt(value))
    if roster.forces:
        forces = _sub(root, "forces")
        for f in roster.forces:
            _force_el(forces, f, names)
    ET.register_namespace("", NS)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def write_rosz(roster: Roster, cost_names: dict | None = None, inner_name="roster.ros") -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(inner_name, write_ros(roster, cost_names))
    return buf.getvalue()


def _local(el) -> str:
    return el.tag.rsplit("}", 1)[-1]


def _list(el, name):
    for c in el:
        if _local(c) == name:
            return list(c)
    return []


def _read_costs(el) -> dict:
    return {c.get("typeId", ""): float(c.get("value", "0")) for c in _list(el, "costs")}


def _read_categories(el) -> list:
    return [(c.get("entryId", ""), c.get("name", ""), c.get("primary") == "true") for c in _list(el, "categories")]


def _read_selection(el) -> Selection:
    return Selection(entry_id=el.get("entryId", ""), entry_group_id=el.get("entryGroupId"),
                     number=int(float(el.get("number", "1"))), type=el.get("type", "upgrade"), name=el.get("name", ""),
                     id=el.get("id", ""), children=[_read_selection(c) for c in _list(el, "selections")],
                     costs=_read_costs(el), categories=_read_categories(el))


def _read_force(el) -> Force:
    return Force(catalogue_id=el.get("catalogueId", ""), entry_id=el.get("entryId", ""),
                 selections=[_read_selection(c) for c in _list(el, "selections")], name=el.get("name", ""),
                 catalogue_name=el.get("catalogueName", ""), catalogue_revision=int(el.get("catalogueRevision", "0")),
                 id=el.get("id", ""), forces=[_read_force(c) for c in _list(el, "forces")],
                 categories=_read_categories(el))


def read_ros(data: bytes) -> Roster:
    """A .ros (XML) or .rosz (zip holding one .ros) as a Roster."""
    if data[:2] == b"PK":
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            names = [n for n in z.namelist() if not n.endswith("/")]
            if len(names) != 1:
                raise ValueError(f".rosz must hold exactly one file, found {len(names)}")
            data = z.read(names[0])
    root = SafeET.fromstring(data)
    if _local(root) != "roster":
        raise ValueError(f"not a BattleScribe roster: root element is <{_local(root)}>")
    return Roster(game_system_id=root.get("gameSystemId", ""), forces=[_read_force(f) for f in _list(root, "forces")],
                  name=root.get("name", ""), id=root.get("id", ""), game_system_name=root.get("gameSystemName", ""),
                  game_system_revision=int(root.get("gameSystemRevision", "0")),
                  cost_limits={c.get("typeId", ""): float(c.get("value", "0")) for c in _list(root, "costLimits")},
                  costs=_read_costs(root))
