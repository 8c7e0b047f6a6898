"""Army lists: create, read, change, delete, copy, export, import, and the builder's operations.

Lists are private to their owner: another user's list answers 404, exactly like
a missing one. A shared list is read-only to everyone through its share token
(/api/v1/shared/<share_token>/). Places inside a list are addressed by the
same JSON pointers the list document uses (/formations/0/units/2,
/support/1, /cards/0); since every write needs If-Match, a pointer always
means what it meant in the version the client last saw.
"""
import re

from django.http import Http404, HttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from armybuilder.downloads import attachment
from armybuilder.lists import selectors as list_selectors
from armybuilder.lists import services
from armybuilder.lists.models import ArmyList
from armybuilder.lists.summary import army_list_summary_store
from armybuilder.services.exports import list_json
from handbooks import models as hb

from . import selectors
from .conditional import etag, expected_version
from .exceptions import PreconditionFailed
from .fields import InputSerializer, StrictBooleanField, StrictCharField, StrictChoiceField, StrictIntegerField
from .openapi import BODY_ERRORS, IF_MATCH, WRITE_ERRORS, errors
from .pagination import Pagination
from .parsers import ListDocumentParser
from .reports import ReportOutputSerializer
from .throttles import ScopedUserThrottle

MAX_POINTS = 100_000  # the list format's limits (docs/schemas/list.schema.json)
MAX_NOTES = 5_000
_FORMATION_POINTER = re.compile(r"/formations/(\d{1,6})")
_UNIT_POINTER = re.compile(r"/formations/(\d{1,6})/units/(\d{1,6})|/support/(\d{1,6})")


# --- output ---------------------------------------------------------------------------------------

class HandbookRefOutputSerializer(serializers.Serializer):
    code = serializers.CharField()
    revision = serializers.IntegerField()
    name = serializers.CharField()


class ListOutputSerializer(serializers.ModelSerializer):
    id = serializers.UUIDField(source="public_id", read_only=True)
    system = serializers.SlugRelatedField(read_only=True, slug_field="code")
    handbook = HandbookRefOutputSerializer(read_only=True)
    variant = serializers.SerializerMethodField()
    visibility = serializers.CharField(read_only=True, help_text="private or shared.")
    share_token = serializers.SerializerMethodField(
        help_text="While the list is shared, anyone can read it at /api/v1/shared/<share_token>/.")

    class Meta:
        model = ArmyList
        fields = ["id", "name", "system", "handbook", "points_limit", "variant", "year", "notes", "visibility",
                  "share_token", "version", "created_at", "updated_at"]

    def get_variant(self, obj) -> str | None:
        return obj.variant or None

    def get_share_token(self, obj) -> str | None:
        return str(obj.share_token) if obj.visibility == "shared" else None


class ListDetailOutputSerializer(ListOutputSerializer):
    document = serializers.JSONField(read_only=True, help_text="The list in JSON format v1 "
                                     "(docs/list-format.md, schema at /schemas/list.schema.json).")
    report = ReportOutputSerializer(read_only=True)

    class Meta(ListOutputSerializer.Meta):
        fields = ListOutputSerializer.Meta.fields + ["document", "report"]


class SharedListOutputSerializer(serializers.ModelSerializer):
    system = serializers.SlugRelatedField(read_only=True, slug_field="code")
    handbook = HandbookRefOutputSerializer(read_only=True)
    variant = serializers.SerializerMethodField()
    document = serializers.JSONField(read_only=True)
    report = ReportOutputSerializer(read_only=True)

    class Meta:
        model = ArmyList
        fields = ["name", "system", "handbook", "points_limit", "variant", "year", "notes", "version", "updated_at",
                  "document", "report"]

    def get_variant(self, obj) -> str | None:
        return obj.variant or None


def _detail(army_list: ArmyList, serializer=ListDetailOutputSerializer) -> dict:
    army_list.document = list_selectors.army_list_document(army_list)
    report = list_selectors.army_list_report(army_list)
    army_list_summary_store(army_list=army_list, report=report)  # what "My lists" shows of it
    army_list.report = report.as_dict()
    return serializer(army_list).data


