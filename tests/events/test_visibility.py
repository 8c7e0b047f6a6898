"""Who sees a submission, through every page, API endpoint and export, before and after the reveal.

Roles: an organiser, the player, another registered player, an anonymous visitor, and someone holding the
share link of the underlying list (signed in, not registered). The list's name and its notes are the markers:
before the reveal they must appear nowhere for anyone but the player and the organisers; after it, to the
registered players, and to everyone when the event is public.
"""
import contextlib
import io
import json
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from armybuilder.api.services import api_token_rotate
from armybuilder.lists import services as s
from armybuilder.services.events import services as ev
from armybuilder.services.events.models import Event

from .conftest import make_user, panzer_company

pytestmark = pytest.mark.django_db
SECRET = "Zebra Secret 9981"
NOTES = "Private notes 4417"
ROLES = ("organiser", "player", "other_player", "anonymous", "share_holder")


def _text(response) -> str:
    body = response.content
    if "pdf" in response.get("Content-Type", ""):
        from pypdf import PdfReader

        return " ".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(body)).pages)
    text = body.decode("utf-8", "replace")
    if "json" in response.get("Content-Type", ""):
        with contextlib.suppress(ValueError):
            text += json.dumps(json.loads(text), ensure_ascii=False)
    return text


@pytest.fixture
def world(event, afrika):
    player, other, holder = make_user("rommel"), make_user("monty"), make_user("holder")
    army = panzer_company(player, afrika, name=SECRET)
    s.army_list_update(army_list=army, notes=NOTES, visibility="shared")
    army.refresh_from_db()
    submission = ev.submission_create(registration=ev.event_register(event=event, player=player), army_list=army,
                                      by=player)
    ev.event_register(event=event, player=other)
    users = {"organiser": event.created_by, "player": player, "other_player": other, "share_holder": holder}
    clients = {"anonymous": Client()}
    for role, user in users.items():
        clients[role] = Client()
        clients[role].force_login(user)
    return {"event": event, "submission": submission, "army": army, "clients": clients, "users": users}


def _urls(event, submission):
    e, sub = event.public_id, submission.public_id
    pages = [reverse("events:index"), reverse("events:event", args=[e]), reverse("events:submit", args=[e]),
             reverse("events:dashboard", args=[e]), reverse("events:edit", args=[e])]
    api = ["/api/v1/events/", f"/api/v1/events/{e}/", f"/api/v1/events/{e}/registrations",
           f"/api/v1/events/{e}/submissions"]
    of_submission = {  # url -> the status a viewer who may see it gets
        reverse("events:submission", args=[sub]): 200,
        reverse("events:submission-json", args=[sub]): 200,
        reverse("events:submission-pdf", args=[sub]): 200,
        reverse("events:submission-ros", args=[sub]): 400,  # a sample book has no BattleScribe form
        f"/api/v1/events/submissions/{sub}/": 200,
        f"/api/v1/events/submissions/{sub}/export.json": 200,
        f"/api/v1/events/submissions/{sub}/roster.pdf": 200,
        f"/api/v1/events/submissions/{sub}/export.ros": 409,
    }
    return pages + api, of_submission


def _may_see(role: str, revealed: bool, public: bool) -> bool:
    if role in ("organiser", "player"):
        return True
    if not revealed:
        return False
    return public or role == "other_player"


@pytest.mark.parametrize("public", [False, True], ids=["players-only", "public"])
@pytest.mark.parametrize("revealed", [False, True], ids=["before-reveal", "after-reveal"])
def test_every_way_to_a_submission_by_role(world, revealed, public):
    event = world["event"]
    if revealed:
        now = timezone.now()
        Event.objects.filter(pk=event.pk).update(deadline=now - timedelta(hours=2), reveal_at=now - timedelta(hours=1))
    Event.objects.filter(pk=event.pk).update(public=public)
    event.refresh_from_db()
    general, of_submission = _urls(event, world["submission"])
    problems, saw = [], set()
    for role in ROLES:
        client = world["clients"][role]
        allowed = _may_see(role, revealed, public)
        for url in general:
            response = client.get(url)
            if response.status_code >= 500:
                problems.append(f"{role} {url} -> {response.status_code}")
            text = _text(response) if response.status_code == 200 else ""
            if (SECRET in text or NOTES in text) and not allowed:
                problems.append(f"{role} sees the list at {url}")
        for url, status in of_submission.items():
            response = client.get(url)
            expected = status if allowed else 404
            if response.status_code != expected:
                problems.append(f"{role} {url} -> {response.status_code}, expected {expected}")
            text = _text(response)
            if SECRET in text and allowed:
                saw.add((role, url))
            if (SECRET in text or NOTES in text) and not allowed:
                problems.append(f"{role} sees the list at {url}")
    assert not problems, "\n".join(problems)
    # Those who may see it do see it, by name, on the page, the JSON files and the PDFs.
    seen_by = {role for role, _url in saw}
    assert seen_by == {r for r in ROLES if _may_see(r, revealed, public)}
    assert all(len([u for r, u in saw if r == role]) == 6 for role in seen_by), sorted(saw)


def test_share_link_does_not_open_the_submission(world):
    """The share link shows the list as it is now (the owner shared it), never the event's snapshot."""
    client = world["clients"]["share_holder"]
    shared = client.get(reverse("web:shared", args=[world["army"].share_token]))
    assert shared.status_code == 200 and world["event"].name not in shared.content.decode()
    assert world["submission"].code not in shared.content.decode()
    assert client.get(reverse("events:submission", args=[world["submission"].public_id])).status_code == 404


def test_player_names_are_public_lists_are_not(world):
    page = world["clients"]["anonymous"].get(reverse("events:event", args=[world["event"].public_id]))
    text = page.content.decode()
    assert "rommel" in text and "monty" in text and SECRET not in text
    data = world["clients"]["anonymous"].get(f"/api/v1/events/{world['event'].public_id}/registrations").json()
    assert [(r["player"], r["status"], r["current"]) for r in data] == [("monty", None, None), ("rommel", None, None)]


def test_api_writes_are_for_organisers(world):
    event, submission = world["event"], world["submission"]
    for role in ("player", "other_player", "share_holder"):
        client = world["clients"][role]
        assert client.post(f"/api/v1/events/{event.public_id}/lock", content_type="application/json").status_code == 404
        assert client.patch(f"/api/v1/events/{event.public_id}/", {"name": "Taken"},
                            content_type="application/json").status_code == 404
        response = client.post(f"/api/v1/events/submissions/{submission.public_id}/review",
                               {"decision": "approve"}, content_type="application/json")
        assert response.status_code == (403 if role == "player" else 404)
    assert world["clients"]["anonymous"].post(f"/api/v1/events/{event.public_id}/lock").status_code in (401, 403)
    submission.refresh_from_db()
    event.refresh_from_db()
    assert submission.status == "submitted" and event.name == "Desert Cup"


def test_api_with_a_token_follows_the_same_rules(world):
    _token, key = api_token_rotate(user=world["users"]["other_player"])
    client = Client(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get(f"/api/v1/events/submissions/{world['submission'].public_id}/").status_code == 404
    organiser_key = api_token_rotate(user=world["users"]["organiser"])[1]
    client = Client(HTTP_AUTHORIZATION=f"Token {organiser_key}")
    response = client.get(f"/api/v1/events/submissions/{world['submission'].public_id}/")
    assert response.status_code == 200 and response.json()["name"] == SECRET
