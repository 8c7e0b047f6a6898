"""Admin for game data: browse a handbook from its formations down to each option."""
from django.contrib import admin

from handbooks import models as m


class ReadableInline(admin.TabularInline):
    extra = 0
    show_change_link = True


class NationInline(ReadableInline):
    model = m.Nation


class CharacteristicInline(ReadableInline):
    model = m.Characteristic


@admin.register(m.GameSystem)
class GameSystemAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "uses_points"]
    search_fields = ["name", "code"]
    inlines = [NationInline]


@admin.register(m.Nation)
class NationAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "system", "side", "order_card_base", "activation_modifier"]
    list_filter = ["system", "side"]
    search_fields = ["name", "code"]


@admin.register(m.ProfileType)
class ProfileTypeAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "system", "applies_to"]
    list_filter = ["system", "applies_to"]
    search_fields = ["name", "code"]
    inlines = [CharacteristicInline]


class FormationInline(ReadableInline):
    model = m.Formation
    fields = ["code", "card_code", "name", "is_standard", "grants_options"]


class VariantInline(ReadableInline):
    model = m.Variant


class CardInline(ReadableInline):
    model = m.CommandCard
    fields = ["code", "card_code", "name", "scope", "points", "cost_basis"]


@admin.register(m.Handbook)
class HandbookAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "revision", "system", "nation", "period", "points_set", "is_current",
                    "illustrative"]
    list_filter = ["system", "is_current", "illustrative", "source", "nation__name", "period"]
    search_fields = ["name", "code", "source_ref"]
    filter_horizontal = ["allied_nations"]
    readonly_fields = ["content_hash", "loaded_at"]
    inlines = [VariantInline, FormationInline, CardInline]


class BoxInline(ReadableInline):
    model = m.Box
    fields = ["order", "code", "name", "column", "kind", "part_of_formation", "min_picks", "max_picks"]


@admin.register(m.Formation)
class FormationAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "card_code", "handbook", "is_standard"]
    list_filter = ["handbook__system", "handbook__is_current", "is_standard"]
    search_fields = ["name", "code", "card_code", "handbook__name"]
    list_select_related = ["handbook"]
    filter_horizontal = ["allied_nations", "variants"]
    inlines = [BoxInline]


class BoxChoiceInline(ReadableInline):
    model = m.BoxChoice
    fields = ["order", "unit", "formation", "option_cost", "max_count"]
    raw_id_fields = ["unit", "formation"]


@admin.register(m.Box)
class BoxAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "formation", "column", "kind", "part_of_formation", "min_picks", "max_picks"]
    list_filter = ["kind", "part_of_formation", "handbook__system"]
    search_fields = ["name", "code", "formation__name"]
    list_select_related = ["formation"]
    raw_id_fields = ["formation", "handbook"]
    inlines = [BoxChoiceInline]


class SizeInline(ReadableInline):
    model = m.SizeOption
    fields = ["order", "code", "label", "teams", "points"]


class UpgradeGroupInline(ReadableInline):
    model = m.UpgradeGroup
    fields = ["order", "code", "name", "min_choices", "max_choices"]


class TeamInline(ReadableInline):
    model = m.Team
    fields = ["order", "code", "name", "team_type", "count", "is_leader", "is_small", "is_transport"]


class ProfileInline(ReadableInline):
    model = m.Profile
    fk_name = "unit"
    fields = ["order", "profile_type", "name", "values"]


@admin.register(m.UnitEntry)
class UnitEntryAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "card_code", "unit_type", "handbook", "independent", "is_observer", "is_standard"]
    list_filter = ["handbook__system", "unit_type", "independent", "is_observer", "is_standard", "quality",
                   "morale_level"]
    search_fields = ["name", "code", "card_code", "handbook__name"]
    list_select_related = ["handbook"]
    raw_id_fields = ["handbook", "observer_source"]
    filter_horizontal = ["special_rules", "variants"]
    inlines = [SizeInline, UpgradeGroupInline, TeamInline, ProfileInline]


class UpgradeInline(ReadableInline):
    model = m.Upgrade
    fields = ["order", "code", "name", "points", "cost_basis", "kind", "max_quantity", "adds_game_units"]


@admin.register(m.UpgradeGroup)
class UpgradeGroupAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "unit", "min_choices", "max_choices"]
    search_fields = ["name", "code", "unit__name"]
    raw_id_fields = ["unit"]
    inlines = [UpgradeInline]


@admin.register(m.CommandCard)
class CommandCardAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "card_code", "handbook", "scope", "points", "cost_basis", "max_per_force"]
    list_filter = ["scope", "handbook__system", "changes_rating"]
    search_fields = ["name", "code", "card_code"]
    raw_id_fields = ["handbook"]
    filter_horizontal = ["target_units", "target_formations"]


@admin.register(m.SpecialRule)
class SpecialRuleAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "handbook"]
    list_filter = ["handbook__system"]
    search_fields = ["name", "code", "summary"]
    raw_id_fields = ["handbook"]


@admin.register(m.Constraint)
class ConstraintAdmin(admin.ModelAdmin):
    list_display = ["description", "code", "handbook", "scope", "target_kind", "min_count", "max_count"]
    list_filter = ["scope", "target_kind"]
    search_fields = ["description", "code"]
    raw_id_fields = ["handbook"]


admin.site.register(m.Variant, search_fields=["name", "code"], list_display=["name", "code", "handbook"])
admin.site.register(m.Profile, list_display=["name", "profile_type", "unit", "team"], list_filter=["profile_type"],
                    search_fields=["name"], raw_id_fields=["unit", "team"])
admin.site.site_header = "Army Builder — game data"
