"""Fixtures shared by the whole suite."""
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

SHARED = Path(settings.BASE_DIR).parent / "shared"


def pytest_addoption(parser):
    parser.addoption("--stack", action="store_true",
                     help="run tests/stack: the production stack as real processes (make test-stack; needs "
                          "PostgreSQL and Redis)")


def pytest_ignore_collect(collection_path, config):
    # The stack tests start gunicorn, Celery, PostgreSQL databases: their own command and CI step, not make test.
    if collection_path.name == "stack" and collection_path.parent.name == "tests" and not config.getoption("stack"):
        return True
    return None


@pytest.fixture
def sample_data(db):
    """Every bundled game system and sample handbook, loaded the way a user would load them."""
    call_command("load_handbooks", verbosity=0)


@pytest.fixture
def systems(db):
    """Only the game systems (nations, profile types), for loader tests with hand-written books."""
    call_command("load_handbooks", str(Path(settings.HANDBOOK_DATA_DIR) / "systems"), verbosity=0)


@pytest.fixture(autouse=True)
def fresh_game_data_cache():
    """Handbook data is cached per process by primary key and in the cache; test databases reuse keys, and
    throttle counts and rendered PDFs live in the cache too, so every test starts with both empty."""
    from django.core.cache import cache

    from armybuilder.lists import catalog

    cache.clear()
    catalog.clear_cache()
    yield


@pytest.fixture(autouse=True)
def fresh_rate_limit_counts():
    """Rate-limit counts (sign-ups, imports) live in the cache; no test inherits another's."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(scope="session", autouse=True)
def issues_seen_come_from_the_registry():
    """Every issue any test makes (on the real BSData library too) is recorded; at the end of the run each must
    carry a registered code with its severity, and wording one of that code's templates gives
    (tests/rules/issue_wording.py). A failure shows as an error in the teardown of the last test."""
    from armybuilder.rules.report import Issue
    from tests.rules.issue_wording import wording_problems

    seen = set()
    make = Issue.__init__

    def recording(self, *args, **kwargs):
        make(self, *args, **kwargs)
        seen.add((self.code, self.severity, self.message, self.fix))

    Issue.__init__ = recording
    yield seen
    Issue.__init__ = make
    problems = wording_problems(seen)
    if problems:
        pytest.fail(f"{len(problems)} issue(s) made in this run do not come from armybuilder/rules/issue_codes.py:\n"
                    + "\n".join(sorted(problems)[:40]), pytrace=False)
