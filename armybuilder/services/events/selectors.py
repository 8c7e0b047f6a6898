"""Reads for tournaments, and who may see what.

The one rule of visibility: before the reveal time a submission is seen only by its player and the event's
organisers. After it, every registered player sees it, and everyone does if the event is public. Nothing
else of a list (not even its name) is shown before: pages and the API only read submissions through
``submission_visible`` / ``event_submissions_visible``.
A submission that cannot be seen answers 404, exactly like one that does not exist.
"""
from dataclasses import dataclass

from django.http import Http404
from django.utils import timezone

from handbooks.models import Handbook, Nation

from .models import Event, EventOrganiser, Registration, Submission


@dataclass(frozen=True)
class Viewer:
    """What a user is to an event."""

    organiser: bool
    registration: Registration | None
    revealed: bool
    public: bool

    @property
    def player(self) -> bool:
        return self.registration is not None

    def sees_submissions_of_others(self) -> bool:
        return self.organiser or (self.revealed and (self.public or self.player))

    def sees(self, submission: Submission) -> bool:
        if self.organiser:
            return True
        if self.registration is not None and submission.registration_id == self.registration.pk:
            return True
        return self.revealed and (self.public or self.player)


def events_listed(user):
    """Events on the events page: every event (their pages show no list before the reveal)."""
    return Event.objects.select_related("system").order_by("-date", "name")


def event_get(*, public_id) -> Event:
    event = Event.objects.select_related("system", "created_by").filter(public_id=public_id).first()
    if event is None:
        raise Http404("No such event.")
    return event


def event_viewer(event: Event, user, now=None) -> Viewer:
    now = now or timezone.now()
    organiser = registration = None
    if user is not None and user.is_authenticated:
        organiser = EventOrganiser.objects.filter(event=event, user=user).exists()
        registration = (Registration.objects.select_related("current").filter(event=event, player=user).first())
    return Viewer(organiser=bool(organiser), registration=registration, revealed=now >= event.reveal_at,
                  public=event.public)


def event_get_organised(*, public_id, user) -> Event:
    """The event if the user organises it, else 404 (the same answer as a missing one)."""
    event = event_get(public_id=public_id)
    if user is None or not user.is_authenticated or not EventOrganiser.objects.filter(event=event, user=user).exists():
        raise Http404("No such event.")
    return event


def pack_names(event: Event) -> dict:
    """The names of the books and nations the rules pack names by code."""
    books = dict(Handbook.objects.filter(system_id=event.system_id, code__in=event.allowed_books, is_current=True)
                 .values_list("code", "name")) if event.allowed_books else {}
    nations = dict(Nation.objects.filter(system_id=event.system_id, code__in=event.allowed_nations)
                   .values_list("code", "name")) if event.allowed_nations else {}
    return {"books": books, "nations": nations}


def event_organisers(event: Event) -> list:
    return list(EventOrganiser.objects.filter(event=event).select_related("user"))


def event_player_names(event: Event) -> list[str]:
    return list(Registration.objects.filter(event=event).order_by("player__username")
                .values_list("player__username", flat=True))


def submission_get_visible(*, public_id, user, now=None) -> Submission:
    """A submission the user may see, or 404."""
    submission = (Submission.objects.select_related("registration__event__system", "registration__player")
                  .filter(public_id=public_id).first())
    if submission is None:
        raise Http404("No such submission.")
    viewer = event_viewer(submission.registration.event, user, now)
    if not viewer.sees(submission):
        raise Http404("No such submission.")
    return submission


def registration_get_organised(*, pk, user) -> Registration:
    registration = Registration.objects.select_related("event", "current", "player").filter(pk=pk).first()
    if registration is None or not user.is_authenticated or not EventOrganiser.objects.filter(
            event_id=registration.event_id, user=user).exists():
        raise Http404("No such registration.")
    return registration


def event_revealed_submissions(event: Event, viewer: Viewer) -> list[Submission]:
    """The current submissions the viewer may see of other players (after the reveal), by player name."""
    if not viewer.sees_submissions_of_others():
        return []
    return list(Submission.objects.filter(pk__in=Registration.objects.filter(event=event, current__isnull=False)
                                          .values("current_id"))
                .select_related("registration__player").defer("document").order_by("registration__player__username"))


def player_submissions(registration: Registration) -> list[Submission]:
    return list(registration.submissions.defer("document").order_by("-number"))


@dataclass
class DashboardRow:
    registration: Registration
    current: Submission | None

    @property
    def diff(self) -> dict | None:
        return self.current.changes if self.current is not None else None


def event_dashboard(event: Event) -> list[DashboardRow]:
    """Every registered player with their current submission and what changed since the one before.

    One query whatever the number of players: the registrations with their players and current submissions.
    The list documents are left in the database (the dashboard shows the name, the check and the changes, which
    each submission keeps beside its document).
    """
    registrations = (Registration.objects.filter(event=event).select_related("player", "current")
                     .defer("current__document", "current__units").order_by("player__username"))
    return [DashboardRow(registration, registration.current) for registration in registrations]


__all__ = ["DashboardRow", "Viewer", "event_dashboard", "event_get", "event_get_organised",
           "event_organisers", "pack_names", "event_player_names", "event_revealed_submissions", "event_viewer",
           "events_listed",
           "player_submissions", "registration_get_organised", "submission_get_visible"]
