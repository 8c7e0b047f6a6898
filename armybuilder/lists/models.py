"""A player's army list: chosen formations, units per box, upgrades and cards.

A list keeps the handbook revision it was built on. Every change goes through
``services`` and bumps ``version`` so a stale tab can never overwrite newer work.
"""
import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q

from handbooks import models as hb

SELECTION_HELP = ("A selection: {\"entry\": roster entry path relative to what holds it, \"number\": n, "
                  "\"selections\": [child selections]} (docs/list-format.md).")


class ArmyList(models.Model):
    VISIBILITY = [("private", "Private"), ("shared", "Anyone with the link")]

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    share_token = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="army_lists")
    # A visitor without an account builds in their session; signing up claims the list.
    session_key = models.CharField(max_length=64, blank=True, db_index=True)
    name = models.CharField(max_length=120)
    system = models.ForeignKey(hb.GameSystem, on_delete=models.PROTECT, related_name="army_lists")
    handbook = models.ForeignKey(hb.Handbook, on_delete=models.PROTECT, related_name="army_lists")
    points_limit = models.PositiveIntegerField(null=True, blank=True)
    variant = models.CharField(max_length=120, blank=True, help_text="Code of the chosen variant, if any.")
    year = models.PositiveSmallIntegerField(null=True, blank=True, help_text="For availability dates.")
    notes = models.TextField(blank=True)
    # Books imported from BattleScribe: choices at the root of the force that are not formations, support or
    # cards (e.g. a "Command Cards" entry the data requires, or a generic system's game options).
    selections = models.JSONField(default=list, blank=True)
    visibility = models.CharField(max_length=10, choices=VISIBILITY, default="private")
    # How the player prints this list (event, player, paper, cards, …): armybuilder.services.printing.options reads it.
    print_options = models.JSONField(default=dict, blank=True)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="army_list_has_a_name"),
        ]

    def __str__(self):
        return self.name


class ListFormation(models.Model):
    army_list = models.ForeignKey(ArmyList, on_delete=models.CASCADE, related_name="formations")
    formation = models.ForeignKey(hb.Formation, on_delete=models.PROTECT, related_name="+")
    allied = models.BooleanField(default=False)
    order = models.PositiveSmallIntegerField(default=0)
    letter = models.CharField(max_length=4, blank=True)
    # Operation WW2: a Standard choice bought with another formation's options.
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.CASCADE, related_name="children")
    via_box = models.ForeignKey(hb.Box, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    # Books imported from BattleScribe: formation-level choices, as selections (see SELECTION_HELP).
    selections = models.JSONField(default=list, blank=True)
    # The player's own name and notes for it, shown in the builder, the roster and every export.
    custom_name = models.CharField(max_length=120, blank=True)
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["army_list_id", "order", "pk"]

    def __str__(self):
        return self.custom_name or f"list {self.army_list_id} formation {self.letter or self.order}"


class ListUnit(models.Model):
    army_list = models.ForeignKey(ArmyList, on_delete=models.CASCADE, related_name="units")
    list_formation = models.ForeignKey(ListFormation, null=True, blank=True, on_delete=models.CASCADE,
                                       related_name="units", help_text="Empty for force-level support.")
    box = models.ForeignKey(hb.Box, on_delete=models.PROTECT, related_name="+")
    unit = models.ForeignKey(hb.UnitEntry, on_delete=models.PROTECT, related_name="+")
    size = models.ForeignKey(hb.SizeOption, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    order = models.PositiveSmallIntegerField(default=0)
    letter = models.CharField(max_length=4, blank=True)
    outflank = models.CharField(max_length=5, blank=True, choices=[("left", "Left"), ("right", "Right")])
    # Books imported from BattleScribe: {"entry": path under the formation (or force), "selections": [...]}.
    # Size and upgrades are not used for those books: the selections are what BattleScribe would hold.
    selection = models.JSONField(null=True, blank=True, help_text=SELECTION_HELP)
    custom_name = models.CharField(max_length=120, blank=True)
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["army_list_id", "order", "pk"]

    def __str__(self):
        return self.custom_name or f"list {self.army_list_id} unit {self.letter or self.order}"


class ListUpgrade(models.Model):
    list_unit = models.ForeignKey(ListUnit, on_delete=models.CASCADE, related_name="upgrades")
    upgrade = models.ForeignKey(hb.Upgrade, on_delete=models.PROTECT, related_name="+")
    quantity = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["list_unit_id", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["list_unit", "upgrade"], name="upgrade_once_per_unit"),
            models.CheckConstraint(condition=Q(quantity__gte=1), name="upgrade_quantity_positive"),
        ]

    def __str__(self):
        return f"unit {self.list_unit_id} upgrade {self.upgrade_id} x{self.quantity}"


class ListCard(models.Model):
    army_list = models.ForeignKey(ArmyList, on_delete=models.CASCADE, related_name="cards")
    card = models.ForeignKey(hb.CommandCard, on_delete=models.PROTECT, related_name="+")
    target_formation = models.ForeignKey(ListFormation, null=True, blank=True, on_delete=models.CASCADE,
                                         related_name="cards")
    target_unit = models.ForeignKey(ListUnit, null=True, blank=True, on_delete=models.CASCADE, related_name="cards")
    order = models.PositiveSmallIntegerField(default=0)
    # Books imported from BattleScribe: {"entry": path under its holder, "via": [entry paths it sits inside],
    # "selections": [its own sub-choices]}.
    selection = models.JSONField(null=True, blank=True, help_text=SELECTION_HELP)

    class Meta:
        ordering = ["army_list_id", "order", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(target_formation__isnull=True) | Q(target_unit__isnull=True),
                                   name="card_has_at_most_one_target"),
        ]

    def __str__(self):
        return f"list {self.army_list_id} card {self.card_id}"


class ListVersion(models.Model):
    """One entry of a list's history: what changed, when, from which version, and the list as it was after
    the change (its JSON document), so that any entry can be restored. ``undo_to``/``redo_to`` name the
    versions Undo and Redo go back (or forward) to from this one (lists/history.py)."""

    KINDS = [("created", "Created"), ("change", "Change"), ("undo", "Undo"), ("redo", "Redo"),
             ("restore", "Restore"), ("revision", "Book update"), ("sharing", "Sharing")]

    army_list = models.ForeignKey(ArmyList, on_delete=models.CASCADE, related_name="history")
    version = models.PositiveIntegerField()
    from_version = models.PositiveIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=10, choices=KINDS, default="change")
    what = models.CharField(max_length=200)
    document = models.JSONField()
    undo_to = models.PositiveIntegerField(null=True, blank=True)
    redo_to = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["army_list_id", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["army_list", "version"], name="list_version_once"),
        ]

    def __str__(self):
        return f"{self.army_list_id} v{self.version}: {self.what}"


class Matchup(models.Model):
    """Two lists of the same system side by side, with the players' answers where a rule asks for judgement
    (Hail of Fire's Force Parity Procedure: rankings, per-pair judgements, how Penalty Points are spent)."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="matchups")
    session_key = models.CharField(max_length=64, blank=True, db_index=True)
    list_a = models.ForeignKey(ArmyList, on_delete=models.CASCADE, related_name="+")
    list_b = models.ForeignKey(ArmyList, on_delete=models.CASCADE, related_name="+")
    answers = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self):
        return f"match-up {self.public_id}: list {self.list_a_id} v list {self.list_b_id}"
