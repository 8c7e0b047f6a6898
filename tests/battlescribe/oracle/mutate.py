"""Rosters that break exactly one rule, made from a legal roster.

Each `Mutation` is checked by the evaluator: the mutated roster has exactly one violation, and it
is the one its kind promises. Kinds:
- over-max: one more of an entry than its own max allows (scope parent);
- under-min: one fewer of an entry or group than a min asks for;
- hidden: an entry picked where it is hidden;
- force-limit: a per-force, per-roster (or per-ancestor) maximum exceeded;
- group-max: two different picks from a group that allows one;
- limited-together: a group-max where the two picks come from a card link's own entries and the
  group's (one limit shared by an option and a card, as "Upgrade from Cards").
"""
from __future__ import annotations

from dataclasses import dataclass

from .evaluate import BForce, Evaluation, Violation, evaluate
from .generate import _at, _copy_roster, annotate, clone, renumber
from .roster import Roster, Selection

KINDS = ("over-max", "under-min", "hidden", "force-limit", "group-max", "limited-together")
TRIES_PER_KIND = 60


@dataclass
class Mutation:
    kind: str
    roster: Roster
    expected: Violation
    description: str


def _index_path(bforce, bsel):
    path = []
    x = bsel
    while not isinstance(x, BForce):
        siblings = x.parent.children
        path.append(next(i for i, c in enumerate(siblings) if c is x))
        x = x.parent
    return tuple(reversed(path))


def _holder_list(roster, path):
    f = roster.forces[0]
    if not path:
        return f.selections
    return _at(f, path)[-1].children


def _kind_of(v: Violation, added_groups=None):
    if v.kind == "hidden":
        return "hidden"
    if v.kind != "constraint":
        return None
    if v.type == "min":
        return "under-min"
    if v.scope not in ("parent", "self"):
        return "force-limit"
    if v.owner_kind == "group":
        return "group-max"
    if v.owner_kind == "entry":
        return "over-max"
    return None