def detail_response(army_list: ArmyList, status_code: int = 200, serializer=ListDetailOutputSerializer) -> Response:
    response = Response(_detail(army_list, serializer), status=status_code)
    response["ETag"] = etag(army_list.version)
    if status_code == 201:
        response["Location"] = reverse("api:list-detail", kwargs={"public_id": army_list.public_id})
    return response


def export_response(army_list: ArmyList) -> HttpResponse:
    exported = list_json(army_list)
    response = HttpResponse(exported.content, content_type=exported.content_type)
    response["Content-Disposition"] = attachment(exported.filename)
    response["ETag"] = etag(army_list.version)
    return response


# --- input ----------------------------------------------------------------------------------------

class HandbookRefInputSerializer(InputSerializer):
    code = StrictCharField(max_length=120)
    revision = StrictIntegerField(min_value=1, max_value=selectors.MAX_INDEX)


def _variant_checked(handbook: hb.Handbook, variant: str | None) -> str:
    try:
        return services.variant_checked(handbook, variant)
    except services.ListOperationError as exc:
        raise serializers.ValidationError({"variant": [f"{exc}."]}) from None


# --- views ----------------------------------------------------------------------------------------

class ListApi(APIView):
    """Needs a signed-in user (token or session). Someone else's list answers 404, exactly like a missing one."""

    permission_classes = [IsAuthenticated]

    def army_list(self) -> ArmyList:
        return list_selectors.army_list_get_for_user(user=self.request.user, public_id=self.kwargs["public_id"])

    def writable(self) -> tuple[ArmyList, int | None]:
        """The list and the version the client saw: 428 without If-Match, 412 (nothing changed) when stale."""
        army_list = self.army_list()
        version = expected_version(self.request)
        if version is not None and version != army_list.version:
            raise PreconditionFailed(
                f'If-Match names version {version}, but the list is at version {army_list.version} '
                f'(ETag "{army_list.version}"); reload it first. Nothing was changed.', army_list.version)
        return army_list, version

    def valid(self, serializer_class, **context) -> dict:
        serializer = serializer_class(data=self.request.data, context={"request": self.request, **context})
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data


class ListCreateInputSerializer(InputSerializer):
    system = StrictCharField(max_length=120, help_text="Game system code, e.g. fow4.")
    handbook = StrictCharField(max_length=120, help_text="Handbook code, e.g. sample-afrika-korps.")
    revision = StrictIntegerField(required=False, min_value=1, max_value=selectors.MAX_INDEX,
                                  help_text="Handbook revision; the current one when left out.")
    name = StrictCharField(required=False, allow_blank=True, max_length=120)
    points_limit = StrictIntegerField(required=False, allow_null=True, min_value=0, max_value=MAX_POINTS)
    variant = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=120)
    year = StrictIntegerField(required=False, allow_null=True, min_value=1900, max_value=2100)

    def validate(self, data):
        books = selectors.handbooks_filter(system=data["system"]).filter(code=data["handbook"])
        books = books.filter(revision=data["revision"]) if "revision" in data else books.filter(is_current=True)
        book = books.first()
        if book is None:
            where = f" revision {data['revision']}" if "revision" in data else ""
            raise serializers.ValidationError(
                {"handbook": [f"No handbook '{data['handbook']}'{where} in system '{data['system']}'."]})
        data["handbook"] = book
        data["variant"] = _variant_checked(book, data.get("variant"))
        return data


@extend_schema(tags=["lists"])
class ListCollectionApi(ListApi):
    pagination_class = Pagination

    @extend_schema(summary="Your lists", responses={200: ListOutputSerializer(many=True), **errors(400, 404)})
    def get(self, request):
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(
            list_selectors.army_lists_visible_to(request.user).select_related("system", "handbook")
            .order_by("-updated_at", "pk"), request, view=self)
        return paginator.get_paginated_response(ListOutputSerializer(page, many=True).data)

    @extend_schema(summary="Create a list", request=ListCreateInputSerializer,
                   responses={201: ListDetailOutputSerializer, **errors(*BODY_ERRORS, 403)})
    def post(self, request):
        data = self.valid(ListCreateInputSerializer)
        army_list = services.army_list_create(owner=request.user, handbook=data["handbook"],
                                              name=data.get("name", ""), points_limit=data.get("points_limit"),
                                              variant=data["variant"], year=data.get("year"))
        return detail_response(army_list, 201)


