"""Evaluation.first_unmet_minimum: what completing a list asks at each step (the first unmet minimum of an entry
or group), found without the whole check. It must name the very violation the whole check lists first, at
every step of completing every formation of the real library (and of the mini catalogue), so that completing
a list (the import's formation check, the builder's starter list) gives what it gave with the whole check."""
import pytest

from armybuilder.interchange.battlescribe import map_library
from armybuilder.rules.battlescribe.catalogue import Catalogue
from armybuilder.rules.battlescribe.evaluate import Evaluation
from armybuilder.rules.battlescribe.offers import _cheapest_for
from armybuilder.rules.battlescribe.tree import ForceScope, Roster, Sel


def _alone(cat: Catalogue, path: str) -> Roster:
    force = ForceScope(catalogue=cat, entry=cat.force_entry())
    force.children.append(Sel(slot=cat.root_layout().find(path), number=1, force=force))
    return Roster(forces=[force])


def _as_the_whole_check_says(roster: Roster, only=None):
    wanted = [v for v in Evaluation(roster).violations() if v.kind == "min" and v.slot is not None
              and (only is None or only(v))]
    return wanted[0] if wanted else None


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return (a.constraint, a.at, a.slot, a.count, a.limit) == (b.constraint, b.at, b.slot, b.count, b.limit)


def _complete_comparing(cat: Catalogue, path: str, only=None, settled_counts: list | None = None) -> int:
    """Complete the formation at ``path`` one choice at a time (as offers.complete_roster does), asking both
    ways at each step (and a third, leaving out the nodes found settled); returns the number of steps and adds
    to ``settled_counts`` how many nodes were left out by the end."""
    roster = _alone(cat, path)
    settled: set = set()  # the roster only grows: kept from step to step, as complete_roster does
    for step in range(400):
        expected = _as_the_whole_check_says(roster, only)
        found = Evaluation(roster).first_unmet_minimum(only)
        assert _same(found, expected), (path, step, found, expected)
        resumed = Evaluation(roster).first_unmet_minimum(only, settled)
        assert _same(resumed, expected), (path, step, resumed, expected)
        if expected is None:
            if settled_counts is not None:
                settled_counts.append(len(settled))
            return step
        evaluation = Evaluation(roster)
        slot = _cheapest_for(evaluation, expected, expected.at, cat.points)
        if slot is None:
            return step
        container = expected.at
        force = container if isinstance(container, ForceScope) else container.force
        container.children.append(Sel(slot=slot, number=1, force=force,
                                      parent=None if isinstance(container, ForceScope) else container))
    raise AssertionError("no end")


def _formations(documents):
    for _, doc in documents:
        cat = Catalogue(doc["catalogue"])
        for f in doc["formations"]:
            yield cat, f["extra"]["bs"]["path"]


def test_the_mini_catalogue_s_formation_is_completed_step_by_step_as_the_whole_check_says(mini_dir):
    steps = [_complete_comparing(cat, path) for cat, path in _formations(map_library([mini_dir]).documents)]
    assert steps and all(n > 0 for n in steps)  # there were minimums to meet


@pytest.mark.bsdata
def test_every_formation_of_the_library_is_completed_step_by_step_as_the_whole_check_says(real_library):
    settled: list = []
    steps = [_complete_comparing(cat, path, settled_counts=settled)
             for cat, path in _formations(real_library.documents)]
    assert len(steps) > 300 and sum(steps) > 1000
    assert sum(settled) > len(steps)  # the walk left nodes out: what makes completing a list cheaper


def test_a_filter_is_applied_as_to_the_whole_list(mini_dir):
    """``only`` lets through some minimums: the first of those, not the first of all."""
    cat, path = next(_formations(map_library([mini_dir]).documents))
    roster = _alone(cat, path)
    every = [v for v in Evaluation(roster).violations() if v.kind == "min" and v.slot is not None]
    assert every
    first = every[0]
    not_first = lambda v: v.constraint != first.constraint  # noqa: E731
    assert _same(Evaluation(roster).first_unmet_minimum(), first)
    assert _same(Evaluation(roster).first_unmet_minimum(not_first), _as_the_whole_check_says(roster, not_first))
    assert Evaluation(roster).first_unmet_minimum(lambda v: False) is None


def test_after_the_whole_check_it_reads_its_result(mini_dir):
    cat, path = next(_formations(map_library([mini_dir]).documents))
    evaluation = Evaluation(_alone(cat, path))
    listed = evaluation.violations()
    found = evaluation.first_unmet_minimum()
    assert found is next(v for v in listed if v.kind == "min" and v.slot is not None)
