"""A roster's selection tree, bound to a catalogue: what the evaluator walks.

Callers describe selections as :class:`SelectionData` (pure, hashable, what a list stores: an
entry path relative to the parent, a number, children) and bind them to a :class:`Catalogue`
with :func:`bind_force`. Binding finds each selection's :class:`Slot` in its parent's layout;
a path the catalogue does not offer there becomes a :class:`BindProblem`, never a guess.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .catalogue import Catalogue, Entry, Slot

MAX_NUMBER = 10_000  # a selection's number; more is a broken or hostile file
MAX_DEPTH = 40


@dataclass(frozen=True, slots=True)
class SelectionData:
    """One selection as a list keeps it: ``entry`` is the roster entry path relative to the parent
    (link ids traversed, then the entry id, ``::``-joined)."""

    entry: str
    number: int = 1
    children: tuple = ()

    def as_dict(self) -> dict:
        doc: dict = {"entry": self.entry, "number": self.number}
        if self.children:
            doc["selections"] = [c.as_dict() for c in self.children]
        return doc

    @classmethod
    def from_dict(cls, doc: dict) -> SelectionData:
        return cls(entry=str(doc["entry"]), number=int(doc.get("number", 1)),
                   children=tuple(cls.from_dict(c) for c in doc.get("selections") or ()))

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass(eq=False, slots=True)
class Sel:
    """A bound selection."""

    slot: Slot
    number: int
    force: ForceScope
    parent: Sel | None = None
    children: list = field(default_factory=list)
    ref: object = None  # the caller's handle (a JSON pointer into the list document)
    role: str = ""  # the caller's word for it (formation, unit, card …)
    keys: frozenset = frozenset()  # set by the evaluation: what conditions can count it as

    @property
    def entry(self) -> Entry:
        return self.slot.entry

    @property
    def container(self):
        return self.parent if self.parent is not None else self.force

    def walk(self):
        """This selection and everything under it, depth first (no recursion: trees can be deep)."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def ancestors(self):
        node = self.parent
        while node is not None:
            yield node
            node = node.parent


@dataclass(eq=False, slots=True)
class ForceScope:
    """One force of the roster: a catalogue and its force entry, holding root selections."""

    catalogue: Catalogue
    entry: Entry | None
    children: list = field(default_factory=list)  # root selections
    forces: list = field(default_factory=list)  # nested forces
    parent: ForceScope | None = None
    ref: object = None

    @property
    def ids(self) -> set:
        out = {self.catalogue.catalogue_id}
        if self.entry is not None:
            out.add(self.entry.id)
        return out

    def walk(self):
        stack = list(reversed(self.children))
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))


@dataclass(eq=False, slots=True)
class Roster:
    forces: list  # top-level ForceScope, each with nested ones
    cost_limits: dict = field(default_factory=dict)  # cost type id -> limit (the list's points limit)

    def all_forces(self):
        stack = list(self.forces)
        while stack:
            force = stack.pop(0)
            yield force
            stack.extend(force.forces)

    @property
    def children(self) -> list:
        return [root for force in self.all_forces() for root in force.children]


@dataclass(frozen=True, slots=True)
class BindProblem:
    pointer: str
    message: str


def bind(catalogue: Catalogue, data: SelectionData, *, parent: Sel | None, force: ForceScope, pointer: str,
         problems: list, depth: int = 0) -> Sel | None:
    """Bind ``data`` (and its children) under ``parent`` (None: a root of ``force``)."""
    return bind_path(catalogue, data.entry, data.number, data.children, parent, force, pointer, problems, depth)


