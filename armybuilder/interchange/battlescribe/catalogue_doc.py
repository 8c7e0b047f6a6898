"""The catalogue document: every BattleScribe node one catalogue can reach, as plain JSON.

It is stored with each imported handbook revision and read by the rules engine's BattleScribe
evaluator (:mod:`armybuilder.rules.battlescribe`), which works over a list's selection tree with
BattleScribe's own meaning: costs, constraints, hidden and constraint modifiers. The flattened
formations, boxes, units, sizes and options of the handbook are for display; legality and
points come from this document.

Reachable means: the catalogue's root entries and links, the root entries of catalogues it links
with ``importRootEntries`` and of the game system, the game system's force entries, and everything those reach through
children and links, in this catalogue, its linked catalogues or the game system. A link whose
target cannot be found is left out here and reported by the mapping.
"""
from __future__ import annotations

from .index import Index
from .nodes import Catalogue, CategoryLink, InfoGroup, Node, Profile, Rule

FORMAT = 1
KINDS = {"selectionEntry": "entry", "selectionEntryGroup": "group", "entryLink": "link", "forceEntry": "force",
         "categoryEntry": "category"}


def _category_link(cl: CategoryLink) -> dict:
    doc: dict = {"id": cl.id, "target": cl.target_id}
    if cl.primary:
        doc["primary"] = True
    if cl.constraints:
        doc["constraints"] = cl.constraints
    if cl.modifiers:
        doc["modifiers"] = cl.modifiers
    return doc


class _Builder:
    def __init__(self, index: Index, cat: Catalogue, roles: dict[str, str]):
        self.index = index
        self.cat = cat
        self.roles = roles
        self.nodes: dict[str, dict] = {}
        self.profiles: dict[str, dict] = {}
        self.rules: dict[str, dict] = {}
        self.pending: list[tuple[Node, str]] = []

    # -- info (profiles and rules, for unit cards) -----------------------------------------------
    def profile(self, p: Profile) -> str:
        if p.id not in self.profiles:
            # The (type id, name, value) tuples themselves: JSON writes them as the lists the document holds
            # when read back, and they cannot change (a library has ~30,000 of them).
            doc: dict = {"name": p.name, "type": p.type_id, "type_name": p.type_name,
                         "values": list(p.characteristics)}
            if p.hidden:
                doc["hidden"] = True
            if p.modifiers:
                doc["modifiers"] = p.modifiers
            self.profiles[p.id] = doc
        return p.id

    def rule(self, r: Rule) -> str:
        if r.id not in self.rules:
            doc: dict = {"name": r.name}
            if r.description:
                doc["description"] = r.description
            if r.hidden:
                doc["hidden"] = True
            if r.modifiers:
                doc["modifiers"] = r.modifiers
            self.rules[r.id] = doc
        return r.id

    def info(self, node: Node | InfoGroup, cat_id: str, out: list, *, hidden: bool = False, mods=(), depth=0) -> None:
        if depth > 16:
            return
        for p in node.profiles:
            out.append(self._ref("profile", self.profile(p), hidden, mods))
        for r in node.rules:
            out.append(self._ref("rule", self.rule(r), hidden, mods))
        for g in node.info_groups:
            self.info(g, cat_id, out, hidden=hidden or g.hidden, mods=[*mods, *g.modifiers], depth=depth + 1)
        for link in node.info_links:
            target = self.index.lookup(cat_id, link.target_id)
            # Most links have no modifiers of their own: theirs are the ones met on the way (only read, so shared).
            lhidden, lmods = hidden or link.hidden, [*mods, *link.modifiers] if link.modifiers else mods
            if isinstance(target, Profile):
                out.append(self._ref("profile", self.profile(target), lhidden, lmods))
            elif isinstance(target, Rule):
                out.append(self._ref("rule", self.rule(target), lhidden, lmods))
            elif isinstance(target, InfoGroup):
                self.info(target, cat_id, out, hidden=lhidden or target.hidden,
                          mods=[*lmods, *target.modifiers], depth=depth + 1)

    @staticmethod
    def _ref(kind: str, ident: str, hidden: bool, mods) -> dict:
        ref: dict = {kind: ident}
        if hidden:
            ref["hidden"] = True
        if mods:
            ref["modifiers"] = list(mods)
        return ref

    # -- nodes --------------------------------------------------------------------------------
    def add(self, node: Node, cat_id: str) -> str:
        if node.id in self.nodes:
            return node.id
        kind = KINDS.get(node.tag, node.tag)
        doc: dict = {"k": kind, "name": node.name}
        self.nodes[node.id] = doc  # before the children: a node that reaches itself does not loop
        if kind == "entry":
            doc["type"] = node.type or "upgrade"
        if kind == "link":
            doc["target"] = node.target_id
        if node.hidden:
            doc["hidden"] = True
        if node.collective:
            doc["collective"] = True
        if node.default_id:
            doc["default"] = node.default_id
        if kind == "entry" or node.has_costs:
            doc["costs"] = dict(node.costs)
        if node.constraints:
            doc["constraints"] = node.constraints
        if node.modifiers:
            doc["modifiers"] = node.modifiers
        if node.category_links:
            doc["categories"] = [_category_link(cl) for cl in node.category_links]
        owner = node.catalogue_id or cat_id
        if owner != self.cat.id:
            doc["catalogue"] = owner
        role = self.roles.get(node.id)
        if role:
            doc["role"] = role
        if node.profiles or node.rules or node.info_groups or node.info_links:
            info: list = []
            self.info(node, owner, info)
            if info:
                doc["info"] = info
        children = [self.add(child, owner) for child in node.children if child.tag != "forceEntry"]
        if children:
            doc["children"] = children
        if kind == "link":
            self.pending.append((node, owner))
        return node.id

    def follow_links(self) -> None:
        while self.pending:
            link, owner = self.pending.pop()
            if link.target_id in self.nodes:
                continue
            target = self.index.lookup(owner, link.target_id)
            if target is None:
                target = self.index.lookup(self.cat.id, link.target_id)
            if isinstance(target, Node) and target.tag in ("selectionEntry", "selectionEntryGroup"):
                self.add(target, target.catalogue_id or owner)

    def drop_dangling(self) -> None:
        """Links whose target is missing are left out, so the evaluator never meets a dangling id."""
        dangling = {nid for nid, doc in self.nodes.items()
                    if doc["k"] == "link" and doc.get("target") not in self.nodes}
        if not dangling:
            return
        for nid in dangling:
            del self.nodes[nid]
        for doc in self.nodes.values():
            if "children" in doc:
                doc["children"] = [c for c in doc["children"] if c not in dangling]


