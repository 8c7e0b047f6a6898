"""Regression tests for accounts (issue 15): log-in was not throttled; password reset, account deletion and
a chosen display name were missing; the shared page showed the owner's username."""
import re

import pytest
from django.core import mail
from django.test import Client

from armybuilder.lists import services as list_services
from armybuilder.lists.models import ArmyList
from armybuilder.web.services import player_set_display_name

from .conftest import PASSWORD, logged_in, page_text

LOGIN = "/accounts/login/"


def _log_in(client, username, password):
    return client.post(LOGIN, {"username": username, "password": password})


@pytest.mark.django_db
def test_after_60_wrong_passwords_the_right_one_is_refused_and_the_page_says_locked_out(player, settings):
    client = Client()
    statuses = [_log_in(client, "rommel", f"wrong-{i}").status_code for i in range(60)]
    limit = settings.AXES_FAILURE_LIMIT
    assert statuses[:limit - 1] == [200] * (limit - 1)  # the form again, with "wrong password"
    assert set(statuses[limit:]) == {429}
    response = _log_in(client, "rommel", PASSWORD)
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    assert "logging in is locked for 15 minutes" in page_text(response)
    assert "reset your password" in page_text(response)


@pytest.mark.django_db
def test_a_lock_out_is_per_username_and_address_and_other_players_still_log_in(player, other_player, settings):
    client = Client()
    for i in range(settings.AXES_FAILURE_LIMIT + 1):
        _log_in(client, "rommel", f"wrong-{i}")
    assert _log_in(Client(), "monty", PASSWORD).status_code == 302


@pytest.mark.django_db
def test_a_right_password_before_the_limit_logs_in_and_resets_the_count(player, settings):
    client = Client()
    for i in range(settings.AXES_FAILURE_LIMIT - 1):
        _log_in(client, "rommel", f"wrong-{i}")
    assert _log_in(client, "rommel", PASSWORD).status_code == 302
    other = Client()
    for i in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _log_in(other, "rommel", f"wrong-again-{i}").status_code == 200


@pytest.mark.django_db
def test_password_reset_by_e_mail_with_djangos_views(player):
    client = Client()
    assert client.post("/accounts/password-reset/", {"email": "rommel@example.org"}).status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["rommel@example.org"] and "reset your password" in message.subject
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", message.body).group(1)
    response = client.get(link)  # Django swaps the token for a session key and redirects
    assert response.status_code == 302
    form_url = response["Location"]
    response = client.post(form_url, {"new_password1": "a-new-Secret-9x", "new_password2": "a-new-Secret-9x"})
    assert response.status_code == 302 and response["Location"] == "/accounts/reset/done/"
    assert _log_in(Client(), "rommel", "a-new-Secret-9x").status_code == 302
    assert "does not work" in page_text(Client().get(link))  # used once


@pytest.mark.django_db
def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(player):
    response = Client().post("/accounts/password-reset/", {"email": "nobody@example.org"})
    assert response.status_code == 302 and response["Location"] == "/accounts/password-reset/sent/"
    assert mail.outbox == []


@pytest.mark.django_db
def test_deleting_the_account_removes_the_users_lists_and_only_theirs(player, other_player, afrika):
    mine = [list_services.army_list_create(owner=player, handbook=afrika, name=f"Mine {i}") for i in range(3)]
    theirs = list_services.army_list_create(owner=other_player, handbook=afrika, name="Theirs")
    client = logged_in(player)
    refused = client.post("/accounts/delete/", {"password": "not-it"})
    assert refused.status_code == 400 and "That is not your password" in page_text(refused)
    assert ArmyList.objects.filter(owner=player).count() == 3
    response = client.post("/accounts/delete/", {"password": PASSWORD}, follow=True)
    assert "Your account and its 3 list(s) were deleted" in page_text(response)
    assert not ArmyList.objects.filter(pk__in=[a.pk for a in mine]).exists()
    assert ArmyList.objects.filter(pk=theirs.pk).exists()
    assert _log_in(Client(), "rommel", PASSWORD).status_code == 200  # no such account any more


@pytest.mark.django_db
def test_the_shared_page_shows_the_chosen_display_name_or_no_name_never_the_username(owned_list, player):
    list_services.army_list_update(army_list=owned_list, visibility="shared")
    owned_list.refresh_from_db()
    page = page_text(Client().get(f"/s/{owned_list.share_token}/"))
    assert "rommel" not in page and "shared read-only" in page
    player_set_display_name(user=player, display_name="The Desert Fox")
    page = page_text(Client().get(f"/s/{owned_list.share_token}/"))
    assert "shared read-only by The Desert Fox" in page and "rommel" not in page


@pytest.mark.django_db
def test_the_display_name_is_set_on_the_account_page(player_client, owned_list):
    response = player_client.post("/accounts/", {"form": "display_name", "display_name": "  Erwin  "})
    assert response.status_code == 302
    assert 'value="Erwin"' in player_client.get("/accounts/").content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("path", [LOGIN, "/admin/login/"])
def test_a_5000_character_username_is_a_failed_log_in_not_a_500(player, path):
    response = Client().post(path, {"username": "9" * 5000, "password": "x"})
    assert response.status_code == 200
    from axes.models import AccessAttempt

    assert all(len(a.username) <= 150 for a in AccessAttempt.objects.all())
