"""A book read into this process's cache is frozen out of the garbage collector's full collections (they
would walk its objects at every one); clear_cache lets the collector see them again."""
import gc

import pytest

from armybuilder.lists import catalog

pytestmark = pytest.mark.django_db


@pytest.fixture
def unfrozen():
    catalog.clear_cache()
    yield
    catalog.clear_cache()


def tracked(obj) -> bool:
    """Whether a collection (gc.get_objects lists what the generations hold, not the frozen) would walk it."""
    return any(o is obj for o in gc.get_objects(generation=2)) or any(
        o is obj for g in (0, 1) for o in gc.get_objects(generation=g))


def test_a_book_read_is_frozen_and_clear_cache_unfreezes_it(germany, unfrozen):
    assert gc.get_freeze_count() == 0
    data = catalog.handbook_data(germany.pk)
    assert gc.get_freeze_count() > 0
    unit = next(iter(data.units.values()))
    assert gc.is_tracked(unit) and not tracked(unit)  # tracked objects, out of the generations a collection walks
    assert not tracked(data.units)
    assert catalog.handbook_data(germany.pk) is data  # from the cache: nothing read, nothing frozen again

    catalog.clear_cache()
    assert gc.get_freeze_count() == 0
    assert tracked(unit)


def test_garbage_made_after_the_freeze_is_still_collected(germany, unfrozen):
    import weakref

    catalog.handbook_data(germany.pk)

    class Node:
        pass

    a, b = Node(), Node()
    a.other, b.other = b, a  # a cycle: only the collector frees it
    gone = weakref.ref(a)
    del a, b
    gc.collect()
    assert gone() is None
