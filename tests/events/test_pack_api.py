"""The pack through the pages and the API: organisers build it, watch it and download it; nobody else can, before
or after the reveal (404, like a missing event). The files are read back."""
import csv
import io
import zipfile
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader
from rest_framework.test import APIClient

from armybuilder.api.services import api_token_rotate
from armybuilder.services.events import services as ev
from armybuilder.services.events.models import Event

from .conftest import make_user, panzer_company

pytestmark = pytest.mark.django_db


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {api_token_rotate(user=user)[1]}")
    return client


def browser(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def approved(event, afrika, organiser):
    player = make_user("rommel")
    army = panzer_company(player, afrika, name="Secret Pack List 5521")
    submission = ev.submission_create(registration=ev.event_register(event=event, player=player), army_list=army,
                                      by=player)
    ev.submission_review(submission=submission, by=organiser, approve=True)
    other = make_user("monty")
    ev.event_register(event=event, player=other)
    return {"player": player, "other": other, "submission": submission}


def test_an_organiser_builds_polls_and_downloads_through_the_api(event, organiser, approved):
    client = api(organiser)
    base = f"/api/v1/events/{event.public_id}/pack"
    assert client.get(base).status_code == 404  # never built
    response = client.post(base, {"paper": "a4"}, format="json")
    # In-process (no broker) the job is done when POST answers: the same pack again is a 200.
    assert response.status_code in (200, 202), response.content
    assert response["Location"] == base
    body = response.json()
    assert body["job"]["kind"] == "event_pack" and body["up_to_date"] is True
    status = client.get(base).json()
    assert status["job"]["status"] == "succeeded" and status["job"]["progress"] == 100
    assert status["files"] == {"pdf": base + ".pdf", "csv": base + ".csv", "zip": base + ".zip"}
    again = client.post(base, {}, format="json")
    assert again.status_code == 200 and again.json()["job"]["id"] == body["job"]["id"]

    pdf = client.get(base + ".pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert 'filename="Desert-Cup-pack.pdf"' in pdf["Content-Disposition"]
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert approved["submission"].code in text and "rommel" in text
    rows = list(csv.DictReader(io.StringIO(client.get(base + ".csv").content.decode("utf-8-sig"))))
    assert [(r["player"], r["verification_code"]) for r in rows] == [("rommel", approved["submission"].code)]
    with zipfile.ZipFile(io.BytesIO(client.get(base + ".zip").content)) as archive:
        assert [n for n in archive.namelist() if n.endswith(".json")] == ["001-rommel-Secret-Pack-List-5521.json"]


def test_bad_input_is_a_clear_400(event, organiser, approved):
    client = api(organiser)
    base = f"/api/v1/events/{event.public_id}/pack"
    response = client.post(base, {"paper": "a3"}, format="json")
    assert response.status_code == 400 and "paper" in response.content.decode()
    response = client.post(base, {"paper": "a4", "colour": "red"}, format="json")
    assert response.status_code == 400 and "colour" in response.content.decode()


def test_nothing_approved_is_a_400_that_says_so(event, organiser):
    response = api(organiser).post(f"/api/v1/events/{event.public_id}/pack", {}, format="json")
    assert response.status_code == 400 and "No list is approved yet" in response.json()["detail"]
    page = browser(organiser).post(reverse("events:pack", args=[event.public_id]), {"paper": "a4"})
    assert page.status_code == 400 and "No list is approved yet" in page.content.decode()


def _pack_urls(event):
    e = event.public_id
    api_urls = [f"/api/v1/events/{e}/pack", f"/api/v1/events/{e}/pack.pdf", f"/api/v1/events/{e}/pack.csv",
                f"/api/v1/events/{e}/pack.zip"]
    pages = [reverse(f"events:{name}", args=[e]) for name in ("pack", "pack-pdf", "pack-csv", "pack-zip")]
    return api_urls, pages


@pytest.mark.parametrize("revealed", [False, True])
@pytest.mark.parametrize("public", [False, True])
def test_every_pack_endpoint_by_role_before_and_after_the_reveal(event, organiser, approved, afrika, revealed,
                                                                 public):
    holder = make_user("holder")  # holds the share link of the underlying list
    army = approved["submission"].army_list
    from armybuilder.lists import services as s

    s.army_list_update(army_list=army, visibility="shared")
    api(organiser).post(f"/api/v1/events/{event.public_id}/pack", {}, format="json")
    if revealed:
        past = timezone.now() - timedelta(minutes=1)
        Event.objects.filter(pk=event.pk).update(deadline=past - timedelta(minutes=1), reveal_at=past, public=public)
    else:
        Event.objects.filter(pk=event.pk).update(public=public)
    api_urls, pages = _pack_urls(event)
    roles = {"player": approved["player"], "other_player": approved["other"], "share_holder": holder,
             "anonymous": None}
    for role, user in roles.items():
        for url in api_urls:
            for method in ("get", "post") if url.endswith("/pack") else ("get",):
                response = getattr(api(user), method)(url, {}, format="json")
                expected = {401} if user is None else {404}
                assert response.status_code in expected, (role, method, url, response.status_code)
                assert b"Secret Pack List" not in response.content and b"%PDF" not in response.content[:5]
        for url in pages:
            for method in ("get", "post") if url.endswith("/pack/") else ("get",):
                response = getattr(browser(user), method)(url)
                assert response.status_code == 404, (role, method, url, response.status_code)
                assert b"Secret Pack List" not in response.content
    # The organiser, in both: every endpoint answers.
    for url in api_urls:
        assert api(organiser).get(url).status_code == 200, url
    for url in pages:
        assert browser(organiser).get(url).status_code == 200, url


def test_the_dashboard_shows_the_panel_and_the_panel_its_downloads(event, organiser, approved):
    client = browser(organiser)
    dashboard = client.get(reverse("events:dashboard", args=[event.public_id])).content.decode()
    assert reverse("events:pack", args=[event.public_id]) in dashboard
    panel = client.get(reverse("events:pack", args=[event.public_id]), HTTP_HX_REQUEST="true")
    assert panel.status_code == 200
    assert "Build the pack" in panel.content.decode() and "1 approved list" in panel.content.decode()
    built = client.post(reverse("events:pack", args=[event.public_id]), {"paper": "a4"}, HTTP_HX_REQUEST="true")
    html = built.content.decode()
    assert built.status_code == 200 and 'data-status="succeeded"' in html and "Download the PDF" in html
    assert reverse("events:pack-pdf", args=[event.public_id]) in html
    # A changed submission: the panel says the pack is out of date.
    ev.submission_review(submission=approved["submission"], by=organiser, approve=False, comment="Not this one.")
    ev.submission_create(registration=approved["submission"].registration,
                         army_list=approved["submission"].army_list, by=approved["player"])
    html = client.get(reverse("events:pack", args=[event.public_id]), HTTP_HX_REQUEST="true").content.decode()
    assert "A submission changed since this pack was built" in html


def test_the_pack_endpoints_are_in_the_openapi_schema(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    for suffix, methods in (("pack", {"get", "post"}), ("pack.pdf", {"get"}), ("pack.csv", {"get"}),
                            ("pack.zip", {"get"})):
        path = "/api/v1/events/{event_id}/" + suffix
        assert path in paths and methods <= set(paths[path]), path
    assert "application/pdf" in paths["/api/v1/events/{event_id}/pack.pdf"]["get"]["responses"]["200"]["content"]
