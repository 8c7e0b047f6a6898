"""Rosters built from the catalogue by search, each checked by the evaluator.

`Builder.minimal` finds, for one root option (a formation), the cheapest roster that adds only
what some constraint asks for. It works holder by holder (the force, then each selection), a
uniform-cost search over the children of one holder at a time: a state is the multiset of
children picked so far, each child already filled the cheapest way on its own; the first `min`
shortfall at the holder is fixed by adding one of the options that can fix it (its own entry, an
entry of its group, or an entry that a hidden or limit modifier of it looks at, so that choosing
a different size or type that hides a required group is explored too). A leaf option (one with
nothing to pick under it) taken again raises the number of its selection; an option with
children taken again is a second selection. The whole roster is evaluated at the end; only a
roster with no violation is returned.
"""
from __future__ import annotations

import heapq
import itertools
from collections import Counter
from dataclasses import dataclass

from .evaluate import evaluate
from .roster import Force, Roster, Selection, new_id

MAX_POPS = 2000  # per holder; a search that needs more is reported, never silently cut short


class NoRoster(Exception):
    """No legal roster exists (or none was found within the bounds); `reason` says why."""

    def __init__(self, reason, violations=()):
        super().__init__(reason)
        self.reason = reason
        self.violations = list(violations)


@dataclass(frozen=True)
class FormationRef:
    catalogue_id: str
    catalogue_name: str
    path: str  # the root option's path: link id '::' entry id, or the entry id
    name: str
    kind: str  # formation (primary category Formations) | secondary (Formations as a secondary category)
    primary_category: str | None


@dataclass
class Found:
    roster: Roster
    points: float
    evaluations: int


def selection_for(prefix: tuple, opt, number=1) -> Selection:
    path = "::".join(prefix + opt.rel)
    group = "::".join(prefix + opt.groups[-1].rel) if opt.groups else None
    return Selection(entry_id=path, entry_group_id=group, number=number, type=opt.node.type, name=opt.node.name)


def is_leaf(opt) -> bool:
    return not opt.node.options


def clone(sel: Selection) -> Selection:
    """A deep copy with fresh ids (search states share subtrees; a roster must not)."""
    return Selection(entry_id=sel.entry_id, entry_group_id=sel.entry_group_id, number=sel.number, type=sel.type,
                     name=sel.name, id=new_id(), children=[clone(c) for c in sel.children])


def _referenced_ids(node, constraint_ids=()):
    """childIds that the hidden and limit modifiers of `node` look at."""
    out = set()
    for m in node.modifiers:
        if m.field == "hidden" or m.field in constraint_ids:
            for c in m.conditions:
                out.add(c.child_id)
            todo = list(m.groups)
            while todo:
                g = todo.pop()
                out.update(c.child_id for c in g.conditions)
                todo.extend(g.groups)
            out.update(r.child_id for r in m.repeats)
    return out


def _option_ids(opt):
    ids = {opt.node.id, opt.node.type}
    if opt.node.link is not None:
        ids.add(opt.node.link.id)
    for g in opt.groups:
        ids.add(g.node.id)
    ids.update(c.target_id for c in opt.node.categories)
    for sub in opt.node.options:  # one level down: counts with includeChildSelections see these
        ids.add(sub.node.id)
        for g in sub.groups:
            ids.add(g.node.id)
    return ids


