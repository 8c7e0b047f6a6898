"""Accounts: sign up, log in, log out; the lists a visitor built come along into the account."""
import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from armybuilder.lists.models import ArmyList
from armybuilder.web.services import army_lists_claim_for_user

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db


def start_a_list(client, book, name):
    response = client.post(reverse("web:start"), {"handbook": book.pk, "points_limit": 100, "name": name})
    assert response.status_code == 302
    return ArmyList.objects.get(name=name)


def test_signing_up_logs_in_and_claims_the_session_lists(afrika, client):
    draft = start_a_list(client, afrika, "Draft")
    response = client.post(reverse("web:signup"), {"username": "newbie", "password1": PASSWORD,
                                                   "password2": PASSWORD,
                                                   "next": reverse("web:builder", args=[draft.public_id])})
    assert response.status_code == 302
    assert response["Location"] == reverse("web:builder", args=[draft.public_id])
    draft.refresh_from_db()
    assert draft.owner.username == "newbie" and draft.session_key == ""
    assert client.get(reverse("web:builder", args=[draft.public_id])).status_code == 200


def test_logging_in_claims_the_session_lists(afrika, player, client):
    draft = start_a_list(client, afrika, "Draft")
    response = client.post(reverse("web:login"), {"username": "rommel", "password": PASSWORD})
    assert response.status_code == 302
    draft.refresh_from_db()
    assert draft.owner == player


def test_claiming_leaves_other_sessions_lists_alone(afrika, player, client):
    mine = start_a_list(client, afrika, "Mine")
    theirs = start_a_list(Client(), afrika, "Theirs")
    assert army_lists_claim_for_user(user=player, session_key=mine.session_key) == 1
    theirs.refresh_from_db()
    assert theirs.owner is None and theirs.session_key


def test_claiming_without_a_session_claims_nothing(afrika, player):
    assert army_lists_claim_for_user(user=player, session_key=None) == 0


def test_a_signup_problem_is_shown_in_the_form(client, db):
    response = client.post(reverse("web:signup"), {"username": "x", "password1": "a", "password2": "b"})
    assert response.status_code == 400
    assert "field-error" in response.content.decode()
    assert not get_user_model().objects.filter(username="x").exists()


def test_a_next_address_on_another_site_is_ignored(client, db):
    response = client.post(reverse("web:signup"), {"username": "newbie", "password1": PASSWORD,
                                                   "password2": PASSWORD, "next": "https://evil.example/"})
    assert response["Location"] == reverse("web:start")


def test_logging_out_takes_a_post_and_ends_the_session(player_client):
    assert player_client.get(reverse("web:logout")).status_code == 405
    assert player_client.post(reverse("web:logout")).status_code == 302
    assert "Log in" in player_client.get(reverse("web:start")).content.decode()


def test_the_login_page_offers_sign_up(client, db):
    html = client.get(reverse("web:login")).content.decode()
    assert 'name="username"' in html and reverse("web:signup") in html
