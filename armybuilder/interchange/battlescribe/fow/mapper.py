"""A whole catalogue: its root entries by role, the handbook document, and what the import report says."""
from __future__ import annotations

import re
from typing import Any

from armybuilder.rules.battlescribe.audit import unevaluated
from armybuilder.systems import system_for_mapping

from ..catalogue_doc import catalogue_document
from ..data_checks import formations_not_legal_alone, min_above_max
from ..index import Entry, Index
from ..nations import nation_for, period_for
from ..nodes import Catalogue, Node
from ..report import CatalogueReport
from .cards import CardMapping
from .common import COLUMN_BY_ROLE, clean_name, safe_code
from .formations import FormationMapping
from .units import UnitMapping


class FowMapper(UnitMapping, CardMapping, FormationMapping):
    MAPPING = "fow"  # the game system whose ``battlescribe_mapping`` this is gets the catalogues

    # -- the catalogue --------------------------------------------------------
    def root_entries(self) -> list[tuple[Node, Catalogue]]:
        out = [(n, self.cat) for n in self.cat.root_entries]
        for link in self.cat.catalogue_links:
            linked = self.index.catalogues.get(link.target_id)
            if linked is None:
                self.report.error(link.id, "catalogueLink", f"linked catalogue {link.target_id!r} ({link.name!r}) "
                                  "was not given; import it together with this one")
                continue
            if link.import_root_entries:
                out.extend((n, linked) for n in linked.root_entries)
        if self.generic:  # a generic system's own root entries (e.g. game options) are offered too
            out.extend((n, self.index.system) for n in self.index.system.root_entries)
        return out

    def map(self) -> dict:
        cat = self.cat
        for owner, element, where in cat.unknown:
            self.report.warning(owner, element, f"element <{element}> in {where} is not understood; ignored")
        for cost_type in self.index.cost_types.values():
            if cost_type.id != self.pts:
                self.report.info(cost_type.id, "costType", f"cost type {cost_type.name!r}: list points are "
                                 f"{self.index.cost_types[self.pts].name!r}; its values are kept per entry "
                                 "(extra.bs.costs) and totalled in the list report's figures")
        for node, _owner_cat in self.root_entries():
            entry = self.index.entry(node, cat.id)
            if entry is None:
                self.report.error(node.id, "entryLink", f"root link {node.name!r} → {node.target_id!r}: target "
                                  "not found")
                continue
            role = self.role(entry)
            if self.generic:
                self.generic_root(entry)
                continue
            if role and not entry.primary_category:
                self.report.warning(entry.path, "root entry", f"{entry.name!r} has no primary category; placed as "
                                    f"{role} from its other categories")
            if role == "formation":
                self.formation(entry)
            elif role in ("support", "formation-support", "wildcard", "allied-unit"):
                box = self.box(entry, len(self.support), owner="", column=COLUMN_BY_ROLE[role], root=True,
                               part_of_formation=False)
                if box is not None:
                    box.pop("_order")
                    if role == "formation-support":
                        box["extra"]["formation_support"] = True
                    self.support.append(box)
            elif role == "card" and self.holds_units(entry):
                # A card that is a formation of its own (e.g. Kampfgruppe Hummel): its units are boxes.
                self.formation(entry, card=True)
            elif role == "card":
                if (entry.is_group or self.is_card_group(entry) and self.resolved_children(entry)
                        or self.resolved_children(entry) and not self.is_card(entry)):
                    self.cards_from(entry, "force", None)
                elif self.title_choices(entry):
                    self.checked.add(id(entry.node))
                    for group, leaf in self.title_choices(entry):
                        self.card(leaf, "force", None, wrapper=(entry, group))
                else:
                    self.card(entry, "force", None)
            elif role == "allied-formation":
                self.report.warning(entry.path, "root entry", "allied formation entries are not imported")
            else:
                cname = self.index.category_names.get(entry.primary_category, entry.primary_category or "none")
                self.report.warning(entry.path, "root entry", f"{entry.name!r} has primary category {cname!r}, "
                                    "which is not a Flames of War role: not offered in the builder (rosters keep it, "
                                    "and the catalogue document evaluates it)")
        # Everything defined in the catalogue but never reached.
        for node in cat.shared_entries:
            if node.id not in self.used_nodes:
                self.report.info(node.id, "shared selectionEntry", f"{node.name!r} is not used by any imported "
                                 "formation, support box or card")
        for node in cat.shared_groups:
            if node.id not in self.used_nodes and id(node) not in self.checked:
                self.report.info(node.id, "shared selectionEntryGroup", f"{node.name!r} is not used by any "
                                 "imported formation, support box or card")
        return self.document()

    def generic_root(self, entry: Entry) -> None:
        """Another game system: every root entry is a force-level box, its column the primary category."""
        cname = self.index.category_names.get(entry.primary_category, "") or "Units"
        box = self.box(entry, len(self.support), owner="", column=clean_name(cname, "Units")[:60], root=True,
                       part_of_formation=False)
        if box is not None:
            box.pop("_order")
            box["kind"] = "grey"
            self.support.append(box)

    def document(self) -> dict:
        cat = self.cat
        nation, _, _, _ = nation_for(cat.name, cat.source)
        units = [self.units[c] for c in self.unit_order]
        cards = []
        for card in self.cards.values():
            targets = card.pop("targets")
            if "formations" in targets:  # a formation that turned out to hold no units is not imported
                targets["formations"] = [c for c in targets["formations"] if c in self.formation_codes]
            targets = {k: v for k, v in targets.items() if v}
            if targets:
                card["targets"] = targets
            cards.append(card)
        doc: dict[str, Any] = {
            "kind": "handbook", "format": 1, "system": self.system_code, "code": self.code(cat.id, "catalogue"),
            # No explicit revision: a changed catalogue, or the same one mapped by a newer version of this
            # importer, becomes the handbook's next revision (lists keep theirs); the catalogue's own
            # revision is kept in extra.battlescribe.
            "name": clean_name(cat.name, "Catalogue"), "nation": nation,
            "period": period_for(cat.name, cat.source),
            "special_rules": [{"code": c, "name": n} for c, n in self.rules.items()],
            "units": units, "formations": self.formations, "support": self.support, "cards": cards,
            "constraints": list(self.constraints.values()),
            "extra": {"battlescribe": {
                "catalogue_id": cat.id, "revision": cat.revision, "source": cat.source,
                "game_system_id": cat.game_system_id, "game_system_revision": cat.game_system_revision,
                "battlescribe_version": cat.battlescribe_version, "points_cost_type": self.pts,
                "game_system_name": self.index.system.name,
                "cost_types": [{"id": c.id, "name": c.name} for c in self.index.system.cost_types],
                "force_entries": [{"id": f.id, "name": f.name} for f in self.index.system.force_entries],
                "catalogue_links": [{"id": link.id, "target": link.target_id, "name": link.name,
                                     "import_root_entries": link.import_root_entries}
                                    for link in cat.catalogue_links],
            }},
        }
        self.report.counts["special rules"] = len(self.rules)
        doc["catalogue"] = catalogue_document(self.index, cat, roles=self.roles_of_entries())
        for finding in unevaluated(doc["catalogue"]):
            add = self.report.error if finding.effect else self.report.info
            add(finding.node, "not evaluated", finding.what + ("" if finding.effect else "; it changes only what is "
                                                               "displayed"))
        if not self.generic:
            for node, why in min_above_max(doc["catalogue"]):
                self.report.warning(node, "data", why)
            paths = {f["code"]: f["extra"]["bs"]["path"] for f in self.formations}
            for code, why in formations_not_legal_alone(doc["catalogue"], paths):
                self.report.warning(code, "formation", why)
        if self.generic:
            doc["nation"] = generic_nation(cat)[0]
            doc["period"] = ""
        return doc

    def roles_of_entries(self) -> dict[str, str]:
        """What each BattleScribe entry became here: the evaluator's hint for which selections are
        formations, units or cards."""
        roles: dict[str, str] = {}
        for unit in self.units.values():
            entry = unit.get("extra", {}).get("bs", {}).get("entry")
            if entry:
                roles[entry] = "unit"
        for card in self.cards.values():
            entry = card.get("extra", {}).get("bs", {}).get("entry")
            if entry:
                roles.setdefault(entry, "card")
        for formation in self.formations:
            entry = formation.get("extra", {}).get("bs", {}).get("entry")
            if entry:
                roles[entry] = "formation"
        return roles

    @property
    def system_code(self) -> str:
        return generic_system_code(self.index.system) if self.generic else system_for_mapping(self.MAPPING).code


