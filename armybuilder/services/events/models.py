"""Tournaments: an event with its rules pack, its organisers, the players registered and what they submitted.

A submission is a frozen snapshot of a list (its JSON document as the export makes it, its verification
code, its points and the check result with the event's rules pack on top): editing the list afterwards
never changes what was submitted. Every submission is kept, so the organiser sees what changed between two.
All writes go through ``services``; reads (and who may see what) through ``selectors``.
"""
import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q

from handbooks import models as hb

STATUSES = [
    ("none", "Nothing submitted"),
    ("submitted", "Submitted"),
    ("approved", "Approved"),
    ("rejected", "Rejected"),
    ("locked", "Locked"),
]


class Event(models.Model):
    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    name = models.CharField(max_length=120)
    date = models.DateField()
    place = models.CharField(max_length=200, blank=True)
    system = models.ForeignKey(hb.GameSystem, on_delete=models.PROTECT, related_name="events")
    # The rules pack. Empty lists allow everything of the system.
    allowed_books = models.JSONField(default=list, blank=True, help_text="Handbook codes; empty: every book.")
    allowed_nations = models.JSONField(default=list, blank=True, help_text="Nation codes; empty: every nation.")
    allowed_periods = models.JSONField(default=list, blank=True, help_text="Periods (e.g. Mid-War); empty: any.")
    allowed_points_sets = models.JSONField(default=list, blank=True,
                                           help_text="Points sets (e.g. 2025 Dynamic Points); empty: any.")
    current_revision_only = models.BooleanField(
        default=False, help_text="Lists must be built on the current revision of their book.")
    points_limit = models.PositiveIntegerField(null=True, blank=True)
    formation_limit = models.PositiveSmallIntegerField(null=True, blank=True,
                                                       help_text="Most formations a list may field, allies included.")
    card_points = models.PositiveIntegerField(
        null=True, blank=True, help_text="A separate pool of points for command cards, on top of the points limit.")
    deadline = models.DateTimeField(help_text="Lists are submitted until then.")
    reveal_at = models.DateTimeField(help_text="Lists become visible to the other players then.")
    late_changes = models.BooleanField(default=False,
                                       help_text="Whether organisers may reopen a submission after the deadline.")
    public = models.BooleanField(default=False, help_text="After the reveal, lists are visible to everyone.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="events_created")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Bumped by every change to a submission (submit, approve, reject, lock, re-check): a printed pack built
    # before it is out of date.
    submissions_changed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-date", "name"]
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="event_has_a_name"),
            models.CheckConstraint(condition=Q(reveal_at__gte=models.F("deadline")),
                                   name="event_reveal_not_before_deadline"),
        ]

    def __str__(self):
        return self.name


class EventOrganiser(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="organisers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="events_organised")
    added_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event_id", "added_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["event", "user"], name="organiser_once_per_event")]

    def __str__(self):
        return f"event {self.event_id} organiser {self.user_id}"


class Registration(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="registrations")
    # The status of the player's current submission ("none" before the first one).
    status = models.CharField(max_length=10, choices=STATUSES, default="none")
    current = models.ForeignKey("Submission", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                help_text="The latest submission; earlier ones are kept as history.")
    # The organiser let this player submit after the deadline (until they submit once).
    reopened = models.BooleanField(default=False)
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event_id", "registered_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["event", "player"], name="register_once_per_event")]

    def __str__(self):
        return f"event {self.event_id} player {self.player_id}"


class Submission(models.Model):
    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="submissions")
    number = models.PositiveSmallIntegerField(help_text="1 for the first submission of the player, then 2, 3 …")
    # Where it came from. The snapshot below is what counts; the list may change or disappear afterwards.
    army_list = models.ForeignKey("lists.ArmyList", null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="submissions")
    list_public_id = models.UUIDField()
    list_version = models.PositiveIntegerField()
    document = models.JSONField(help_text="The list's JSON document (docs/list-format.md) as it was submitted.")
    name = models.CharField(max_length=120, blank=True, help_text="The list's name in the document.")
    code = models.CharField(max_length=20, help_text="The roster's verification code of the document.")
    points = models.IntegerField(default=0)
    card_points = models.IntegerField(default=0)
    formations = models.PositiveSmallIntegerField(default=0)
    # Units as submitted, for "what changed since the previous submission": [{"key", "name", "points"}].
    units = models.JSONField(default=list, blank=True)
    # What changed since the player's previous submission, worked out when this one came in (it never changes):
    # {"first", "in": [units], "out": [units], "points_before", "points_after", "points_delta"}.
    changes = models.JSONField(default=dict, blank=True)
    # The check: the system's rules and the event's pack, each issue as the engine writes it
    # (code, severity, message, pointer, rule, fix).
    errors = models.JSONField(default=list, blank=True)
    warnings = models.JSONField(default=list, blank=True)
    legal = models.BooleanField(default=False)
    checked_at = models.DateTimeField()
    # Set by a re-check after a data update when the verdict (legal or not) changed.
    verdict_changed = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=STATUSES, default="submitted")
    comment = models.TextField(blank=True, help_text="The organiser's word to the player.")
    reviewed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    reviewed_at = models.DateTimeField(null=True, blank=True)
    reopened = models.BooleanField(default=False, help_text="Submitted after the deadline, reopened by an organiser.")
    submitted_at = models.DateTimeField()

    class Meta:
        ordering = ["registration_id", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["registration", "number"], name="submission_number_per_player"),
        ]

    def __str__(self):
        return f"registration {self.registration_id} submission {self.number}"
