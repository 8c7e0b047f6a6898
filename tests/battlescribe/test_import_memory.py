"""What keeps an import fast: the garbage collector is paused while a library is read, mapped and loaded,
and what an import builds is freed by reference counting, not left for the collector in reference cycles
(a full pass over a library's objects took longer than parsing its XML)."""
import gc
import weakref

import pytest

from armybuilder.interchange.battlescribe import map_library
from armybuilder.interchange.battlescribe.collector import collector_paused


@pytest.mark.parametrize("was_on", [True, False])
def test_the_collector_is_paused_in_the_body_and_restored_after(was_on):
    before = gc.isenabled()
    try:
        gc.enable() if was_on else gc.disable()
        with collector_paused():
            assert not gc.isenabled()
        assert gc.isenabled() is was_on
        with pytest.raises(ZeroDivisionError), collector_paused():
            1 / 0
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
