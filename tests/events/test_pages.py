"""The tournament pages through the test client: create, register, submit with the pack check, review, lock,
re-check, and the messages a player reads when something cannot be done."""
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from armybuilder.services.events.models import Event, Registration, Submission

from .conftest import login, make_user, panzer_company

pytestmark = pytest.mark.django_db


def _form(**over):
    now = timezone.now()
    data = {"name": "Gazala Grand Tournament", "date": (now + timedelta(days=20)).date().isoformat(),
            "place": "Club hall", "system": "", "points_limit": "100", "card_points": "10", "formation_limit": "1",
            "allowed_books": ["sample-afrika-korps", "sample-desert-rats"], "allowed_periods": "Mid-War",
            "deadline": (now + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"),
            "reveal_at": (now + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M"), "late_changes": "on"}
    data.update(over)
    return data


def test_organiser_creates_an_event_and_players_see_its_page(afrika, organiser):
    from handbooks.models import GameSystem

    client = login(organiser)
    response = client.post(reverse("events:new"), _form(system=GameSystem.objects.get(code="fow4").pk))
    event = Event.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("events:event", args=[event.public_id])
    assert event.allowed_books == ["sample-afrika-korps", "sample-desert-rats"] and event.card_points == 10
    assert event.allowed_periods == ["Mid-War"] and event.organisers.get().user == organiser
    page = client.get(response["Location"]).content.decode()
    assert "Gazala Grand Tournament" in page and "100 points plus up to 10 points of command cards" in page
    assert reverse("events:dashboard", args=[event.public_id]) in page


def test_bad_event_form_says_what_is_wrong(afrika, organiser):
    from handbooks.models import GameSystem

    client = login(organiser)
    response = client.post(reverse("events:new"), _form(system=GameSystem.objects.get(code="fow4").pk,
                                                        reveal_at="2000-01-01T00:00", points_limit="-5"))
    assert response.status_code == 400 and not Event.objects.exists()
    text = response.content.decode()
    assert "reveal cannot come before the list deadline" in text and "points limit" in text


def test_anonymous_cannot_create(db):
    response = Client().get(reverse("events:new"))
    assert response.status_code == 302 and reverse("web:login") in response["Location"]


def test_register_submit_shows_the_formation_error_and_its_fix(event, afrika):
    player = make_user("rommel")
    client = login(player)
    response = client.post(reverse("events:register", args=[event.public_id]))
    assert response.status_code == 302 and Registration.objects.filter(event=event, player=player).exists()
    army = panzer_company(player, afrika, name="Two companies", companies=2)
    check = client.get(reverse("events:submit", args=[event.public_id]), {"army_list": army.public_id},
                       HTTP_HX_REQUEST="true")
    text = check.content.decode()
    assert check.status_code == 200 and 'id="pack-check"' in text and "<html" not in text
    assert "fields 2 formations; the event allows at most 1" in text and "Fix:</strong> Remove 1 formation" in text
    response = client.post(reverse("events:submit", args=[event.public_id]), {"army_list": army.public_id})
    submission = Submission.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("events:submission",
                                                                           args=[submission.public_id])
    page = client.get(response["Location"]).content.decode()
    assert "Two companies" in page and "Remove 1 formation" in page and submission.code in page


def test_someone_elses_list_cannot_be_submitted(event, afrika):
    player, other = make_user("rommel"), make_user("monty")
    client = login(player)
    client.post(reverse("events:register", args=[event.public_id]))
    theirs = panzer_company(other, afrika)
    response = client.post(reverse("events:submit", args=[event.public_id]), {"army_list": theirs.public_id})
    assert response.status_code == 400 and "not one of your lists" in response.content.decode()
    assert not Submission.objects.exists()


def test_late_submission_is_refused_with_a_clear_message(event, afrika):
    player = make_user("rommel")
    client = login(player)
    client.post(reverse("events:register", args=[event.public_id]))
    army = panzer_company(player, afrika)
    Event.objects.filter(pk=event.pk).update(deadline=timezone.now() - timedelta(minutes=5))
    response = client.post(reverse("events:submit", args=[event.public_id]), {"army_list": army.public_id})
    assert response.status_code == 400 and "submissions are closed" in response.content.decode()
    organiser = login(event.created_by)
    registration = Registration.objects.get()
    organiser.post(reverse("events:reopen", args=[event.public_id, registration.pk]))
    response = client.post(reverse("events:submit", args=[event.public_id]), {"army_list": army.public_id})
    assert response.status_code == 302 and Submission.objects.get().reopened


def test_dashboard_review_lock_and_recheck(event, afrika):
    players = [make_user(n) for n in ("anna", "bert")]
    for i, player in enumerate(players):
        client = login(player)
        client.post(reverse("events:register", args=[event.public_id]))
        army = panzer_company(player, afrika, name=f"List of {player.username}", companies=i + 1)
        client.post(reverse("events:submit", args=[event.public_id]), {"army_list": army.public_id})
    organiser = login(event.created_by)
    url = reverse("events:dashboard", args=[event.public_id])
    page = organiser.get(url).content.decode()
    assert "List of anna" in page and "List of bert" in page and "1 error" in page
    bert = Submission.objects.get(registration__player__username="bert")
    response = organiser.post(reverse("events:review", args=[event.public_id, bert.public_id]),
                              {"decision": "reject", "comment": "Only one formation, please."})
    assert response.status_code == 302
    bert.refresh_from_db()
    assert bert.status == "rejected" and bert.comment == "Only one formation, please."
    player_page = login(players[1]).get(reverse("events:event", args=[event.public_id])).content.decode()
    assert "Only one formation, please." in player_page and "Rejected" in player_page
    Event.objects.filter(pk=event.pk).update(formation_limit=2)
    page = organiser.post(reverse("events:recheck", args=[event.public_id])).content.decode()
    assert "1 list changed verdict" in page and "bert</strong>: had 1 error, now legal" in page
    anna = Submission.objects.get(registration__player__username="anna")
    organiser.post(reverse("events:review", args=[event.public_id, anna.public_id]), {"decision": "approve"})
    page = organiser.post(reverse("events:lock", args=[event.public_id]), follow=True).content.decode()
    assert "1 approved list locked" in page
    # The approved list is locked; bert's rejected one keeps its verdict and its comment.
    assert dict(Submission.objects.values_list("registration__player__username", "status")) == {
        "anna": "locked", "bert": "rejected"}
    response = login(players[0]).post(reverse("events:submit", args=[event.public_id]),
                                      {"army_list": Submission.objects.first().list_public_id})
    assert response.status_code == 400 and "locked" in response.content.decode()


def test_players_cannot_reach_the_dashboard_or_review(event, afrika):
    player = make_user("rommel")
    client = login(player)
    client.post(reverse("events:register", args=[event.public_id]))
    army = panzer_company(player, afrika)
    client.post(reverse("events:submit", args=[event.public_id]), {"army_list": army.public_id})
    submission = Submission.objects.get()
    for url in (reverse("events:dashboard", args=[event.public_id]), reverse("events:edit", args=[event.public_id])):
        assert client.get(url).status_code == 404
    response = client.post(reverse("events:review", args=[event.public_id, submission.public_id]),
                           {"decision": "approve"})
    assert response.status_code == 404
    submission.refresh_from_db()
    assert submission.status == "submitted"


def test_dashboard_escapes_what_players_type(event, afrika):
    player = make_user("<b>evil</b>")
    client = login(player)
    client.post(reverse("events:register", args=[event.public_id]))
    army = panzer_company(player, afrika, name='<script>alert("x")</script>')
    client.post(reverse("events:submit", args=[event.public_id]), {"army_list": army.public_id})
    organiser = login(event.created_by)
    submission = Submission.objects.get()
    organiser.post(reverse("events:review", args=[event.public_id, submission.public_id]),
                   {"decision": "reject", "comment": "<img src=x onerror=alert(1)>"})
    text = organiser.get(reverse("events:dashboard", args=[event.public_id])).content.decode()
    assert "<script>alert" not in text and "<img src=x" not in text and "<b>evil</b>" not in text
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in text and "&lt;b&gt;evil&lt;/b&gt;" in text


def test_organiser_edits_the_pack_and_adds_a_co_organiser(event, afrika):
    organiser = login(event.created_by)
    make_user("second")
    url = reverse("events:edit", args=[event.public_id])
    form = organiser.get(url)
    assert form.status_code == 200 and 'value="Desert Cup"' in form.content.decode()
    data = _form(system=event.system_id, name="Desert Cup II", points_limit="75", formation_limit="2")
    response = organiser.post(url, data)
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.name, event.points_limit, event.formation_limit) == ("Desert Cup II", 75, 2)
    response = organiser.post(reverse("events:organiser-add", args=[event.public_id]), {"username": "second"})
    assert response.status_code == 302 and event.organisers.filter(user__username="second").exists()
    page = organiser.post(reverse("events:organiser-add", args=[event.public_id]), {"username": "nobody"},
                          follow=True).content.decode()
    assert "There is no account &#x27;nobody&#x27;." in page or "There is no account 'nobody'." in page
    second = login(event.organisers.get(user__username="second").user)
    assert second.get(reverse("events:dashboard", args=[event.public_id])).status_code == 200
    other = event.system.__class__.objects.create(code="other-game", name="Another game")
    other_system = organiser.post(url, _form(system=other.pk))
    assert other_system.status_code == 400 and "cannot change" in other_system.content.decode()
