"""Evaluation.grown: complete_roster's evaluation after each choice it adds, made from the one before without
walking the roster again. At every step of completing every formation of the real library (and of the mini
catalogue) it must be what a new Evaluation of the roster is: the same selections in the same order, the same
spans of forces, what each selection counts as, and the same violations."""
import pytest

from armybuilder.interchange.battlescribe import map_library
from armybuilder.interchange.battlescribe.data_checks import _alone
from armybuilder.rules.battlescribe.catalogue import Catalogue
from armybuilder.rules.battlescribe.evaluate import Evaluation
from armybuilder.rules.battlescribe.offers import _cheapest_for, add_one
from armybuilder.rules.battlescribe.tree import Roster


def _violations(evaluation: Evaluation) -> list:
    return [(v.kind, v.constraint, v.at, v.slot, v.count, v.limit, v.selections) for v in evaluation.violations()]


def _same_as_new(grown: Evaluation, roster: Roster) -> None:
    found = _violations(grown)
    keys = [s.keys for s in grown.selections]  # read before a new evaluation sets them
    new = Evaluation(roster)
    assert [id(s) for s in grown.selections] == [id(s) for s in new.selections]
    assert [(id(f), start, end) for f, start, end in grown._spans] == \
        [(id(f), start, end) for f, start, end in new._spans]
    assert grown._keys_may_change == new._keys_may_change
    assert keys == [s.keys for s in new.selections]
    assert found == _violations(new)
    assert grown.unevaluated == new.unevaluated


def _complete_comparing(cat: Catalogue, path: str, grew: list) -> None:
    """Complete the formation at ``path`` as offers.complete_roster does, comparing each grown evaluation with a
    new one; adds to ``grew`` whether each step added a new selection."""
    roster = _alone(cat, cat.force_entry(), path)
    evaluation = Evaluation(roster)
    settled: set = set()
    for _ in range(400):
        v = evaluation.first_unmet_minimum(None, settled)
        if v is None:
            return
        slot = _cheapest_for(evaluation, v, v.at, cat.points)
        if slot is None:
            return
        sel, new = add_one(v.at, slot)
        grew.append(new)
        evaluation = evaluation.grown(sel, new)
        _same_as_new(evaluation, roster)
    raise AssertionError("no end")


def _compare(documents) -> list:
    grew: list = []
    for _, doc in documents:
        cat = Catalogue(doc["catalogue"])
        for f in doc["formations"]:
            _complete_comparing(cat, f["extra"]["bs"]["path"], grew)
    return grew


def test_the_mini_catalogue_s_grown_evaluations_are_new_ones(mini_dir):
    assert _compare(map_library([mini_dir]).documents)


@pytest.mark.bsdata
def test_every_step_of_completing_the_library_s_formations_grows_a_new_evaluation(real_library):
    grew = _compare(real_library.documents)
    assert sum(grew) > 1000 and not all(grew)  # new selections, and numbers raised
