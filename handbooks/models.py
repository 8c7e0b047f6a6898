"""Game data: systems, handbooks and everything a force is chosen from.

Every handbook revision is a complete, immutable set of rows. A changed data
file becomes a new revision; army lists keep pointing at the revision they were
built on, so old lists never change under their owners' feet.

Every entity carries a stable ``code`` (an official card code where one
exists, else a slug or a BattleScribe id). Lists, exports and the API refer to
codes plus the handbook revision, never to database keys.
"""
from django.db import models
from django.db.models import Q


class CodeField(models.CharField):
    """A stable identifier: official card code, slug or BattleScribe id."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("max_length", 120)
        super().__init__(*args, **kwargs)


class GameSystem(models.Model):
    code = CodeField(unique=True)
    name = models.CharField(max_length=120)
    uses_points = models.BooleanField(default=True, help_text="False for systems balanced another way (Hail of Fire).")
    default_points_limit = models.PositiveIntegerField(
        null=True, blank=True, help_text="The points limit a new list starts with (the system's usual game size).")
    description = models.TextField(blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class Nation(models.Model):
    system = models.ForeignKey(GameSystem, on_delete=models.CASCADE, related_name="nations")
    code = CodeField()
    name = models.CharField(max_length=120)
    side = models.CharField(max_length=20, blank=True, help_text="Axis or Allies, where the system asks.")
    # Operation WW2: order cards in the first hand before +1 per unit.
    order_card_base = models.PositiveSmallIntegerField(null=True, blank=True)
    # War Ain't Fair: adjustment to activation dice from the nation table.
    activation_modifier = models.SmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["system_id", "name"]
        constraints = [models.UniqueConstraint(fields=["system", "code"], name="nation_code_unique_per_system")]

    def __str__(self):
        return self.name


class ProfileType(models.Model):
    """A kind of stat line (e.g. Tank Unit, Weapon) with named characteristics."""

    APPLIES_TO = [("unit", "Unit"), ("team", "Team"), ("weapon", "Weapon"), ("card", "Card")]

    system = models.ForeignKey(GameSystem, on_delete=models.CASCADE, related_name="profile_types")
    code = CodeField()
    name = models.CharField(max_length=120)
    applies_to = models.CharField(max_length=10, choices=APPLIES_TO, default="unit")
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["system_id", "order", "name"]
        constraints = [models.UniqueConstraint(fields=["system", "code"], name="profile_type_code_unique_per_system")]

    def __str__(self):
        return f"{self.name} ({self.system.code})"


class Characteristic(models.Model):
    profile_type = models.ForeignKey(ProfileType, on_delete=models.CASCADE, related_name="characteristics")
    code = CodeField()
    name = models.CharField(max_length=120)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["profile_type_id", "order"]
        constraints = [
            models.UniqueConstraint(fields=["profile_type", "code"], name="characteristic_code_unique_per_type")
        ]

    def __str__(self):
        return self.name


class Handbook(models.Model):
    """One revision of a book or army list (an Intelligence Handbook, a catalogue)."""

    SOURCES = [("file", "Data file"), ("battlescribe", "BattleScribe catalogue")]

    system = models.ForeignKey(GameSystem, on_delete=models.PROTECT, related_name="handbooks")
    code = CodeField()
    revision = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    nation = models.ForeignKey(Nation, on_delete=models.PROTECT, related_name="handbooks")
    period = models.CharField(max_length=60, blank=True, help_text="e.g. Mid-War, Late-War, 1944")
    higher_formation = models.CharField(
        max_length=200, blank=True, help_text="Division, brigade or corps all formations of this book belong to."
    )
    points_set = models.CharField(max_length=120, blank=True,
                                  help_text="The dated set of costs, e.g. 2025 Dynamic Points.")
    allied_nations = models.ManyToManyField(Nation, blank=True, related_name="allied_in_handbooks")
    illustrative = models.BooleanField(
        default=False, help_text="Sample data written by us with invented values, not a real book."
    )
    description = models.TextField(blank=True)
    source = models.CharField(max_length=20, choices=SOURCES, default="file")
    source_ref = models.CharField(max_length=300, blank=True, help_text="File name or catalogue id it came from.")
    content_hash = models.CharField(max_length=64,
                                    help_text="SHA-256 of the canonical content; equal hash = same data.")
    is_current = models.BooleanField(default=True)
    loaded_at = models.DateTimeField(auto_now_add=True)
    extra = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["system_id", "name", "-revision"]
        constraints = [
            models.UniqueConstraint(fields=["system", "code", "revision"], name="handbook_revision_unique"),
            models.UniqueConstraint(
                fields=["system", "code"], condition=Q(is_current=True), name="handbook_one_current_revision"
            ),
            models.CheckConstraint(condition=Q(revision__gte=1), name="handbook_revision_positive"),
        ]

    def __str__(self):
        return f"{self.name} (rev {self.revision})"


class HandbookCatalogue(models.Model):
    """The BattleScribe catalogue document an imported handbook revision holds: every entry, group and
    link with its costs, constraints and modifiers, as BattleScribe defines them. The rules engine
    evaluates lists of imported books over it; the flattened rows (formations, boxes, units, options)
    are for display. Kept apart from Handbook so listing handbooks never loads it."""

    handbook = models.OneToOneField(Handbook, on_delete=models.CASCADE, related_name="catalogue")
    document = models.JSONField()

    def __str__(self):
        return f"BattleScribe catalogue of {self.handbook}"


class SpecialRule(models.Model):
    handbook = models.ForeignKey(Handbook, on_delete=models.CASCADE, related_name="special_rules")
    code = CodeField()
    name = models.CharField(max_length=200)
    summary = models.TextField(blank=True, help_text="A short summary in our own words, never the rulebook text.")

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["handbook", "code"], name="rule_code_unique_per_handbook")]

    def __str__(self):
        return self.name


class Variant(models.Model):
    """A divisional variant (symbol) of a handbook; a force picks one and sticks to it."""

    handbook = models.ForeignKey(Handbook, on_delete=models.CASCADE, related_name="variants")
    code = CodeField()
    name = models.CharField(max_length=200)
    symbol = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["handbook", "code"], name="variant_code_unique_per_handbook")]

    def __str__(self):
        return self.name


class UnitEntry(models.Model):
    """A unit as the handbook offers it: what can be bought, with its stats."""

    QUALITIES = [("elite", "Elite"), ("regular", "Regular"), ("poor", "Poor")]
    MORALE_LEVELS = [("elite", "Elite"), ("regular", "Regular"), ("green", "Green")]
    WEIGHTS = [("light", "Light"), ("medium", "Medium"), ("heavy", "Heavy")]
    HQ_LEVELS = [("phq", "Platoon HQ"), ("chq", "Company HQ"), ("bhq", "Battalion/Force HQ")]

    handbook = models.ForeignKey(Handbook, on_delete=models.CASCADE, related_name="units")
    code = CodeField()
    name = models.CharField(max_length=200)
    card_code = models.CharField(max_length=20, blank=True, help_text="Official card code, e.g. LG101.")
    unit_type = models.CharField(max_length=40, blank=True, help_text="tank, infantry, gun, aircraft, transport …")
    description = models.TextField(blank=True)
    order = models.PositiveIntegerField(default=0)
    variants = models.ManyToManyField(Variant, blank=True, related_name="units", help_text="Empty = every variant.")
    special_rules = models.ManyToManyField(SpecialRule, blank=True, related_name="units")

    # Flames of War
    independent = models.BooleanField(default=False)
    is_observer = models.BooleanField(default=False, help_text="An Observer Team; only one per force.")
    observer_source = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="observers",
        help_text="The unit an Observer comes from; it must be in the force.",
    )
    game_units = models.PositiveSmallIntegerField(
        default=1, help_text="Game units one purchase becomes before attachments (e.g. a battery of two troops = 2)."
    )

    # Operation WW2
    is_standard = models.BooleanField(default=False)
    available_from = models.PositiveSmallIntegerField(null=True, blank=True, help_text="First year available.")
    available_to = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Last year available.")
    availability_note = models.CharField(max_length=120, blank=True)
    off_table = models.BooleanField(default=False, help_text="Can fire from off the table (needs an Observation Post).")
    is_observation_post = models.BooleanField(default=False)

    # Hail of Fire
    quality = models.CharField(max_length=10, choices=QUALITIES, blank=True)
    keywords = models.JSONField(default=list, blank=True)
    is_vehicle_unit = models.BooleanField(default=False)
    has_platoon_leader = models.BooleanField(default=False)
    artillery_weight = models.CharField(max_length=10, choices=WEIGHTS, blank=True)
    transport_capacity = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Teams each transport vehicle carries (Hail of Fire: 2-4 plus one towed gun)."
    )

    # War Ain't Fair
    morale_level = models.CharField(max_length=10, choices=MORALE_LEVELS, blank=True)
    unit_class = models.CharField(max_length=40, blank=True, help_text="Movement class, e.g. Half Tracks, Fast Tanks.")
    weapon_class = models.CharField(max_length=60, blank=True)
    armour_class = models.CharField(max_length=60, blank=True)
    hq_level = models.CharField(max_length=4, choices=HQ_LEVELS, blank=True)

    extra = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["handbook_id", "order", "name"]
        constraints = [
            models.UniqueConstraint(fields=["handbook", "code"], name="unit_code_unique_per_handbook"),
            models.CheckConstraint(
                condition=Q(available_from__isnull=True) | Q(available_to__isnull=True)
                | Q(available_from__lte=models.F("available_to")),
                name="unit_available_range_ordered",
            ),
        ]
        verbose_name_plural = "unit entries"

    def __str__(self):
        return self.name


class Team(models.Model):
    """A kind of team (model or base) in a unit, for cards and transport checks."""

    unit = models.ForeignKey(UnitEntry, on_delete=models.CASCADE, related_name="teams")
    code = CodeField()
    name = models.CharField(max_length=200)
    team_type = models.CharField(max_length=40, blank=True, help_text="tank, infantry, gun, vehicle, aircraft …")
    count = models.PositiveSmallIntegerField(default=1)
    is_leader = models.BooleanField(default=False)
    is_small = models.BooleanField(default=False)
    is_transport = models.BooleanField(default=False)
    man_portable = models.BooleanField(default=False)
    towed = models.BooleanField(default=False)
    order = models.PositiveSmallIntegerField(default=0)
    special_rules = models.ManyToManyField(SpecialRule, blank=True, related_name="teams")

    class Meta:
        ordering = ["unit_id", "order"]
        constraints = [models.UniqueConstraint(fields=["unit", "code"], name="team_code_unique_per_unit")]

    def __str__(self):
        return self.name


class Profile(models.Model):
    """A stat line of a given profile type, attached to a unit or a team."""

    profile_type = models.ForeignKey(ProfileType, on_delete=models.PROTECT, related_name="profiles")
    unit = models.ForeignKey(UnitEntry, null=True, blank=True, on_delete=models.CASCADE, related_name="profiles")
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.CASCADE, related_name="profiles")
    name = models.CharField(max_length=200)
    values = models.JSONField(default=dict, help_text="Characteristic code -> value.")
    order = models.PositiveSmallIntegerField(default=0)
    special_rules = models.ManyToManyField(SpecialRule, blank=True, related_name="profiles")

    class Meta:
        ordering = ["order"]
        constraints = [
            models.CheckConstraint(
                condition=Q(unit__isnull=False) | Q(team__isnull=False), name="profile_attached_somewhere"
            )
        ]

    def __str__(self):
        return self.name


class SizeOption(models.Model):
    """How big a unit is bought: its teams and their cost."""

    unit = models.ForeignKey(UnitEntry, on_delete=models.CASCADE, related_name="sizes")
    code = CodeField()
    label = models.CharField(max_length=200)
    teams = models.PositiveSmallIntegerField(default=1)
    points = models.IntegerField(default=0)
    order = models.PositiveSmallIntegerField(default=0)
    variants = models.ManyToManyField(Variant, blank=True, related_name="sizes")
    extra = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["unit_id", "order"]
        constraints = [
            models.UniqueConstraint(fields=["unit", "code"], name="size_code_unique_per_unit"),
            models.CheckConstraint(condition=Q(points__gte=0), name="size_points_not_negative"),
        ]

    def __str__(self):
        return self.label


class UpgradeGroup(models.Model):
    unit = models.ForeignKey(UnitEntry, on_delete=models.CASCADE, related_name="upgrade_groups")
    code = CodeField()
    name = models.CharField(max_length=200)
    min_choices = models.PositiveSmallIntegerField(default=0)
    max_choices = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Empty = no limit.")
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["unit_id", "order"]
        constraints = [
            models.UniqueConstraint(fields=["unit", "code"], name="upgrade_group_code_unique_per_unit"),
            models.CheckConstraint(
                condition=Q(max_choices__isnull=True) | Q(min_choices__lte=models.F("max_choices")),
                name="upgrade_group_min_le_max",
            ),
        ]

    def __str__(self):
        return self.name


class Upgrade(models.Model):
    """One option in an upgrade group: weapons, transports, fixed-price items."""

    COST_BASIS = [("unit", "per unit"), ("team", "per team"), ("item", "per item")]
    KINDS = [("option", "Option"), ("transport", "Transport attachment"), ("item", "Fixed-price item")]

    group = models.ForeignKey(UpgradeGroup, on_delete=models.CASCADE, related_name="upgrades")
    code = CodeField()
    name = models.CharField(max_length=200)
    points = models.IntegerField(default=0, help_text="May be negative for a downgrade.")
    cost_basis = models.CharField(max_length=5, choices=COST_BASIS, default="unit")
    kind = models.CharField(max_length=10, choices=KINDS, default="option")
    max_quantity = models.PositiveSmallIntegerField(default=1, help_text="How many of it one unit may take.")
    adds_game_units = models.PositiveSmallIntegerField(
        default=0, help_text="Extra game units it creates (a Transport Attachment = 1)."
    )
    available_from = models.PositiveSmallIntegerField(null=True, blank=True)
    available_to = models.PositiveSmallIntegerField(null=True, blank=True)
    order = models.PositiveSmallIntegerField(default=0)
    variants = models.ManyToManyField(Variant, blank=True, related_name="upgrades")
    special_rules = models.ManyToManyField(SpecialRule, blank=True, related_name="upgrades")
    extra = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["group_id", "order"]
        constraints = [
            models.UniqueConstraint(fields=["group", "code"], name="upgrade_code_unique_per_group"),
            models.CheckConstraint(condition=Q(max_quantity__gte=1), name="upgrade_max_quantity_positive"),
        ]

    def __str__(self):
        return self.name


class Formation(models.Model):
    """A formation diagram (FoW company), or a Standard choice (Operation WW2 platoon)."""

    handbook = models.ForeignKey(Handbook, on_delete=models.CASCADE, related_name="formations")
    code = CodeField()
    name = models.CharField(max_length=200)
    card_code = models.CharField(max_length=20, blank=True)
    higher_formation = models.CharField(max_length=200, blank=True)
    instructions = models.TextField(blank=True)
    allied_nations = models.ManyToManyField(Nation, blank=True, related_name="allied_in_formations")
    variants = models.ManyToManyField(Variant, blank=True, related_name="formations",
                                      help_text="Empty = every variant.")
    order = models.PositiveIntegerField(default=0)
    # Operation WW2: the army starts from exactly one Standard choice, which grants
    # a pool of options spent only on its own options boxes.
    is_standard = models.BooleanField(default=False)
    grants_options = models.PositiveSmallIntegerField(default=0)
    extra = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["handbook_id", "order", "name"]
        constraints = [models.UniqueConstraint(fields=["handbook", "code"], name="formation_code_unique_per_handbook")]

    def __str__(self):
        return self.name


class Box(models.Model):
    """A box on a diagram: HQ, black (compulsory) or grey (optional), or an options box."""

    KINDS = [("hq", "HQ"), ("black", "Black box"), ("grey", "Grey box"), ("options", "Options")]

    handbook = models.ForeignKey(Handbook, on_delete=models.CASCADE, related_name="boxes")
    formation = models.ForeignKey(
        Formation, null=True, blank=True, on_delete=models.CASCADE, related_name="boxes",
        help_text="Empty for force-level support boxes on the book's force diagram.",
    )
    code = CodeField(help_text="Unique in the handbook: '<formation>/<box>' or 'force/<box>'.")
    name = models.CharField(max_length=200)
    column = models.CharField(max_length=60, blank=True, help_text="HQ, Combat, Weapons, Support …")
    kind = models.CharField(max_length=10, choices=KINDS, default="grey")
    part_of_formation = models.BooleanField(default=True, help_text="False for Support boxes.")
    min_picks = models.PositiveSmallIntegerField(default=0)
    max_picks = models.PositiveSmallIntegerField(default=1)
    order = models.PositiveSmallIntegerField(default=0)
    variants = models.ManyToManyField(Variant, blank=True, related_name="boxes", help_text="Empty = every variant.")
    extra = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["handbook_id", "formation_id", "order"]
        verbose_name_plural = "boxes"
        constraints = [
            models.UniqueConstraint(fields=["handbook", "code"], name="box_code_unique_per_handbook"),
            models.CheckConstraint(condition=Q(min_picks__lte=models.F("max_picks")), name="box_min_le_max"),
            models.CheckConstraint(condition=Q(max_picks__gte=1), name="box_max_positive"),
        ]

    def __str__(self):
        return self.name


class BoxChoice(models.Model):
    """One unit (or, for Operation WW2 options, one Standard formation) a box offers."""

    box = models.ForeignKey(Box, on_delete=models.CASCADE, related_name="choices")
    unit = models.ForeignKey(UnitEntry, null=True, blank=True, on_delete=models.CASCADE, related_name="box_choices")
    formation = models.ForeignKey(
        Formation, null=True, blank=True, on_delete=models.CASCADE, related_name="offered_in_boxes"
    )
    option_cost = models.PositiveSmallIntegerField(default=0,
                                                   help_text="Options it costs from the pool (Operation WW2).")
    max_count = models.PositiveSmallIntegerField(null=True, blank=True, help_text="How often it may be picked here.")
    order = models.PositiveSmallIntegerField(default=0)
    variants = models.ManyToManyField(Variant, blank=True, related_name="box_choices")

    class Meta:
        ordering = ["box_id", "order"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(unit__isnull=False) & Q(formation__isnull=True))
                | (Q(unit__isnull=True) & Q(formation__isnull=False)),
                name="box_choice_is_unit_or_formation",
            ),
        ]

    def __str__(self):
        return str(self.unit or self.formation)


class CommandCard(models.Model):
    SCOPES = [("force", "Force"), ("formation", "Formation"), ("unit", "Unit")]
    COST_BASIS = [("card", "per card"), ("team", "per team")]

    handbook = models.ForeignKey(Handbook, on_delete=models.CASCADE, related_name="cards")
    code = CodeField()
    name = models.CharField(max_length=200)
    card_code = models.CharField(max_length=20, blank=True)
    scope = models.CharField(max_length=10, choices=SCOPES)
    points = models.IntegerField(default=0, help_text="Negative for a card that saves points.")
    cost_basis = models.CharField(max_length=5, choices=COST_BASIS, default="card")
    max_per_force = models.PositiveSmallIntegerField(null=True, blank=True)
    max_per_target = models.PositiveSmallIntegerField(default=1)
    changes_rating = models.BooleanField(default=False, help_text="Only one rating-changing card per unit.")
    target_units = models.ManyToManyField(UnitEntry, blank=True, related_name="cards")
    target_formations = models.ManyToManyField(Formation, blank=True, related_name="cards")
    summary = models.TextField(blank=True)
    order = models.PositiveSmallIntegerField(default=0)
    extra = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["handbook_id", "order", "name"]
        constraints = [models.UniqueConstraint(fields=["handbook", "code"], name="card_code_unique_per_handbook")]

    def __str__(self):
        return self.name


class Constraint(models.Model):
    """A generic min/max on how many of something a force or formation holds."""

    SCOPES = [("force", "Force"), ("formation", "Each formation")]
    TARGETS = [("unit", "Unit"), ("formation", "Formation"), ("card", "Command card"), ("unit_type", "Unit type")]

    handbook = models.ForeignKey(Handbook, on_delete=models.CASCADE, related_name="constraints")
    code = CodeField()
    description = models.CharField(max_length=300)
    scope = models.CharField(max_length=10, choices=SCOPES, default="force")
    target_kind = models.CharField(max_length=10, choices=TARGETS)
    target_codes = models.JSONField(default=list, help_text="Codes counted together.")
    min_count = models.PositiveSmallIntegerField(null=True, blank=True)
    max_count = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["handbook_id", "code"]
        constraints = [
            models.UniqueConstraint(fields=["handbook", "code"], name="constraint_code_unique_per_handbook"),
            models.CheckConstraint(
                condition=Q(min_count__isnull=False) | Q(max_count__isnull=False), name="constraint_has_a_limit"
            ),
        ]

    def __str__(self):
        return self.description
