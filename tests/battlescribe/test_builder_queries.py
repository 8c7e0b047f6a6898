"""On a real imported book, the builder page and each action cost the same SQL queries for a small list and
a large one (the game data is cached per revision; the list is read with a fixed number of queries)."""
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from armybuilder.lists import services as s
from armybuilder.lists.models import ArmyList
from handbooks.models import Handbook

pytestmark = [pytest.mark.bsdata]
AFRIKA = "1db5-94f0-8315-42a2"
COMPANY = "55c7-84f0-094e-4c6f::912e-3dba-2ff4-ab44"
UNITS = [(f"{COMPANY}/7cac-18a1-c4df-6c72", "178f-6fdb-f53a-ba95"),
         (f"{COMPANY}/3b34-cd18-1549-fc24", "9892-987c-62b9-08c8"),
         (f"{COMPANY}/0084-4c7e-8f7f-06c5", "2fe8-236b-99f4-44ce")]
GREY = (f"{COMPANY}/a6e4-597c-9e19-f765", "421b-edac-f499-d8ef")  # Optional Panzer II Platoon


@pytest.fixture
def player(db):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("rommel", password="pw-not-secret-123")


def army_of(player, companies: int) -> ArmyList:
    book = Handbook.objects.get(code=AFRIKA, is_current=True)
    army = s.army_list_create(owner=player, handbook=book, name=f"{companies} companies", points_limit=300)
    for _ in range(companies):
        company = s.army_list_add_formation(army_list=army, formation_code=COMPANY)
        for box, unit in UNITS:
            s.army_list_pick_unit(army_list=army, list_formation=company, box_code=box, unit_code=unit)
    army.refresh_from_db()
    return army


def queries(client, army, action: str | None, **data) -> int:
    with CaptureQueriesContext(connection) as captured:
        if action is None:
            response = client.get(reverse("web:builder", args=[army.public_id]))
        else:
            army.refresh_from_db()
            response = client.post(reverse("web:action", args=[army.public_id, action]),
                                   {"version": army.version, **data}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and b"alert--error" not in response.content
    return len(captured)


@pytest.mark.parametrize("action, data", [
    (None, {}),
    ("pick", {"formation": "/formations/0", "box": GREY[0], "unit": GREY[1]}),
    ("remove-unit", {"unit": "/formations/0/units/1"}),
])
def test_the_page_and_each_action_cost_as_many_queries_for_one_company_as_for_three(library_in_db, db, player,
                                                                                    action, data):
    client = Client()
    client.force_login(player)
    small, large = army_of(player, 1), army_of(player, 3)
    # A player opens the builder before acting on it: the game data is cached on first use, as in a running
    # server, and the page leaves the list's document for the first action (both lists alike).
    queries(client, small, None)
    queries(client, large, None)
    assert queries(client, small, action, **data) == queries(client, large, action, **data)
