"""Checks of imported data that no list can pass, for the import report: a data author sees them at once
instead of a player meeting them as a list that can never be legal.

* an entry whose minimum is above its maximum (a link asking for more than its target allows);
* a formation whose cheapest list, taken alone, still breaks a limit of the data (e.g. a force-wide
  maximum on an entry that the formation's own compulsory boxes already exceed).
"""
from __future__ import annotations

from armybuilder.rules.battlescribe.catalogue import Catalogue
from armybuilder.rules.battlescribe.names import display_name
from armybuilder.rules.battlescribe.offers import complete_roster
from armybuilder.rules.battlescribe.tree import ForceScope, Roster, Sel


def min_above_max(doc: dict) -> list[tuple[str, str]]:
    """(node id, why) for every entry or link whose own selection limits in its parent contradict each other."""
    out = []
    nodes = doc.get("nodes") or {}
    for nid, node in nodes.items():
        constraints = list(node.get("constraints") or ())
        if node.get("k") == "link":
            constraints += nodes.get(node.get("target"), {}).get("constraints") or ()
        if len(constraints) < 2:
            continue  # a contradiction takes a minimum and a maximum
        modified = {m.get("field") for m in node.get("modifiers") or ()}
        plain = [c for c in constraints if c.get("field") == "selections" and c.get("scope") == "parent"
                 and not c.get("children") and c.get("id") not in modified]
        lows = [c for c in plain if c.get("type") == "min" and c.get("value", 0) > 0]
        highs = [c for c in plain if c.get("type") == "max" and c.get("value", -1) >= 0]
        for low in lows:
            for high in highs:
                if low["value"] > high["value"]:
                    out.append((nid, f"{display_name(node.get('name', ''))!r} needs at least {low['value']:g} "
                                     f"(constraint {low['id']}) but allows at most {high['value']:g} (constraint "
                                     f"{high['id']}): no list can satisfy both"))
    return out


def formations_not_legal_alone(doc: dict, formation_paths: dict[str, str]) -> list[tuple[str, str]]:
    """(formation code, why) for formations whose cheapest list alone breaks a minimum or maximum."""
    cat = Catalogue(doc)
    try:
        force_entry = cat.force_entry()
        out = []
        for code, path in formation_paths.items():
            roster = _alone(cat, force_entry, path)
            evaluation, _ = complete_roster(roster, points=cat.points)
            broken = [v for v in evaluation.violations() if v.kind in ("min", "max")]
            _untangle(roster)
            if broken:
                v = broken[0]
                out.append((code, f"its cheapest list alone breaks constraint {v.constraint} on "
                                  f"{display_name(v.name)!r} ({v.kind} {v.limit:g}, has {v.count:g}); the data may be "
                                  "contradictory"))
        return out
    finally:
        cat.release()  # built for this check only: freed now rather than by the cyclic collector


def _alone(cat: Catalogue, force_entry, path: str) -> Roster:
    """A roster of one force holding only the formation at ``path`` (a root entry path): what
    :func:`~armybuilder.rules.battlescribe.tree.bind_draft` makes of that draft, without its parsing of a
    whole roster."""
    force = ForceScope(catalogue=cat, entry=force_entry)
    slot = cat.root_layout().find(path)
    if slot is not None:
        force.children.append(Sel(slot=slot, number=1, force=force))
    return Roster(forces=[force])


def _untangle(roster: Roster) -> None:
    """Undo the roster's reference cycles (a selection and its parent, a force and its selections point at
    each other) once it is no longer used, so reference counting frees it."""
    for force in roster.all_forces():
        nodes = list(force.walk())
        force.children = []
        force.forces = []
        for node in nodes:
            node.children = []
            node.parent = None
