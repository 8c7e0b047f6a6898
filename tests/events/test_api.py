"""The events API: the same use cases and rules as the pages, with tokens made by the token service."""
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from armybuilder.api.services import api_token_rotate
from armybuilder.services.events.models import Event, Submission

from .conftest import make_user, panzer_company

pytestmark = pytest.mark.django_db


def api(user):
    _token, key = api_token_rotate(user=user)
    return Client(HTTP_AUTHORIZATION=f"Token {key}")


def test_the_whole_event_through_the_api(afrika, organiser):
    org = api(organiser)
    now = timezone.now()
    body = {"name": "API cup", "date": (now + timedelta(days=9)).date().isoformat(), "system": "fow4",
            "points_limit": 100, "formation_limit": 1, "allowed_books": ["sample-afrika-korps"],
            "deadline": (now + timedelta(days=2)).isoformat(), "reveal_at": (now + timedelta(days=3)).isoformat(),
            "late_changes": True}
    response = org.post("/api/v1/events/", body, content_type="application/json")
    assert response.status_code == 201, response.json()
    event_id = response.json()["id"]
    assert response.json()["organisers"] == ["organiser"] and response.json()["formation_limit"] == 1

    player = make_user("rommel")
    client = api(player)
    assert client.post(f"/api/v1/events/{event_id}/registrations", content_type="application/json").status_code == 201
    army = panzer_company(player, afrika, companies=2)
    response = client.post(f"/api/v1/events/{event_id}/submissions", {"list": str(army.public_id)},
                           content_type="application/json")
    assert response.status_code == 201
    data = response.json()
    assert data["legal"] is False and [e["code"] for e in data["errors"]] == ["event.formations.too_many"]
    assert data["errors"][0]["fix"].startswith("Remove 1 formation") and data["document"]["name"] == "Desert Fox"

    submission_id = data["id"]
    response = org.post(f"/api/v1/events/submissions/{submission_id}/review", {"decision": "reject"},
                        content_type="application/json")
    assert response.status_code == 400 and "Say why" in response.json()["detail"]
    response = org.post(f"/api/v1/events/submissions/{submission_id}/review",
                        {"decision": "reject", "comment": "One formation."}, content_type="application/json")
    assert response.status_code == 200 and response.json()["status"] == "rejected"
    mine = client.get(f"/api/v1/events/{event_id}/submissions").json()
    assert [(s["status"], s["comment"]) for s in mine] == [("rejected", "One formation.")]

    response = org.patch(f"/api/v1/events/{event_id}/", {"formation_limit": 2}, content_type="application/json")
    assert response.status_code == 200
    rechecked = org.post(f"/api/v1/events/{event_id}/recheck", content_type="application/json").json()
    assert [(r["player"], r["was_legal"], r["legal"], r["changed"]) for r in rechecked] == [
        ("rommel", False, True, True)]
    # Lock all locks approved lists only: the rejected one must be approved first (it is legal now).
    response = org.post(f"/api/v1/events/submissions/{submission_id}/review", {"decision": "approve"},
                        content_type="application/json")
    assert response.status_code == 200 and response.json()["status"] == "approved"
    assert org.post(f"/api/v1/events/{event_id}/lock", content_type="application/json").json() == {"locked": 1}
    response = client.post(f"/api/v1/events/{event_id}/submissions", {"list": str(army.public_id)},
                           content_type="application/json")
    assert response.status_code == 400 and "locked" in response.json()["detail"]
    registrations = org.get(f"/api/v1/events/{event_id}/registrations").json()
    assert registrations[0]["status"] == "locked" and registrations[0]["current"]["id"] == submission_id
    response = org.post(f"/api/v1/events/{event_id}/registrations/{registrations[0]['id']}/reopen",
                        content_type="application/json")
    assert response.status_code == 200 and response.json()["reopened"] is True
    assert org.delete(f"/api/v1/events/{event_id}/").status_code == 204
    assert not Event.objects.exists() and not Submission.objects.exists()


def test_bad_event_bodies_say_what_is_wrong(afrika, organiser):
    org = api(organiser)
    now = timezone.now()
    response = org.post("/api/v1/events/", {"name": "X", "date": "2026-13-40", "system": "chess",
                                            "points_limit": "100", "deadline": now.isoformat(),
                                            "reveal_at": (now - timedelta(days=1)).isoformat(), "extra": 1},
                        content_type="application/json")
    assert response.status_code == 400
    pointers = {p["pointer"] for p in response.json()["problems"]}
    assert {"/date", "/system", "/points_limit", "/extra"} <= pointers
    response = org.post("/api/v1/events/", {"name": "X", "date": "2026-12-30", "system": "fow4",
                                            "deadline": now.isoformat(),
                                            "reveal_at": (now - timedelta(days=1)).isoformat()},
                        content_type="application/json")
    assert response.status_code == 400 and "reveal time cannot be before" in response.json()["detail"]
    assert Client().post("/api/v1/events/", {}, content_type="application/json").status_code in (401, 403)


def test_someone_elses_list_is_not_found(event, afrika):
    player, other = make_user("rommel"), make_user("monty")
    client = api(player)
    client.post(f"/api/v1/events/{event.public_id}/registrations", content_type="application/json")
    response = client.post(f"/api/v1/events/{event.public_id}/submissions",
                           {"list": str(panzer_company(other, afrika).public_id)}, content_type="application/json")
    assert response.status_code == 404 and not Submission.objects.exists()


def test_the_schema_documents_the_events_api(db):
    schema = Client().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths = [p for p in schema["paths"] if p.startswith("/api/v1/events/")]
    assert {"/api/v1/events/", "/api/v1/events/{event_id}/", "/api/v1/events/{event_id}/submissions",
            "/api/v1/events/submissions/{submission_id}/review", "/api/v1/events/{event_id}/lock",
            "/api/v1/events/{event_id}/recheck", "/api/v1/events/submissions/{submission_id}/roster.pdf"} <= set(paths)


def test_api_lists_cost_the_same_queries_for_few_and_many(event, afrika):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from armybuilder.services.events import services as ev
    from tests.events.populate import populate_event

    template = panzer_company(event.created_by, afrika, name="Template")
    org = api(event.created_by)
    counts = []
    for more in (2, 6):
        populate_event(event, template, more, prefix=f"p{more}")
        for url in (f"/api/v1/events/{event.public_id}/registrations", f"/api/v1/events/{event.public_id}/submissions",
                    "/api/v1/events/"):
            with CaptureQueriesContext(connection) as captured:
                assert org.get(url).status_code == 200
            counts.append(len(captured))
        ev.event_create(user=event.created_by, system=event.system, name=f"Another {more}", date=event.date,
                        deadline=event.deadline, reveal_at=event.reveal_at)
    assert counts[:3] == counts[3:], counts
