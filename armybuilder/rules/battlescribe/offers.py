"""What can be chosen where, and lists completed to their minimums: for the builder, roster import
and the cheapest legal force.

:func:`offers` lists, under one selection (or a force), every slot the data offers there with its
state: visible or hidden (and the conditions that would show it), how many are chosen, and the
limits that apply. :func:`cheapest_completion` adds the cheapest choices that satisfy every
minimum below a selection, re-evaluating after each choice because costs, visibility and limits
depend on what is chosen.
"""
from __future__ import annotations

from dataclasses import dataclass

from .catalogue import Catalogue, GroupSlot, Slot
from .evaluate import Evaluation, Virtual
from .tree import ForceScope, Roster, Sel

MAX_STEPS = 400  # choices one completion may add; a catalogue that needs more is broken


@dataclass(frozen=True, slots=True)
class Limit:
    low: float | None
    high: float | None


@dataclass(frozen=True, slots=True)
class Offer:
    slot: Slot
    name: str
    chosen: int
    hidden: bool
    limit: Limit  # the entry's own min/max in its parent
    group_limits: tuple  # (GroupSlot, Limit) for each group it sits in, outermost first
    cost: dict  # one of it, as priced here (its own cost, modifiers applied)
    hidden_because: tuple = ()  # conditions that would show it, for "hidden because …"


def _parent_limits(evaluation: Evaluation, entry_constraints, mods, ctx) -> Limit:
    low = high = None
    for c in entry_constraints:
        if c.get("scope") != "parent" or c.get("field") != "selections" or c.get("percent"):
            continue
        value = evaluation.constraint_value(mods, c, ctx)
        if c.get("type") == "min" and value > 0:
            low = value if low is None else max(low, value)
        elif c.get("type") == "max" and value >= 0:
            high = value if high is None else min(high, value)
    return Limit(low, high)


def group_limit(evaluation: Evaluation, group: GroupSlot, container) -> Limit:
    force = container if isinstance(container, ForceScope) else container.force
    cat = force.catalogue
    ctx = Virtual(slot=None, parent=container, force=force)
    return _parent_limits(evaluation, cat.constraints(group.entry), cat.modifiers(group.entry), ctx)


def offers(evaluation: Evaluation, container) -> list[Offer]:
    force = container if isinstance(container, ForceScope) else container.force
    cat = force.catalogue
    layout = cat.root_layout() if isinstance(container, ForceScope) else cat.layout(container.entry)
    chosen: dict[int, int] = {}
    for child in container.children:
        chosen[id(child.slot)] = chosen.get(id(child.slot), 0) + child.number
    groups: dict[int, Limit] = {}
    out = []
    for slot in layout.slots:
        ctx = Virtual(slot=slot, parent=container, force=force)
        hidden = evaluation.slot_hidden(slot, container)
        limit = _parent_limits(evaluation, cat.constraints(slot.entry), cat.modifiers(slot.entry), ctx)
        glimits = []
        for g in slot.groups:
            if id(g) not in groups:
                groups[id(g)] = group_limit(evaluation, g, container)
            glimits.append((g, groups[id(g)]))
        probe = probe_cost(evaluation, slot, container)
        out.append(Offer(slot=slot, name=slot.entry.name, chosen=chosen.get(id(slot), 0), hidden=hidden,
                         limit=limit, group_limits=tuple(glimits), cost=probe,
                         hidden_because=_show_conditions(cat.modifiers(slot.entry)) if hidden else ()))
    return out


def probe_cost(evaluation: Evaluation, slot: Slot, container) -> dict:
    """The slot's own cost as priced where it would be chosen (modifiers seen from the parent). Read-only."""
    force = container if isinstance(container, ForceScope) else container.force
    if slot.facts is None:
        # Most candidates priced are never chosen: an entry no modifier prices costs what its merged view says,
        # with no Facts made for it (tests/battlescribe/test_pricing_shortcuts compares both on the whole library).
        plain = plain_cost(force.catalogue, slot)
        if plain is not None:
            return plain
    return _probe_cost(evaluation, slot, container, force)


def plain_cost(cat: Catalogue, slot: Slot) -> dict | None:
    """The slot's costs (read-only) when no modifier changes them, else None: what Evaluation.cost gives it."""
    view = cat.view(slot.entry)
    return view.costs if "cost" not in view.by_kind else None