class Builder:
    """Search rosters for one catalogue's force."""

    def __init__(self, lib, catalogue_id, force_entry_id=None):
        self.lib = lib
        self.root = lib.force_root(catalogue_id, force_entry_id)
        self.catalogue = self.root.catalogue
        self.force_entry = self.root.force_entry
        self.evaluations = 0
        self._fill_memo = {}
        self.blocked = Counter()  # what ended search states, for the reason when nothing legal is found

    # -- rosters ------------------------------------------------------------------------------
    def force(self, selections) -> Force:
        return Force(catalogue_id=self.catalogue.id, entry_id=self.force_entry.id, selections=list(selections),
                     name=self.force_entry.name, catalogue_name=self.catalogue.name,
                     catalogue_revision=self.catalogue.revision, id="force-0000-0000-0001")

    def roster(self, selections) -> Roster:
        gst = self.lib.game_system
        return Roster(game_system_id=gst.id, forces=[self.force(selections)], game_system_name=gst.name,
                      game_system_revision=gst.revision)

    def _tentative(self, chain, children):
        """A roster holding the ancestors in `chain` (outermost first), the last one holding `children`."""
        if not chain:
            r = self.roster(children)
            return r, r.forces[0]
        copies = [Selection(entry_id=s.entry_id, entry_group_id=s.entry_group_id, number=s.number, type=s.type,
                            name=s.name, id=s.id) for s in chain]
        for outer, inner in zip(copies, copies[1:], strict=False):
            outer.children = [inner]
        copies[-1].children = list(children)
        r = self.roster([copies[0]])
        return r, copies[-1]

    def _eval(self, chain, children):
        r, holder = self._tentative(chain, children)
        self.evaluations += 1
        v = evaluate(self.lib, r, focus={id(holder)})
        return v, r

    # -- the search ---------------------------------------------------------------------------
    def holder_options(self, chain):
        if not chain:
            return self.root.options, ()
        node = self._node_of(chain)
        return node.options, tuple(chain[-1].entry_id.split("::"))[:-1]

    def _node_of(self, chain):
        opts = self.root.options_by_rel
        node = None
        prefix = ()
        for s in chain:
            parts = tuple(s.entry_id.split("::"))
            opt = opts[parts[len(prefix):]]
            node = opt.node
            prefix = parts[:-1]
            opts = node.options_by_rel
        return node

    def fill(self, chain, opt):
        """`opt` picked under the last selection of `chain`, with the cheapest children it needs."""
        _, prefix = self.holder_options(chain)
        key = (tuple(s.entry_id for s in chain), opt.rel)
        if key in self._fill_memo:
            return self._fill_memo[key]
        sel = selection_for(prefix, opt)
        result = None
        if not opt.node.options:
            result = (sel, None)
        else:
            children = self.solve(chain + [sel], ())
            if children is not None:
                sel.children = list(children)
                result = (sel, None)
        self._fill_memo[key] = result
        return result

    def solve(self, chain, initial):
        """The cheapest children for the last selection of `chain` (or the force) that meet its minimums."""
        options, prefix = self.holder_options(chain)
        by_path = {}
        for o in options:
            by_path.setdefault("::".join(prefix + o.rel), o)
        counter = itertools.count()
        start = tuple(initial)
        required = {x.entry_id for x in start}
        v0, _ = self._eval(chain, start)
        heap = [(sum(v0.totals.values()), next(counter), start, v0)]
        seen = {_signature(start)}
        pops = 0
        while heap:
            _, _, state, v = heapq.heappop(heap)
            pops += 1
            if pops > MAX_POPS:
                raise NoRoster(f"search at {chain[-1].entry_id if chain else 'force'} exceeded {MAX_POPS} states")
            blocking = [x for x in v.violations if x.kind != "constraint" or x.type != "min"]
            if blocking:
                # a required pick (the one this search started from) may be hidden until something else is
                # taken: then look for what unhides it; any other blocking violation ends this state
                if not all(x.kind == "hidden" and x.at_path in required for x in blocking):
                    self.blocked[_blocked_text(blocking[0])] += 1
                    continue
                expansions = [("via", p) for p in self._unlock_paths(blocking[0], options, prefix)]
            else:
                mins = [x for x in v.violations if x.kind == "constraint" and x.type == "min"]
                if not mins:
                    return state
                expansions = [("opt", o) for o in self._candidates(mins[0], options, prefix)]
            here = _shortfall(v)
            for how, opt in expansions:
                new = self._add(chain, state, opt, prefix) if how == "opt" else self._add_via(chain, state, opt, prefix)
                if new is None:
                    continue
                sig = _signature(new)
                if sig in seen:
                    continue
                seen.add(sig)
                nv, _ = self._eval(chain, new)
                after = _shortfall(nv)
                # a step must shrink the shortfall or change which minimums are short (a size or type that
                # hides one group and shows another); anything else only grows the roster
                if after[0] >= here[0] and after[1] == here[1]:
                    continue
                heapq.heappush(heap, (sum(nv.totals.values()), next(counter), new, nv))
        return None

    def _add(self, chain, state, opt, prefix):
        path = "::".join(prefix + opt.rel)
        if is_leaf(opt):
            for i, s in enumerate(state):
                if s.entry_id == path:
                    bumped = Selection(entry_id=s.entry_id, entry_group_id=s.entry_group_id, number=s.number + 1,
                                       type=s.type, name=s.name, id=s.id, children=s.children)
                    return state[:i] + (bumped,) + state[i + 1:]
        got = self.fill(chain, opt)
        if got is None:
            return None
        sel, _ = got
        if any(s is sel for s in state):
            sel = clone(sel)
        return state + (sel,)

    def _add_via(self, chain, state, path, prefix):
        """Add the first option of `path` holding, through the rest of `path`, the last one."""
        sel = self._build_via(chain, path)
        return None if sel is None else state + (sel,)

    def build_path(self, chain, options):
        """A selection of options[0] under `chain` holding options[1] ... down to the last, each level
        completed with the cheapest picks its minimums need."""
        return self._build_via(chain, tuple(options))

    def _build_via(self, chain, path):
        if len(path) == 1:
            got = self.fill(chain, path[0])
            return None if got is None else clone(got[0])
        _, prefix = self.holder_options(chain)
        sel = selection_for(prefix, path[0])
        inner = self._build_via(chain + [sel], path[1:])
        if inner is None:
            return None
        children = self.solve(chain + [sel], (inner,))
        if children is None:
            return None
        sel.children = list(children)
        return sel

    def _unlock_paths(self, hidden, options, prefix, depth=4):
        """Chains of options, from this holder down, ending at an entry the hidden one's modifiers look at."""
        pre = "::".join(prefix)
        pre = pre + "::" if pre else ""
        node = None
        for o in options:
            if hidden.owner_kind == "entry" and pre + "::".join(o.rel) == hidden.owner_path:
                node = o.node
            elif hidden.owner_kind == "group":
                for g in o.groups:
                    if pre + "::".join(g.rel) == hidden.owner_path:
                        node = g.node
            if node is not None:
                break
        refs = _referenced_ids(node) if node is not None else set()
        out = []

        def walk(opts, trail):
            for o in opts:
                if any(o is t for t in trail):
                    continue
                ids = {o.node.id} | ({o.node.link.id} if o.node.link is not None else set())
                if ids & refs:
                    out.append(trail + (o,))
                elif len(trail) + 1 < depth:
                    walk(o.node.options, trail + (o,))

        walk(options, ())
        return out[:20]

    def _candidates(self, want, options, prefix):
        pre = "::".join(prefix)
        pre = pre + "::" if pre else ""
        direct = []
        for o in options:
            if want.owner_kind == "entry":
                if (o.node.id == want.owner_id and pre + "::".join(o.rel) == want.owner_path) or (
                        want.owner_path is None and o.node.id == want.owner_id):
                    direct.append(o)
            elif want.owner_kind == "group":
                if any(pre + "::".join(g.rel) == want.owner_path for g in o.groups):
                    direct.append(o)
            elif want.owner_kind == "category" and any(c.target_id == want.owner_id for c in o.node.categories):
                direct.append(o)
        refs = self._refs(want, options, prefix)
        extra = [o for o in options if o not in direct and refs & _option_ids(o)] if refs else []
        return direct + extra

    def _refs(self, want, options, prefix):
        pre = "::".join(prefix)
        pre = pre + "::" if pre else ""
        for o in options:
            if want.owner_kind == "entry" and pre + "::".join(o.rel) == want.owner_path:
                return _referenced_ids(o.node, {want.constraint_id})
            if want.owner_kind == "group":
                for g in o.groups:
                    if pre + "::".join(g.rel) == want.owner_path:
                        return _referenced_ids(g.node, {want.constraint_id})
        return set()

    def minimal(self, opt) -> Found:
        """The cheapest legal roster holding the root option `opt` once, and what else it needs."""
        self.blocked = Counter()
        got = self.fill([], opt)
        if got is None:
            raise NoRoster(self._why(opt))
        sel, _ = got
        children = self.solve([], (sel,))
        if children is None:
            raise NoRoster(self._why(opt))
        roster = self.roster([clone(s) for s in children])
        renumber(roster)
        v = evaluate(self.lib, roster)
        if not v.legal:
            raise NoRoster("the cheapest pick per level is not legal as a whole: "
                           + "; ".join(_blocked_text(x) for x in v.violations[:3]), v.violations)
        annotate(self.lib, roster, v)
        return Found(roster, sum(v.totals.values()), self.evaluations)

    def _why(self, opt):
        found = [c for c in contradictions_under(opt.node)]
        if found:
            return "contradictory limits: " + "; ".join(found)
        if self.blocked:
            (text, n), = self.blocked.most_common(1)
            return f"every way to meet the minimums breaks a limit, most often: {text}"
        return "no option can meet a minimum"