class ListUpdateInputSerializer(InputSerializer):
    name = StrictCharField(required=False, max_length=120)
    points_limit = StrictIntegerField(required=False, allow_null=True, min_value=0, max_value=MAX_POINTS)
    variant = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=120,
                              help_text="A variant code of the list's handbook; null or empty for none.")
    year = StrictIntegerField(required=False, allow_null=True, min_value=1900, max_value=2100)
    notes = StrictCharField(required=False, allow_blank=True, max_length=MAX_NOTES, trim_whitespace=False)
    visibility = StrictChoiceField(required=False, choices=["private", "shared"])

    def validate(self, data):
        if not data:
            raise serializers.ValidationError(
                "Nothing to change: send at least one of name, points_limit, variant, year, notes, visibility.")
        if "variant" in data:
            data["variant"] = _variant_checked(self.context["army_list"].handbook, data["variant"])
        return data


@extend_schema(tags=["lists"])
class ListDetailApi(ListApi):
    @extend_schema(summary="A list with its JSON document and check report (ETag = version)",
                   responses={200: ListDetailOutputSerializer, **errors(404)})
    def get(self, request, public_id):
        return detail_response(self.army_list())

    @extend_schema(summary="Change name, points limit, variant, year, notes or visibility",
                   parameters=[IF_MATCH], request=ListUpdateInputSerializer,
                   responses={200: ListDetailOutputSerializer, **errors(*WRITE_ERRORS)})
    def patch(self, request, public_id):
        army_list, version = self.writable()
        data = self.valid(ListUpdateInputSerializer, army_list=army_list)
        army_list = services.army_list_update(army_list=army_list, expected_version=version, **data)
        return detail_response(army_list)

    @extend_schema(summary="Delete a list", parameters=[IF_MATCH],
                   responses={204: OpenApiResponse(description="Deleted."),
                              **errors(400, 403, 404, 412, 428)})
    def delete(self, request, public_id):
        army_list, version = self.writable()
        services.army_list_delete(army_list=army_list, expected_version=version)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["lists"])
class ListShareLinkApi(ListApi):
    @extend_schema(summary="A new share link for a shared list: the old share_token stops working at once",
                   parameters=[IF_MATCH], request=None,
                   responses={200: ListDetailOutputSerializer, **errors(*WRITE_ERRORS)})
    def post(self, request, public_id):
        army_list, version = self.writable()
        army_list = services.army_list_new_share_link(army_list=army_list, expected_version=version)
        return detail_response(army_list)


class CopyInputSerializer(InputSerializer):
    name = StrictCharField(required=False, max_length=120, help_text='Name of the copy; "Copy of …" when left out.')


class ImportThrottle(ScopedUserThrottle):
    scope = "lists_import"


@extend_schema(tags=["lists"])
class ListCopyApi(ListApi):
    throttle_classes = [ImportThrottle]

    @extend_schema(summary="Copy one of your lists", request=CopyInputSerializer,
                   responses={201: ListDetailOutputSerializer, **errors(*BODY_ERRORS, 403, 404, 429)})
    def post(self, request, public_id):
        source = self.army_list()
        data = self.valid(CopyInputSerializer)
        copy = services.army_list_copy(army_list=source, owner=request.user, name=data.get("name"))
        return detail_response(copy, 201)


@extend_schema(tags=["lists"])
class ListExportApi(ListApi):
    @extend_schema(operation_id="lists_export_json", summary="Download the list as a JSON document (format v1)",
                   responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description="The list document."),
                              **errors(404)})
    def get(self, request, public_id):
        return export_response(self.army_list())


@extend_schema(tags=["lists"])
class ListImportApi(ListApi):
    parser_classes = [ListDocumentParser]
    throttle_classes = [ImportThrottle]

    @extend_schema(summary="Import a list from a JSON document; 400 lists every problem with its pointer",
                   request=OpenApiTypes.OBJECT,
                   responses={201: ListDetailOutputSerializer, **errors(*BODY_ERRORS, 403, 429)})
    def post(self, request):
        army_list = services.army_list_import(doc=request.data, owner=request.user)
        return detail_response(army_list, 201)


