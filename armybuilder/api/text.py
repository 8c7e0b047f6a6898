"""The list as text for forums and chat (plain text, Markdown, BBCode): a format of the list export.

Wraps armybuilder.services.exports.list_text; nothing here writes the text.
"""
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer

from armybuilder.downloads import attachment
from armybuilder.services.exports import TEXT_FLAVOURS as FLAVOURS
from armybuilder.services.exports import list_text

from .conditional import etag
from .files import _FileRenderer
from .lists import ListApi
from .openapi import errors


class TextRenderer(_FileRenderer):
    media_type = "text/plain"
    format = "txt"


class TextFilterSerializer(serializers.Serializer):
    # not "format": DRF reads ?format= to choose a renderer
    style = serializers.ChoiceField(choices=sorted(FLAVOURS), required=False, default="text",
                                     help_text="text (plain), markdown or bbcode.")


TEXT = OpenApiResponse(OpenApiTypes.STR, description="The list as UTF-8 text: every formation, unit, size, option, "
                                                     "command card and points figure.")


@extend_schema(tags=["lists"])
class ListTextApi(ListApi):
    renderer_classes = [TextRenderer, JSONRenderer]

    @extend_schema(operation_id="lists_export_text", summary="The list as plain text, Markdown or BBCode",
                   parameters=[OpenApiParameter("style", str, enum=sorted(FLAVOURS))],
                   responses={(200, "text/plain"): TEXT, **errors(400, 404)})
    def get(self, request, public_id):
        army_list = self.army_list()
        options = TextFilterSerializer(data=request.query_params.dict())
        options.is_valid(raise_exception=True)
        flavour = options.validated_data["style"]
        exported = list_text(army_list, flavour=flavour)
        response = HttpResponse(exported.content, content_type=exported.content_type)
        response["Content-Disposition"] = attachment(exported.filename)
        response["ETag"] = etag(army_list.version)
        return response
