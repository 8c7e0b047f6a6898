"""offers.complete_roster (the import's formation check, the cheapest legal list): completing every formation of
the real library (and of the mini catalogue) gives the very roster, the same verdict and the same violations as
completing it the plain way, with the whole check made again after every step and its first unmet minimum
taken. Whatever makes completing cheaper (asking only for the first unmet minimum, compiled checks) must
keep that."""
import pytest

from armybuilder.interchange.battlescribe import map_library
from armybuilder.rules.battlescribe.catalogue import Catalogue
from armybuilder.rules.battlescribe.evaluate import Evaluation
from armybuilder.rules.battlescribe.offers import MAX_STEPS, _cheapest_for, add_one, as_draft, complete_roster
from armybuilder.rules.battlescribe.tree import ForceScope, Roster, Sel


def _alone(cat: Catalogue, path: str) -> Roster:
    force = ForceScope(catalogue=cat, entry=cat.force_entry())
    force.children.append(Sel(slot=cat.root_layout().find(path), number=1, force=force))
    return Roster(forces=[force])


def _plain_complete(roster: Roster, points: str) -> tuple[Evaluation, bool]:
    """complete_roster as first written: a new Evaluation and its whole list of violations at every step."""
    evaluation = Evaluation(roster)
    for _ in range(MAX_STEPS):
        v = next((v for v in evaluation.violations() if v.kind == "min" and v.slot is not None), None)
        if v is None:
            return evaluation, True
        slot = _cheapest_for(evaluation, v, v.at, points)
        if slot is None:
            return evaluation, False
        add_one(v.at, slot)  # the step itself is not what differs between the two ways
        evaluation = Evaluation(roster)
    return evaluation, False


def _said(evaluation: Evaluation) -> list:
    return [(v.kind, v.owner, v.name, v.limit, v.count, v.scope, v.constraint) for v in evaluation.violations()]


def _compare(documents) -> tuple[int, int]:
    """(formations completed, selections they hold in all), after checking each both ways."""
    formations = selections = 0
    for _, doc in documents:
        # one catalogue for each way: what one way compiles and keeps must not be what the other reads
        fast_cat, plain_cat = Catalogue(doc["catalogue"]), Catalogue(doc["catalogue"])
        for f in doc["formations"]:
            path = f["extra"]["bs"]["path"]
            fast, plain = _alone(fast_cat, path), _alone(plain_cat, path)
            fast_eval, fast_done = complete_roster(fast, points=fast_cat.points)
            plain_eval, plain_done = _plain_complete(plain, plain_cat.points)
            assert as_draft(fast) == as_draft(plain), path
            assert fast_done == plain_done, path
            assert _said(fast_eval) == _said(plain_eval), path
            formations += 1
            selections += len(fast_eval.selections)
    return formations, selections


def test_the_mini_catalogue_s_formations_are_completed_as_the_plain_way_completes_them(mini_dir):
    formations, selections = _compare(map_library([mini_dir]).documents)
    assert formations and selections > formations  # something was added


@pytest.mark.bsdata
def test_every_formation_of_the_library_is_completed_as_the_plain_way_completes_it(real_library):
    formations, selections = _compare(real_library.documents)
    assert formations > 300 and selections > 2000