def _blocked_text(x):
    if x.kind == "constraint":
        return (f"{x.owner_kind} {x.owner_path or x.owner_id}: {x.type} {x.limit:g} ({x.constraint_id}, "
                f"{x.field} in {x.scope}) but {x.actual:g}, evaluated at {x.at_path}")
    return x.message


def contradictions_under(node, _seen=None, depth=0):
    """'min above max' among one node's own constraints (the link's merged over the target's), below `node`."""
    seen = _seen if _seen is not None else set()
    if id(node) in seen or depth > 16:
        return []
    seen.add(id(node))
    out = []
    link_ids = {c.id for c in node.link.constraints} if node.link is not None else set()
    by_query = {}
    for c in node.constraints:
        k = (c.q.field, c.q.scope, c.q.shared, c.q.child_selections, c.q.child_forces)
        by_query.setdefault(k, []).append(c)
    for cs in by_query.values():
        mins = [c for c in cs if c.type == "min"]
        maxs = [c for c in cs if c.type == "max" and c.q.value >= 0]
        if mins and maxs:
            lo = max(mins, key=lambda c: c.q.value)
            hi = min(maxs, key=lambda c: c.q.value)
            if lo.q.value > hi.q.value:
                def origin(c):
                    return f"link {node.link.id}" if c.id in link_ids else f"entry {node.id}"
                out.append(f"{node.name!r}: min {lo.q.value:g} ({lo.id}, on {origin(lo)}) above max "
                           f"{hi.q.value:g} ({hi.id}, on {origin(hi)})")
    for ch in node.children:
        out.extend(contradictions_under(ch, seen, depth + 1))
    return out


