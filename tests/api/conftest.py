"""Fixtures for the API tests: users, clients (token and session), a built list."""
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from django.db import transaction
from rest_framework.test import APIClient

from armybuilder.api.models import ApiToken, token_hash
from armybuilder.api.services import api_token_rotate
from armybuilder.lists import catalog, services
from handbooks.models import Handbook
from handbooks.services import handbooks_load_paths
from tests.factories import ArmyListFactory, ListCardFactory, ListFormationFactory, ListUnitFactory, UserFactory

BOOKS = Path(__file__).parent.parent / "rules" / "books"


def _forget_cached_game_data():
    catalog.clear_cache()


@pytest.fixture(scope="package")
def api_books(django_db_setup, django_db_blocker):
    """The systems and the hand-made test books, loaded once for the whole API package.

    Loading them per test cost 0.6 s a test. They are written inside one outer
    transaction that is rolled back after the package's last test; each test runs
    in a savepoint inside it (pytest-django's ``db``), so tests stay isolated and
    the rest of the suite never sees these rows.
    """
    with django_db_blocker.unblock(), transaction.atomic():
        _forget_cached_game_data()
        call_command("load_handbooks", str(Path(settings.HANDBOOK_DATA_DIR) / "systems"), verbosity=0)
        results = handbooks_load_paths([BOOKS])
        assert all(r.ok for r in results), [str(p) for r in results for p in r.problems]
        yield
        transaction.set_rollback(True)
    _forget_cached_game_data()


@pytest.fixture
def test_books(api_books, db):
    """Same name as the suite-wide fixture, so fixtures and functions written against it work here too."""


@pytest.fixture(autouse=True)
def fresh_throttle_counts():
    """Throttle counts live in the cache; every test starts from zero."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def owner(db):
    return UserFactory(username="owner")


@pytest.fixture
def other(db):
    return UserFactory(username="other")


_KEYS: dict[int, str] = {}


def token_key_for(user) -> str:
    """The user's token key: the one made before in this test if it still works, else a new one."""
    key = _KEYS.get(user.pk)
    if key is None or not ApiToken.objects.filter(user=user, key_hash=token_hash(key)).exists():
        _token, key = api_token_rotate(user=user)
        _KEYS[user.pk] = key
    return key


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {token_key_for(user)}")
    return client


@pytest.fixture
def anon():
    return APIClient()


@pytest.fixture
def owner_client(owner):
    return client_for(owner)


@pytest.fixture
def other_client(other):
    return client_for(other)


@pytest.fixture
def germany(test_books):  # noqa: F811
    return Handbook.objects.get(code="tb-germany")


@pytest.fixture
def army(owner, germany):
    """Tank Company (HQ + two tank platoons, one with skirts), an Artillery support unit, a force card."""
    al = ArmyListFactory(owner=owner, handbook=germany, name="Panzers", points_limit=100)
    company = ListFormationFactory(army_list=al, formation_code="F1")
    ListUnitFactory(list_formation=company, box_code="F1/hq", unit_code="HQ1", size_code="1x")
    ListUnitFactory(list_formation=company, box_code="F1/b1", unit_code="TNK", size_code="3x",
                    upgrades={"skirts/schurzen": 1})
    ListUnitFactory(list_formation=company, box_code="F1/b2", unit_code="TNK", size_code="3x")
    ListUnitFactory(army_list=al, box_code="force/art", unit_code="ART", size_code="4x")
    ListCardFactory(army_list=al, card_code="CF")
    al.refresh_from_db()
    return al


@pytest.fixture
def shared_army(army):
    services.army_list_update(army_list=army, visibility="shared")
    army.refresh_from_db()
    return army


def url(army_list, rest: str = "") -> str:
    return f"/api/v1/lists/{army_list.public_id}/{rest}"


def if_match(army_list) -> dict:
    army_list.refresh_from_db()
    return {"HTTP_IF_MATCH": f'"{army_list.version}"'}
