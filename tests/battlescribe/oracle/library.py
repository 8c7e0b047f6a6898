"""A game system and its catalogues, loaded once; the entry point of the oracle's API."""
from __future__ import annotations

from pathlib import Path

from .catalogue import read_file
from .nodes import ForceRoot, Node

FORMATIONS_CATEGORY_NAME = "Formations"


class Library:
    def __init__(self, path):
        self.path = Path(path)
        files = sorted(self.path.glob("*.gst"))
        if len(files) != 1:
            raise ValueError(f"{self.path}: expected exactly one .gst game system, found {len(files)}")
        self.game_system = read_file(files[0])
        self.game_system.game_system = self.game_system
        self.catalogues = {}
        for f in sorted(self.path.glob("*.cat")):
            cat = read_file(f)
            cat.game_system = self.game_system
            self.catalogues[cat.id] = cat
        for cat in self.catalogues.values():
            cat.linked = [self.catalogues[t] for t, _imp in cat.catalogue_links if t in self.catalogues]
        self.cost_types = dict(self.game_system.cost_types)
        self.unresolved_links = []  # (catalogue id, link id, target id)
        self._nodes = {}
        self._roots = {}

    # -- resolution ---------------------------------------------------------------------------
    def node(self, el, link=None) -> Node:
        key = (id(link) if link is not None else None, id(el))
        n = self._nodes.get(key)
        if n is None:
            n = self._nodes[key] = Node(self, el, link)
        return n

    def resolve_children(self, elements, catalogue) -> list:
        out = []
        for el in elements:
            if el.kind == "link":
                target = el.catalogue.lookup(el.target_id) or catalogue.lookup(el.target_id)
                if target is None:
                    self.unresolved_links.append((el.catalogue.id, el.id, el.target_id))
                    continue
                out.append(self.node(target, el))
            else:
                out.append(self.node(el))
        return out

    def imported_roots(self, catalogue):
        """Catalogues whose root entries a force of `catalogue` offers (catalogueLink importRootEntries)."""
        out, seen, todo = [], {catalogue.id}, [catalogue]
        while todo:
            cat = todo.pop()
            for target, imp in cat.catalogue_links:
                other = self.catalogues.get(target)
                if other is not None and imp and other.id not in seen:
                    seen.add(other.id)
                    out.append((other, imp))
                    todo.append(other)
        return out

    def force_root(self, catalogue_id, force_entry_id=None) -> ForceRoot:
        key = (catalogue_id, force_entry_id)
        root = self._roots.get(key)
        if root is None:
            cat = self.catalogues[catalogue_id]
            fe = self.force_entry(force_entry_id)
            root = self._roots[key] = ForceRoot(self, cat, fe)
        return root

    def force_entry(self, force_entry_id=None):
        entries = list(self._all_force_entries())
        if force_entry_id is None:
            return entries[0]
        for fe in entries:
            if fe.id == force_entry_id:
                return fe
        raise KeyError(f"no force entry {force_entry_id}")

    def _all_force_entries(self):
        todo = list(self.game_system.force_entries)
        for cat in self.catalogues.values():
            todo += cat.force_entries
        while todo:
            fe = todo.pop(0)
            yield fe
            todo += fe.forces

    def category_id(self, name):
        for c in self.game_system.categories.values():
            if c.name == name:
                return c.id
        return None

    # -- the API the comparison tests use -------------------------------------------------------
    def evaluate(self, roster, focus=None):
        from .evaluate import evaluate
        return evaluate(self, roster, focus)

    def annotate(self, roster, verdict=None):
        """Write each selection's costs and categories, and the totals, into the roster (for .ros)."""
        from .generate import annotate
        return annotate(self, roster, verdict)

    def formations(self, include_secondary=True):
        """Root options whose primary category is Formations, in every catalogue; with
        `include_secondary`, also root options that carry Formations as a secondary category
        (card-formations under Command Cards, and a few Formation Support entries)."""
        from .generate import FormationRef
        cid = self.category_id(FORMATIONS_CATEGORY_NAME)
        out = []
        for cat in self.catalogues.values():
            if cat.library:
                continue
            root = self.force_root(cat.id)
            for opt in root.options:
                cats = {c.target_id for c in opt.node.categories}
                if cid not in cats:
                    continue
                primary = opt.node.primary_category == cid
                if primary or include_secondary:
                    out.append(FormationRef(cat.id, cat.name, opt.rel_key, opt.node.name,
                                            "formation" if primary else "secondary", opt.node.primary_category))
        return out

    def builder(self, catalogue_id):
        from .generate import Builder
        key = ("builder", catalogue_id)
        b = self._roots.get(key)
        if b is None:
            b = self._roots[key] = Builder(self, catalogue_id)
        return b

    def minimal_legal_roster(self, formation):
        """The cheapest legal roster holding `formation` (a FormationRef) alone; raises NoRoster."""
        b = self.builder(formation.catalogue_id)
        opt = b.root.options_by_rel[tuple(formation.path.split("::"))]
        return b.minimal(opt).roster

    def random_legal_roster(self, rng, **kwargs):
        from .generate import random_roster
        return random_roster(self, rng, **kwargs)

    def mutations(self, roster, rng):
        from .mutate import mutations
        return mutations(self, roster, rng)

    def data_contradictions(self):
        """Entries whose own minimum is above their own maximum before any modifier (link merged over target)."""
        from .generate import contradictions
        return contradictions(self)

    def unevaluated(self):
        """Every kind of construct in the data that the oracle does not evaluate, with counts."""
        from .evaluate import library_unevaluated
        return library_unevaluated(self)
