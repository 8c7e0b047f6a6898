"""POST /api/v1/check: check a list document without saving it. Anyone may call it, within a rate limit."""
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from armybuilder.lists.selectors import list_document_report

from .openapi import BODY_ERRORS, errors
from .parsers import ListDocumentParser
from .reports import ReportOutputSerializer, report_data
from .throttles import CheckAnonThrottle, CheckUserThrottle


@extend_schema(tags=["check"])
class CheckApi(APIView):
    permission_classes = [AllowAny]
    parser_classes = [ListDocumentParser]
    throttle_classes = [CheckAnonThrottle, CheckUserThrottle]

    @extend_schema(
        summary="Check a list document (JSON format v1) without saving it",
        description="The body is a list document (docs/list-format.md, schema at /schemas/list.schema.json). "
                    "A document that breaks the game's rules is not an error: it answers 200 with a report whose "
                    "`legal` is false and whose `issues` say what to fix. A document that cannot be read as a "
                    "list (bad JSON, schema problems, unknown codes) answers 400 with every problem and its "
                    "pointer.",
        request=OpenApiTypes.OBJECT,
        responses={200: ReportOutputSerializer, **errors(*BODY_ERRORS, 403, 429)},
    )
    def post(self, request):
        _force, report = list_document_report(request.data)
        return Response(report_data(report))
