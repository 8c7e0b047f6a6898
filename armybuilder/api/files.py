"""Files out and in: the roster PDF and BattleScribe rosters (.ros / .rosz), for saved and shared lists.

They wrap the services of printing and BattleScribe rosters (armybuilder.services.printing.services,
armybuilder.services.rosters); nothing here renders or parses.
"""
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import APIException
from rest_framework.parsers import BaseParser
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response

from armybuilder.downloads import attachment
from armybuilder.interchange.battlescribe.roster import MAX_ROSTER_BYTES
from armybuilder.services.exports import list_pdf, list_roster
from armybuilder.services.printing.render import PAPERS, PrintOptionsError
from armybuilder.services.rosters import BattleScribeRosterError, roster_import

from .conditional import etag
from .exceptions import PayloadTooLarge, ProblemsError
from .lists import ListApi, ListDetailOutputSerializer, SharedApi, _detail
from .openapi import errors
from .throttles import ScopedUserThrottle


class NotExportable(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "This list cannot be written in that format."
    default_code = "not_exportable"


class _FileRenderer(BaseRenderer):
    """Lets a client ask for the file type in Accept; errors are still JSON."""

    charset = None

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data if isinstance(data, bytes) else JSONRenderer().render(data)


class PdfRenderer(_FileRenderer):
    media_type = "application/pdf"
    format = "pdf"


class XmlRenderer(_FileRenderer):
    media_type = "application/xml"
    format = "ros"


class ZipRenderer(_FileRenderer):
    media_type = "application/zip"
    format = "rosz"


class RosterParser(BaseParser):
    """A roster file as the raw body: .ros XML, a .rosz zip, or a New Recruit JSON roster."""

    media_type = "*/*"

    def parse(self, stream, media_type=None, parser_context=None):
        data = stream.read(MAX_ROSTER_BYTES + 1) if stream is not None else b""
        if len(data) > MAX_ROSTER_BYTES:
            raise PayloadTooLarge(f"The roster is larger than {MAX_ROSTER_BYTES} bytes; a roster may be at most "
                                  f"{MAX_ROSTER_BYTES} bytes. Nothing was read or saved.")
        return data


class PdfThrottle(ScopedUserThrottle):
    scope = "pdf"


class RosterThrottle(ScopedUserThrottle):
    scope = "lists_import"


class RosterFilterSerializer(serializers.Serializer):
    paper = serializers.ChoiceField(choices=sorted(PAPERS), required=False, default="a4")
    cards = serializers.ChoiceField(choices=["true", "false"], required=False, default="true",
                                    help_text="false: the roster without unit cards.")


def file_response(content: bytes, content_type: str, filename: str, version: int) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = attachment(filename)
    response["ETag"] = etag(version)
    return response


def pdf_response(view, army_list) -> HttpResponse:
    options = RosterFilterSerializer(data=view.request.query_params.dict())
    options.is_valid(raise_exception=True)
    paper = options.validated_data["paper"]
    try:
        exported = list_pdf(army_list, paper=paper, cards=options.validated_data["cards"] == "true")
    except PrintOptionsError as exc:
        raise ProblemsError([{"pointer": "", "message": str(exc)}]) from exc
    return file_response(exported.content, exported.content_type, exported.filename, army_list.version)


def ros_response(army_list, *, zipped: bool) -> HttpResponse:
    try:
        exported = list_roster(army_list, zipped=zipped)
    except BattleScribeRosterError as exc:
        raise NotExportable("; ".join(exc.problems) or str(exc)) from exc
    return file_response(exported.content, exported.content_type, exported.filename, army_list.version)


PDF = OpenApiResponse(OpenApiTypes.BINARY, description="The roster as a PDF (application/pdf).")
ROS = OpenApiResponse(OpenApiTypes.BINARY, description="A BattleScribe roster.")
NOT_EXPORTABLE = OpenApiResponse(description="The list's book did not come from BattleScribe data, so it has no "
                                             ".ros form. JSON: {detail, problems}.")
PDF_PARAMS = [OpenApiParameter("paper", str, enum=sorted(PAPERS)),
              OpenApiParameter("cards", str, enum=["true", "false"])]


@extend_schema(tags=["lists"])
class ListPdfApi(ListApi):
    renderer_classes = [PdfRenderer, JSONRenderer]
    throttle_classes = [PdfThrottle]

    @extend_schema(operation_id="lists_roster_pdf", summary="The list's roster as a PDF", parameters=PDF_PARAMS,
                   responses={(200, "application/pdf"): PDF, **errors(400, 404, 429)})
    def get(self, request, public_id):
        return pdf_response(self, self.army_list())


@extend_schema(tags=["shared lists"])
class SharedPdfApi(SharedApi):
    permission_classes = [AllowAny]
    renderer_classes = [PdfRenderer, JSONRenderer]
    throttle_classes = [PdfThrottle]

    @extend_schema(operation_id="shared_roster_pdf", summary="A shared list's roster as a PDF",
                   parameters=PDF_PARAMS, responses={(200, "application/pdf"): PDF, **errors(400, 404, 429)})
    def get(self, request, share_token):
        return pdf_response(self, self.army_list())


@extend_schema(tags=["lists"])
class ListRosApi(ListApi):
    renderer_classes = [XmlRenderer, JSONRenderer]

    @extend_schema(operation_id="lists_export_ros", summary="The list as a BattleScribe roster (.ros XML)",
                   responses={(200, "application/xml"): ROS, **errors(404),
                              (409, "application/json"): NOT_EXPORTABLE})
    def get(self, request, public_id):
        return ros_response(self.army_list(), zipped=False)


@extend_schema(tags=["lists"])
class ListRoszApi(ListApi):
    renderer_classes = [ZipRenderer, JSONRenderer]

    @extend_schema(operation_id="lists_export_rosz", summary="The list as a zipped BattleScribe roster (.rosz)",
                   responses={(200, "application/zip"): ROS, **errors(404),
                              (409, "application/json"): NOT_EXPORTABLE})
    def get(self, request, public_id):
        return ros_response(self.army_list(), zipped=True)


class RosterImportOutputSerializer(ListDetailOutputSerializer):
    warnings = serializers.ListField(child=serializers.CharField(), read_only=True,
                                     help_text="Selections of the roster that could not be imported, cost "
                                               "differences and the like.")

    class Meta(ListDetailOutputSerializer.Meta):
        fields = ListDetailOutputSerializer.Meta.fields + ["warnings"]


@extend_schema(tags=["lists"])
class ListRosImportApi(ListApi):
    parser_classes = [RosterParser]
    throttle_classes = [RosterThrottle]

    @extend_schema(operation_id="lists_import_ros",
                   summary="Import a BattleScribe roster (.ros XML, .rosz zip or New Recruit JSON) as a new list",
                   request={"application/octet-stream": OpenApiTypes.BINARY},
                   responses={201: RosterImportOutputSerializer, **errors(400, 403, 413, 429)})
    def post(self, request):
        data = request.data
        if not isinstance(data, bytes) or not data:
            raise ProblemsError([{"pointer": "", "message": "send the roster file as the request body"}])
        source = "roster.rosz" if data[:2] == b"PK" else ("roster.json" if data.lstrip()[:1] in (b"{", b"[")
                                                           else "roster.ros")
        try:
            result = roster_import(data=data, source=source, owner=request.user)
        except BattleScribeRosterError as exc:
            raise ProblemsError([{"pointer": "", "message": p} for p in exc.problems] or
                                [{"pointer": "", "message": str(exc)}]) from exc
        army_list = result.army_list
        army_list.refresh_from_db()
        army_list.warnings = result.warnings
        body = _detail(army_list, RosterImportOutputSerializer)
        response = Response(body, status=201)
        response["ETag"] = etag(army_list.version)
        return response
