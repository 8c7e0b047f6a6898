"""The cheapest legal list for one formation of an imported book: a starter list for players, and a
check of imported data (every formation of the library should have one).

The formation alone is completed to its minimums by the BattleScribe evaluator
(:func:`armybuilder.rules.battlescribe.offers.complete_roster`: at each unmet minimum the visible choice
that costs least, a quantity minimum filled by repeating the cheapest choice), then mapped onto a
list document exactly as an imported roster would be.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from armybuilder.rules.battlescribe.offers import as_draft, complete_roster
from armybuilder.rules.battlescribe.tree import bind_draft
from armybuilder.rules.data import HandbookData

from .roster_map import roster_to_document


class _OneBook:
    def __init__(self, handbook: HandbookData):
        self.hb = handbook

    def handbook(self, system, code, revision):
        return self.hb if (system, code, revision) == (self.hb.system, self.hb.code, self.hb.revision) else None

    def revisions(self, system, code):
        return [self.hb.revision] if (system, code) == (self.hb.system, self.hb.code) else []


@dataclass
class Cheapest:
    formation_code: str
    document: dict | None
    complete: bool  # every minimum could be met
    points: float = 0
    problems: list[str] = field(default_factory=list)


def _as_roster(draft_force: dict, handbook: HandbookData, catalogue_id: str) -> dict:
    """The completed draft (relative entry paths) as a read roster (full entryIds), for the roster mapping."""
    def sel(doc: dict, prefix: list[str]) -> dict:
        parts = prefix + [p for p in doc["entry"].split("::") if p]
        return {"entryId": "::".join(parts), "number": str(doc.get("number", 1)), "name": "",
                "selections": [sel(c, parts[:-1]) for c in doc.get("selections", [])], "costs": []}

    return {"source": f"cheapest list of {handbook.name}", "name": handbook.name, "costs": [], "costLimits": [],
            "forces": [{"catalogueId": catalogue_id, "catalogueRevision": str(handbook.revision),
                        "entryId": draft_force.get("entry", ""),
                        "selections": [sel(s, []) for s in draft_force["selections"]], "forces": []}]}


def cheapest_list(handbook: HandbookData, formation_code: str) -> Cheapest:
    cat = handbook.catalogue
    formation = handbook.formations.get(formation_code)
    if cat is None or formation is None:
        return Cheapest(formation_code, None, False, problems=["not a formation of an imported book"])
    path = str(formation.extra.get("bs", {}).get("path") or formation.code)
    force = cat.force_entry()
    draft = {"forces": [{"catalogue": cat.catalogue_id, "entry": force.id if force else "",
                         "selections": [{"entry": path, "number": 1, "selections": []}]}]}

    roster, _ = bind_draft({cat.catalogue_id: cat}, draft)
    evaluation, done = complete_roster(roster, points=cat.points)
    completed = as_draft(roster)
    mapped = roster_to_document(_as_roster(completed["forces"][0], handbook, cat.catalogue_id), _OneBook(handbook),
                                systems=(handbook.system,))
    doc = mapped.document
    doc["name"] = f"{formation.name} (cheapest)"[:120]
    doc["points_limit"] = None
    return Cheapest(formation_code, doc, done, evaluation.roster_total().get(cat.points, 0), list(mapped.warnings))
