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

from .catalogue import GroupSlot, Slot
from .evaluate import Evaluation, Virtual
from .tree import ForceScope, Roster

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
        probe = _probe_cost(evaluation, slot, container)
        out.append(Offer(slot=slot, name=slot.entry.name, chosen=chosen.get(id(slot), 0), hidden=hidden,
                         limit=limit, group_limits=tuple(glimits), cost=probe,
                         hidden_because=_show_conditions(cat.modifiers(slot.entry)) if hidden else ()))
    return out


def _probe_cost(evaluation: Evaluation, slot: Slot, container) -> dict:
    """The slot's own cost as priced where it would be chosen (modifiers seen from the parent)."""
    from .tree import Sel

    force = container if isinstance(container, ForceScope) else container.force
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
        unmet = [v for v in evaluation.violations() if v.kind == "min" and v.slot is not None
                 and (only is None or only(v))]
        if not unmet:
            return evaluation, True
        v = unmet[0]
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


def _cheapest_for(evaluation: Evaluation, v, container, points: str) -> Slot | None:
    candidates = []
    for offer in offers(evaluation, container):
        if offer.hidden:
            continue
        if isinstance(v.slot, GroupSlot):
            if offer.slot not in v.slot.slots:
                continue
        elif offer.slot is not v.slot:
            continue
        if offer.limit.high is not None and offer.chosen >= offer.limit.high:
            continue
        if any(lim.high is not None and _in_group_count(container, g) >= lim.high
               for g, lim in offer.group_limits if g is not v.slot):
            continue
        own = offer.cost.get(points, 0)
        candidates.append((own + required_below(evaluation, offer.slot, container, points), offer.slot.index,
                           offer.slot))
    if not candidates:
        return None
    candidates.sort(key=lambda t: (t[0], t[1]))
    return candidates[0][2]


def required_below(evaluation: Evaluation, slot: Slot, container, points: str) -> float:
    """What a choice's own compulsory entries cost at least, one level down (a look-ahead so a cheap
    size that forces dear transports does not win over a dearer size that forces nothing)."""
    cat = (container if isinstance(container, ForceScope) else container.force).catalogue
    layout = cat.layout(slot.entry)
    extra = 0.0
    for child in layout.slots:
        low = sum(c.get("value", 0) for c in cat.constraints(child.entry)
                  if c.get("type") == "min" and c.get("scope") == "parent" and not c.get("modifiers"))
        if low > 0 and not child.groups and not child.entry.hidden:
            extra += low * cat.costs(child.entry).get(points, 0)
    for group in layout.groups:
        if group.parent is not None or group.entry.hidden:
            continue
        low = max((c.get("value", 0) for c in cat.constraints(group.entry)
                   if c.get("type") == "min" and c.get("scope") == "parent"), default=0)
        if low > 0:
            prices = [cat.costs(s.entry).get(points, 0) for s in group.slots if not s.entry.hidden]
            if prices:
                extra += low * min(prices)
    return extra


def _in_group_count(container, group: GroupSlot) -> int:
    slots = {id(s) for s in group.slots}
    return sum(c.number for c in container.children if id(c.slot) in slots)


__all__ = ["Limit", "Offer", "complete", "group_limit", "offers", "Roster"]
