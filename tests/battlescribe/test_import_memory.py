"""What keeps an import fast: the garbage collector is paused while a library is read, mapped and loaded,
and what an import builds is freed by reference counting, not left for the collector in reference cycles
(a full pass over a library's objects took longer than parsing its XML)."""
import gc
import weakref

import pytest

from armybuilder.interchange.battlescribe import map_library
from armybuilder.interchange.battlescribe.collector import collector_paused
from armybuilder.interchange.battlescribe.data_checks import formations_not_legal_alone
from armybuilder.rules.battlescribe.catalogue import Catalogue
from armybuilder.rules.battlescribe.evaluate import Evaluation
from armybuilder.rules.battlescribe.tree import ForceScope, Roster, Sel


@pytest.mark.parametrize("was_on", [True, False])
def test_the_collector_is_paused_in_the_body_and_restored_after(was_on):
    before = gc.isenabled()
    try:
        gc.enable() if was_on else gc.disable()
        with collector_paused():
            assert not gc.isenabled()
        assert gc.isenabled() is was_on
        with pytest.raises(ZeroDivisionError), collector_paused():
            raise ZeroDivisionError
        assert gc.isenabled() is was_on  # restored on an error too
    finally:
        gc.enable() if before else gc.disable()


def test_a_mapped_library_is_freed_without_the_collector(mini_dir):
    before = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        mapped = map_library([mini_dir])
        assert mapped.documents and mapped.index.catalogues
        index = weakref.ref(mapped.index)
        catalogue_doc = mapped.documents[0][1]["catalogue"]
        del mapped
        # The index (and with it every catalogue's nodes) went when the last reference did: no cycle holds
        # it (a recursive inner function used to, through its own closure).
        assert index() is None
        assert catalogue_doc["nodes"]  # what the caller still holds is intact
    finally:
        gc.enable() if before else gc.disable()


def _left_for_the_collector(work) -> int:
    """How many objects ``work()`` leaves in reference cycles (found by a collection right after it)."""
    before = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        work()
        return gc.collect()
    finally:
        gc.enable() if before else gc.disable()


def test_the_formation_check_leaves_nothing_for_the_collector(mini_dir):
    doc = map_library([mini_dir]).documents[0][1]
    paths = {f["code"]: f["extra"]["bs"]["path"] for f in doc["formations"]}
    assert paths  # the mini catalogue has a formation to complete
    found = []
    assert _left_for_the_collector(lambda: found.extend(formations_not_legal_alone(doc["catalogue"], paths))) == 0
    assert found == []  # its cheapest list is legal: the check ran to the end


def test_a_catalogue_with_its_layouts_checked_is_freed_by_reference_counting_once_released(mini_dir):
    doc = map_library([mini_dir]).documents[0][1]["catalogue"]

    def use_and_release():
        cat = Catalogue(doc)
        force = ForceScope(catalogue=cat, entry=cat.force_entry())
        for slot in cat.root_layout().slots:
            force.children.append(Sel(slot=slot, number=1, force=force))
        evaluation = Evaluation(Roster(forces=[force]))
        assert evaluation.violations() is not None  # layouts compiled, counting keys kept on the slots
        force.children = []
        cat.release()

    assert _left_for_the_collector(use_and_release) == 0


def test_without_a_release_the_evaluator_s_keys_do_hold_slots_in_cycles(mini_dir):
    """The other side of the test above: what release() undoes is there to undo."""
    doc = map_library([mini_dir]).documents[0][1]["catalogue"]

    def use():
        cat = Catalogue(doc)
        force = ForceScope(catalogue=cat, entry=cat.force_entry())
        force.children = [Sel(slot=s, number=1, force=force) for s in cat.root_layout().slots]
        Evaluation(Roster(forces=[force])).violations()
        force.children = []

    assert _left_for_the_collector(use) > 0