class GenericMapper(FowMapper):
    """A game system that is not Flames of War: no formations; root entries become support boxes
    per primary category, units keep sizes/options/costs as the FoW mapping reads them."""

    generic = True


FOW_GAME_SYSTEM_ID = "976a-b687-1fdb-07ef"


def is_flames_of_war(index: Index) -> bool:
    names = {n.strip().lower() for n in index.category_names.values()}
    return index.system.id == FOW_GAME_SYSTEM_ID or "formations" in names


def system_code_for(index: Index) -> str:
    """The code of the game system a library's catalogues are imported into."""
    return system_for_mapping(FowMapper.MAPPING).code if is_flames_of_war(index) else generic_system_code(index.system)


def generic_system_code(system: Catalogue) -> str:
    return safe_code(f"bs-{system.id}")[:120]


def generic_nation(cat: Catalogue) -> tuple[str, str]:
    slug = re.sub(r"[^a-z0-9]+", "-", (cat.name or cat.id).lower()).strip("-") or "force"
    return safe_code(slug[:60]), clean_name(cat.name, "Force")


def map_catalogue(index: Index, cat: Catalogue, report: CatalogueReport, ptypes: dict[str, dict]) -> dict:
    mapper = FowMapper if is_flames_of_war(index) else GenericMapper
    return mapper(index, cat, report, ptypes).map()