def bind_path(catalogue: Catalogue, path: str, number: int, children: tuple, parent: Sel | None, force: ForceScope,
              pointer: str, problems: list, depth: int = 0) -> Sel | None:
    """:func:`bind` of a selection given by its parts (``children`` are SelectionData): the binding every check
    does for every selection of the list, so no keyword arguments and each layout read from the slot."""
    layout = catalogue.root_layout() if parent is None else parent.slot.layout or catalogue.slot_layout(parent.slot)
    slot = layout.by_path.get(path) if path.__class__ is str else None
    if slot is None:
        slot = layout.find(path)
        if slot is None:
            where = parent.entry.name if parent is not None else "the force"
            problems.append(BindProblem(pointer, f"{path!r} is not something {where} offers in this data"))
            return None
    if depth > MAX_DEPTH:
        problems.append(BindProblem(pointer, f"selections nested deeper than {MAX_DEPTH} levels"))
        return None
    if not 1 <= number <= MAX_NUMBER:
        problems.append(BindProblem(pointer + "/number", f"number {number} is not between 1 and {MAX_NUMBER}"))
        number = max(1, min(number, MAX_NUMBER))
    sel = Sel(slot, number, force, parent, [], pointer)
    if children:
        kids = sel.children
        depth += 1
        for index, child in enumerate(children):
            bound = bind_path(catalogue, child.entry, child.number, child.children, sel, force,
                              f"{pointer}/selections/{index}", problems, depth)
            if bound is not None:
                kids.append(bound)
    return sel


def attach(sel: Sel, holder: Sel | ForceScope) -> None:
    """Put an already bound selection under a holder (cards under the unit or formation they go to)."""
    if isinstance(holder, ForceScope):
        sel.parent = None
        sel.force = holder
    else:
        sel.parent = holder
        sel.force = holder.force
    for node in sel.walk():
        node.force = sel.force
    holder.children.append(sel)


def bind_draft(catalogues, draft: dict, *, cost_limits: dict | None = None, loose: bool = False
               ) -> tuple[Roster, list]:
    """Bind a roster given as plain dicts (``{"forces": [{"catalogue", "entry", "selections", "forces"}]}``,
    selections ``{"entry", "number", "selections"}``), the shape of a read ``.ros``. ``catalogues`` maps a
    catalogue id to its :class:`Catalogue`. Every bound node's ``ref`` is its dict."""
    problems: list = []

    def sel_from(doc: dict, parent: Sel | None, force: ForceScope, pointer: str, depth: int) -> Sel | None:
        cat = force.catalogue
        layout = cat.layout(parent.entry) if parent is not None else cat.root_layout()
        slot = layout.find(str(doc.get("entry") or ""))
        if slot is None and loose:
            slot = cat.loose_slot(str(doc.get("entry") or ""))
            if slot is not None and doc.get("group"):
                slot.ids = slot.ids | {p for p in str(doc["group"]).split("::") if p}
        if slot is None:
            where = parent.entry.name if parent is not None else "the force"
            problems.append(BindProblem(pointer, f"{doc.get('entry')!r} is not something {where} offers"))
            return None
        if depth > MAX_DEPTH:
            problems.append(BindProblem(pointer, f"selections nested deeper than {MAX_DEPTH} levels"))
            return None
        number = int(doc.get("number", 1) or 0)
        sel = Sel(slot=slot, number=max(0, min(number, MAX_NUMBER)), force=force, parent=parent, ref=doc)
        for index, child in enumerate(doc.get("selections") or ()):
            bound = sel_from(child, sel, force, f"{pointer}/selections/{index}", depth + 1)
            if bound is not None and bound.number > 0:
                sel.children.append(bound)
        return sel

    def force_from(doc: dict, parent: ForceScope | None, pointer: str) -> ForceScope | None:
        cat = catalogues.get(doc.get("catalogue"))
        if cat is None:
            problems.append(BindProblem(pointer, f"catalogue {doc.get('catalogue')!r} is not loaded"))
            return None
        force = ForceScope(catalogue=cat, entry=cat.force_entry(doc.get("entry") or None), parent=parent, ref=doc)
        for index, child in enumerate(doc.get("selections") or ()):
            bound = sel_from(child, None, force, f"{pointer}/selections/{index}", 0)
            if bound is not None and bound.number > 0:
                force.children.append(bound)
        for index, sub in enumerate(doc.get("forces") or ()):
            nested = force_from(sub, force, f"{pointer}/forces/{index}")
            if nested is not None:
                force.forces.append(nested)
        return force

    forces = []
    for index, doc in enumerate(draft.get("forces") or ()):
        force = force_from(doc, None, f"/forces/{index}")
        if force is not None:
            forces.append(force)
    return Roster(forces=forces, cost_limits=dict(cost_limits or {})), problems
