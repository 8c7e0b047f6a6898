"""Map a Flames of War v4 catalogue (BSData conventions) onto one handbook document.

Conventions (see docs/battlescribe-import.md for the full table):
* formations: root entries/links whose primary category is "Formations";
* boxes: the formation's children in order ("0) …", "1) …" prefixes, HQ first);
  a group with min 1 → black box, max only → grey box, "HQ" in the name → hq;
  a single entry/link child is a box of its own with its min/max;
* units: every entry offered in a box; the "Unit Size"/"Unit Configuration"
  group (exactly one choice) gives size options, or model-count ``set`` cost
  modifiers give them (3 tanks 13 pts, 4 tanks 17 …); other groups are
  upgrade groups (nested groups flattened, parent kept in ``extra``);
* support: root entries with primary category Support Units / Formation
  Support / Wildcards become force-level support boxes (column says which);
* command cards: groups named "Command Cards […]" (scope from the brackets)
  and root entries with primary category "Command Cards";
* codes are BattleScribe ids; an entry used through a link that changes it
  (modifiers, costs, children) gets the roster path ``link-id::target-id``.

Modifiers, conditions, repeats and constraints that change costs, limits or
visibility are kept, normalised (see nodes.py), in ``extra``; everything that
is not represented goes into the report with its id and the reason.
"""
from __future__ import annotations

import re

from armybuilder.rules.battlescribe.audit import unevaluated

from .catalogue_doc import catalogue_document
from .data_checks import formations_not_legal_alone, min_above_max
from .index import Entry, Index
from .nations import nation_for, period_for
from .nodes import Catalogue, InfoGroup, Node, Profile, Rule
from .report import CatalogueReport

CODE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:/-]*$")
ORDER_PREFIX = re.compile(r"^\s*(\d+)\s*[.)]\s*")
TEAMS_RE = re.compile(r"(\d+)\s*x\b", re.I)
CARD_CODE_RE = re.compile(r"\(([A-Z]{1,4}\d{2,4}[A-Z]?)\)\s*$")
HQ_RE = re.compile(r"\bHQ\b")
SIZE_NAME_RE = re.compile(r"size|configuration", re.I)
CARD_GROUP_RE = re.compile(r"command cards?", re.I)
SCOPE_RE = re.compile(r"\[(force|formation|unit)\]", re.I)
MAX_COUNT = 100

ROLE_BY_CATEGORY_NAME = {
    "formations": "formation",
    "support units": "support",
    "support platoons": "support",
    "formation support": "formation-support",
    "wildcards": "wildcard",
    "command cards": "card",
    "allied formation": "allied-formation",
    "allied unit": "allied-unit",
}
COLUMN_BY_ROLE = {"support": "Support", "formation-support": "Formation Support", "wildcard": "Wildcards",
                  "allied-unit": "Allied", "allied-formation": "Allied"}
CARD_PROFILE_HINT = "command card"


def safe_code(ident: str) -> str:
    if CODE_RE.match(ident) and len(ident) <= 120:
        return ident
    cleaned = re.sub(r"[^A-Za-z0-9_.:/-]", "_", ident).lstrip("_.:/-") or "x"
    return cleaned[:120]


def clean_name(name: str, fallback: str = "Unnamed") -> str:
    name = " ".join((name or "").split())
    return (name or fallback)[:200]


def strip_order(name: str) -> tuple[int | None, str]:
    m = ORDER_PREFIX.match(name or "")
    if m:
        return int(m.group(1)), name[m.end():].strip() or name
    return None, name


def as_points(value, report: CatalogueReport, ident: str, what: str) -> int:
    if isinstance(value, float) and not value.is_integer():
        report.warning(ident, what, f"cost {value} is not a whole number; rounded to {round(value)}")
        return round(value)
    return int(value)


