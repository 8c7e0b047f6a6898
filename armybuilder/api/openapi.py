"""What the OpenAPI schema says about errors, shared by every view.

Each view lists the error statuses it can answer with ``errors(...)``; the
codes every endpoint can answer (a bad token: 401; an Accept header we cannot
satisfy: 406) are added by ``errors`` itself, so no view can forget them.
"""
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers


class ProblemSerializer(serializers.Serializer):
    pointer = serializers.CharField(help_text='JSON pointer into the request body; "" is the whole body.')
    message = serializers.CharField()


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="What went wrong, in one sentence.")
    problems = ProblemSerializer(many=True, help_text="Each problem with where it is; empty when there is no body "
                                                      "to point into.")


ERROR_DESCRIPTIONS = {
    400: "Bad request: malformed JSON, wrong types, unknown fields or codes, or an operation that makes no sense. "
         "`problems` lists every problem with its JSON pointer.",
    401: "Not authenticated, or the token is invalid.",
    403: "Authenticated but not allowed (e.g. a missing CSRF token with session authentication).",
    404: "No such object, or one you may not see (someone else's private list looks missing).",
    406: "The Accept header asks for a format this API does not produce (it produces JSON).",
    412: "If-Match names an older version of the list: someone changed it. Nothing was changed; the response "
         "carries the current ETag.",
    413: "The request body is too large.",
    415: "The body is not JSON (send Content-Type: application/json).",
    428: "A write without an If-Match header.",
    429: "Too many requests; the Retry-After header says when to try again.",
}

def errors(*codes: int, no_401: bool = False) -> dict:
    """Responses for these error codes, plus 406 (any endpoint) and 401 (any endpoint that reads tokens)."""
    always = {406} if no_401 else {401, 406}
    return {code: OpenApiResponse(ErrorSerializer, description=ERROR_DESCRIPTIONS[code])
            for code in sorted(set(codes) | always)}


# Everything a body-carrying request can add.
BODY_ERRORS = (400, 413, 415)
# Everything a write to an existing list can add.
WRITE_ERRORS = (400, 403, 404, 412, 413, 415, 428)

IF_MATCH = OpenApiParameter(
    "If-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, required=True,
    description='The ETag from your last GET of the list, e.g. `"3"`. `*` skips the check (last write wins).',
)

ETAG_HEADER = {"ETag": {"description": 'The list\'s version, e.g. `"4"`; send it back as If-Match.',
                        "schema": {"type": "string"}}}



def forbid_unknown_request_fields(result, generator, request, public):
    """Postprocessing hook: request bodies are InputSerializers, which refuse unknown fields; say so."""
    for name, component in result.get("components", {}).get("schemas", {}).items():
        if name.endswith("Request") and component.get("type") == "object":
            component["additionalProperties"] = False
    return result
