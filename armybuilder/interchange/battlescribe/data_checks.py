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
from armybuilder.rules.battlescribe.tree import bind_draft


def min_above_max(doc: dict) -> list[tuple[str, str]]:
    """(node id, why) for every entry or link whose own selection limits in its parent contradict each other."""
    out = []
    nodes = doc.get("nodes") or {}
    for nid, node in nodes.items():
        constraints = list(node.get("constraints") or ())
        if node.get("k") == "link":
            constraints += nodes.get(node.get("target"), {}).get("constraints") or ()
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
    force = cat.force_entry()
    out = []
    for code, path in formation_paths.items():
        draft = {"forces": [{"catalogue": cat.catalogue_id, "entry": force.id if force else "",
                             "selections": [{"entry": path, "number": 1, "selections": []}]}]}
        roster, _ = bind_draft({cat.catalogue_id: cat}, draft)
        evaluation, _ = complete_roster(roster, points=cat.points)
        broken = [v for v in evaluation.violations() if v.kind in ("min", "max")]
        if broken:
            v = broken[0]
            out.append((code, f"its cheapest list alone breaks constraint {v.constraint} on "
                              f"{display_name(v.name)!r} ({v.kind} {v.limit:g}, has {v.count:g}); the data may be "
                              "contradictory"))
    return out
