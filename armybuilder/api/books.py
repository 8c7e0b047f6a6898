"""Read-only game data: systems, handbooks (with revisions), formations, units and command cards.

Everything is addressed by codes and the handbook revision, never by database
keys: /api/v1/handbooks/<system>/<code>/<revision>/formations/<code>/.
Anyone may read game data; the endpoints are not throttled beyond the defaults.
"""
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from armybuilder.systems import system_for
from handbooks import models as hb

from . import selectors
from .openapi import errors
from .pagination import Pagination

codes = dict(many=True, read_only=True, slug_field="code")


class NationOutputSerializer(serializers.ModelSerializer):
    class Meta:
        model = hb.Nation
        fields = ["code", "name", "side", "order_card_base", "activation_modifier"]


class SystemOutputSerializer(serializers.ModelSerializer):
    class Meta:
        model = hb.GameSystem
        fields = ["code", "name", "uses_points", "description"]


class ListExtraOutputSerializer(serializers.Serializer):
    pointer = serializers.CharField(help_text="Where the field sits in a list document; * stands for any index.")
    meaning = serializers.CharField()


class SystemDetailOutputSerializer(SystemOutputSerializer):
    nations = NationOutputSerializer(many=True, read_only=True)
    list_extras = serializers.SerializerMethodField(
        help_text="The fields of the list document (docs/list-format.md) only this system gives a meaning to.")

    class Meta(SystemOutputSerializer.Meta):
        fields = SystemOutputSerializer.Meta.fields + ["nations", "list_extras"]

    @extend_schema_field(ListExtraOutputSerializer(many=True))
    def get_list_extras(self, system) -> list[dict]:
        return [{"pointer": extra.pointer, "meaning": extra.meaning}
                for extra in system_for(system.code, system.name).list_extras]


class HandbookOutputSerializer(serializers.ModelSerializer):
    system = serializers.SlugRelatedField(read_only=True, slug_field="code")
    nation = serializers.SlugRelatedField(read_only=True, slug_field="code")
    source = serializers.CharField(read_only=True, help_text="'file' or 'battlescribe'.")

    class Meta:
        model = hb.Handbook
        fields = ["system", "code", "revision", "name", "nation", "period", "higher_formation", "points_set",
                  "illustrative", "is_current", "source", "loaded_at"]


class ChoiceOutputSerializer(serializers.ModelSerializer):
    unit = serializers.SlugRelatedField(read_only=True, slug_field="code", allow_null=True)
    formation = serializers.SlugRelatedField(read_only=True, slug_field="code", allow_null=True)
    variants = serializers.SlugRelatedField(**codes)

    class Meta:
        model = hb.BoxChoice
        fields = ["unit", "formation", "option_cost", "max_count", "variants"]


class BoxOutputSerializer(serializers.ModelSerializer):
    kind = serializers.CharField(read_only=True, help_text="hq, black, grey or options.")
    variants = serializers.SlugRelatedField(**codes)
    choices = ChoiceOutputSerializer(many=True, read_only=True)

    class Meta:
        model = hb.Box
        fields = ["code", "name", "column", "kind", "part_of_formation", "min_picks", "max_picks", "variants",
                  "choices"]


class CodeNameSerializer(serializers.Serializer):
    code = serializers.CharField()
    name = serializers.CharField()


class VariantOutputSerializer(CodeNameSerializer):
    symbol = serializers.CharField()


class SpecialRuleOutputSerializer(CodeNameSerializer):
    summary = serializers.CharField()


class HandbookDetailOutputSerializer(HandbookOutputSerializer):
    allied_nations = serializers.SlugRelatedField(**codes)
    variants = VariantOutputSerializer(many=True, read_only=True)
    special_rules = SpecialRuleOutputSerializer(many=True, read_only=True)
    support_boxes = BoxOutputSerializer(many=True, read_only=True,
                                        help_text="Force-level support boxes of the book's force diagram.")

    class Meta(HandbookOutputSerializer.Meta):
        fields = HandbookOutputSerializer.Meta.fields + ["description", "allied_nations", "variants",
                                                         "special_rules", "support_boxes"]


class HandbookRevisionsOutputSerializer(serializers.Serializer):
    system = serializers.CharField()
    code = serializers.CharField()
    name = serializers.CharField(help_text="Name of the newest revision.")
    current_revision = serializers.IntegerField(allow_null=True)
    revisions = HandbookOutputSerializer(many=True)


class FormationOutputSerializer(serializers.ModelSerializer):
    variants = serializers.SlugRelatedField(**codes)
    allied_nations = serializers.SlugRelatedField(**codes)
    boxes = BoxOutputSerializer(many=True, read_only=True)

    class Meta:
        model = hb.Formation
        fields = ["code", "name", "card_code", "higher_formation", "instructions", "is_standard", "grants_options",
                  "variants", "allied_nations", "boxes"]


class ProfileOutputSerializer(serializers.ModelSerializer):
    type = serializers.SlugRelatedField(source="profile_type", read_only=True, slug_field="code")
    values = serializers.JSONField(read_only=True, help_text="Characteristic code -> value.")

    class Meta:
        model = hb.Profile
        fields = ["type", "name", "values"]


