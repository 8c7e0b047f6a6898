"""Units: sizes (a size group, model-count cost modifiers or a team count), upgrade groups and options."""
from __future__ import annotations

from typing import Any

from ..index import Entry
from .base import MapperBase
from .common import CARD_CODE_RE, MAX_COUNT, SIZE_NAME_RE, TEAMS_RE, as_points, clean_name, safe_code, strip_order


class UnitMapping(MapperBase):
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
        team_group: Entry | None = None
        team_offset: float = 0
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
        model_group = team_group
        if model_sets:
            model_group = next((c for c in candidates if self.leaves(c)
                                and all(e.node.type == "model" for e in self.leaves(c))), None)
        if model_group is not None:
            # The unit's teams are model selections (the catalogue document prices them): its group is
            # looked at as every group is, so a dangling link or a bad id in it is reported here too.
            self.leaves(model_group)
            self.code(model_group.path, "upgrade group")
        if model_sets:
            for ctype, n, points, _mod in sorted(model_sets, key=lambda t: t[1]):
                label = f"{n}{'+' if ctype != 'equalTo' else ''} teams"
                sizes.append({"code": safe_code(f"{code}/n{n}{'plus' if ctype != 'equalTo' else ''}"), "label": label,
                              "teams": n, "points": as_points(points, self.report, code, "size"),
                              "extra": {"bs": {"models": n}}})
            self.report.counts["sizes"] += len(sizes)
        elif team_group is not None:
            # "2-5 tanks, each priced": a size per team count at the cheapest team's price
            # (plus the unit's own cost); dearer teams cost the difference per team.
            lo, hi = team_group.limits()
            assert lo is not None and hi is not None  # a team group is chosen above for its finite limits
            for n in range(lo, hi + 1):
                points = base + n * team_offset
                sizes.append({"code": safe_code(f"{code}/n{n}"), "label": f"{n} teams", "teams": n,
                              "points": as_points(max(points, 0), self.report, code, "size"),
                              "extra": {"bs": {"models": n}}})
                if points < 0:
                    self.report.info(code, "size", f"{n} teams cost {points} (negative): shown as 0; the list is "
                                 "priced from the catalogue document")
            self.report.counts["sizes"] += len(sizes)
        elif size_group is not None:
            for leaf in self.leaves(size_group):
                sizes.append(self.size_option(leaf, base, code, profiles, rules, upgrade_groups))
        if not sizes:
            if base < 0:
                self.report.info(code, "unit", f"unit {name!r} costs {base} (negative) and has no size options; "
                                  "stored as 0 (the evaluator prices it from the BattleScribe data)")
            sizes.append({"code": safe_code(f"{code}/base"), "label": name,
                          "teams": self.teams_in(name),
                          "points": as_points(max(base, 0), self.report, code, "size"),
                          "extra": {"bs": {"entry": node.id, "single": True}}})
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
            self.upgrade_group(child, code, profiles, rules, upgrade_groups,
                               offset=team_offset if child is team_group else 0)

        doc["sizes"] = sizes
        if upgrade_groups:
            doc["upgrades"] = upgrade_groups
        docs = self.profile_docs(profiles)
        if docs:
            doc["profiles"] = docs
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

    def teams_in(self, label: str) -> int:
        counts = [int(n) for n in TEAMS_RE.findall(label or "")]
        return min(sum(counts), 200) if counts else 1

    def size_option(self, leaf: Entry, base: float, unit_code: str, profiles, rules, groups) -> dict:
        self.used_nodes.add(leaf.node.id)
        cost = leaf.costs.get(self.pts, 0)
        points = base + cost
        code = self.code(leaf.path, "size")
        size = {"code": code, "label": clean_name(leaf.name, "Size"), "teams": self.teams_in(leaf.name),
                "points": as_points(max(points, 0), self.report, leaf.path, "size")}
        if points < 0:
            self.report.info(leaf.path, "size", f"size costs {points} (negative): shown as 0; the list is priced "
                             "from the catalogue document")
        extra = {"bs": self.bs_info(leaf)}
        extra.update(self.extras(leaf, "unit", unit_code))
        size["extra"] = extra
        self.collect_info(leaf.node, leaf.catalogue_id, profiles, rules, code)
        # Options that only exist with this size become upgrade groups tied to it.
        for child in self.resolved_children(leaf):
            if self.is_card_group(child):
                self.cards_from(child, "unit", ("units", unit_code))
                continue
            self.upgrade_group(child, unit_code, profiles, rules, groups)
        self.report.counts["sizes"] += 1
        return size

    def upgrade_group(self, child: Entry, unit_code: str, profiles, rules, groups, offset: float = 0) -> None:
        """A group (or a lone entry) under a unit becomes one upgrade group; nested groups are flattened."""
        if child.is_group:
            options_in = []
            for leaf in self.resolved_children(child):
                if leaf.is_group:
                    self.upgrade_group(leaf, unit_code, profiles, rules, groups)
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
            options.append(self.upgrade_option(leaf, unit_code, profiles, rules, groups, offset=offset))
        g: dict[str, Any] = {"code": code, "name": clean_name(strip_order(name)[1], "Options"), "options": options}
        if child.is_group:
            self.extras(child, "unit", unit_code)  # counted; a group's rules are the catalogue document's
        lo = lo or 0
        if child.is_group:
            if hi is not None and hi > 0:
                g["max"] = min(hi, MAX_COUNT)
            elif hi == 0:
                g["max"] = 1
            lo_cap = min(lo, len(options), g.get("max", MAX_COUNT))
        else:
            # A lone entry: its min/max count its quantity, not a choice between options.
            g["max"] = 1
            lo_cap = 1 if lo >= 1 else 0
        if lo_cap:
            g["min"] = lo_cap
        groups.append(g)
        self.report.counts["upgrade groups"] += 1

    def upgrade_option(self, leaf: Entry, unit_code, profiles, rules, groups, offset: float = 0) -> dict:
        self.used_nodes.add(leaf.node.id)
        hi = leaf.limits()[1]
        cost = leaf.costs.get(self.pts, 0)
        code = self.code(leaf.path, "upgrade")
        opt = {"code": code, "name": clean_name(leaf.name, "Option"),
               "points": as_points(cost - offset, self.report, leaf.path, "upgrade")}
        extra: dict[str, Any] = {"bs": self.bs_info(leaf)}
        if hi is None:
            extra["unbounded"] = True
            qty = MAX_COUNT if leaf.node.type == "model" else 1
        else:
            qty = max(1, min(hi, MAX_COUNT))
            if hi == 0:
                extra["bs_max"] = 0
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
            self.upgrade_group(child, unit_code, profiles, rules, groups)
        self.report.counts["upgrades"] += 1
        return opt
