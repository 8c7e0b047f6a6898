"""Writes for tournaments: create and edit an event, organisers, registration, submission, review, lock, re-check.

Every use case raises ``EventError`` with a sentence a person understands when it cannot be done, and writes
nothing then. Who may do what is decided here too (``EventPermissionError``), so the pages and the API
cannot disagree.
"""
from collections import Counter
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from armybuilder.lists.listjson import resolve_document
from armybuilder.lists.listjson.document import ListDocumentError
from armybuilder.lists.models import ArmyList
from armybuilder.lists.selectors import DbCatalog, army_list_document
from armybuilder.rules import check
from armybuilder.rules.event_pack import PackSettings, check_with_pack
from armybuilder.rules.generic import card_points
from armybuilder.rules.issue_codes import EVENT_LIST_UNREADABLE
from armybuilder.rules.report import ERROR
from armybuilder.services.printing.codes import list_code
from armybuilder.services.printing.context import pointer_labels
from handbooks.models import GameSystem, Handbook

from .models import Event, EventOrganiser, Registration, Submission

EDITABLE = ("name", "date", "place", "allowed_books", "allowed_nations", "allowed_periods", "allowed_points_sets",
            "current_revision_only", "points_limit", "formation_limit", "card_points", "deadline", "reveal_at",
            "late_changes", "public")
CODE_LIST_FIELDS = ("allowed_books", "allowed_nations", "allowed_periods", "allowed_points_sets")
MAX_CODES = 50
MAX_COMMENT = 2000
# Where the pack's issues point, in words (the places inside a list are named by pointer_labels).
PACK_PLACES = {"/formations": "The force's formations", "/points_limit": "The force's points",
               "/handbook": "The force's book"}


class EventError(Exception):
    """The operation cannot be done; the message says why."""


class EventPermissionError(EventError):
    """The user may not do this (pages answer 404 or 403, the API 403/404)."""


def is_organiser(event: Event, user) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return EventOrganiser.objects.filter(event=event, user=user).exists()


def _require_organiser(event: Event, user) -> None:
    if not is_organiser(event, user):
        raise EventPermissionError("Only the event's organisers may do that.")


def _touch(event: Event, now=None) -> None:
    now = now or timezone.now()
    Event.objects.filter(pk=event.pk).update(submissions_changed_at=now)
    event.submissions_changed_at = now


def _clean(fields: dict, *, system: GameSystem) -> dict:
    unknown = set(fields) - set(EDITABLE)
    if unknown:
        raise EventError(f"An event has no field {', '.join(sorted(unknown))}.")
    if "name" in fields:
        fields["name"] = (fields["name"] or "").strip()[:120]
        if not fields["name"]:
            raise EventError("An event needs a name.")
    if "place" in fields:
        fields["place"] = (fields["place"] or "").strip()[:200]
    for name in CODE_LIST_FIELDS:
        if name in fields:
            values = fields[name] or []
            if isinstance(values, str):
                values = [v for v in (part.strip() for part in values.replace("\n", ",").split(",")) if v]
            if not isinstance(values, (list, tuple)) or not all(isinstance(v, str) for v in values):
                raise EventError(f"{name.replace('_', ' ')}: a list of names or codes.")
            values = list(dict.fromkeys(v.strip()[:120] for v in values if v.strip()))
            if len(values) > MAX_CODES:
                raise EventError(f"{name.replace('_', ' ')}: at most {MAX_CODES} entries.")
            fields[name] = values
    if fields.get("allowed_books"):
        known = set(Handbook.objects.filter(system=system, code__in=fields["allowed_books"])
                    .values_list("code", flat=True))
        missing = [c for c in fields["allowed_books"] if c not in known]
        if missing:
            raise EventError(f"allowed books: no {system.name} book with the code {', '.join(missing)}.")
    if fields.get("allowed_nations"):
        known = set(system.nations.filter(code__in=fields["allowed_nations"]).values_list("code", flat=True))
        missing = [c for c in fields["allowed_nations"] if c not in known]
        if missing:
            raise EventError(f"allowed nations: {system.name} has no nation {', '.join(missing)}.")
    for name in ("points_limit", "formation_limit", "card_points"):
        value = fields.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0
                                  or value > 100000):
            raise EventError(f"{name.replace('_', ' ')}: a whole number from 0 to 100000, or empty.")
    if fields.get("card_points") and fields.get("points_limit") is None and "points_limit" in fields:
        raise EventError("card points: a pool for command cards needs a points limit too.")
    return fields