class TeamOutputSerializer(serializers.ModelSerializer):
    profiles = ProfileOutputSerializer(many=True, read_only=True)

    class Meta:
        model = hb.Team
        fields = ["code", "name", "team_type", "count", "is_leader", "is_small", "is_transport", "man_portable",
                  "towed", "profiles"]


class SizeOutputSerializer(serializers.ModelSerializer):
    variants = serializers.SlugRelatedField(**codes)

    class Meta:
        model = hb.SizeOption
        fields = ["code", "label", "teams", "points", "variants"]


class UpgradeOutputSerializer(serializers.ModelSerializer):
    cost_basis = serializers.CharField(read_only=True, help_text="unit, team or item.")
    kind = serializers.CharField(read_only=True, help_text="option, transport or item.")
    variants = serializers.SlugRelatedField(**codes)

    class Meta:
        model = hb.Upgrade
        fields = ["code", "name", "points", "cost_basis", "kind", "max_quantity", "adds_game_units",
                  "available_from", "available_to", "variants"]


class UpgradeGroupOutputSerializer(serializers.ModelSerializer):
    upgrades = UpgradeOutputSerializer(many=True, read_only=True)

    class Meta:
        model = hb.UpgradeGroup
        fields = ["code", "name", "min_choices", "max_choices", "upgrades"]


class UnitOutputSerializer(serializers.ModelSerializer):
    observer_source = serializers.SlugRelatedField(read_only=True, slug_field="code", allow_null=True)
    keywords = serializers.ListField(child=serializers.CharField(), read_only=True)
    quality = serializers.CharField(read_only=True, help_text="Hail of Fire: elite, regular, poor or empty.")
    morale_level = serializers.CharField(read_only=True, help_text="War Ain't Fair: elite, regular, green or empty.")
    artillery_weight = serializers.CharField(read_only=True, help_text="Hail of Fire: light, medium, heavy or empty.")
    hq_level = serializers.CharField(read_only=True, help_text="War Ain't Fair: phq, chq, bhq or empty.")
    variants = serializers.SlugRelatedField(**codes)
    special_rules = serializers.SlugRelatedField(**codes)
    sizes = SizeOutputSerializer(many=True, read_only=True)
    upgrade_groups = UpgradeGroupOutputSerializer(many=True, read_only=True)
    profiles = ProfileOutputSerializer(many=True, read_only=True)
    teams = TeamOutputSerializer(many=True, read_only=True)

    class Meta:
        model = hb.UnitEntry
        fields = ["code", "name", "card_code", "unit_type", "description", "independent", "is_observer",
                  "observer_source", "game_units", "is_standard", "available_from", "available_to",
                  "availability_note", "off_table", "is_observation_post", "quality", "keywords", "is_vehicle_unit",
                  "has_platoon_leader", "artillery_weight", "transport_capacity", "morale_level", "unit_class",
                  "weapon_class", "armour_class", "hq_level", "variants", "special_rules", "sizes",
                  "upgrade_groups", "profiles", "teams"]


class CardOutputSerializer(serializers.ModelSerializer):
    scope = serializers.CharField(read_only=True, help_text="force, formation or unit.")
    cost_basis = serializers.CharField(read_only=True, help_text="card or team.")
    target_units = serializers.SlugRelatedField(**codes)
    target_formations = serializers.SlugRelatedField(**codes)

    class Meta:
        model = hb.CommandCard
        fields = ["code", "name", "card_code", "scope", "points", "cost_basis", "max_per_force", "max_per_target",
                  "changes_rating", "summary", "target_units", "target_formations"]


# --- views ----------------------------------------------------------------------------------------

class GameDataApi(APIView):
    permission_classes = [AllowAny]


class GameDataListApi(generics.ListAPIView):
    permission_classes = [AllowAny]
    pagination_class = Pagination

    class FilterSerializer(serializers.Serializer):
        q = serializers.CharField(required=False, max_length=100, help_text="Part of the name, any case.")

    def filters(self) -> dict:
        # A plain dict, not the QueryDict: DRF treats "?system=" in a QueryDict as "not given".
        serializer = self.FilterSerializer(data=self.request.query_params.dict())
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def handbook(self) -> hb.Handbook:
        return selectors.handbook_get(system=self.kwargs["system"], code=self.kwargs["code"],
                                      revision=self.kwargs["revision"])


@extend_schema(tags=["game data"], responses={200: SystemOutputSerializer(many=True), **errors(400, 404)},
               summary="Game systems")
class SystemListApi(GameDataListApi):
    serializer_class = SystemOutputSerializer

    class FilterSerializer(serializers.Serializer):
        pass

    def get_queryset(self):
        return selectors.systems_all()


@extend_schema(tags=["game data"], responses={200: SystemDetailOutputSerializer, **errors(404)},
               summary="A game system and its nations")
class SystemDetailApi(GameDataApi):
    def get(self, request, system: str):
        return Response(SystemDetailOutputSerializer(selectors.system_get(code=system)).data)


