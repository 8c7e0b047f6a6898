"""What every part of the Flames of War mapping shares."""
from __future__ import annotations

from typing import Any

from ..index import Entry, Index
from ..nodes import Catalogue, InfoGroup, Node, Profile, Rule
from ..report import CatalogueReport
from .common import CARD_GROUP_RE, ROLE_BY_CATEGORY_NAME, clean_name, safe_code


class MapperBase:
    """The state a catalogue's mapping builds up, and the helpers every part of it uses (limits, modifiers,
    profiles and rules). The parts (units, cards, formations) are mixins over this; the methods they call on
    each other are declared at the end."""

    generic = False

    def __init__(self, index: Index, cat: Catalogue, report: CatalogueReport, ptypes: dict[str, dict]):
        self.index = index
        self.cat = cat
        self.report = report
        self.ptypes = ptypes  # profile type id -> {"applies_to", "characteristics": set of ids}
        self.cost_ids = set(index.cost_types)
        self.pts = next((c.id for c in index.system.cost_types if c.name.strip().lower() in ("pts", "points")),
                        index.system.cost_types[0].id if index.system.cost_types else "")
        self.roles = {cid: ROLE_BY_CATEGORY_NAME.get(name.strip().lower(), "")
                      for cid, name in index.category_names.items()}
        self.card_category = next((cid for cid, role in self.roles.items() if role == "card"), "")
        self.units: dict[str, dict] = {}
        self.unit_order: list[str] = []
        self.rules: dict[str, str] = {}
        self.cards: dict[str, dict] = {}
        self.formations: list[dict] = []
        self.formation_codes: set[str] = set()
        self.support: list[dict] = []
        self.constraints: dict[str, dict] = {}
        self.checked: set[int] = set()  # id() of entries whose modifiers/constraints were reported
        self.used_nodes: set[str] = set()
        self.reported_options: set[str] = set()
        self.codes: dict[str, str] = {}  # BattleScribe id -> code (a unit's ids are met again in every box)

    # -- helpers --------------------------------------------------------
    def code(self, ident: str, what: str) -> str:
        code = self.codes.get(ident)
        if code is None:
            code = self.codes[ident] = safe_code(ident)
        if code != ident:
            self.report.warning(ident, what, f"id is not a valid code; stored as {code!r}")
        return code

    def base_cost(self, entry: Entry) -> float:
        return entry.costs.get(self.pts, 0)

    def bs_info(self, entry: Entry) -> dict:
        """What a roster needs of an entry to find it: ids, type and categories (costs are the catalogue
        document's)."""
        info: dict[str, Any] = {"entry": entry.node.id, "path": entry.path, "type": entry.node.type}
        if entry.categories:
            info["categories"] = sorted(entry.categories)
        return info

    def role(self, entry: Entry) -> str:
        if entry.primary_category:
            return self.roles.get(entry.primary_category, "")
        # No category marked primary (a data slip: e.g. a support link whose Support Units category is not
        # ticked primary): the one Flames of War role its categories give, if they give exactly one.
        found = {self.roles.get(c, "") for c in entry.categories} - {""}
        return found.pop() if len(found) == 1 else ""

    def is_card(self, entry: Entry) -> bool:
        return bool(self.card_category) and self.card_category in entry.categories

    def is_card_group(self, entry: Entry) -> bool:
        if CARD_GROUP_RE.search(entry.name or ""):
            return True
        if entry.is_group:
            leaves = self.leaves(entry)
            return bool(leaves) and all(self.is_card(e) for e in leaves)
        return False

    def resolved_children(self, entry: Entry) -> tuple[Entry, ...]:
        children, missing = self.index.resolved(entry)
        self.report_missing(missing)
        return children

    def leaves(self, group: Entry) -> tuple[Entry, ...]:
        """Selection entries under a group, nested groups flattened."""
        leaves, missing = self.index.leaves(group)
        self.report_missing(missing)
        return leaves

    def report_missing(self, links) -> None:
        # Each look at a group says what it lacks (the report has always repeated them so).
        for node in links:
            self.report.error(node.id, "entryLink", f"target {node.target_id!r} of {node.name!r} not found "
                              "in this catalogue, its linked catalogues or the game system")

    def limits(self, entry: Entry, *, root: bool = False) -> tuple[int | None, int | None]:
        lo = hi = None
        for c in entry.constraints:
            if c["field"] != "selections" or c.get("percent"):
                continue
            if c["value"] < 0:  # BattleScribe writes -1 for "no limit"
                continue
            if c["scope"] == "parent" or (root and c["scope"] in ("force", "roster")):
                if c["type"] == "min":
                    lo = int(c["value"]) if lo is None else max(lo, int(c["value"]))
                elif c["type"] == "max":
                    hi = int(c["value"]) if hi is None else min(hi, int(c["value"]))
        return lo, hi

    # -- modifiers and constraints ------------------------------------------
    def extras(self, entry: Entry, target_kind: str, target_code: str, *, root: bool = False,
               owns: bool = False) -> dict:
        """What a row keeps of an entry's BattleScribe rules (whether it is hidden): its modifiers, constraints
        and costs are the catalogue document's. Its modifiers are counted in the report once per entry.

        ``owns``: the entry *is* the unit/card/formation ``target_code`` names, so its per-force
        limits become handbook constraints on it. A size's or option's own per-force limit (e.g.
        the game system's "Warrior" entry linked into many units) counts that option, not its
        unit; our constraints cannot say that, so it is left to the catalogue document."""
        first = id(entry.node) not in self.checked or (entry.link is not None and id(entry.link) not in self.checked)
        self.checked.add(id(entry.node))
        if entry.link is not None:
            self.checked.add(id(entry.link))
        if first:
            counts = self.report.counts
            for mod in entry.modifiers:
                counts["cost modifiers" if mod["kind"] == "cost" else f"{mod['kind']} modifiers"] += 1
        if owns and target_code and not root and not entry.is_group:
            for c in entry.constraints:
                if c["field"] == "selections" and not c.get("percent") and c["scope"] in ("force", "roster"):
                    self.force_constraint(c, entry, target_kind, target_code)
        return {"hidden": True} if entry.hidden else {}

    def force_constraint(self, c: dict, entry: Entry, target_kind: str, target_code: str) -> None:
        if c["value"] < 0:  # -1: no limit
            return
        code = self.code(c["id"], "constraint")
        existing = self.constraints.get(code)
        if existing is not None:
            if target_code not in existing["target"]["codes"]:
                existing["target"]["codes"].append(target_code)
            return
        where = "force" if c["scope"] == "force" else "roster (all forces)"
        doc: dict[str, Any] = {"code": code, "description": f"{c['type']} {c['value']} {entry.name} per {where}"[:300],
               "scope": "force", "target": {"kind": target_kind, "codes": [target_code]}}
        doc[c["type"]] = int(c["value"])
        self.constraints[code] = doc
        self.report.counts["constraints"] += 1

    # -- info: profiles and rules --------------------------------------------
    def collect_info(self, node: Node | InfoGroup, cat_id: str, profiles: dict, rules: dict, source: str,
                     *, warn: bool = True) -> None:
        """Profiles and rules of an entry or info group, following info groups and info links."""
        for p in node.profiles:
            profiles.setdefault(p.id, (p, source))
        for r in node.rules:
            rules.setdefault(r.id, r)
        for g in node.info_groups:
            self.collect_info(g, cat_id, profiles, rules, source, warn=False)
        for link in node.info_links:
            target = self.index.lookup(cat_id, link.target_id)
            if isinstance(target, Profile):
                profiles.setdefault(target.id, (target, source))
            elif isinstance(target, Rule):
                rules.setdefault(target.id, target)
            elif isinstance(target, InfoGroup):
                self.collect_info(target, cat_id, profiles, rules, source, warn=False)
            elif warn:
                self.report.warning(link.id, "infoLink", f"{link.type} target {link.target_id!r} "
                                    f"({link.name!r}) not found")

    def rule_codes(self, rules: dict) -> list[str]:
        codes = []
        for r in rules.values():
            code = self.code(r.id, "rule")
            if code not in self.rules:  # the first name given for a code stays
                self.rules[code] = clean_name(r.name, "Rule")
            codes.append(code)
        return codes

    def profile_docs(self, profiles: dict) -> list[dict]:
        docs = []
        for p, _source in profiles.values():
            ptype = self.ptypes.get(p.type_id)
            if ptype is None:
                self.report.warning(p.id, "profile", f"profile type {p.type_id!r} ({p.type_name}) is unknown")
                continue
            if ptype["applies_to"] == "card":
                continue  # command card texts are not copied
            values = {}
            known = ptype["characteristics"]
            for type_id, name, value in p.characteristics:
                if type_id in known:
                    if value:
                        values[type_id] = value
                else:
                    self.report.warning(p.id, "characteristic", f"{name!r} is not a characteristic of "
                                        f"{p.type_name!r}")
            docs.append({"type": p.type_id, "name": clean_name(p.name, p.type_name or "Profile"), "values": values})
            if p.modifiers:
                self.report.counts["profile modifiers"] += len(p.modifiers)
            self.report.counts["profiles"] += 1
        return docs

    # -- provided by the parts -------------------------------------------------
    def unit(self, entry: Entry) -> str:
        raise NotImplementedError

    def card(self, entry: Entry, scope: str, target: tuple[str, str] | None,
             wrapper: tuple[Entry, Entry] | None = None) -> None:
        raise NotImplementedError

    def cards_from(self, group: Entry, scope: str, target: tuple[str, str] | None) -> None:
        raise NotImplementedError

    def unit_like(self, entry: Entry) -> bool:
        raise NotImplementedError