class FowMapper:
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

    # -- helpers --------------------------------------------------------
    def code(self, ident: str, what: str) -> str:
        code = safe_code(ident)
        if code != ident:
            self.report.warning(ident, what, f"id is not a valid code; stored as {code!r}")
        return code

    def bs_info(self, entry: Entry, **more) -> dict:
        """What a roster needs of an entry: ids, type, categories and raw costs (every cost type)."""
        info = {"entry": entry.node.id, "path": entry.path, "type": entry.node.type}
        info.update(more)
        if entry.categories:
            info["categories"] = sorted(entry.categories)
        info["costs"] = {k: v for k, v in sorted(entry.costs.items())}
        return info

    def role(self, entry: Entry) -> str:
        return self.roles.get(entry.primary_category, "")

    def is_card(self, entry: Entry) -> bool:
        return bool(self.card_category) and self.card_category in entry.categories

    def is_card_group(self, entry: Entry) -> bool:
        if CARD_GROUP_RE.search(entry.name or ""):
            return True
        if entry.is_group:
            leaves = self.leaves(entry)
            return bool(leaves) and all(self.is_card(e) for e in leaves)
        return False

    def resolved_children(self, entry: Entry) -> list[Entry]:
        out = []
        for node, child in self.index.children(entry):
            if child is None:
                self.report.error(node.id, "entryLink", f"target {node.target_id!r} of {node.name!r} not found "
                                  "in this catalogue, its linked catalogues or the game system")
                continue
            out.append(child)
        return out

    def leaves(self, group: Entry) -> list[Entry]:
        """Selection entries under a group, nested groups flattened."""
        out = []
        for child in self.resolved_children(group):
            out.extend(self.leaves(child) if child.is_group else [child])
        return out

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
        """Normalised modifiers and unmapped constraints of an entry, reported once per entry.

        ``owns``: the entry *is* the unit/card/formation ``target_code`` names, so its per-force
        limits become handbook constraints on it. A size's or option's own per-force limit (e.g.
        the game system's "Warrior" entry linked into many units) counts that option, not its
        unit; our constraints cannot say that, so it is kept in extra and reported."""
        extra: dict = {}
        first = id(entry.node) not in self.checked or (entry.link is not None and id(entry.link) not in self.checked)
        self.checked.add(id(entry.node))
        if entry.link is not None:
            self.checked.add(id(entry.link))
        cost_mods, other_mods = [], []
        for mod in entry.modifiers:
            if mod["kind"] == "cost":
                cost_mods.append(mod)
                if first:
                    self.report.counts["cost modifiers"] += 1
            else:
                other_mods.append(mod)
                if first:
                    self.report.counts[f"{mod['kind']} modifiers"] += 1
        if cost_mods:
            extra["cost_modifiers"] = cost_mods
        if other_mods:
            extra["modifiers"] = other_mods
        kept = []
        for c in entry.constraints:
            if c["field"] == "selections" and not c.get("percent") and c["scope"] == "parent":
                continue  # min/max in the parent: mapped onto the box, group or option
            if c["field"] == "selections" and not c.get("percent") and c["scope"] in ("force", "roster"):
                if root:
                    continue  # a root entry's box carries it
                if target_code and not entry.is_group and owns:
                    self.force_constraint(c, entry, target_kind, target_code)
                    continue
            kept.append(c)
        if kept:
            extra["constraints"] = kept
        if entry.hidden:
            extra["hidden"] = True
        return extra

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
        doc = {"code": code, "description": f"{c['type']} {c['value']} {entry.name} per {where}"[:300],
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
            self.rules.setdefault(code, clean_name(r.name, "Rule"))
            codes.append(code)
        return codes

    def profile_docs(self, profiles: dict, owner: str) -> tuple[list[dict], list[dict]]:
        docs, refs = [], []
        for p, source in profiles.values():
            ptype = self.ptypes.get(p.type_id)
            if ptype is None:
                self.report.warning(p.id, "profile", f"profile type {p.type_id!r} ({p.type_name}) is unknown")
                continue
            if ptype["applies_to"] == "card":
                continue  # command card texts are not copied
            values = {}
            for ch in p.characteristics:
                if ch.type_id in ptype["characteristics"]:
                    if ch.value:
                        values[ch.type_id] = ch.value
                else:
                    self.report.warning(p.id, "characteristic", f"{ch.name!r} is not a characteristic of "
                                        f"{p.type_name!r}")
            docs.append({"type": p.type_id, "name": clean_name(p.name, p.type_name or "Profile"), "values": values})
            ref = {"id": p.id, "from": source}
            if p.hidden:
                ref["hidden"] = True
            if p.modifiers:
                ref["modifiers"] = p.modifiers
                self.report.counts["profile modifiers"] += len(p.modifiers)
            refs.append(ref)
            self.report.counts["profiles"] += 1
        return docs, refs

    # -- units ------------------------------------------------------------
    def unit_code(self, entry: Entry) -> str:
        link = entry.link
        specific = link is not None and (link.modifiers or link.has_costs or link.children)
        return self.code(entry.path if specific else entry.node.id, "unit")

    def unit(self, entry: Entry) -> str:
        code = self.unit_code(entry)
        if code in self.units:
            return code
        self.units[code] = {}  # reserve: a unit that (oddly) contains itself does not loop
        self.used_nodes.add(entry.node.id)
        self.units[code] = self.build_unit(entry, code)
        self.unit_order.append(code)
        self.report.counts["units"] += 1
        return code

    def base_cost(self, entry: Entry) -> float:
        return entry.costs.get(self.pts, 0)

    def model_count_sets(self, entry: Entry) -> list[tuple[str, int, float, dict]]:
        """Unit-level 'set cost when it holds N models' modifiers: (comparison, N, points, modifier)."""
        out = []
        own = {entry.node.id, entry.path, "self"} | ({entry.link.id} if entry.link else set())
        for mod in entry.modifiers:
            if mod["kind"] != "cost" or mod["field"] != self.pts or mod["type"] != "set" or mod.get("repeats"):
                continue
            cond = mod.get("when")
            if not cond or "and" in cond or "or" in cond:
                continue
            if (cond.get("child") == "model" and cond.get("scope") in own and cond.get("field") == "selections"
                    and cond.get("type") in ("equalTo", "atLeast", "greaterThan")):
                n = int(cond["value"]) + (1 if cond["type"] == "greaterThan" else 0)
                out.append((cond["type"], n, mod["value"], mod))
        return out

    def build_unit(self, entry: Entry, code: str) -> dict:
        node = entry.node
        name = clean_name(entry.name, "Unit")
        doc: dict = {"code": code, "name": name}
        m = CARD_CODE_RE.search(name)
        if m:
            doc["card_code"] = m.group(1)
        profiles: dict = {}
        rules: dict = {}
        self.collect_info(node, entry.catalogue_id, profiles, rules, code)
        if entry.link is not None:
            self.collect_info(entry.link, entry.catalogue_id, profiles, rules, code)
        children = self.resolved_children(entry)
        base = self.base_cost(entry)
        extra: dict = {"bs": self.bs_info(entry)}
        extra["bs"].setdefault("categories", [])
        if entry.catalogue_id != self.cat.id or node.catalogue_id != self.cat.id:
            extra["bs"]["catalogue"] = node.catalogue_id
        extra.update(self.extras(entry, "unit", code, owns=True))

        # Size options.
        size_group = None
        candidates = [c for c in children if c.is_group and not self.is_card_group(c)]
        for c in candidates:
            lo, hi = c.limits()
            if lo == 1 and hi == 1 and SIZE_NAME_RE.search(c.name or ""):
                size_group = c
                break
        if size_group is None:
            for c in candidates:
                lo, hi = c.limits()
                leaves = self.leaves(c)
                if lo == 1 and hi == 1 and leaves and all(TEAMS_RE.search(e.name or "") for e in leaves):
                    size_group = c
                    break
        model_sets = self.model_count_sets(entry)
        team_group, team_offset = None, 0
        if size_group is None and not model_sets:
            for c in candidates:
                lo, hi = c.limits()
                leaves = self.leaves(c)
                if (lo and hi and 1 <= lo <= hi <= 50 and (lo, hi) != (1, 1) and leaves
                        and all(e.node.type == "model" for e in leaves)):
                    team_group = c
                    team_offset = min(e.costs.get(self.pts, 0) for e in leaves)
                    break
        sizes: list[dict] = []
        upgrade_groups: list[dict] = []
        group_extra: dict = {}
        model_group = team_group
        if model_sets:
            model_group = next((c for c in candidates if self.leaves(c)
                                and all(e.node.type == "model" for e in self.leaves(c))), None)
        if model_sets or team_group is not None:
            # The unit's teams are model selections: the chosen model options, the rest this one.
            extra["model_filler"] = self.model_filler(model_group)
            if model_group is not None:
                extra["model_group"] = self.code(model_group.path, "upgrade group")
        if model_sets:
            for ctype, n, points, mod in sorted(model_sets, key=lambda t: t[1]):
                label = f"{n}{'+' if ctype != 'equalTo' else ''} teams"
                sizes.append({"code": safe_code(f"{code}/n{n}{'plus' if ctype != 'equalTo' else ''}"), "label": label,
                              "teams": n, "points": as_points(points, self.report, code, "size"),
                              "extra": {"bs": {"models": n, "comparison": ctype}}})
            extra["sizes_from"] = "model-count cost modifiers"
            self.report.counts["sizes"] += len(sizes)
        elif team_group is not None:
            # "2-5 tanks, each priced": a size per team count at the cheapest team's price
            # (plus the unit's own cost); dearer teams cost the difference per team.
            lo, hi = team_group.limits()
            for n in range(lo, hi + 1):
                points = base + n * team_offset
                sizes.append({"code": safe_code(f"{code}/n{n}"), "label": f"{n} teams", "teams": n,
                              "points": as_points(max(points, 0), self.report, code, "size"),
                              "extra": {"bs": {"models": n, "team_group": team_group.path}}})
                if points < 0:
                    self.report.info(code, "size", f"{n} teams cost {points} (negative): shown as 0; the list is "
                                 "priced from the catalogue document")
            extra["sizes_from"] = f"team count of {team_group.path}"
            self.report.counts["sizes"] += len(sizes)
        elif size_group is not None:
            for leaf in self.leaves(size_group):
                sizes.append(self.size_option(leaf, base, code, profiles, rules, upgrade_groups, group_extra))
            extra["sizes_from"] = size_group.path
            extra.update({"size_group": {"id": size_group.path, "name": size_group.name}})
        if not sizes:
            if base < 0:
                self.report.info(code, "unit", f"unit {name!r} costs {base} (negative) and has no size options; "
                                  "stored as 0 (the evaluator prices it from the BattleScribe data)")
            sizes.append({"code": safe_code(f"{code}/base"), "label": name,
                          "teams": self.teams_in(name),
                          "points": as_points(max(base, 0), self.report, code, "size"),
                          "extra": {"bs": {"entry": node.id, "single": True, "cost": base}}})
            self.report.counts["sizes"] += 1

        # Other children: upgrade groups and command cards.
        for child in children:
            if child is size_group and not model_sets:
                continue
            if self.is_card_group(child):
                self.cards_from(child, "unit", ("units", code))
                continue
            if not child.is_group and self.is_card(child):
                self.card(child, "unit", ("units", code))
                continue
            self.upgrade_group(child, code, profiles, rules, upgrade_groups, group_extra, parent=None,
                               offset=team_offset if child is team_group else 0)

        doc["sizes"] = sizes
        if upgrade_groups:
            doc["upgrades"] = upgrade_groups
        if group_extra:
            extra["upgrade_groups"] = group_extra
        docs, refs = self.profile_docs(profiles, code)
        if docs:
            doc["profiles"] = docs
            extra["profiles"] = refs
            for ptype_id in (p["type"] for p in docs):
                tname = self.index.profile_types.get(ptype_id)
                if tname and tname.name.lower().endswith(" unit"):
                    doc["type"] = tname.name[: -len(" unit")].lower()[:40]
                    break
        rule_codes = self.rule_codes(rules)
        if rule_codes:
            doc["rules"] = rule_codes
        doc["extra"] = extra
        return doc

    def model_filler(self, group: Entry | None) -> dict:
        """The model a size's remaining teams are: the group's default, else its cheapest model."""
        if group is None:
            return {"name": "Team", "bs": {"type": "model", "costs": {}}}
        leaves = self.leaves(group)
        pick = next((e for e in leaves if group.node.default_id and group.node.default_id in (e.node.id, e.path)),
                    None)
        if pick is None:
            pick = min(leaves, key=lambda e: e.costs.get(self.pts, 0))
        filler = {"name": clean_name(pick.name, "Team"), "group": group.path, "bs": self.bs_info(pick)}
        mods = [m for m in pick.modifiers if m["kind"] == "cost"]
        if mods:
            filler["cost_modifiers"] = mods
        return filler

    def teams_in(self, label: str) -> int:
        counts = [int(n) for n in TEAMS_RE.findall(label or "")]
        return min(sum(counts), 200) if counts else 1

    def size_option(self, leaf: Entry, base: float, unit_code: str, profiles, rules, groups, group_extra) -> dict:
        self.used_nodes.add(leaf.node.id)
        cost = leaf.costs.get(self.pts, 0)
        points = base + cost
        code = self.code(leaf.path, "size")
        size = {"code": code, "label": clean_name(leaf.name, "Size"), "teams": self.teams_in(leaf.name),
                "points": as_points(max(points, 0), self.report, leaf.path, "size")}
        if points < 0:
            self.report.info(leaf.path, "size", f"size costs {points} (negative): shown as 0; the list is priced "
                             "from the catalogue document")
        extra = {"bs": self.bs_info(leaf, cost=cost)}
        extra.update(self.extras(leaf, "unit", unit_code))
        size["extra"] = extra
        self.collect_info(leaf.node, leaf.catalogue_id, profiles, rules, code)
        # Options that only exist with this size become upgrade groups tied to it.
        for child in self.resolved_children(leaf):
            if self.is_card_group(child):
                self.cards_from(child, "unit", ("units", unit_code))
                continue
            self.upgrade_group(child, unit_code, profiles, rules, groups, group_extra, parent=code)
        self.report.counts["sizes"] += 1
        return size

    def upgrade_group(self, child: Entry, unit_code: str, profiles, rules, groups, group_extra, parent,
                      offset: float = 0) -> None:
        """A group (or a lone entry) under a unit becomes one upgrade group; nested groups are flattened."""
        if child.is_group:
            options_in = []
            for leaf in self.resolved_children(child):
                if leaf.is_group:
                    self.upgrade_group(leaf, unit_code, profiles, rules, groups, group_extra, parent=child.path)
                elif self.is_card(leaf):
                    self.card(leaf, "unit", ("units", unit_code))
                else:
                    options_in.append(leaf)
            lo, hi = child.limits()
            name = child.name
        else:
            options_in = [child]
            lo, hi = child.limits()
            hi = None if hi is None else hi
            name = child.name
        if not options_in:
            return
        code = self.code(child.path, "upgrade group")
        if any(g["code"] == code for g in groups):
            return
        options = []
        for leaf in options_in:
            options.append(self.upgrade_option(leaf, unit_code, profiles, rules, groups, group_extra,
                                               lone=not child.is_group, offset=offset))
        g = {"code": code, "name": clean_name(strip_order(name)[1], "Options"), "options": options}
        info: dict = {"bs": {"id": child.path, "kind": "group" if child.is_group else "entry"}}
        if parent:
            info["parent"] = parent
        if child.is_group:
            info.update(self.extras(child, "unit", unit_code))
        lo = lo or 0
        if child.is_group:
            if hi is not None and hi > 0:
                g["max"] = min(hi, MAX_COUNT)
            elif hi == 0:
                g["max"] = 1
                info["bs_max"] = 0
            lo_cap = min(lo, len(options), g.get("max", MAX_COUNT))
        else:
            # A lone entry: its min/max count its quantity, not a choice between options.
            g["max"] = 1
            lo_cap = 1 if lo >= 1 else 0
        if lo_cap:
            g["min"] = lo_cap
        if lo != lo_cap or (child.is_group and hi is not None and hi > MAX_COUNT):
            info["bs_min"], info["bs_max"] = lo, hi
        if child.node.default_id:
            info["default"] = child.node.default_id
        group_extra[code] = info
        groups.append(g)
        self.report.counts["upgrade groups"] += 1

    def upgrade_option(self, leaf: Entry, unit_code, profiles, rules, groups, group_extra, lone: bool,
                       offset: float = 0) -> dict:
        self.used_nodes.add(leaf.node.id)
        lo, hi = leaf.limits()
        cost = leaf.costs.get(self.pts, 0)
        code = self.code(leaf.path, "upgrade")
        opt = {"code": code, "name": clean_name(leaf.name, "Option"),
               "points": as_points(cost - offset, self.report, leaf.path, "upgrade")}
        extra = {"bs": self.bs_info(leaf, cost=cost)}
        if offset:
            extra["included_in_size"] = offset
        if hi is None:
            extra["unbounded"] = True
            qty = MAX_COUNT if leaf.node.type == "model" else 1
        else:
            qty = max(1, min(hi, MAX_COUNT))
            if hi == 0:
                extra["bs_max"] = 0
        if lo:
            extra["min"] = lo
        if qty > 1:
            opt["max_quantity"] = qty
            opt["per"] = "team" if leaf.node.type == "model" else "item"
        opt_rules: dict = {}
        opt_profiles: dict = {}
        self.collect_info(leaf.node, leaf.catalogue_id, opt_profiles, opt_rules, code)
        if leaf.link is not None:
            self.collect_info(leaf.link, leaf.catalogue_id, opt_profiles, opt_rules, code)
        for pid, item in opt_profiles.items():
            profiles.setdefault(pid, item)
            tname = self.index.profile_types.get(item[0].type_id)
            if tname and "transport" in tname.name.lower():
                opt["kind"] = "transport"
        codes = self.rule_codes(opt_rules)
        if codes:
            opt["rules"] = codes
        extra.update(self.extras(leaf, "unit", unit_code))
        opt["extra"] = extra
        # Options of options (e.g. a transport's own weapons) become further groups.
        for child in self.resolved_children(leaf):
            if self.is_card_group(child):
                self.cards_from(child, "unit", ("units", unit_code))
                continue
            self.upgrade_group(child, unit_code, profiles, rules, groups, group_extra, parent=code)
        self.report.counts["upgrades"] += 1
        return opt

    # -- command cards ----------------------------------------------------------
    def cards_from(self, group: Entry, scope: str, target: tuple[str, str] | None) -> None:
        m = SCOPE_RE.search(group.name or "")
        scope = m.group(1).lower() if m else scope
        self.checked.add(id(group.node))
        for leaf in self.leaves(group):
            self.card(leaf, scope, target)

    def title_choices(self, entry: Entry) -> list[tuple[Entry, Entry]]:
        """A root card entry that only wraps one group of plain choices (e.g. a "Formation Title" whose
        titles are the real cards): (group, choice) pairs, else []. Each choice becomes a card."""
        if entry.is_group or self.base_cost(entry):
            return []
        children = self.resolved_children(entry)
        if len(children) != 1 or not children[0].is_group:
            return []
        group = children[0]
        leaves = [c for c in self.resolved_children(group)]
        if not leaves or any(c.is_group or c.node.type != "upgrade" or self.resolved_children(c) or self.unit_like(c)
                             for c in leaves):
            return []
        return [(group, leaf) for leaf in leaves]

    def card(self, entry: Entry, scope: str, target: tuple[str, str] | None,
             wrapper: tuple[Entry, Entry] | None = None) -> None:
        self.used_nodes.add(entry.node.id)
        code = self.code(entry.path, "command card")
        card = self.cards.get(code)
        if card is None and wrapper is not None:
            outer, group = wrapper
            self.used_nodes.add(outer.node.id)
            self.card(entry, scope, target)
            card = self.cards[code]
            # The roster selects the wrapper, then this choice from its group.
            card["extra"]["bs"]["wrapper"] = {**self.bs_info(outer), "name": clean_name(outer.name, "Card"),
                                              "group": group.path}
            outer_mods = [m for m in outer.modifiers if m["kind"] == "cost"]
            if outer_mods:
                card["extra"]["bs"]["wrapper"]["cost_modifiers"] = outer_mods
            return
        if card is None:
            lo, hi = entry.limits()
            card = {"code": code, "name": clean_name(entry.name, "Card"), "scope": scope,
                    "points": as_points(self.base_cost(entry), self.report, entry.path, "command card")}
            m = CARD_CODE_RE.search(card["name"])
            if m:
                card["card_code"] = m.group(1)
            if hi is not None and hi >= 1:
                card["max_per_target"] = min(hi, MAX_COUNT)
            extra = {"bs": self.bs_info(entry)}
            extra.update(self.extras(entry, "card", code, owns=True))
            profiles: dict = {}
            rules: dict = {}
            self.collect_info(entry.node, entry.catalogue_id, profiles, rules, code)
            if profiles:
                extra["profiles"] = [{"id": p.id, "name": p.name, "type": p.type_id} for p, _ in profiles.values()]
            codes = self.rule_codes(rules)
            if codes:
                extra["rules"] = codes
            subs = self.resolved_children(entry)
            if subs:
                extra["options"] = [{"id": s.path, "name": s.name, "kind": "group" if s.is_group else s.node.type}
                                    for s in subs]
                self.report.counts["card sub-choices"] += len(subs)
            card["extra"] = extra
            card["targets"] = {}
            self.cards[code] = card
            self.report.counts["command cards"] += 1
        elif card["scope"] != scope:
            card["extra"].setdefault("also_scopes", [])
            if scope not in card["extra"]["also_scopes"]:
                card["extra"]["also_scopes"].append(scope)
        if target is not None:
            kind, tcode = target
            codes = card["targets"].setdefault(kind, [])
            if tcode not in codes:
                codes.append(tcode)

    # -- boxes ------------------------------------------------------------
    def box(self, child: Entry, index: int, *, owner: str, column: str = "", root: bool = False,
            part_of_formation: bool = True) -> dict | None:
        self.used_nodes.add(child.node.id)
        order, name = strip_order(child.name)
        subgroups = []
        if child.is_group:
            lo, hi = child.limits()
            choices: list[tuple[Entry, int | None]] = []
            choice_groups: dict[int, list[str]] = {}

            def gather(group: Entry, trail: list[str]):
                for c in self.resolved_children(group):
                    if c.is_group:
                        if self.is_card_group(c):
                            self.cards_from(c, "formation", ("formations", owner) if owner else None)
                            continue
                        clo, chi = c.limits()
                        subgroups.append({"id": c.path, "name": c.name, "min": clo, "max": chi})
                        self.extras(c, "unit", owner)
                        gather(c, trail + [c.path])
                    elif self.is_card(c):
                        self.card(c, "formation", ("formations", owner) if owner else None)
                    else:
                        choices.append((c, c.limits()[1]))
                        if len(trail) > 1:
                            choice_groups[id(c)] = trail

            gather(child, [child.path])
        else:
            lo, hi = self.limits(child, root=root)
            choices = [(child, None)]
            choice_groups = {}
        if not choices:
            self.report.warning(child.path, "box", f"{child.name!r} offers no units; skipped")
            return None
        extra: dict = {"bs": {"id": child.path, "kind": "group" if child.is_group else "entry"}}
        if child.node.default_id:
            extra["bs"]["default"] = child.node.default_id
        if child.is_group:
            extra.update(self.extras(child, "unit", owner, root=root))
        if subgroups:
            extra["subgroups"] = subgroups
        choice_docs = []
        for entry, cmax in choices:
            ucode = self.unit(entry)
            unit_path = self.units.get(ucode, {}).get("extra", {}).get("bs", {}).get("path")
            if unit_path and entry.path != unit_path:  # the same unit reached through another link here
                extra.setdefault("choice_paths", {})[ucode] = entry.path
            if id(entry) in choice_groups:  # picked from a nested group: the roster names the innermost one
                extra.setdefault("choice_groups", {})[ucode] = choice_groups[id(entry)]
            if cmax is not None and cmax >= 1 and child.is_group:
                choice_docs.append({"unit": ucode, "max": min(cmax, MAX_COUNT)})
            else:
                choice_docs.append(ucode)
            if cmax == 0:
                extra.setdefault("hidden_choices", []).append(ucode)
        lo = lo or 0
        if hi is None:
            maxes = [c for _, c in choices]
            if child.is_group and all(m is not None for m in maxes) and sum(maxes) > 0:
                hi = sum(maxes)
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

    def formation_option(self, entry: Entry, formation_code: str) -> dict:
        """A bare formation-level choice (e.g. a points-changing rating); extra only."""
        self.used_nodes.add(entry.node.id)
        lo, hi = entry.limits()
        option = {"id": entry.path, "name": entry.name, "type": entry.type,
                  "points": entry.costs.get(self.pts, 0), "min": lo, "max": hi}
        option.update(self.extras(entry, "formation", formation_code))
        if entry.is_group:
            option["choices"] = [self.formation_option(leaf, formation_code) for leaf in self.leaves(entry)]
            return option
        if entry.path not in self.reported_options:
            self.reported_options.add(entry.path)
            self.report.counts["formation options"] += 1
            self.report.counts["formation options"] += 1
        return option

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
        options: list[dict] = []
        for i, child in enumerate(self.resolved_children(entry)):
            if self.is_card_group(child):
                self.cards_from(child, "formation", ("formations", code))
                continue
            if not child.is_group and self.is_card(child):
                self.card(child, "formation", ("formations", code))
                continue
            if not (self.unit_like(child) if not child.is_group
                    else any(self.unit_like(leaf) for leaf in self.leaves(child))):
                options.append(self.formation_option(child, code))
                continue
            box = self.box(child, i, owner=code)
            if box is not None:
                boxes.append(box)
        if not boxes:
            self.report.warning(entry.path, "formation", f"{entry.name!r} has no boxes with units; not imported")
            return
        boxes.sort(key=lambda b: b.pop("_order"))
        seen = set()
        for b in boxes:
            if b["code"] in seen:  # the same group twice: keep the codes unique
                b["code"] = safe_code(f"{b['code']}.{len(seen)}")
            seen.add(b["code"])
        name = clean_name(entry.name, "Formation")
        doc: dict = {"code": code, "name": name, "boxes": boxes}
        m = CARD_CODE_RE.search(name)
        if m:
            doc["card_code"] = m.group(1)
        extra = {"bs": self.bs_info(entry)}
        extra.update(self.extras(entry, "formation", code, owns=True))
        for c in entry.constraints:
            if c["field"] == "selections" and c["scope"] in ("parent", "force", "roster") and not c.get("percent"):
                self.force_constraint({**c, "scope": "force" if c["scope"] == "parent" else c["scope"]},
                                      entry, "formation", code)
        if options:
            extra["options"] = options
        if card:
            extra["card"] = True
        cost = self.base_cost(entry)
        if cost:
            extra["points"] = cost
            self.report.counts["formations with a cost of their own"] += 1
        doc["extra"] = extra
        self.formations.append(doc)
        self.formation_codes.add(code)
        self.report.counts["formations"] += 1

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
        for node, owner_cat in self.root_entries():
            entry = self.index.entry(node, cat.id)
            if entry is None:
                self.report.error(node.id, "entryLink", f"root link {node.name!r} → {node.target_id!r}: target "
                                  "not found")
                continue
            role = self.role(entry)
            if self.generic:
                self.generic_root(entry)
                continue
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
                if entry.is_group or self.is_card_group(entry) and self.resolved_children(entry):
                    self.cards_from(entry, "force", None)
                elif self.resolved_children(entry) and not self.is_card(entry):
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
        doc = {
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
        return generic_system_code(self.index.system) if self.generic else "fow4"


class GenericMapper(FowMapper):
    """A game system that is not Flames of War: no formations; root entries become support boxes
    per primary category, units keep sizes/options/costs as the FoW mapping reads them."""

    generic = True


FOW_GAME_SYSTEM_ID = "976a-b687-1fdb-07ef"


def is_flames_of_war(index: Index) -> bool:
    names = {n.strip().lower() for n in index.category_names.values()}
    return index.system.id == FOW_GAME_SYSTEM_ID or "formations" in names


def generic_system_code(system: Catalogue) -> str:
    return safe_code(f"bs-{system.id}")[:120]


def generic_nation(cat: Catalogue) -> tuple[str, str]:
    slug = re.sub(r"[^a-z0-9]+", "-", (cat.name or cat.id).lower()).strip("-") or "force"
    return safe_code(slug[:60]), clean_name(cat.name, "Force")


def map_catalogue(index: Index, cat: Catalogue, report: CatalogueReport, ptypes: dict[str, dict]) -> dict:
    mapper = FowMapper if is_flames_of_war(index) else GenericMapper
    return mapper(index, cat, report, ptypes).map()