# --- the builder's operations ---------------------------------------------------------------------

def _formation_at_pointer(army_list: ArmyList, pointer: str, field: str):
    match = _FORMATION_POINTER.fullmatch(pointer)
    if match is None:
        raise serializers.ValidationError(
            {field: [f"Expected a formation pointer like /formations/0, got {pointer!r}."]})
    try:
        return selectors.list_formation_at(army_list=army_list, index=int(match.group(1)))
    except Http404 as exc:
        raise serializers.ValidationError({field: [str(exc)]}) from exc


class FormationAddInputSerializer(InputSerializer):
    formation = StrictCharField(max_length=120, help_text="Formation code.")
    allied = StrictBooleanField(required=False, default=False, help_text="Add it as an Allied Formation.")
    handbook = HandbookRefInputSerializer(required=False, help_text="The book it comes from, if not the list's own "
                                                                    "(allies).")
    parent = StrictCharField(required=False, max_length=40, help_text="Operation WW2: pointer to the formation "
                                                                      "whose options buy it, e.g. /formations/0.")
    via_box = StrictCharField(required=False, max_length=120, help_text="Operation WW2: that formation's options "
                                                                        "box code.")

    def validate(self, data):
        army_list = self.context["army_list"]
        if "handbook" in data:
            ref = data["handbook"]
            book = hb.Handbook.objects.filter(system=army_list.system, code=ref["code"],
                                              revision=ref["revision"]).first()
            if book is None:
                raise serializers.ValidationError({"handbook": [
                    f"No {army_list.system.name} handbook '{ref['code']}' revision {ref['revision']}."]})
            data["handbook"] = book
        if "parent" in data:
            if "via_box" not in data:
                raise serializers.ValidationError({"via_box": ["Required with parent."]})
            data["parent"] = _formation_at_pointer(army_list, data["parent"], "parent")
        return data


class BuilderApi(ListApi):
    def done(self, army_list: ArmyList) -> Response:
        army_list.refresh_from_db()
        return detail_response(army_list)


@extend_schema(tags=["builder"])
class FormationAddApi(BuilderApi):
    @extend_schema(summary="Add a formation", parameters=[IF_MATCH], request=FormationAddInputSerializer,
                   responses={200: ListDetailOutputSerializer, **errors(*WRITE_ERRORS)})
    def post(self, request, public_id):
        army_list, version = self.writable()
        data = self.valid(FormationAddInputSerializer, army_list=army_list)
        services.army_list_add_formation(army_list=army_list, formation_code=data["formation"],
                                         handbook=data.get("handbook"), allied=data["allied"],
                                         parent=data.get("parent"), via_box_code=data.get("via_box"),
                                         expected_version=version)
        return self.done(army_list)


@extend_schema(tags=["builder"])
class FormationRemoveApi(BuilderApi):
    @extend_schema(summary="Remove a formation and everything in it", parameters=[IF_MATCH],
                   responses={200: ListDetailOutputSerializer, **errors(*WRITE_ERRORS)})
    def delete(self, request, public_id, formation: int):
        army_list, version = self.writable()
        services.army_list_remove_formation(
            army_list=army_list, list_formation=selectors.list_formation_at(army_list=army_list, index=formation),
            expected_version=version)
        return self.done(army_list)


class UnitPickInputSerializer(InputSerializer):
    box = StrictCharField(max_length=120, help_text="Box code: '<formation>/<box>', or 'force/<box>' for support.")
    unit = StrictCharField(max_length=120, help_text="Unit code.")
    size = StrictCharField(required=False, allow_null=True, max_length=120,
                           help_text="Size option code; may be left out when the unit has one size.")


@extend_schema(tags=["builder"])
class UnitPickApi(BuilderApi):
    @extend_schema(summary="Put a unit in a box of a formation (or, under /support/, a support box)",
                   parameters=[IF_MATCH], request=UnitPickInputSerializer,
                   responses={200: ListDetailOutputSerializer, **errors(*WRITE_ERRORS)})
    def post(self, request, public_id, formation: int | None = None):
        army_list, version = self.writable()
        list_formation = None
        if formation is not None:
            list_formation = selectors.list_formation_at(army_list=army_list, index=formation)
        data = self.valid(UnitPickInputSerializer)
        services.army_list_pick_unit(army_list=army_list, list_formation=list_formation, box_code=data["box"],
                                     unit_code=data["unit"], size_code=data.get("size"), expected_version=version)
        return self.done(army_list)


