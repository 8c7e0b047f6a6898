"""Fixtures for tournaments: the Flames of War sample books, an organiser, players and their lists."""
from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from armybuilder.services.events import services as ev
from armybuilder.lists import services as s
from handbooks.models import GameSystem

from tests.web.conftest import PASSWORD, afrika, books, live_books  # noqa: F401 - fixtures
from tests.web.browser import browser, page  # noqa: F401 - fixtures for the end-to-end test


def make_user(name):
    return get_user_model().objects.create_user(name, password=PASSWORD)


def login(user):
    client = Client()
    client.force_login(user)
    return client


def panzer_company(owner, handbook, name="Desert Fox", companies=1):
    """A legal Panzer Company (HQ and its two compulsory tank platoons) per ``companies``: each is one formation."""
    army = s.army_list_create(owner=owner, handbook=handbook, name=name, points_limit=100)
    for _ in range(companies):
        company = s.army_list_add_formation(army_list=army, formation_code="SG100")
        hq = s.army_list_pick_unit(army_list=army, list_formation=company, box_code="SG100/hq", unit_code="SG101",
                                   size_code="two-tanks")
        s.army_list_set_upgrade(army_list=army, list_unit=hq, upgrade_code="gun/short-5cm", quantity=1)
        for box in ("SG100/panzer-1", "SG100/panzer-2"):
            tanks = s.army_list_pick_unit(army_list=army, list_formation=company, box_code=box, unit_code="SG102",
                                          size_code="three-tanks")
            s.army_list_set_upgrade(army_list=army, list_unit=tanks, upgrade_code="gun/short-5cm", quantity=1)
    army.refresh_from_db()
    return army


@pytest.fixture
def organiser(db):
    return make_user("organiser")


@pytest.fixture
def event(afrika, organiser):  # noqa: F811
    now = timezone.now()
    return ev.event_create(user=organiser, system=GameSystem.objects.get(code="fow4"), name="Desert Cup",
                           date=date.today() + timedelta(days=10), place="Tobruk hall",
                           deadline=now + timedelta(days=3), reveal_at=now + timedelta(days=5),
                           points_limit=100, formation_limit=1, late_changes=True)