def _probe_cost(evaluation: Evaluation, slot: Slot, container, force: ForceScope) -> dict:
    probe = Sel(slot=slot, number=1, force=force, parent=container if not isinstance(container, ForceScope) else None)
    probe.keys = evaluation._static_keys(probe)
    costs = evaluation.cost(probe)
    evaluation._costs.pop(id(probe), None)
    return costs


def _show_conditions(mods) -> tuple:
    """The condition trees of modifiers that would un-hide an entry (``set hidden false``)."""
    out = []
    for mod in mods:
        if mod.get("kind") == "hidden" and mod.get("value") is False and mod.get("when"):
            out.append(mod["when"])
        elif mod.get("kind") == "hidden" and mod.get("value") is True and mod.get("when"):
            out.append({"not": mod["when"]})
    return tuple(out)


# -- completing a list to its minimums ------------------------------------------------------------
def complete(bind, *, points: str, max_steps: int = MAX_STEPS, only=None) -> tuple[Evaluation, bool]:
    """Add the cheapest choices to a draft roster until no minimum is unmet.

    The draft is plain dicts (``{"entry", "number", "selections": [...]}``, forces
    ``{"selections": [...]}``) that ``bind()`` turns into a Roster whose selections and forces carry
    their draft dict as ``ref``; it returns the Evaluation. Each unmet minimum gets the visible
    choice that costs least once its own compulsory choices are counted; a quantity minimum repeats
    the cheapest choice. ``only(violation)`` limits the work to some minimums (e.g. those inside one unit).
    Returns the last evaluation and whether every minimum (that ``only`` lets through) is met.
    """
    evaluation = bind()
    for _ in range(max_steps):
        v = evaluation.first_unmet_minimum(only)
        if v is None:
            return evaluation, True
        slot = _cheapest_for(evaluation, v, v.at, points)
        if slot is None:
            return evaluation, False
        holder = v.at.ref
        kids = holder.setdefault("selections", [])
        same = next((k for k in kids if k.get("entry") == slot.path), None)
        if same is not None and not evaluation.catalogue_of(v.at).layout(slot.entry).slots:
            same["number"] = int(same.get("number", 1)) + 1
        else:
            kids.append({"entry": slot.path, "number": 1, "selections": []})
        evaluation = bind()
    return evaluation, False


def complete_roster(roster: Roster, *, points: str, max_steps: int = MAX_STEPS, only=None
                    ) -> tuple[Evaluation, bool]:
    """:func:`complete` on an already bound roster, changed in place (no re-binding between steps)."""
    evaluation = Evaluation(roster)
    settled: set = set()  # the roster only grows here: see Evaluation.first_unmet_minimum
    for _ in range(max_steps):
        v = evaluation.first_unmet_minimum(only, settled)
        if v is None:
            return evaluation, True
        slot = _cheapest_for(evaluation, v, v.at, points)
        if slot is None:
            return evaluation, False
        evaluation = evaluation.grown(*add_one(v.at, slot))  # as Evaluation(roster), reusing its walk of the roster
    return evaluation, False


def add_one(container: ForceScope | Sel, slot: Slot) -> tuple[Sel, bool]:
    """One more of ``slot`` in ``container``, in place: the count of a selection of it already there goes up when
    it holds nothing below (a new selection when it does, as each copy has its own choices). Returns that
    selection and whether it is new (appended to the container's children)."""
    force = container if isinstance(container, ForceScope) else container.force
    same = next((c for c in container.children if c.slot is slot), None)
    if same is not None and not force.catalogue.layout(slot.entry).slots:
        same.number += 1
        return same, False
    sel = Sel(slot=slot, number=1, force=force, parent=None if isinstance(container, ForceScope) else container)
    container.children.append(sel)
    return sel, True


def as_draft(roster: Roster) -> dict:
    """A bound roster back as plain dicts (relative entry paths), the shape :func:`bind_draft` reads."""
    def sel(s: Sel) -> dict:
        return {"entry": s.slot.path, "number": s.number, "selections": [sel(c) for c in s.children]}

    def force(f: ForceScope) -> dict:
        return {"catalogue": f.catalogue.catalogue_id, "entry": f.entry.id if f.entry else "",
                "selections": [sel(c) for c in f.children], "forces": [force(n) for n in f.forces]}

    return {"forces": [force(f) for f in roster.forces]}