class UnitApi(BuilderApi):
    def list_unit(self, army_list):
        return selectors.list_unit_at(army_list=army_list, formation_index=self.kwargs.get("formation"),
                                      index=self.kwargs["unit"])


@extend_schema(tags=["builder"])
class UnitRemoveApi(UnitApi):
    @extend_schema(summary="Remove a unit", parameters=[IF_MATCH],
                   responses={200: ListDetailOutputSerializer, **errors(*WRITE_ERRORS)})
    def delete(self, request, public_id, unit: int, formation: int | None = None):
        army_list, version = self.writable()
        services.army_list_remove_unit(army_list=army_list, list_unit=self.list_unit(army_list),
                                       expected_version=version)
        return self.done(army_list)


class SizeInputSerializer(InputSerializer):
    size = StrictCharField(max_length=120, help_text="Size option code of the unit.")


@extend_schema(tags=["builder"])
class UnitSizeApi(UnitApi):
    @extend_schema(summary="Set a unit's size", parameters=[IF_MATCH], request=SizeInputSerializer,
                   responses={200: ListDetailOutputSerializer, **errors(*WRITE_ERRORS)})
    def put(self, request, public_id, unit: int, formation: int | None = None):
        army_list, version = self.writable()
        list_unit = self.list_unit(army_list)
        data = self.valid(SizeInputSerializer)
        services.army_list_set_size(army_list=army_list, list_unit=list_unit, size_code=data["size"],
                                    expected_version=version)
        return self.done(army_list)


class UpgradeInputSerializer(InputSerializer):
    upgrade = StrictCharField(max_length=241, help_text="'<group>/<option>', e.g. skirts/schurzen.")
    quantity = StrictIntegerField(min_value=0, max_value=100, help_text="How many; 0 drops the option.")


@extend_schema(tags=["builder"])
class UnitUpgradeApi(UnitApi):
    @extend_schema(summary="Take an option (quantity ≥ 1) or drop it (quantity 0)", parameters=[IF_MATCH],
                   request=UpgradeInputSerializer,
                   responses={200: ListDetailOutputSerializer, **errors(*WRITE_ERRORS)})
    def put(self, request, public_id, unit: int, formation: int | None = None):
        army_list, version = self.writable()
        list_unit = self.list_unit(army_list)
        data = self.valid(UpgradeInputSerializer)
        services.army_list_set_upgrade(army_list=army_list, list_unit=list_unit, upgrade_code=data["upgrade"],
                                       quantity=data["quantity"], expected_version=version)
        return self.done(army_list)


class SelectionInputSerializer(InputSerializer):
    holder = StrictCharField(max_length=40, allow_blank=True, required=False, default="",
                             help_text="What holds the selections: '' for the force, /formations/N, "
                                       "/formations/N/units/M, /support/M or /cards/K.")
    at = serializers.ListField(child=StrictIntegerField(min_value=0, max_value=9999), max_length=16, required=False,
                               default=list, help_text="Child indices from the holder down to the selection the "
                                                       "choice is made under ([] for the holder itself).")
    entry = StrictCharField(max_length=400, help_text="The entry's path under that selection, as the list "
                                                      "document writes it ('link::entry' or the entry id).")
    number = StrictIntegerField(min_value=0, max_value=10000, help_text="How many; 0 removes it.")

    def validate_holder(self, value):
        if value and not re.fullmatch(r"/(formations|support|cards)/\d{1,4}(/units/\d{1,4})?", value):
            raise serializers.ValidationError("not a pointer to a formation, unit or card")
        return value


@extend_schema(tags=["builder"])
class SelectionApi(BuilderApi):
    @extend_schema(summary="Choose how many of an entry under a selection (books imported from BattleScribe)",
                   description="A choice in a pick-one group replaces the one made there; a new choice comes with "
                               "its own compulsory choices.",
                   parameters=[IF_MATCH], request=SelectionInputSerializer,
                   responses={200: ListDetailOutputSerializer, **errors(*WRITE_ERRORS)})
    def put(self, request, public_id):
        army_list, version = self.writable()
        data = self.valid(SelectionInputSerializer)
        services.army_list_set_selection(army_list=army_list, pointer=data["holder"], at=tuple(data["at"]),
                                         entry=data["entry"], number=data["number"], expected_version=version)
        return self.done(army_list)