class _Mutator:
    def __init__(self, lib, roster, rng):
        self.lib = lib
        self.base = roster
        self.rng = rng
        self.ev = Evaluation(lib, roster)
        self.ev.run()
        self.builder = lib.builder(roster.forces[0].catalogue_id)
        self.found = {}

    def _offer(self, kind_hint, mutant, description):
        v = evaluate(self.lib, mutant)
        if len(v.violations) != 1:
            return
        x = v.violations[0]
        kind = _kind_of(x)
        if kind is None:
            return
        if kind == "group-max" and kind_hint == "limited-together":
            kind = "limited-together"
        if kind != kind_hint and not (kind_hint == "over-max" and kind == "force-limit"):
            return
        if kind not in self.found:
            renumber(mutant)
            annotate(self.lib, mutant, evaluate(self.lib, mutant))
            self.found[kind] = Mutation(kind, mutant, evaluate(self.lib, mutant).violations[0], description)

    def _chain_of(self, bsel):
        """The roster selections from the force down to `bsel`'s holder."""
        out = []
        x = bsel.parent
        while not isinstance(x, BForce):
            out.append(x.sel)
            x = x.parent
        return list(reversed(out))

    def more_of_the_same(self):
        sels = list(self.ev.sels)
        self.rng.shuffle(sels)
        for x in sels[:TRIES_PER_KIND]:
            if "over-max" in self.found and "force-limit" in self.found:
                return
            path = _index_path(x.bforce, x)
            m = _copy_roster(self.base)
            siblings = _holder_list(m, path[:-1])
            target = siblings[path[-1]]
            if not target.children:
                target.number += 1
            else:
                siblings.append(_deep(target))
            self._offer("over-max", m, f"one more {x.path} under {x.parent.describe()}")

    def one_fewer(self):
        sels = list(self.ev.sels)
        self.rng.shuffle(sels)
        for x in sels[:TRIES_PER_KIND]:
            if "under-min" in self.found:
                return
            path = _index_path(x.bforce, x)
            m = _copy_roster(self.base)
            siblings = _holder_list(m, path[:-1])
            target = siblings[path[-1]]
            if target.number > 1:
                target.number -= 1
            else:
                siblings.pop(path[-1])
            self._offer("under-min", m, f"one fewer {x.path} under {x.parent.describe()}")

    def _holders(self):
        hs = [(f, ()) for f in self.ev.forces if f.root is not None]
        hs += [(x, _index_path(x.bforce, x)) for x in self.ev.sels if x.node.options]
        self.rng.shuffle(hs)
        return hs

    def _fill(self, holder, opt):
        chain = [] if isinstance(holder, BForce) else self._chain_of(holder) + [holder.sel]
        got = self.builder.fill([_copy(s) for s in chain], opt)
        return None if got is None else clone(got[0])

    def hidden_pick(self):
        tries = 0
        for holder, path in self._holders():
            for opt in holder.options:
                if tries >= TRIES_PER_KIND or "hidden" in self.found:
                    return
                if not self.ev.hidden(opt.node, holder, None):
                    continue
                tries += 1
                sel = self._fill(holder, opt)
                if sel is None:
                    continue
                m = _copy_roster(self.base)
                _holder_list(m, path).append(sel)
                self._offer("hidden", m, f"{sel.entry_id} picked under {holder.describe()} where it is hidden")

    def force_limits(self):
        """Another pick of something limited per force or roster, where the roster can take one."""
        tries = 0
        for holder, path in self._holders():
            for opt in holder.options:
                if tries >= TRIES_PER_KIND or "force-limit" in self.found:
                    return
                wide = [c for c in opt.node.constraints if c.type == "max" and c.q.scope not in ("parent", "self")]
                if not wide or self.ev.hidden(opt.node, holder, None):
                    continue
                tries += 1
                sel = self._fill(holder, opt)
                if sel is None:
                    continue
                limit = int(max(c.q.value for c in wide))
                m = _copy_roster(self.base)
                for _ in range(max(1, limit + 1)):
                    _holder_list(m, path).append(_deep(sel))
                    self._offer("over-max", m,
                                f"{sel.entry_id} under {holder.describe()} beyond its force/roster limit")
                    if "force-limit" in self.found:
                        return

    def second_from_group(self):
        sels = [x for x in self.ev.sels if x.option.groups]
        self.rng.shuffle(sels)
        for x in sels[:TRIES_PER_KIND]:
            if "group-max" in self.found and "limited-together" in self.found:
                return
            g = x.option.groups[-1]
            if not any(c.type == "max" and c.q.scope == "parent" and c.q.value == 1 for c in g.node.constraints):
                continue
            holder = x.parent
            others = [o for o in holder.options if o.groups and o.groups[-1].rel == g.rel and o.rel != x.option.rel]
            self.rng.shuffle(others)
            for o in others[:4]:
                sel = self._fill(holder, o)
                if sel is None:
                    continue
                path = () if isinstance(holder, BForce) else _index_path(holder.bforce, holder)
                m = _copy_roster(self.base)
                _holder_list(m, path).append(sel)
                link_own = g.node.link is not None and bool(g.node.link.children)
                hint = "limited-together" if link_own and _from_link(o, g) != _from_link(x.option, g) else "group-max"
                self._offer(hint, m, f"{o.rel[-1]} added beside {x.path} in group {g.node.id}")


def _from_link(opt, ginst):
    """Whether `opt` is one of the entries the group's link adds itself (not one of the group's own)."""
    link = ginst.node.link
    if link is None:
        return False
    return any(e is opt.node.el or e is opt.node.link for e in link.children)


def _copy(s):
    return Selection(entry_id=s.entry_id, entry_group_id=s.entry_group_id, number=s.number, type=s.type, name=s.name,
                     id=s.id)


def _deep(s):
    return clone(s)


def mutations(lib, roster, rng) -> list:
    """One mutation of each kind that this roster allows (see module docstring), in KINDS order."""
    if not evaluate(lib, roster).legal:
        raise ValueError("mutations start from a legal roster")
    m = _Mutator(lib, roster, rng)
    m.more_of_the_same()
    m.one_fewer()
    m.hidden_pick()
    m.force_limits()
    m.second_from_group()
    return [m.found[k] for k in KINDS if k in m.found]
