"""Tournaments' use cases: submission is a frozen snapshot, the deadline holds, review, lock, re-check, diff."""
from datetime import timedelta

import pytest
from django.utils import timezone

from armybuilder.lists import services as s
from armybuilder.lists.selectors import army_list_document
from armybuilder.services.events import services as ev
from armybuilder.services.events.models import Registration, Submission
from armybuilder.services.printing.codes import list_code

from .conftest import make_user, panzer_company

pytestmark = pytest.mark.django_db


def test_submission_is_a_frozen_snapshot_with_the_rosters_code(event, afrika):
    player = make_user("rommel")
    army = panzer_company(player, afrika)
    registration = ev.event_register(event=event, player=player)
    submission = ev.submission_create(registration=registration, army_list=army, by=player)
    document = army_list_document(army)
    assert submission.document == document and submission.code == list_code(document)
    assert submission.list_version == army.version and submission.number == 1
    s.army_list_update(army_list=army, name="Renamed later")
    submission.refresh_from_db()
    assert submission.document["name"] == "Desert Fox"
    registration.refresh_from_db()
    assert registration.status == "submitted" and registration.current_id == submission.pk


def test_formation_limit_is_an_error_with_its_fix(event, afrika):
    player = make_user("rommel")
    army = panzer_company(player, afrika, companies=2)
    submission = ev.submission_create(registration=ev.event_register(event=event, player=player), army_list=army,
                                      by=player)
    codes = [e["code"] for e in submission.errors]
    assert "event.formations.too_many" in codes and not submission.legal
    issue = next(e for e in submission.errors if e["code"] == "event.formations.too_many")
    assert issue["pointer"] == "/formations" and issue["fix"].startswith("Remove 1 formation")
    assert issue["rule"]["system"] == "Event rules pack" and submission.formations == 2


def test_points_limit_and_card_pool(event, afrika):
    """The event judges points: a list over the event's limit is an error; the list's own limit does not count."""
    player = make_user("rommel")
    army = panzer_company(player, afrika)
    document, result = ev.event_check_list(event=event, army_list=army)
    points = result.points
    assert points > 0
    ev.event_update(event=event, user=event.created_by, points_limit=points - 1)
    _, result = ev.event_check_list(event=event, army_list=army)
    over = [e for e in result.errors if e["code"] == "event.points.over"]
    assert len(over) == 1 and "1 more than" in over[0]["message"]
    s.army_list_update(army_list=army, points_limit=points - 1)  # the list's own limit is not judged twice
    _, result = ev.event_check_list(event=event, army_list=army)
    assert [e["code"] for e in result.errors if "points" in e["code"]] == ["event.points.over"]


def test_allowed_books_and_nations(event, afrika):
    player = make_user("rommel")
    army = panzer_company(player, afrika)
    _, result = ev.event_check_list(event=event, army_list=army)
    assert result.legal
    ev.event_update(event=event, user=event.created_by, allowed_books=["sample-desert-rats"],
                    allowed_nations=["britain"])
    _, result = ev.event_check_list(event=event, army_list=army)
    assert sorted(e["code"] for e in result.errors) == ["event.book.not_allowed", "event.nation.not_allowed"]
    assert all(e["pointer"] == "/handbook" for e in result.errors)
    with pytest.raises(ev.EventError, match="no Flames of War .* book with the code nope"):
        ev.event_update(event=event, user=event.created_by, allowed_books=["nope"])


def test_deadline_refuses_unless_reopened(event, afrika):
    player = make_user("rommel")
    army = panzer_company(player, afrika)
    registration = ev.event_register(event=event, player=player)
    late = event.deadline + timedelta(minutes=1)
    with pytest.raises(ev.EventError, match="deadline was .* submissions are closed"):
        ev.submission_create(registration=registration, army_list=army, by=player, now=late)
    assert not Submission.objects.exists()
    ev.registration_reopen(registration=registration, by=event.created_by)
    submission = ev.submission_create(registration=Registration.objects.get(pk=registration.pk), army_list=army,
                                      by=player, now=late)
    assert submission.reopened
    with pytest.raises(ev.EventError, match="deadline"):  # reopened for one submission
        ev.submission_create(registration=registration, army_list=army, by=player, now=late)