def _cheapest_for(evaluation: Evaluation, v, container, points: str) -> Slot | None:
    """The visible choice of a short slot or group that costs least once its own compulsory choices are made
    (and is not at its own or another group's maximum already)."""
    force = container if isinstance(container, ForceScope) else container.force
    cat = force.catalogue
    candidates = v.slot.slots if isinstance(v.slot, GroupSlot) else [v.slot]
    chosen: dict[int, int] = {}
    for child in container.children:
        chosen[id(child.slot)] = chosen.get(id(child.slot), 0) + child.number
    viable = []
    for slot in candidates:
        if evaluation.slot_hidden(slot, container):
            continue
        ctx = Virtual(slot=slot, parent=container, force=force)
        limit = _parent_limits(evaluation, cat.constraints(slot.entry), cat.modifiers(slot.entry), ctx)
        if limit.high is not None and chosen.get(id(slot), 0) >= limit.high:
            continue
        if any(g is not v.slot and (lim := group_limit(evaluation, g, container)).high is not None
               and _in_group_count(container, g) >= lim.high for g in slot.groups):
            continue
        viable.append(slot)
    if len(viable) == 1:
        return viable[0]  # the only choice: what it costs (and what it forces below) decides nothing
    best = None
    for slot in viable:
        price = probe_cost(evaluation, slot, container).get(points, 0) + required_below(evaluation, slot, container,
                                                                                         points)
        if best is None or (price, slot.index) < best[:2]:
            best = (price, slot.index, slot)
    return best[2] if best else None


def required_below(evaluation: Evaluation, slot: Slot, container, points: str) -> float:
    """What a choice's own compulsory entries cost at least, one level down (a look-ahead so a cheap
    size that forces dear transports does not win over a dearer size that forces nothing). It reads only the
    catalogue (no list changes it): worked out once per entry and points field, and kept with the catalogue."""
    cat = (container if isinstance(container, ForceScope) else container.force).catalogue
    entry = slot.entry
    key = (entry.key, points)
    extra = cat.below.get(key)
    if extra is None:
        # Most candidates priced are never chosen: their layout is read off the nodes rather than built for this.
        layout = cat.built_layout(entry)
        extra = cat.below[key] = _required_below(cat, layout, points) if layout is not None \
            else _required_below_nodes(cat, entry, points)
    return extra


def _slot_low(cat, entry) -> float:
    """A slot's plain (unmodified) parent-scope minimum: the sum of its minimums."""
    return sum(c.get("value", 0) for c in cat.constraints_once(entry)
               if c.get("type") == "min" and c.get("scope") == "parent" and not c.get("modifiers"))


def _group_low(cat, entry) -> float:
    """A group's parent-scope minimum: the largest of its minimums."""
    return max((c.get("value", 0) for c in cat.constraints_once(entry)
                if c.get("type") == "min" and c.get("scope") == "parent"), default=0)


def _required_below(cat, layout, points: str) -> float:
    extra = 0.0
    for child in layout.slots:
        if not child.groups and not child.entry.hidden:
            low = _slot_low(cat, child.entry)
            if low > 0:
                extra += low * cat.costs_once(child.entry).get(points, 0)
    for group in layout.groups:
        if group.parent is not None or group.entry.hidden:
            continue
        low = _group_low(cat, group.entry)
        if low > 0:
            prices = [cat.costs_once(s.entry).get(points, 0) for s in group.slots if not s.entry.hidden]
            if prices:
                extra += low * min(prices)
    return extra


def _required_below_nodes(cat, entry, points: str) -> float:
    """:func:`_required_below` read from the catalogue's nodes: the entry's children that are not groups are its
    layout's slots in no group, the groups among them its outermost groups (tests/battlescribe/test_pricing_shortcuts
    compares both on every entry of the library). Added in the same order, so the sum is the same to the bit."""
    plain: list = []
    groups: list = []
    for ref in cat.children(entry):
        child = cat.resolve(ref)
        (groups if child.node.get("k") == "group" else plain).append(child)
    extra = 0.0
    for child in plain:
        if not child.hidden:
            low = _slot_low(cat, child)
            if low > 0:
                extra += low * cat.costs_once(child).get(points, 0)
    for group in groups:
        if group.hidden:
            continue
        low = _group_low(cat, group)
        if low > 0:
            prices = [cat.costs_once(e).get(points, 0) for e in cat.group_members(group) if not e.hidden]
            if prices:
                extra += low * min(prices)
    return extra


def _in_group_count(container, group: GroupSlot) -> int:
    slots = {id(s) for s in group.slots}
    return sum(c.number for c in container.children if id(c.slot) in slots)


__all__ = ["Limit", "Offer", "as_draft", "complete", "complete_roster", "group_limit", "offers", "Roster"]
