"""The engine's unit tests: frozen game data built by hand (``build.py``) goes in, a report comes out.

No test here may use the database. pytest-django already refuses database access to a test without the
``django_db`` mark; this folder also refuses the mark and the database fixtures, so that a test added here
cannot come to need the database without failing.
"""
import pytest

DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback",
                     "live_server", "django_db_setup"}


@pytest.fixture(autouse=True)
def no_database(request, django_db_blocker):
    assert request.node.get_closest_marker("django_db") is None, (
        f"{request.node.nodeid}: the engine's tests run without a database; move it out of tests/engine")
    wanted = DATABASE_FIXTURES & set(request.fixturenames)
    assert not wanted, f"{request.node.nodeid} asks for {sorted(wanted)}; the engine's tests run without a database"
    with django_db_blocker.block():
        yield