def contradictions(lib):
    out, seen = [], set()
    for cat in lib.catalogues.values():
        for ch in lib.force_root(cat.id).children:
            for text in contradictions_under(ch, seen):
                out.append(f"{cat.name}: {text}")
    return out


def renumber(roster):
    """Stable ids, in tree order, so that the same seed gives the same .ros bytes."""
    n = itertools.count(1)

    def fresh():
        h = f"{next(n):012x}"
        return f"0a{h[0:2]}-{h[2:6]}-{h[6:10]}-{h[10:12]}00"

    roster.id = fresh()
    for f in roster.all_forces():
        f.id = fresh()
        for s in f.walk():
            s.id = fresh()


def _shortfall(v):
    mins = [x for x in v.violations if x.kind == "constraint" and x.type == "min"]
    return (sum(x.limit - x.actual for x in mins), frozenset((x.constraint_id, x.owner_path) for x in mins))


def _signature(state):
    return tuple(sorted((s.entry_id, s.number, _sub_sig(s)) for s in state))


def _sub_sig(s):
    return tuple(sorted((c.entry_id, c.number, _sub_sig(c)) for c in s.children))


def annotate(lib, roster, verdict=None):
    """Fill costs, categories and totals the way BattleScribe writes them into a .ros."""
    v = verdict or evaluate(lib, roster)
    names = {}
    for cat in [lib.game_system, *lib.catalogues.values()]:
        for cid, c in cat.categories.items():
            names.setdefault(cid, c.name)
    for f in roster.all_forces():
        for s in f.walk():
            s.costs = dict(v.costs.get(s.id, {}))
            s.categories = [(cid, names.get(cid, cid), primary) for cid, primary in v.categories.get(s.id, [])]
        fe = lib.force_entry(f.entry_id)
        f.categories = [("(No Category)", "Uncategorised", False)] + [
            (cl.target_id, names.get(cl.target_id, cl.target_id), False) for cl in fe.categories]
    roster.costs = dict(v.totals)
    roster.cost_names = dict(lib.cost_types)
    return v


# --------------------------------------------------------------------------- random legal rosters
def _positions(force):
    """(index path, selection) for every selection of a force, preorder."""
    out = []

    def walk(sels, trail):
        for i, s in enumerate(sels):
            out.append((trail + (i,), s))
            walk(s.children, trail + (i,))

    walk(force.selections, ())
    return out


def _at(force, path):
    sels, s = force.selections, None
    chain = []
    for i in path:
        s = sels[i]
        chain.append(s)
        sels = s.children
    return chain


def _copy_roster(r):
    f = r.forces[0]
    nf = Force(catalogue_id=f.catalogue_id, entry_id=f.entry_id, selections=[_copy_sel(s) for s in f.selections],
               name=f.name, catalogue_name=f.catalogue_name, catalogue_revision=f.catalogue_revision, id=f.id)
    return Roster(game_system_id=r.game_system_id, forces=[nf], name=r.name, id=r.id,
                  game_system_name=r.game_system_name, game_system_revision=r.game_system_revision,
                  cost_limits=dict(r.cost_limits))


