"""Fixtures for tournaments: the Flames of War sample books, an organiser, players and their lists."""
import pytest
from django.test import Client

from tests.factories import ArmyListFactory, EventFactory, ListFormationFactory, ListUnitFactory, UserFactory
from tests.web.browser import browser, page  # noqa: F401 - fixtures for the end-to-end test
from tests.web.conftest import PASSWORD, afrika, books, live_books  # noqa: F401 - fixtures


def make_user(name):
    return UserFactory(username=name)


def login(user):
    client = Client()
    client.force_login(user)
    return client


def panzer_company(owner, handbook, name="Desert Fox", companies=1):
    """A legal Panzer Company (HQ and its two compulsory tank platoons) per ``companies``: each is one formation."""
    army = ArmyListFactory(owner=owner, handbook=handbook, name=name, points_limit=100)
    for _ in range(companies):
        company = ListFormationFactory(army_list=army, formation_code="SG100")
        ListUnitFactory(list_formation=company, box_code="SG100/hq", unit_code="SG101", size_code="two-tanks",
                        upgrades={"gun/short-5cm": 1})
        for box in ("SG100/panzer-1", "SG100/panzer-2"):
            ListUnitFactory(list_formation=company, box_code=box, unit_code="SG102", size_code="three-tanks",
                            upgrades={"gun/short-5cm": 1})
    army.refresh_from_db()
    return army


@pytest.fixture
def organiser(db):
    return make_user("organiser")


@pytest.fixture
def event(afrika, organiser):  # noqa: F811
    """Desert Cup: lists due in three days, revealed in five, played in ten."""
    return EventFactory(user=organiser, name="Desert Cup", place="Tobruk hall", points_limit=100, formation_limit=1,
                        late_changes=True)