def _check_times(event: Event) -> None:
    if event.deadline is None or event.reveal_at is None or event.date is None:
        raise EventError("An event needs a date, a list deadline and a reveal time.")
    if event.reveal_at < event.deadline:
        raise EventError("The reveal time cannot be before the list deadline.")


@transaction.atomic
def event_create(*, user, system: GameSystem, name: str, date, deadline, reveal_at, **fields) -> Event:
    if user is None or not user.is_authenticated:
        raise EventPermissionError("Sign in to create an event.")
    fields = _clean({"name": name, **fields}, system=system)
    event = Event(system=system, date=date, deadline=deadline, reveal_at=reveal_at, created_by=user, **fields)
    _check_times(event)
    event.save()
    EventOrganiser.objects.create(event=event, user=user, added_by=user)
    return event


@transaction.atomic
def event_update(*, event: Event, user, **fields) -> Event:
    _require_organiser(event, user)
    fields = _clean(dict(fields), system=event.system)
    for key, value in fields.items():
        setattr(event, key, value)
    if event.card_points and event.points_limit is None:
        raise EventError("card points: a pool for command cards needs a points limit too.")
    _check_times(event)
    event.save()
    return event


@transaction.atomic
def event_add_organiser(*, event: Event, by, username: str) -> EventOrganiser:
    _require_organiser(event, by)
    username = (username or "").strip()[:150]
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise EventError(f"There is no account '{username}'.")
    if EventOrganiser.objects.filter(event=event, user=user).exists():
        raise EventError(f"{user.username} already organises this event.")
    return EventOrganiser.objects.create(event=event, user=user, added_by=by)


@transaction.atomic
def event_register(*, event: Event, player, now=None) -> Registration:
    if player is None or not player.is_authenticated:
        raise EventPermissionError("Sign in to register for an event.")
    now = now or timezone.now()
    if Registration.objects.filter(event=event, player=player).exists():
        raise EventError("You are already registered for this event.")
    if now > event.deadline:
        raise EventError(f"Registration closed at the list deadline ({event.deadline:%Y-%m-%d %H:%M} UTC).")
    return Registration.objects.create(event=event, player=player)


# -- the check -----------------------------------------------------------------------------------------------------

def event_pack(event: Event, current_revisions: dict | None = None) -> PackSettings:
    """The event's rules pack for the engine. ``current_revisions`` (code -> revision) may be passed in when
    many submissions are checked at once, so it is read once."""
    if event.current_revision_only and current_revisions is None:
        current_revisions = current_revisions_of(event)
    return PackSettings(
        event=event.name, points_limit=event.points_limit, formation_limit=event.formation_limit,
        card_points=event.card_points, books=frozenset(event.allowed_books), nations=frozenset(event.allowed_nations),
        periods=frozenset(event.allowed_periods), points_sets=frozenset(event.allowed_points_sets),
        current_revisions=current_revisions if event.current_revision_only else {})


def current_revisions_of(event: Event) -> dict:
    return dict(Handbook.objects.filter(system=event.system, is_current=True).values_list("code", "revision"))


@dataclass
class CheckResult:
    errors: list
    warnings: list
    points: int
    card_points: int
    formations: int
    units: list

    @property
    def legal(self) -> bool:
        return not self.errors


def _unreadable(problems) -> CheckResult:
    code = EVENT_LIST_UNREADABLE
    errors = [{**code.issue(p.pointer, fix=code.fix(), problem=str(p)).as_dict(), "where": ""} for p in problems[:20]]
    return CheckResult(errors, [], 0, 0, 0, [])