def catalogue_document(index: Index, cat: Catalogue, *, roles: dict[str, str] | None = None,
                       everything: bool = False) -> dict:
    """The catalogue document of one (non-library) catalogue. ``everything``: every entry the catalogue can
    see, reachable or not (to price trees that name shared entries directly)."""
    b = _Builder(index, cat, roles or {})
    roots = [b.add(node, cat.id) for node in cat.root_entries]
    if everything:
        for visible in index.visible(cat.id):
            for node in visible.by_id.values():
                if isinstance(node, Node) and node.tag in ("selectionEntry", "selectionEntryGroup"):
                    b.add(node, visible.id)
    for link in cat.catalogue_links:
        linked = index.catalogues.get(link.target_id)
        if linked is not None and link.import_root_entries:
            roots += [b.add(node, linked.id) for node in linked.root_entries]
    # The game system's own root entries are offered in every force (e.g. a system's game options).
    roots += [b.add(node, index.system.id) for node in index.system.root_entries]
    forces = [b.add(f, index.system.id) for f in index.system.force_entries]
    for f in cat.force_entries:
        forces.append(b.add(f, cat.id))
    b.follow_links()
    b.drop_dangling()
    roots = [r for r in roots if r in b.nodes]
    categories = {c.id: c.name for c in index.system.categories}
    for c in cat.categories:
        categories.setdefault(c.id, c.name)
    # A category's own limits (e.g. one WARRIOR per force), with the modifiers that change them.
    category_rules = {}
    for c in [*index.system.categories, *cat.categories]:
        if c.constraints and c.id not in category_rules:
            category_rules[c.id] = {"constraints": c.constraints, **({"modifiers": c.modifiers} if c.modifiers else {})}
    pts = next((c.id for c in index.system.cost_types if c.name.strip().lower() in ("pts", "points")),
               index.system.cost_types[0].id if index.system.cost_types else "")
    return {
        "format": FORMAT,
        "game_system": {"id": index.system.id, "name": index.system.name, "revision": index.system.revision},
        "catalogue": {"id": cat.id, "name": cat.name, "revision": cat.revision},
        "points": pts,
        "cost_types": [{"id": c.id, "name": c.name} for c in index.system.cost_types],
        "categories": categories,
        "category_rules": category_rules,
        "force_entries": forces,
        "roots": roots,
        "nodes": b.nodes,
        "profiles": b.profiles,
        "rules": b.rules,
    }
