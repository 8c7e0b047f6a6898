from pathlib import Path

import pytest

from armybuilder.lists import catalog
from handbooks.services import handbooks_load_paths

BOOKS = Path(__file__).parent / "books"


@pytest.fixture
def test_books(systems):
    """The hand-made test books (Germany, an Italian ally, Britain, a second German book)."""
    catalog.clear_cache()
    results = handbooks_load_paths([BOOKS])
    assert all(r.ok for r in results), [str(p) for r in results for p in r.problems]
    yield
    catalog.clear_cache()