def check_document(document: dict, pack: PackSettings) -> CheckResult:
    """The system's rules and the event's pack on a list document (as stored, so it can be run again later)."""
    try:
        force = resolve_document(document, DbCatalog())
    except ListDocumentError as exc:
        return _unreadable(exc.problems)
    report = check_with_pack(force, pack, check)
    labels = {**PACK_PLACES, **pointer_labels(force)}
    issues = []
    for issue in report.issues:
        data = issue.as_dict()
        data["where"] = labels.get(issue.pointer, "")
        issues.append(data)
    units = []
    for unit in force.all_units():
        formation = (force.formations[unit.formation_index].formation.name
                     if unit.formation_index is not None else "Support")
        name = unit.unit.name + (f" ({unit.size.label})" if unit.size else "")
        units.append({"formation": formation, "name": name, "points": report.unit_points.get(unit.pointer, 0)})
    for card in force.cards:
        units.append({"formation": "Command cards", "name": card.card.name,
                      "points": _card_points(card)})
    return CheckResult(errors=[i for i in issues if i["severity"] == ERROR],
                       warnings=[i for i in issues if i["severity"] != ERROR],
                       points=report.total_points, card_points=report.card_points,
                       formations=len([f for f in force.formations if f.parent_index is None]), units=units)


def _card_points(card) -> int:
    return card_points(card)


def event_check_list(*, event: Event, army_list: ArmyList) -> tuple[dict, CheckResult]:
    """A list's document and what the event makes of it (no write): the submit page shows it first."""
    if army_list.system_id != event.system_id:
        raise EventError(f"'{army_list.name}' is a {army_list.system.name} list; this event plays "
                         f"{event.system.name}.")
    document = army_list_document(army_list)
    return document, check_document(document, event_pack(event))


# -- submission ---------------------------------------------------------------------------------------------------

def _may_submit(registration: Registration, now) -> None:
    event = registration.event
    if registration.status == "locked":
        raise EventError("Your list is locked: the organisers closed submissions for this event.")
    if now > event.deadline and not registration.reopened:
        raise EventError(f"The list deadline was {event.deadline:%Y-%m-%d %H:%M} UTC: submissions are closed. "
                         f"Ask an organiser to reopen your submission if the event allows late changes.")


@transaction.atomic
def submission_create(*, registration: Registration, army_list: ArmyList, by, now=None) -> Submission:
    """Freeze the list as it is now and hand it in. The previous submission stays as history."""
    now = now or timezone.now()
    registration = Registration.objects.select_for_update().select_related("event__system").get(pk=registration.pk)
    if by is None or by.pk != registration.player_id:
        raise EventPermissionError("Only the registered player submits their list.")
    if army_list.owner_id != registration.player_id:
        raise EventPermissionError("You can only submit one of your own lists.")
    _may_submit(registration, now)
    event = registration.event
    document, result = event_check_list(event=event, army_list=army_list)
    previous = registration.submissions.order_by("-number").only("number", "units", "points").first()
    number = (previous.number if previous else 0) + 1
    late = now > event.deadline
    submission = Submission(
        registration=registration, number=number, army_list=army_list, list_public_id=army_list.public_id,
        list_version=army_list.version, document=document, name=str(document.get("name", ""))[:120],
        code=list_code(document), points=result.points,
        card_points=result.card_points, formations=result.formations, units=result.units, errors=result.errors,
        warnings=result.warnings, legal=result.legal, checked_at=now, status="submitted", reopened=late,
        submitted_at=now)
    submission.changes = submission_diff(previous, submission)
    submission.save()
    registration.current = submission
    registration.status = "submitted"
    if late:
        registration.reopened = False  # one late submission per reopening
    registration.save(update_fields=["current", "status", "reopened"])
    _touch(event, now)
    return submission


@transaction.atomic
def submission_review(*, submission: Submission, by, approve: bool, comment: str = "", now=None) -> Submission:
    """Approve or reject the player's current submission, with a comment the player sees."""
    now = now or timezone.now()
    registration = Registration.objects.select_for_update().select_related("event").get(pk=submission.registration_id)
    _require_organiser(registration.event, by)
    if registration.current_id != submission.pk:
        raise EventError("This is not the player's latest submission; review the latest one.")
    if registration.status == "locked":
        raise EventError("This submission is locked.")
    comment = (comment or "").strip()
    if len(comment) > MAX_COMMENT:
        raise EventError(f"The comment is {len(comment)} characters long; at most {MAX_COMMENT}.")
    if not approve and not comment:
        raise EventError("Say why the list is rejected: the player reads the comment to fix it.")
    status = "approved" if approve else "rejected"
    Submission.objects.filter(pk=submission.pk).update(status=status, comment=comment, reviewed_by=by,
                                                       reviewed_at=now)
    submission.status, submission.comment, submission.reviewed_by, submission.reviewed_at = status, comment, by, now
    registration.status = status
    registration.save(update_fields=["status"])
    _touch(registration.event, now)
    return submission