def test_only_the_player_submits_their_own_list(event, afrika):
    player, other = make_user("rommel"), make_user("monty")
    registration = ev.event_register(event=event, player=player)
    with pytest.raises(ev.EventPermissionError):
        ev.submission_create(registration=registration, army_list=panzer_company(other, afrika), by=player)
    with pytest.raises(ev.EventPermissionError):
        ev.submission_create(registration=registration, army_list=panzer_company(player, afrika), by=other)


def test_reject_approve_lock_and_history_diff(event, afrika):
    player = make_user("rommel")
    army = panzer_company(player, afrika, companies=2)
    registration = ev.event_register(event=event, player=player)
    first = ev.submission_create(registration=registration, army_list=army, by=player)
    with pytest.raises(ev.EventError, match="Say why"):
        ev.submission_review(submission=first, by=event.created_by, approve=False)
    with pytest.raises(ev.EventPermissionError):
        ev.submission_review(submission=first, by=player, approve=True)
    ev.submission_review(submission=first, by=event.created_by, approve=False, comment="One formation only.")
    s.army_list_remove_formation(army_list=army, list_formation=army.formations.order_by("order").last())
    army.refresh_from_db()
    second = ev.submission_create(registration=registration, army_list=army, by=player)
    assert second.legal and second.number == 2
    first.refresh_from_db()
    assert first.status == "rejected" and first.comment == "One formation only."  # history kept
    diff = ev.submission_diff(first, second)
    # Hand count from the book: the second company's HQ (2 tanks, 8 points) and its two platoons (3 tanks,
    # 12 points each, short guns free) went out, nothing came in.
    assert diff["in"] == [] and sorted(u["name"] for u in diff["out"]) == sorted(
        u["name"] for u in first.units[len(second.units):])
    assert sorted(u["points"] for u in diff["out"]) == [8, 12, 12] and diff["points_delta"] == -32
    with pytest.raises(ev.EventError, match="latest"):
        ev.submission_review(submission=first, by=event.created_by, approve=True)
    ev.submission_review(submission=second, by=event.created_by, approve=True)
    assert ev.event_lock_all(event=event, by=event.created_by) == 1
    second.refresh_from_db()
    assert second.status == "locked"
    with pytest.raises(ev.EventError, match="locked"):
        ev.submission_create(registration=registration, army_list=army, by=player)


def test_lock_all_locks_only_approved_lists_and_a_rejected_one_stays_rejected(event, afrika):
    players = [make_user(n) for n in ("carl", "dora", "emil")]
    subs = []
    for player in players:
        army = panzer_company(player, afrika)
        subs.append(ev.submission_create(registration=ev.event_register(event=event, player=player), army_list=army,
                                         by=player))
    ev.submission_review(submission=subs[0], by=event.created_by, approve=True)
    ev.submission_review(submission=subs[1], by=event.created_by, approve=False, comment="Too many formations.")
    assert ev.event_lock_all(event=event, by=event.created_by) == 1
    for sub in subs:
        sub.refresh_from_db()
    assert [sub.status for sub in subs] == ["locked", "rejected", "submitted"]
    assert subs[1].comment == "Too many formations."
    with pytest.raises(ev.EventError, match="locked"):  # the registrations are closed all the same
        ev.submission_create(registration=subs[2].registration, army_list=panzer_company(players[2], afrika),
                             by=players[2])