class CardAddInputSerializer(InputSerializer):
    card = StrictCharField(max_length=120, help_text="Command card code.")
    target = StrictCharField(required=False, max_length=60,
                             help_text="For a formation or unit card: /formations/0, /formations/0/units/1 or "
                                       "/support/0.")

    def validate(self, data):
        data["target_formation"] = data["target_unit"] = None
        pointer = data.get("target")
        if pointer is None:
            return data
        army_list = self.context["army_list"]
        if _FORMATION_POINTER.fullmatch(pointer):
            data["target_formation"] = _formation_at_pointer(army_list, pointer, "target")
            return data
        match = _UNIT_POINTER.fullmatch(pointer)
        if match is None:
            raise serializers.ValidationError({"target": [
                f"Expected a pointer like /formations/0, /formations/0/units/1 or /support/0, got {pointer!r}."]})
        formation_index = int(match.group(1)) if match.group(1) is not None else None
        index = int(match.group(2) if match.group(2) is not None else match.group(3))
        try:
            data["target_unit"] = selectors.list_unit_at(army_list=army_list, formation_index=formation_index,
                                                         index=index)
        except Http404 as exc:
            raise serializers.ValidationError({"target": [str(exc)]}) from exc
        return data


@extend_schema(tags=["builder"])
class CardAddApi(BuilderApi):
    @extend_schema(summary="Add a command card", parameters=[IF_MATCH], request=CardAddInputSerializer,
                   responses={200: ListDetailOutputSerializer, **errors(*WRITE_ERRORS)})
    def post(self, request, public_id):
        army_list, version = self.writable()
        data = self.valid(CardAddInputSerializer, army_list=army_list)
        services.army_list_add_card(army_list=army_list, card_code=data["card"],
                                    target_formation=data["target_formation"], target_unit=data["target_unit"],
                                    expected_version=version)
        return self.done(army_list)


@extend_schema(tags=["builder"])
class CardRemoveApi(BuilderApi):
    @extend_schema(summary="Remove a command card", parameters=[IF_MATCH],
                   responses={200: ListDetailOutputSerializer, **errors(*WRITE_ERRORS)})
    def delete(self, request, public_id, card: int):
        army_list, version = self.writable()
        services.army_list_remove_card(army_list=army_list,
                                       list_card=selectors.list_card_at(army_list=army_list, index=card),
                                       expected_version=version)
        return self.done(army_list)


# --- shared lists ---------------------------------------------------------------------------------

class SharedApi(APIView):
    def army_list(self) -> ArmyList:
        return list_selectors.army_list_get_shared(share_token=self.kwargs["share_token"])


@extend_schema(tags=["shared lists"])
class SharedDetailApi(SharedApi):
    permission_classes = [AllowAny]

    @extend_schema(summary="A shared list, read-only, for anyone with the link",
                   responses={200: SharedListOutputSerializer, **errors(404)})
    def get(self, request, share_token):
        return detail_response(self.army_list(), serializer=SharedListOutputSerializer)


@extend_schema(tags=["shared lists"])
class SharedExportApi(SharedApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="shared_export_json", summary="Download a shared list as a JSON document",
                   responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description="The list document."),
                              **errors(404)})
    def get(self, request, share_token):
        return export_response(self.army_list())


@extend_schema(tags=["shared lists"])
class SharedCopyApi(SharedApi):
    permission_classes = [IsAuthenticated]
    throttle_classes = [ImportThrottle]

    @extend_schema(summary="Copy a shared list into your own lists", request=CopyInputSerializer,
                   responses={201: ListDetailOutputSerializer, **errors(*BODY_ERRORS, 403, 404, 429)})
    def post(self, request, share_token):
        source = self.army_list()
        serializer = CopyInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        copy = services.army_list_copy(army_list=source, owner=request.user, name=serializer.validated_data.get("name"))
        return detail_response(copy, 201)