@transaction.atomic
def registration_reopen(*, registration: Registration, by) -> Registration:
    """Let one player submit (once) after the deadline, or again after a lock."""
    event = registration.event
    _require_organiser(event, by)
    if not event.late_changes:
        raise EventError("This event does not allow late changes: edit the event to allow them first.")
    registration.reopened = True
    fields = ["reopened"]
    if registration.status == "locked":
        registration.status = registration.current.status if registration.current_id else "none"
        if registration.status == "locked":
            registration.status = "approved"
        fields.append("status")
    registration.save(update_fields=fields)
    return registration


@transaction.atomic
def event_lock_all(*, event: Event, by, now=None) -> int:
    """Lock every player's approved submission and close every registration: nothing more can come in.
    A rejected or unreviewed list keeps its status, so it is never printed in the pack as if approved.
    Returns how many submissions were locked."""
    _require_organiser(event, by)
    now = now or timezone.now()
    current = Registration.objects.filter(event=event, current__isnull=False).values_list("current_id", flat=True)
    locked = Submission.objects.filter(pk__in=list(current), status="approved").update(status="locked")
    Registration.objects.filter(event=event).update(status="locked", reopened=False)
    _touch(event, now)
    return locked


@dataclass(frozen=True)
class Recheck:
    player: str
    submission: Submission
    was_legal: bool
    legal: bool
    errors_before: int
    errors_after: int

    @property
    def changed(self) -> bool:
        return self.was_legal != self.legal


@transaction.atomic
def event_recheck_all(*, event: Event, by, now=None) -> list[Recheck]:
    """Check every current submission again against today's data and pack; say whose verdict changed."""
    _require_organiser(event, by)
    now = now or timezone.now()
    revisions = current_revisions_of(event) if event.current_revision_only else {}
    pack = event_pack(event, revisions)
    results = []
    submissions = (Submission.objects.filter(pk__in=Registration.objects.filter(event=event, current__isnull=False)
                                             .values("current_id"))
                   .select_related("registration__player").order_by("registration__player__username"))
    for submission in submissions:
        result = check_document(submission.document, pack)
        changed = result.legal != submission.legal
        results.append(Recheck(submission.registration.player.username, submission, submission.legal, result.legal,
                               len(submission.errors), len(result.errors)))
        Submission.objects.filter(pk=submission.pk).update(
            errors=result.errors, warnings=result.warnings, legal=result.legal, points=result.points,
            card_points=result.card_points, formations=result.formations, units=result.units, checked_at=now,
            verdict_changed=changed)
    _touch(event, now)
    return results


# -- what changed ------------------------------------------------------------------------------------------------

def submission_diff(previous: Submission | None, current: Submission) -> dict:
    """Units (and cards) in and out, and the points, between two submissions of a player."""
    if previous is None:
        return {"first": True, "in": [], "out": [], "points_before": None, "points_after": current.points,
                "points_delta": None}

    def key(u):
        return (u.get("formation", ""), u.get("name", ""), u.get("points", 0))

    before, after = Counter(map(key, previous.units)), Counter(map(key, current.units))
    units_in = [{"formation": f, "name": n, "points": p} for (f, n, p), c in (after - before).items() for _ in range(c)]
    units_out = [{"formation": f, "name": n, "points": p} for (f, n, p), c in (before - after).items()
                 for _ in range(c)]
    return {"first": False, "in": units_in, "out": units_out, "points_before": previous.points,
            "points_after": current.points, "points_delta": current.points - previous.points}


@transaction.atomic
def event_delete(*, event: Event, user) -> None:
    """Delete the event with its registrations and submissions (the players' lists stay)."""
    _require_organiser(event, user)
    event.delete()
