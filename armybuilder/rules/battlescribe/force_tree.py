"""A Force on books imported from BattleScribe, as the roster BattleScribe would hold.

* one force per handbook: the list's own book, then one per other book its allied formations
  come from (BattleScribe puts an ally in a force of its own, from its own catalogue);
* a formation is a root selection of its force, its formation-level choices and its units are its
  children; force-level support units are roots too;
* the force's own choices (``Force.selections``) are roots too;
* a card goes under what it is given to (its target's selection), or at the root of the force,
  inside the selections its ``via`` names, from there down: a selection already made there (a
  unit's size, a force choice such as a root "Command Cards" entry) or else one made for the card,
  shared by every card that names it, as in a BattleScribe roster.

Every selection's ``ref`` is its JSON pointer into the list document, so a violation points at
the place in the list a player can fix.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..force import Force, ForceCard, ForceFormation
from .catalogue import Catalogue, CatalogueError
from .tree import BindProblem, ForceScope, Roster, Sel, SelectionData, bind, bind_path


@dataclass
class ForceRoster:
    roster: Roster
    main: ForceScope
    formations: dict = field(default_factory=dict)  # formation pointer -> Sel
    units: dict = field(default_factory=dict)  # unit pointer -> Sel
    cards: dict = field(default_factory=dict)  # card pointer -> Sel of the card itself
    wrappers: dict = field(default_factory=dict)  # card pointer -> the via selections it sits in
    problems: list = field(default_factory=list)  # BindProblem: selections the data does not offer there


def formation_path(formation: ForceFormation) -> str:
    bs = formation.formation.extra.get("bs") if isinstance(formation.formation.extra, dict) else None
    return str((bs or {}).get("path") or formation.formation.code)


def points_limits(force: Force, catalogue: Catalogue) -> dict:
    return {catalogue.points: force.points_limit} if force.points_limit is not None and catalogue.points else {}


def force_roster(force: Force) -> ForceRoster:
    catalogue = force.handbook.catalogue
    if not isinstance(catalogue, Catalogue):
        raise CatalogueError(f"{force.handbook.name} has no BattleScribe catalogue document")
    main = ForceScope(catalogue=catalogue, entry=catalogue.force_entry(), ref="/formations")
    roster = Roster(forces=[main], cost_limits=points_limits(force, catalogue))
    out = ForceRoster(roster=roster, main=main)
    scopes = {force.handbook.code: main}
    for formation in force.formations:
        scope = scopes.get(formation.handbook.code)
        if scope is None:
            other = formation.handbook.catalogue
            if not isinstance(other, Catalogue):
                out.problems.append(BindProblem(formation.pointer, f"{formation.handbook.name} has no BattleScribe "
                                                "catalogue document"))
                continue
            scope = ForceScope(catalogue=other, entry=other.force_entry(), ref=formation.pointer)
            roster.forces.append(scope)
            scopes[formation.handbook.code] = scope
        allied_scope = scope is not main
        children = () if allied_scope else formation.selections
        root = bind_path(scope.catalogue, formation_path(formation), 1, children, None, scope, formation.pointer,
                         out.problems)
        if root is None:
            continue
        root.role = "formation"
        scope.children.append(root)
        if allied_scope:
            _allied_choices(formation, root, scope, out)
        out.formations[formation.pointer] = root
        for unit in formation.units:
            _unit(unit, root, scope, out)
    for unit in force.support:
        _unit(unit, None, main, out)
    for index, data in enumerate(force.selections):
        sel = bind(catalogue, data, parent=None, force=main, pointer=f"/selections/{index}", problems=out.problems)
        if sel is not None:
            sel.role = "force-option"
            main.children.append(sel)
    for card in force.cards:
        _card(card, out)
    return out


def _allied_choices(formation, root: Sel, scope: ForceScope, out: ForceRoster) -> None:
    """An allied formation's choices: its own, and those its force needs at the root (BattleScribe holds an ally
    as a force of its own, e.g. the "Command Cards" entry a force of that book must have). The list keeps both
    with the formation; a path the formation does not offer but its force's root does is a root choice."""
    catalogue = scope.catalogue
    own = catalogue.layout(root.entry)
    for index, data in enumerate(formation.selections):
        pointer = f"{formation.pointer}/selections/{index}"
        at_root = own.find(data.entry) is None and catalogue.root_layout().find(data.entry) is not None
        sel = bind(catalogue, data, parent=None if at_root else root, force=scope, pointer=pointer,
                   problems=out.problems)
        if sel is None:
            continue
        if at_root:
            sel.role = "force-option"
            scope.children.append(sel)
        else:
            root.children.append(sel)


def _unit(unit, parent: Sel | None, scope: ForceScope, out: ForceRoster) -> None:
    if unit.selection is None:
        out.problems.append(BindProblem(unit.pointer, f"{unit.unit.name} has no BattleScribe selection"))
        return
    data = unit.selection
    sel = bind_path(scope.catalogue, data.entry, data.number, data.children, parent, scope, unit.pointer,
                    out.problems)
    if sel is None:
        return
    sel.role = "unit"
    (parent.children if parent is not None else scope.children).append(sel)
    out.units[unit.pointer] = sel


def _card(card: ForceCard, out: ForceRoster) -> None:
    if card.selection is None:
        out.problems.append(BindProblem(card.pointer, f"{card.card.name} has no BattleScribe selection"))
        return
    holder = out.main if card.target_pointer is None else (
        out.units.get(card.target_pointer) or out.formations.get(card.target_pointer))
    if holder is None:
        out.problems.append(BindProblem(card.pointer, f"{card.card.name}: its target is not in the force"))
        return
    scope = holder if isinstance(holder, ForceScope) else holder.force
    parent = None if isinstance(holder, ForceScope) else holder
    chain = []
    for index, path in enumerate(card.via):
        siblings = (parent.children if parent is not None else scope.children)
        layout = scope.catalogue.layout(parent.entry) if parent is not None else scope.catalogue.root_layout()
        slot = layout.find(path)
        wrapper = next((s for s in siblings if s.role not in ("unit", "formation", "card") and slot is not None
                        and s.slot is slot), None)
        if wrapper is None:
            wrapper = bind(scope.catalogue, SelectionData(entry=path), parent=parent, force=scope,
                           pointer=f"{card.pointer}/via/{index}", problems=out.problems)
            if wrapper is None:
                return
            wrapper.role = "card-wrapper"
            siblings.append(wrapper)
        chain.append(wrapper)
        parent = wrapper
    sel = bind(scope.catalogue, card.selection, parent=parent, force=scope, pointer=card.pointer,
               problems=out.problems)
    if sel is None:
        return
    sel.role = "card"
    (parent.children if parent is not None else scope.children).append(sel)
    out.cards[card.pointer] = sel
    out.wrappers[card.pointer] = tuple(chain)
