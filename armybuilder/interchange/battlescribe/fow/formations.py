"""Formations and their boxes (HQ, black, grey; support boxes at the force's root), and formation-level
options."""
from __future__ import annotations

from typing import Any

from ..index import Entry
from .base import MapperBase
from .common import CARD_CODE_RE, HQ_RE, MAX_COUNT, clean_name, safe_code, strip_order


class FormationMapping(MapperBase):
    # -- boxes ------------------------------------------------------------
    def gather_choices(self, group: Entry, owner: str, choices: list) -> None:
        """The units a box group offers, through its nested groups (the roster's paths to them are the
        catalogue document's); cards met on the way are mapped as cards."""
        for c in self.resolved_children(group):
            if c.is_group:
                if self.is_card_group(c):
                    self.cards_from(c, "formation", ("formations", owner) if owner else None)
                    continue
                self.extras(c, "unit", owner)
                self.gather_choices(c, owner, choices)
            elif self.is_card(c):
                self.card(c, "formation", ("formations", owner) if owner else None)
            else:
                choices.append((c, c.limits()[1]))

    def box(self, child: Entry, index: int, *, owner: str, column: str = "", root: bool = False,
            part_of_formation: bool = True) -> dict | None:
        self.used_nodes.add(child.node.id)
        order, name = strip_order(child.name)
        if child.is_group:
            lo, hi = child.limits()
            choices: list[tuple[Entry, int | None]] = []
            self.gather_choices(child, owner, choices)
        else:
            lo, hi = self.limits(child, root=root)
            choices = [(child, None)]
        if not choices:
            self.report.warning(child.path, "box", f"{child.name!r} offers no units; skipped")
            return None
        extra: dict = {"bs": {"id": child.path, "kind": "group" if child.is_group else "entry"}}
        if child.node.default_id:
            extra["bs"]["default"] = child.node.default_id
        if child.is_group:
            extra.update(self.extras(child, "unit", owner, root=root))
        choice_docs: list[dict | str] = []  # a unit code, or {unit, max} where a box caps it
        for entry, cmax in choices:
            ucode = self.unit(entry)
            if cmax is not None and cmax >= 1 and child.is_group:
                choice_docs.append({"unit": ucode, "max": min(cmax, MAX_COUNT)})
            else:
                choice_docs.append(ucode)
        lo = lo or 0
        if hi is None:
            maxes = [c for _, c in choices]
            known = [m for m in maxes if m is not None]
            if child.is_group and len(known) == len(maxes) and sum(known) > 0:
                hi = sum(known)
            else:
                extra["unbounded"] = True
                hi = MAX_COUNT
        if hi == 0:
            extra["bs_max"] = 0
            hi = 1
        hi = min(hi, MAX_COUNT)
        lo = min(lo, hi)
        kind = "hq" if HQ_RE.search(name or "") else ("black" if lo >= 1 else "grey")
        box = {"code": self.code(child.path, "box"), "name": clean_name(name, "Box"), "kind": kind,
               "min": lo, "max": hi, "choices": choice_docs, "extra": extra}
        if column:
            box["column"] = column
        if not part_of_formation:
            box["part_of_formation"] = False
        box["_order"] = (0 if kind == "hq" else 1, order if order is not None else 1000, index)
        self.report.counts["boxes"] += 1
        return box

    def unit_like(self, entry: Entry) -> bool:
        """A unit, or an entry with content (children, stats); not a bare priced option."""
        if entry.node.type == "unit" or entry.children:
            return True
        profiles: dict = {}
        rules: dict = {}
        self.collect_info(entry.node, entry.catalogue_id, profiles, rules, "")
        return any(self.ptypes.get(p.type_id, {}).get("applies_to") in ("unit", "weapon")
                   for p, _ in profiles.values())

    def formation_option(self, entry: Entry, formation_code: str) -> None:
        """A bare formation-level choice (e.g. a points-changing rating): no row of its own (the catalogue
        document prices it), but it is used, and counted."""
        self.used_nodes.add(entry.node.id)
        self.extras(entry, "formation", formation_code)
        if entry.is_group:
            for leaf in self.leaves(entry):
                self.formation_option(leaf, formation_code)
            return
        if entry.path not in self.reported_options:
            self.reported_options.add(entry.path)
            self.report.counts["formation options"] += 1

    # -- formations -------------------------------------------------------------
    def holds_units(self, entry: Entry) -> bool:
        """A root card that is also in the Formations category and holds units: a formation of its own.
        (A card that only brings a unit along, outside that category, stays a card with sub-choices.)"""
        if entry.is_group or not any(self.roles.get(c) == "formation" for c in entry.categories):
            return False
        for child in self.resolved_children(entry):
            leaves = self.leaves(child) if child.is_group else [child]
            if any(leaf.node.type == "unit" for leaf in leaves):
                return True
        return False

    def formation(self, entry: Entry, *, card: bool = False) -> None:
        code = self.code(entry.path if entry.link else entry.node.id, "formation")
        if code in self.formation_codes:
            return
        self.used_nodes.add(entry.node.id)
        boxes: list[dict] = []
        for i, child in enumerate(self.resolved_children(entry)):
            if self.is_card_group(child):
                self.cards_from(child, "formation", ("formations", code))
                continue
            if not child.is_group and self.is_card(child):
                self.card(child, "formation", ("formations", code))
                continue
            if not (self.unit_like(child) if not child.is_group
                    else any(self.unit_like(leaf) for leaf in self.leaves(child))):
                self.formation_option(child, code)
                continue
            box = self.box(child, i, owner=code)
            if box is not None:
                boxes.append(box)
        if not boxes:
            self.report.warning(entry.path, "formation", f"{entry.name!r} has no boxes with units; not imported")
            return
        boxes.sort(key=lambda b: b.pop("_order"))
        seen: set[str] = set()
        for b in boxes:
            if b["code"] in seen:  # the same group twice: keep the codes unique
                b["code"] = safe_code(f"{b['code']}.{len(seen)}")
            seen.add(b["code"])
        name = clean_name(entry.name, "Formation")
        doc: dict = {"code": code, "name": name, "boxes": boxes}
        m = CARD_CODE_RE.search(name)
        if m:
            doc["card_code"] = m.group(1)
        extra: dict[str, Any] = {"bs": self.bs_info(entry)}
        extra.update(self.extras(entry, "formation", code, owns=True))
        for c in entry.constraints:
            if c["field"] == "selections" and c["scope"] in ("parent", "force", "roster") and not c.get("percent"):
                self.force_constraint({**c, "scope": "force" if c["scope"] == "parent" else c["scope"]},
                                      entry, "formation", code)
        if card:
            extra["card"] = True
        if self.base_cost(entry):
            self.report.counts["formations with a cost of their own"] += 1
        doc["extra"] = extra
        self.formations.append(doc)
        self.formation_codes.add(code)
        self.report.counts["formations"] += 1