class HandbookFilterSerializer(serializers.Serializer):
    system = serializers.CharField(required=False, max_length=120, help_text="Game system code, e.g. fow4.")
    nation = serializers.CharField(required=False, max_length=120, help_text="Nation code, e.g. germany.")
    current = serializers.ChoiceField(choices=["true", "false"], required=False,
                                      help_text="true: only current revisions; false: only superseded ones.")

    def validate_system(self, value):
        if not hb.GameSystem.objects.filter(code=value).exists():
            raise serializers.ValidationError(f"No game system '{value}'.")
        return value

    def validate_nation(self, value):
        if not hb.Nation.objects.filter(code=value).exists():
            raise serializers.ValidationError(f"No nation '{value}'.")
        return value


@extend_schema(tags=["game data"], parameters=[HandbookFilterSerializer],
               responses={200: HandbookOutputSerializer(many=True), **errors(400, 404)},
               summary="Handbook revisions, filterable by system, nation and current")
class HandbookListApi(GameDataListApi):
    serializer_class = HandbookOutputSerializer
    FilterSerializer = HandbookFilterSerializer

    def get_queryset(self):
        f = self.filters()
        current = {"true": True, "false": False}.get(f.get("current"))
        return selectors.handbooks_filter(system=f.get("system"), nation=f.get("nation"), current=current)


@extend_schema(tags=["game data"],
               responses={200: HandbookRevisionsOutputSerializer, **errors(404)},
               summary="Every revision of a handbook")
class HandbookRevisionsApi(GameDataApi):
    @extend_schema(operation_id="handbooks_revisions")
    def get(self, request, system: str, code: str):
        revisions = selectors.handbook_revisions(system=system, code=code)
        current = next((r.revision for r in revisions if r.is_current), None)
        data = {"system": system, "code": code, "name": revisions[0].name, "current_revision": current,
                "revisions": revisions}
        return Response(HandbookRevisionsOutputSerializer(data).data)


@extend_schema(tags=["game data"], responses={200: HandbookDetailOutputSerializer, **errors(404)},
               summary="One handbook revision: variants, special rules, support boxes")
class HandbookDetailApi(GameDataApi):
    def get(self, request, system: str, code: str, revision: int):
        book = selectors.handbook_get(system=system, code=code, revision=revision, detail=True)
        return Response(HandbookDetailOutputSerializer(book).data)


@extend_schema(tags=["game data"], parameters=[GameDataListApi.FilterSerializer],
               responses={200: FormationOutputSerializer(many=True), **errors(400, 404)},
               summary="Formations of a handbook revision, with boxes and choices")
class FormationListApi(GameDataListApi):
    serializer_class = FormationOutputSerializer

    def get_queryset(self):
        return selectors.formations_of(handbook=self.handbook(), q=self.filters().get("q"))


@extend_schema(tags=["game data"], responses={200: FormationOutputSerializer, **errors(404)},
               summary="One formation")
class FormationDetailApi(GameDataApi):
    def get(self, request, system: str, code: str, revision: int, formation: str):
        book = selectors.handbook_get(system=system, code=code, revision=revision)
        return Response(FormationOutputSerializer(selectors.formation_get(handbook=book, code=formation)).data)


class UnitFilterSerializer(GameDataListApi.FilterSerializer):
    type = serializers.CharField(required=False, max_length=40, help_text="Unit type, e.g. tank, infantry, gun.")


@extend_schema(tags=["game data"], parameters=[UnitFilterSerializer],
               responses={200: UnitOutputSerializer(many=True), **errors(400, 404)},
               summary="Units of a handbook revision, with sizes, upgrades, profiles and teams")
class UnitListApi(GameDataListApi):
    serializer_class = UnitOutputSerializer
    FilterSerializer = UnitFilterSerializer

    def get_queryset(self):
        f = self.filters()
        return selectors.units_of(handbook=self.handbook(), unit_type=f.get("type"), q=f.get("q"))


@extend_schema(tags=["game data"], responses={200: UnitOutputSerializer, **errors(404)}, summary="One unit")
class UnitDetailApi(GameDataApi):
    def get(self, request, system: str, code: str, revision: int, unit: str):
        book = selectors.handbook_get(system=system, code=code, revision=revision)
        return Response(UnitOutputSerializer(selectors.unit_get(handbook=book, code=unit)).data)


class CardFilterSerializer(GameDataListApi.FilterSerializer):
    scope = serializers.ChoiceField(choices=["force", "formation", "unit"], required=False)


@extend_schema(tags=["game data"], parameters=[CardFilterSerializer],
               responses={200: CardOutputSerializer(many=True), **errors(400, 404)},
               summary="Command cards of a handbook revision")
class CardListApi(GameDataListApi):
    serializer_class = CardOutputSerializer
    FilterSerializer = CardFilterSerializer

    def get_queryset(self):
        f = self.filters()
        return selectors.cards_of(handbook=self.handbook(), scope=f.get("scope"), q=f.get("q"))