def _copy_sel(s):
    return Selection(entry_id=s.entry_id, entry_group_id=s.entry_group_id, number=s.number, type=s.type, name=s.name,
                     id=s.id, children=[_copy_sel(c) for c in s.children])


def random_roster(lib, rng, catalogue_id=None, formations=(1, 3), support=(0, 3), cards=(0, 2), moves=(15, 40),
                  attempts=20):
    """A varied legal roster: several formations, support units, command cards, options under options and
    quantities above one, all picked at random (from `rng`) and kept only while the whole roster is legal."""
    form_cat = lib.category_id("Formations")
    sup_cat = lib.category_id("Support Units")
    card_cat = lib.category_id("Command Cards")
    cats = sorted({f.catalogue_id for f in lib.formations(include_secondary=False)})
    for _ in range(attempts):
        cat_id = catalogue_id or rng.choice(cats)
        b = lib.builder(cat_id)
        forms = [o for o in b.root.options if o.node.primary_category == form_cat]
        if not forms:
            raise NoRoster(f"catalogue {cat_id} has no formation")
        picks = [rng.choice(forms) for _ in range(rng.randint(*formations))]
        sels = []
        for o in picks:
            got = b.fill([], o)
            if got is not None:
                sels.append(clone(got[0]))
        if not sels:
            continue
        try:
            state = b.solve([], tuple(sels))
        except NoRoster:
            state = None
        if state is None:
            continue
        roster = b.roster([clone(s) for s in state])
        if not evaluate(lib, roster).legal:
            continue
        walker = _RandomWalk(lib, b, rng, roster)
        walker.add_roots(sup_cat, rng.randint(*support))
        walker.add_roots(card_cat, rng.randint(*cards))
        walker.card_choices(card_cat)
        for _ in range(rng.randint(*moves)):
            walker.move()
        walker.quantities()
        roster = walker.roster
        renumber(roster)
        v = evaluate(lib, roster)
        assert v.legal, [x.message for x in v.violations]
        annotate(lib, roster, v)
        return roster
    raise NoRoster(f"no legal random roster after {attempts} attempts")


