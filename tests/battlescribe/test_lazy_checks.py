"""Catalogue.checks works out an entry's maximums, and whether it can be hidden, only when they are first asked for
(Catalogue.slot_checks): over every layout of the real library (and of the mini catalogue), what it gives, however
little was asked for first, is what compiling every constraint at once gives, in the order such a compilation lists
them (the order broken limits are reported in)."""
import pytest

from armybuilder.interchange.battlescribe import map_library
from armybuilder.rules.battlescribe.catalogue import Catalogue, GroupSlot


def _layouts(cat: Catalogue):
    """Every layout reachable from the catalogue's roots, each once."""
    todo = [cat.root_layout()]
    seen = {id(todo[0])}
    while todo:
        layout = todo.pop()
        yield layout
        for slot in layout.slots:
            below = cat.slot_layout(slot)
            if id(below) not in seen:
                seen.add(id(below))
                todo.append(below)


def _eager(cat: Catalogue, layout) -> tuple:
    """(minimums, parent-scope maximums, other checks) as (owner, constraint) pairs, in the order of a compilation of
    every constraint at once: parent-scope maximums by what they count, in the order each key is first met."""
    mins, others = [], []
    parent_max: dict = {}
    for owner in (*layout.groups, *layout.slots):
        is_group = isinstance(owner, GroupSlot)
        for c in cat.constraints(owner.entry):
            scope, children, percent = str(c.get("scope") or ""), bool(c.get("children")), c.get("percent")
            if c.get("type") == "min":
                mins.append((owner, c))
            elif c.get("type") == "max" and scope == "parent" and not children and not percent:
                key = owner if is_group or c.get("shared") is False else owner.entry.node_id
                parent_max.setdefault(key, []).append((owner, c))
            else:
                others.append((owner, c))
    return mins, parent_max, others


def _pairs(found) -> list:
    return [(check.owner, check.constraint) for _, check in found]


def _same_as_eager(cat: Catalogue, layout, ask_first) -> None:
    checks = cat.checks(layout)
    for slot in ask_first:
        cat.slot_checks(checks, slot)
    mins, parent_max, others = _eager(cat, layout)
    assert [(c.owner, c.constraint) for c in checks.mins] == mins
    assert checks.max_keys == frozenset(parent_max)
    assert checks.empty == (not (mins or parent_max or others) and not any(
        cat.may_hide(s.entry) or any(cat.may_hide(g.entry) for g in s.groups) for s in layout.slots))
    everything = [*checks.group_max, *checks.always]
    for slot in layout.slots:
        parent, other, hideable = cat.slot_checks(checks, slot)
        assert hideable == (cat.may_hide(slot.entry) or any(cat.may_hide(g.entry) for g in slot.groups))
        assert _pairs(parent) == [p for group in parent_max.values() for p in group if p[0] is slot]
        assert _pairs(other) == [p for p in others if p[0] is slot and p[1].get("type") == "max"]
        everything += [*parent, *other]
    assert _pairs(checks.group_max) == [p for group in parent_max.values() for p in group
                                        if isinstance(p[0], GroupSlot)]
    assert _pairs(checks.always) == [p for p in others
                                     if isinstance(p[0], GroupSlot) or p[1].get("type") != "max"]
    # one order for all: any set of maximums found together sorts as the eager compilation lists them
    everything.sort(key=lambda found: found[0])
    assert _pairs(everything) == [p for group in parent_max.values() for p in group] + others
    loose = cat.loose_slot(layout.slots[0].path) if layout.slots else None
    if loose is not None:
        assert cat.slot_checks(checks, loose) == ((), (), False)  # not one of the layout's: nothing of it here


def _compare(documents) -> int:
    compared = 0
    for _, doc in documents:
        eager, lazy, reversed_ = (Catalogue(doc["catalogue"]) for _ in range(3))
        for layout in _layouts(eager):
            _same_as_eager(eager, layout, ask_first=layout.slots)
            compared += 1
        for layout in _layouts(lazy):
            _same_as_eager(lazy, layout, ask_first=())
        for layout in _layouts(reversed_):
            _same_as_eager(reversed_, layout, ask_first=layout.slots[::-1])
    return compared


def test_the_mini_catalogue_s_checks_are_compiled_lazily_as_eagerly(mini_dir):
    assert _compare(map_library([mini_dir]).documents) > 3


@pytest.mark.bsdata
def test_every_layout_of_the_library_has_the_same_checks_compiled_lazily_as_eagerly(real_library):
    assert _compare(real_library.documents) > 1000
