"""Roster PDF and BattleScribe roster endpoints (the renderers and readers are other modules' work)."""
import pytest

from armybuilder.lists.models import ArmyList

from .conftest import url

pytestmark = pytest.mark.django_db


def test_the_owner_gets_the_roster_pdf(owner_client, army):
    response = owner_client.get(url(army, "roster.pdf?paper=letter&cards=false"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF")
    assert response["Content-Disposition"] == 'attachment; filename="Panzers-letter.pdf"'


def test_a_client_may_ask_for_pdf_in_accept_and_still_gets_json_errors(owner_client, other_client, army):
    ok = owner_client.get(url(army, "roster.pdf"), HTTP_ACCEPT="application/pdf")
    missing = other_client.get(url(army, "roster.pdf"), HTTP_ACCEPT="application/pdf")
    assert ok.status_code == 200 and ok.content.startswith(b"%PDF")
    assert missing.status_code == 404 and missing["Content-Type"] == "application/json"
    assert missing.json() == {"detail": "No such list.", "problems": []}


def test_an_unknown_paper_is_a_400(owner_client, army):
    response = owner_client.get(url(army, "roster.pdf?paper=a3"))
    assert response.status_code == 400 and response.json()["problems"][0]["pointer"] == "/paper"


def test_a_shared_lists_roster_is_open_to_anyone_with_the_link(anon, shared_army):
    response = anon.get(f"/api/v1/shared/{shared_army.share_token}/roster.pdf")
    assert response.status_code == 200 and response.content.startswith(b"%PDF")


def test_a_private_lists_roster_is_404_by_share_token(anon, army):
    assert anon.get(f"/api/v1/shared/{army.share_token}/roster.pdf").status_code == 404


@pytest.mark.parametrize("suffix", ["export.ros", "export.rosz"])
def test_a_list_on_a_book_not_from_battlescribe_cannot_be_a_roster(owner_client, army, suffix):
    response = owner_client.get(url(army, suffix))
    assert response.status_code == 409
    assert "not imported from BattleScribe" in response.json()["detail"]


@pytest.mark.parametrize("suffix", ["export.ros", "export.rosz", "roster.pdf"])
@pytest.mark.parametrize("who", ["other", "anonymous"])
def test_files_of_a_list_are_only_for_its_owner(other_client, anon, army, suffix, who):
    client = other_client if who == "other" else anon
    assert client.get(url(army, suffix)).status_code == (404 if who == "other" else 401)


@pytest.mark.parametrize("body", [b"", b"not a roster", b"<roster/>", b"PK\x03\x04broken zip", b"{}"])
def test_importing_something_that_is_not_a_usable_roster_is_a_400(owner_client, germany, body):
    response = owner_client.generic("POST", "/api/v1/lists/import.ros", body, content_type="application/xml")
    assert response.status_code == 400, response.content
    assert response.json()["problems"] and response.json()["problems"][0]["message"]
    assert not ArmyList.objects.exists()


def test_importing_a_roster_needs_a_signed_in_user(anon, germany):
    response = anon.generic("POST", "/api/v1/lists/import.ros", b"<roster/>", content_type="application/xml")
    assert response.status_code == 401