def test_recheck_shows_which_lists_changed_verdict(event, afrika):
    players = [make_user(n) for n in ("anna", "bert")]
    small = panzer_company(players[0], afrika)
    big = panzer_company(players[1], afrika)
    for player, army in zip(players, [small, big], strict=False):
        ev.submission_create(registration=ev.event_register(event=event, player=player), army_list=army, by=player)
    points = Submission.objects.get(registration__player=players[0]).points
    # A tighter pack stands in for a data update: the first list still fits, the second (same) one too …
    ev.event_update(event=event, user=event.created_by, points_limit=points - 1)
    results = ev.event_recheck_all(event=event, by=event.created_by)
    assert [(r.player, r.was_legal, r.legal, r.changed) for r in results] == [
        ("anna", True, False, True), ("bert", True, False, True)]
    again = ev.event_recheck_all(event=event, by=event.created_by)
    assert not any(r.changed for r in again)
    assert all(not s.legal and not s.verdict_changed for s in Submission.objects.all())


def test_event_times_and_registration_rules(event, organiser):
    with pytest.raises(ev.EventError, match="reveal time cannot be before"):
        ev.event_update(event=event, user=organiser, reveal_at=event.deadline - timedelta(hours=1))
    player = make_user("rommel")
    ev.event_register(event=event, player=player)
    with pytest.raises(ev.EventError, match="already registered"):
        ev.event_register(event=event, player=player)
    with pytest.raises(ev.EventError, match="Registration closed"):
        ev.event_register(event=event, player=make_user("late"), now=event.deadline + timedelta(seconds=1))
    with pytest.raises(ev.EventError, match="no account"):
        ev.event_add_organiser(event=event, by=organiser, username="ghost")
    ev.event_add_organiser(event=event, by=organiser, username="rommel")
    assert ev.is_organiser(event, player)
    with pytest.raises(ev.EventPermissionError):
        ev.event_add_organiser(event=event, by=make_user("x"), username="rommel")
    assert timezone.now() < event.deadline


@pytest.mark.parametrize("system, book, other_book", [
    ("fow4", "sample-afrika-korps", "sample-desert-rats"), ("oww2", "sample-oww2-germany", "sample-oww2-usa"),
    ("hof", "sample-hof-germany", "sample-hof-usa"), ("waf", None, None)])
def test_the_event_works_for_every_system(sample_data, system, book, other_book):
    """The same event, submission and pack check for each of the four systems: each book's first formation,
    twice, against a one-formation limit and a pack that allows only another book."""
    from datetime import date

    from handbooks.models import Formation, GameSystem, Handbook

    game = GameSystem.objects.get(code=system)
    books = list(Handbook.objects.filter(system=game, is_current=True).order_by("code"))
    chosen = next(b for b in books if b.code == book) if book else books[0]
    other = next(b for b in books if b.code == other_book) if other_book else books[1]
    organiser, player = make_user("org"), make_user("player")
    now = timezone.now()
    event = ev.event_create(user=organiser, system=game, name=f"{game.name} cup", date=date.today(),
                            deadline=now + timedelta(days=1), reveal_at=now + timedelta(days=2), formation_limit=1,
                            allowed_books=[other.code])
    army = s.army_list_create(owner=player, handbook=chosen, name="Two of the first")
    formation = Formation.objects.filter(handbook=chosen).order_by("pk").first()
    for _ in range(2):
        s.army_list_add_formation(army_list=army, formation_code=formation.code)
    army.refresh_from_db()
    submission = ev.submission_create(registration=ev.event_register(event=event, player=player), army_list=army,
                                      by=player)
    codes = [e["code"] for e in submission.errors]
    assert "event.formations.too_many" in codes and "event.book.not_allowed" in codes
    assert submission.formations == 2 and submission.code == list_code(submission.document)
    system_codes = [c for c in codes if not c.startswith("event.")]
    assert system_codes  # the system's own rules ran too (two bare formations are not legal in any system)
    assert all(set(e) >= {"code", "severity", "message", "pointer", "rule", "fix"} for e in submission.errors)
