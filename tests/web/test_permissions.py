"""Private lists stay private: every list page and action answers 404 to anyone but the owner.

Roles: the owner (an account), another account, an anonymous visitor, a visitor holding the share link,
and a visitor whose session built the list (an anonymous owner).
"""
import pytest
from django.test import Client
from django.urls import reverse

from armybuilder.lists import services as s
from armybuilder.lists.models import ArmyList

from .conftest import action

pytestmark = pytest.mark.django_db

PAGES = [("GET", "web:builder"), ("GET", "web:export"), ("GET", "web:delete"), ("POST", "web:delete"),
         ("POST", "web:copy"), ("POST", "web:rename")]
ACTIONS = ["settings", "add-formation", "remove-formation", "pick", "remove-unit", "size", "upgrade", "add-card",
           "remove-card", "visibility", "undo", "restore", "name-notes"]
ACTION_DATA = {
    "settings": {"name": "Stolen", "points_limit": 50},
    "add-formation": {"formation": "SG150"},
    "remove-formation": {"formation": "/formations/0"},
    "pick": {"formation": "/formations/0", "box": "SG100/panzer-2", "unit": "SG103"},
    "remove-unit": {"unit": "/formations/0/units/1"},
    "size": {"unit": "/formations/0/units/1", "size": "two-tanks"},
    "upgrade": {"unit": "/formations/0/units/1", "upgrade": "field-kit/schurzen", "quantity": 1},
    "add-card": {"card": "forward-command-post"},
    "remove-card": {"card": "/cards/0"},
    "visibility": {"visibility": "shared"},
    "undo": {},
    "restore": {"to": 2},
    "name-notes": {"target": "/formations/0", "custom_name": "Stolen", "notes": ""},
}
# Pages a player opens by link: a visitor who is not logged in is asked to log in, for any list id at all.
LOGIN_PAGES = {("GET", "web:builder"), ("GET", "web:export")}


@pytest.fixture
def shared_army(army):
    s.army_list_add_card(army_list=army, card_code="forward-command-post")
    s.army_list_update(army_list=army, visibility="shared")
    army.refresh_from_db()
    return army


@pytest.fixture
def share_visitor(shared_army):
    client = Client()
    assert client.get(reverse("web:shared", args=[shared_army.share_token])).status_code == 200
    return client


def request(client, method, name, army, data=None):
    url = reverse(name, args=[army.public_id])
    if method == "GET":
        return client.get(url)
    return client.post(url, {"version": army.version, "name": "x", **(data or {})})


@pytest.mark.parametrize("method, name", PAGES)
@pytest.mark.parametrize("who", ["other_client", "client", "share_visitor"])
def test_no_one_but_the_owner_reaches_a_list_page(request_fixture, shared_army, method, name, who):
    client = request_fixture(who)
    response = request(client, method, name, shared_army)
    if who != "other_client" and (method, name) in LOGIN_PAGES:
        assert response.status_code == 302 and response["Location"].startswith(reverse("web:login") + "?next=")
        assert b"Desert Fox" not in response.content
    else:
        assert response.status_code == 404
    assert ArmyList.objects.filter(pk=shared_army.pk, name="Desert Fox").exists()


@pytest.mark.parametrize("name", ["web:builder", "web:export"])
def test_logged_out_the_answer_is_the_same_for_a_list_that_exists_and_one_that_does_not(shared_army, name):
    import uuid

    client = Client()
    real = client.get(reverse(name, args=[shared_army.public_id]))
    made_up_id = uuid.uuid4()
    made_up = client.get(reverse(name, args=[made_up_id]))
    assert real.status_code == made_up.status_code == 302
    assert real.content == made_up.content == b""
    assert (real["Location"].replace(str(shared_army.public_id), "ID")
            == made_up["Location"].replace(str(made_up_id), "ID"))


def test_the_login_prompt_leads_the_owner_to_the_list_and_anyone_else_to_404(shared_army, player, other_player):
    from .conftest import PASSWORD

    url = reverse("web:builder", args=[shared_army.public_id])
    for user, status in ((player, 200), (other_player, 404)):
        client = Client()
        prompt = client.get(url)
        assert prompt.status_code == 302
        login = client.get(prompt["Location"])
        assert login.status_code == 200 and b"Log in" in login.content
        after = client.post(prompt["Location"], {"username": user.username, "password": PASSWORD}, follow=True)
        assert after.status_code == status
        if status == 404:
            assert b"Desert Fox" not in after.content and b"Traceback" not in after.content


@pytest.mark.parametrize("name", ACTIONS)
@pytest.mark.parametrize("who", ["other_client", "client", "share_visitor"])
def test_no_one_but_the_owner_can_change_a_list(request_fixture, shared_army, name, who):
    client = request_fixture(who)
    before = shared_army.version
    assert action(client, shared_army, name, **ACTION_DATA[name]).status_code == 404
    shared_army.refresh_from_db()
    assert shared_army.version == before


@pytest.mark.parametrize("method, name", PAGES)
def test_the_owner_reaches_every_list_page(player_client, shared_army, method, name):
    assert request(player_client, method, name, shared_army).status_code in (200, 302)


@pytest.mark.parametrize("name", ACTIONS)
def test_the_owner_can_run_every_action(player_client, shared_army, name):
    before = shared_army.version
    response = action(player_client, shared_army, name, **ACTION_DATA[name])
    assert response.status_code == 200
    assert 'alert--error' not in response.content.decode()
    shared_army.refresh_from_db()
    assert shared_army.version > before


def test_a_visitors_session_list_is_theirs_alone(afrika, client):
    client.post(reverse("web:start"), {"handbook": afrika.pk, "points_limit": 100, "name": "Session list"})
    army = ArmyList.objects.get(name="Session list")
    assert army.owner is None and army.session_key
    assert client.get(reverse("web:builder", args=[army.public_id])).status_code == 200
    assert action(client, army, "add-formation", formation="SG100").status_code == 200
    stranger = Client()
    prompt = stranger.get(reverse("web:builder", args=[army.public_id]))  # the log-in prompt any id gets
    assert prompt.status_code == 302 and prompt["Location"].startswith(reverse("web:login"))
    assert action(stranger, army, "add-formation", formation="SG100").status_code == 404


def test_the_share_link_opens_read_only_for_anyone_while_shared(shared_army, client, other_client):
    url = reverse("web:shared", args=[shared_army.share_token])
    for visitor in (client, other_client):
        html = visitor.get(url).content.decode()
        assert "Desert Fox" in html and "Panzer III Tank Platoon" in html
        assert "hx-post" not in html and 'name="version"' not in html
    assert client.get(reverse("web:shared-export", args=[shared_army.share_token])).status_code == 200


def test_the_share_link_stops_working_when_the_list_is_private_again(shared_army, client):
    s.army_list_update(army_list=shared_army, visibility="private")
    assert client.get(reverse("web:shared", args=[shared_army.share_token])).status_code == 404
    assert client.get(reverse("web:shared-export", args=[shared_army.share_token])).status_code == 404


def test_the_public_id_is_not_a_share_link(shared_army, client):
    assert client.get(f"/s/{shared_army.public_id}/").status_code == 404


@pytest.fixture
def request_fixture(request):
    return request.getfixturevalue
