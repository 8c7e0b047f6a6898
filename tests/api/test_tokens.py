"""Personal API tokens: created, rotated and revoked from a signed-in session; used by tools."""
import pytest
from rest_framework.test import APIClient

from armybuilder.api.models import ApiToken as Token

from .conftest import client_for, if_match, url

pytestmark = pytest.mark.django_db
TOKEN = "/api/v1/auth/token"


@pytest.fixture
def session(owner):
    client = APIClient()
    client.force_login(owner)
    return client


def test_without_a_token_get_says_none(session):
    assert session.get(TOKEN).json() == {"token": None, "prefix": None, "created": None, "expires": None}


def test_post_creates_a_token_that_authenticates_a_tool(session, owner, army):
    response = session.post(TOKEN)
    assert response.status_code == 201
    key = response.json()["token"]
    tool = APIClient()
    tool.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert tool.get(url(army)).status_code == 200
    shown_again = session.get(TOKEN).json()
    assert shown_again["token"] is None and shown_again["prefix"] == key[:8]


def test_post_again_rotates_and_the_old_token_stops_working(session, army):
    old = session.post(TOKEN).json()["token"]
    new = session.post(TOKEN).json()["token"]
    assert old != new
    tool = APIClient()
    tool.credentials(HTTP_AUTHORIZATION=f"Token {old}")
    response = tool.get(url(army))
    assert response.status_code == 401 and response.json()["detail"] == "Invalid token."


def test_delete_revokes_the_token(session, owner):
    session.post(TOKEN)
    assert session.delete(TOKEN).status_code == 204
    assert not Token.objects.filter(user=owner).exists()


@pytest.mark.parametrize("method", ["get", "post", "delete"])
def test_the_token_endpoint_takes_only_a_session_not_a_token_nor_nobody(owner, method):
    by_token = getattr(client_for(owner), method)(TOKEN)
    anonymous = getattr(APIClient(), method)(TOKEN)
    assert (by_token.status_code, anonymous.status_code) == (403, 403)
    assert anonymous.json()["detail"] == "Authentication credentials were not provided."
    assert Token.objects.filter(user=owner).count() == 1  # the one client_for made, untouched


def test_session_writes_need_the_csrf_token(owner, army):
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(owner)
    refused = browser.post(TOKEN)
    assert refused.status_code == 403 and refused.json()["detail"].startswith("CSRF Failed")
    renamed = browser.patch(url(army), {"name": "x"}, format="json", **if_match(army))
    assert renamed.status_code == 403
    browser.cookies["csrftoken"] = csrf_value = "a" * 32  # as a page of the site would have set it
    accepted = browser.post(TOKEN, HTTP_X_CSRFTOKEN=csrf_value)
    assert accepted.status_code == 201


def test_session_reads_work_in_the_browser(owner, army):
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(owner)
    assert browser.get(url(army)).status_code == 200
