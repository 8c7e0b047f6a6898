"""Fixtures for the browser builder: the sample books, players, clients and lists."""
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from armybuilder.lists import catalog
from handbooks.models import Handbook
from handbooks.services import handbooks_load_paths
from tests.factories import (
    PASSWORD,  # noqa: F401 - the tests that sign in import it from here
    ArmyListFactory,
    ListFormationFactory,
    ListUnitFactory,
    UserFactory,
)

from .browser import browser, page  # noqa: F401 - fixtures for the end-to-end tests


def fresh_caches():
    catalog.clear_cache()


FOW_BOOKS = [Path(settings.HANDBOOK_DATA_DIR) / "systems" / "flames-of-war.yaml",
             Path(settings.HANDBOOK_DATA_DIR) / "fow4"]


@pytest.fixture
def live_books(live_server):
    """The sample Flames of War books in the live server's database (for the browser tests)."""
    from handbooks.services import handbooks_load_paths

    fresh_caches()
    assert all(r.ok for r in handbooks_load_paths(FOW_BOOKS))
    yield live_server
    fresh_caches()


@pytest.fixture
def books(db):
    """The game systems and the Flames of War sample books, with the game-data caches emptied
    (database keys differ from test to test)."""
    fresh_caches()
    results = handbooks_load_paths(FOW_BOOKS)
    assert all(r.ok for r in results), [str(p) for r in results for p in r.problems]
    yield
    fresh_caches()


@pytest.fixture
def afrika(books):
    return Handbook.objects.get(code="sample-afrika-korps", is_current=True)


@pytest.fixture
def player(db):
    return UserFactory(username="rommel")


@pytest.fixture
def other_player(db):
    return UserFactory(username="monty")


@pytest.fixture
def player_client(player):
    client = Client()
    client.force_login(player)
    return client


@pytest.fixture
def other_client(other_player):
    client = Client()
    client.force_login(other_player)
    return client


@pytest.fixture
def army(afrika, player):
    """A Panzer Company with its HQ and one tank platoon; the second black box is still empty."""
    army = ArmyListFactory(owner=player, handbook=afrika, name="Desert Fox", points_limit=100)
    company = ListFormationFactory(army_list=army, formation_code="SG100")
    ListUnitFactory(list_formation=company, box_code="SG100/hq", unit_code="SG101", size_code="two-tanks")
    ListUnitFactory(list_formation=company, box_code="SG100/panzer-1", unit_code="SG102", size_code="three-tanks",
                    upgrades={"gun/short-5cm": 1})
    army.refresh_from_db()
    return army


def action(client, army, name, /, **data):
    """POST a builder action as htmx does, with the list's current version unless one is given."""
    from django.urls import reverse

    army.refresh_from_db()
    data.setdefault("version", army.version)
    headers = {key: data.pop(key) for key in [k for k in data if k.startswith("HTTP_")]}
    return client.post(reverse("web:action", args=[army.public_id, name]), data, HTTP_HX_REQUEST="true", **headers)
