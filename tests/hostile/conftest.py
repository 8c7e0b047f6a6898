"""Fixtures for the hardening tests: the Flames of War sample books, players and their lists."""
import json
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from armybuilder.lists import catalog
from armybuilder.lists import services as list_services
from armybuilder.lists.selectors import army_list_document
from handbooks.models import Handbook
from handbooks.services import handbooks_load_paths

PASSWORD = "pw-not-secret-123"
FOW_BOOKS = [Path(settings.HANDBOOK_DATA_DIR) / "systems" / "flames-of-war.yaml",
             Path(settings.HANDBOOK_DATA_DIR) / "fow4"]


@pytest.fixture(autouse=True)
def fresh_caches():
    """Rate-limit counts and per-process game data live in caches; every test starts from nothing."""
    cache.clear()
    catalog.clear_cache()
    yield
    cache.clear()
    catalog.clear_cache()


@pytest.fixture
def books(db):
    results = handbooks_load_paths(FOW_BOOKS)
    assert all(r.ok for r in results), [str(p) for r in results for p in r.problems]


@pytest.fixture
def afrika(books):
    return Handbook.objects.get(code="sample-afrika-korps", is_current=True)


def make_user(name: str):
    return get_user_model().objects.create_user(name, password=PASSWORD, email=f"{name}@example.org")


@pytest.fixture
def player(db):
    return make_user("rommel")


@pytest.fixture
def other_player(db):
    return make_user("monty")


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def player_client(player):
    return logged_in(player)


@pytest.fixture
def owned_list(player, afrika):
    return list_services.army_list_create(owner=player, handbook=afrika, name="Panzer Company", points_limit=100)


@pytest.fixture
def list_document(owned_list):
    """A valid list document (the export of a real list), to be spoiled by each test."""
    return army_list_document(owned_list)


def page_text(response) -> str:
    """A page's text as a person reads it: tags dropped, white space collapsed, entities decoded."""
    import html
    import re

    body = response.content.decode("utf-8", "replace")
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


def spoiled(document: dict, **changes) -> bytes:
    return json.dumps({**document, **changes}).encode("utf-8")


@pytest.fixture
def mini_battlescribe(db, tmp_path):
    """The hand-written mini Flames of War catalogue of the BattleScribe tests, imported; and a list on it."""
    from django.core.management import call_command

    from armybuilder.interchange.battlescribe import import_library
    from tests.battlescribe.conftest import CAT, GST
    from tests.battlescribe.test_roster import MINI_LIST

    call_command("load_handbooks", str(Path(settings.HANDBOOK_DATA_DIR) / "systems"), verbosity=0)
    folder = tmp_path / "mini-bs"
    folder.mkdir()
    (folder / "mini.gst").write_text(GST, encoding="utf-8")
    (folder / "mini.cat").write_text(CAT, encoding="utf-8")
    assert import_library([folder]).written
    return MINI_LIST
