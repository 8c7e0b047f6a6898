"""Command cards: where a catalogue offers them, their targets and scopes, and cards that wrap one choice."""
from __future__ import annotations

from typing import Any

from ..index import Entry
from .base import MapperBase
from .common import CARD_CODE_RE, MAX_COUNT, SCOPE_RE, as_points, clean_name


class CardMapping(MapperBase):
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
            # The roster selects the wrapper, then this choice from its group (the catalogue document has both).
            self.used_nodes.add(wrapper[0].node.id)
            self.card(entry, scope, target)
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
            extra: dict[str, Any] = {"bs": self.bs_info(entry)}
            extra.update(self.extras(entry, "card", code, owns=True))
            profiles: dict = {}
            rules: dict = {}
            # Its texts are not copied, but its rules are named and what it lacks is reported.
            self.collect_info(entry.node, entry.catalogue_id, profiles, rules, code)
            self.rule_codes(rules)
            subs = self.resolved_children(entry)
            if subs:
                self.report.counts["card sub-choices"] += len(subs)
            card["extra"] = extra
            card["targets"] = {}
            self.cards[code] = card
            self.report.counts["command cards"] += 1
        if target is not None:
            kind, tcode = target
            codes = card["targets"].setdefault(kind, [])
            if tcode not in codes:
                codes.append(tcode)