class _RandomWalk:
    """Changes that keep a roster legal: add an option (filled), take a leaf again, swap a group's pick."""

    def __init__(self, lib, builder, rng, roster):
        self.lib = lib
        self.b = builder
        self.rng = rng
        self.roster = roster
        self.tried = 0
        self.kept = 0

    def _accept(self, candidate):
        self.tried += 1
        if evaluate(self.lib, candidate).legal:
            self.roster = candidate
            self.kept += 1
            return True
        return False

    def _options_at(self, chain):
        options, prefix = self.b.holder_options(chain)
        return options, prefix

    def _add(self, path, opt):
        """A copy of the roster with `opt` added under the selection at `path` (() = the force)."""
        r = _copy_roster(self.roster)
        f = r.forces[0]
        chain = _at(f, path) if path else []
        holder_children = chain[-1].children if chain else f.selections
        got = self.b.fill([_copy_sel(s) for s in chain], opt)
        if got is None:
            return None
        _, prefix = self.b.holder_options(chain)
        new_path = "::".join(prefix + opt.rel)
        if is_leaf(opt) and self.rng.random() < 0.8:
            for s in holder_children:
                if s.entry_id == new_path:
                    s.number += 1
                    return r
        holder_children.append(clone(got[0]))
        # an addition may raise the holder's minimums (a type that needs its own size, ...): meet them
        state = tuple(holder_children)
        try:
            fixed = self.b.solve([_copy_sel(s) for s in chain], state)
        except NoRoster:
            return None
        if fixed is None:
            return None
        # the search hands back shared (memoised) subtrees: the roster gets its own copies
        holder_children[:] = [clone(s) for s in fixed]
        return r

    def card_choices(self, card_cat):
        """Under a root command-card entry, take a card that has choices of its own, and one of them."""
        f = self.roster.forces[0]
        has_root = any(getattr(self.b.root.options_by_rel.get(tuple(s.entry_id.split("::"))), "node", None) is not None
                       and self.b.root.options_by_rel[tuple(s.entry_id.split("::"))].node.primary_category == card_cat
                       for s in f.selections)
        if not has_root and self.rng.random() < 0.5:
            self.add_roots(card_cat, 1)
            f = self.roster.forces[0]
        for i, s in enumerate(list(f.selections)):
            opt = self.b.root.options_by_rel.get(tuple(s.entry_id.split("::")))
            if opt is None or opt.node.primary_category != card_cat:
                continue
            cards = [o for o in opt.node.options if o.node.options]
            self.rng.shuffle(cards)
            for card in cards[:12]:
                cand = self._add((i,), card)
                if cand is None or not self._accept(cand):
                    continue
                added = _at(self.roster.forces[0], (i,))[-1].children[-1]
                chain = _at(self.roster.forces[0], (i,)) + [added]
                subs = self._options_at(chain)[0]
                self.rng.shuffle(subs)
                for sub in subs[:5]:
                    path = (i, len(chain[-2].children) - 1)
                    c2 = self._add(path, sub)
                    if c2 is not None and self._accept(c2):
                        break
                break

    def quantities(self):
        """Take more of the leaves that have room for more, now and then (most leaves are sizes of one)."""
        f = self.roster.forces[0]
        leaves = [p for p, s in _positions(f) if not s.children and self._room(f, p, s)]
        self.rng.shuffle(leaves)
        for path in leaves[:6]:
            if self.rng.random() < 0.6:
                r = _copy_roster(self.roster)
                _at(r.forces[0], path)[-1].number += self.rng.randint(1, 2)
                self._accept(r)

    def _room(self, f, path, sel):
        """Whether the catalogue's own (unmodified) limits leave room for one more of this leaf."""
        chain = _at(f, path)
        options, prefix = self._options_at(chain[:-1])
        opt = next((o for o in options if "::".join(prefix + o.rel) == sel.entry_id), None)
        if opt is None:
            return False
        limits = [c.q.value for c in opt.node.constraints if c.type == "max" and c.q.scope == "parent"]
        for g in opt.groups:
            limits += [c.q.value for c in g.node.constraints if c.type == "max" and c.q.scope == "parent"]
        return all(v < 0 or v > sel.number for v in limits)

    def add_roots(self, category_id, count):
        opts = [o for o in self.b.root.options if o.node.primary_category == category_id]
        for _ in range(count * 3):
            if count <= 0 or not opts:
                return
            cand = self._add((), self.rng.choice(opts))
            if cand is not None and self._accept(cand):
                count -= 1

    def move(self):
        f = self.roster.forces[0]
        positions = _positions(f)
        kind = self.rng.random()
        if kind < 0.6 or not positions:
            # add under a random holder; the force itself one time in five
            if not positions or self.rng.random() < 0.2:
                path = ()
            else:
                path, _ = self.rng.choice(positions)
            chain = _at(f, path) if path else []
            options, _ = self._options_at(chain)
            if options:
                cand = self._add(path, self.rng.choice(options))
                if cand is not None:
                    self._accept(cand)
        elif kind < 0.8:
            # swap a pick inside a group for another entry of the same group
            path, sel = self.rng.choice(positions)
            chain = _at(f, path)
            holder_chain = chain[:-1]
            options, prefix = self._options_at(holder_chain)
            mine = next((o for o in options if "::".join(prefix + o.rel) == sel.entry_id), None)
            if mine is None or not mine.groups:
                return
            group = mine.groups[-1].rel
            others = [o for o in options if o.groups and o.groups[-1].rel == group and o is not mine]
            if not others:
                return
            r = _copy_roster(self.roster)
            rf = r.forces[0]
            rchain = _at(rf, path)
            siblings = rchain[-2].children if len(rchain) > 1 else rf.selections
            siblings.pop(path[-1])
            self.roster, saved = r, self.roster
            cand = self._add(path[:-1], self.rng.choice(others))
            self.roster = saved
            if cand is not None:
                self._accept(cand)
        else:
            # take a leaf again, as its number or (now and then) as a second selection
            leaves = [(p, s) for p, s in positions if not s.children and self._room(f, p, s)]
            if not leaves:
                return
            path, sel = self.rng.choice(leaves)
            r = _copy_roster(self.roster)
            rf = r.forces[0]
            rchain = _at(rf, path)
            if self.rng.random() < 0.85:
                rchain[-1].number += 1
            else:
                siblings = rchain[-2].children if len(rchain) > 1 else rf.selections
                siblings.append(Selection(entry_id=sel.entry_id, entry_group_id=sel.entry_group_id, number=1,
                                          type=sel.type, name=sel.name))
            self._accept(r)
