"""Every error the API answers is JSON: {"detail": "...", "problems": [{"pointer": ..., "message": ...}]}.

``detail`` is one sentence a person can read; ``problems`` lists each thing wrong
with a JSON pointer into the request body ("" = the whole body), so a client can
show every problem at once. Errors from the service layer are mapped here, so
views never translate exceptions themselves.
"""
import logging

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.views import exception_handler as drf_exception_handler

from armybuilder.errors import RETRY_AFTER_SECONDS, service_down
from armybuilder.lists.listjson.document import MAX_PROBLEMS, ListDocumentError, ListProblem
from armybuilder.lists.services import ListGoneError, ListOperationError, StaleListError
from armybuilder.rules.matchups import MatchupError
from armybuilder.services.events.services import EventError, EventPermissionError

logger = logging.getLogger("armybuilder.api")


class PreconditionRequired(exceptions.APIException):
    status_code = 428
    default_detail = ('This request changes the list, so it needs an If-Match header carrying the ETag '
                      'from your last GET of the list, e.g. If-Match: "3".')
    default_code = "precondition_required"


class PreconditionFailed(exceptions.APIException):
    status_code = status.HTTP_412_PRECONDITION_FAILED
    default_detail = "The list was changed elsewhere; reload it first. Nothing was changed."
    default_code = "precondition_failed"

    def __init__(self, detail=None, current_version: int | None = None):
        super().__init__(detail)
        self.current_version = current_version


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "payload_too_large"


class ServiceUnavailable(exceptions.APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = ("The service is temporarily unavailable (its database or cache does not answer); nothing was "
                      "changed. Try again in a minute.")
    default_code = "service_unavailable"


class ProblemsError(exceptions.APIException):
    """A 400 that carries a list of (pointer, message) problems."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "invalid"

    def __init__(self, problems: list[dict], detail: str | None = None):
        self.problems = problems
        super().__init__(detail or _summary(problems))


def _short(problems: list[dict]) -> list[dict]:
    """Problems fit to send back: at most MAX_PROBLEMS, each message with long values cut (no echo of a
    megabyte the client sent)."""
    out = [ListProblem(p["pointer"], p["message"]).as_dict() for p in problems[:MAX_PROBLEMS]]
    if len(problems) > MAX_PROBLEMS:
        out.append({"pointer": "", "message": f"and {len(problems) - MAX_PROBLEMS} more problem(s) not shown"})
    return out


def _summary(problems: list[dict]) -> str:
    parts = [f"{p['pointer'] or '/'}: {p['message']}" for p in problems[:5]]
    more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
    noun = "problem" if len(problems) == 1 else "problems"
    return f"{len(problems)} {noun}: " + "; ".join(parts) + more


def _escape(key) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _flatten(detail, pointer: str = "") -> list[dict]:
    """DRF's nested validation errors -> JSON-pointer problems."""
    if isinstance(detail, dict):
        out = []
        for key, value in detail.items():
            child = pointer if key in ("non_field_errors", settings.REST_FRAMEWORK.get("NON_FIELD_ERRORS_KEY")) \
                else f"{pointer}/{_escape(key)}"
            out.extend(_flatten(value, child))
        return out
    if isinstance(detail, list):
        out = []
        for index, value in enumerate(detail):
            if isinstance(value, (dict, list)):
                out.extend(_flatten(value, f"{pointer}/{index}"))
            else:
                out.append({"pointer": pointer, "message": str(value)})
        return out
    return [{"pointer": pointer, "message": str(detail)}]


def _translate(exc):
    """Service-layer and Django exceptions -> API exceptions."""
    if service_down(exc):
        logger.error("backing service unavailable", exc_info=exc)
        return ServiceUnavailable()
    if isinstance(exc, RequestDataTooBig):
        return PayloadTooLarge(
            f"The request body is larger than {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes, the most this API reads.")
    if isinstance(exc, ListGoneError):
        return exceptions.NotFound("No such list: it was deleted.")
    if isinstance(exc, StaleListError):
        return PreconditionFailed(
            f"The list was changed elsewhere (it is now at version {exc.current_version}, "
            f'ETag "{exc.current_version}"); reload it first. Nothing was changed.', exc.current_version)
    if isinstance(exc, ListOperationError):
        return ProblemsError([{"pointer": "", "message": str(exc)}], detail=str(exc))
    if isinstance(exc, MatchupError):
        return ProblemsError([{"pointer": "", "message": str(exc)}], detail=str(exc))
    if isinstance(exc, ListDocumentError):
        return ProblemsError([p.as_dict() for p in exc.problems])
    if isinstance(exc, EventPermissionError):
        return exceptions.PermissionDenied(str(exc))
    if isinstance(exc, EventError):
        return ProblemsError([{"pointer": "", "message": str(exc)}], detail=str(exc))
    if isinstance(exc, Http404):
        return exceptions.NotFound(str(exc) if str(exc) else None)
    if isinstance(exc, PermissionDenied):
        return exceptions.PermissionDenied(str(exc) if str(exc) else None)
    return exc


def api_exception_handler(exc, context):
    exc = _translate(exc)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # a real bug: let Django log it and answer 500
    if isinstance(exc, ProblemsError):
        problems, detail = exc.problems, str(exc.detail)
    elif isinstance(exc, exceptions.ValidationError):
        problems = _short(_flatten(exc.detail))
        detail = _summary(problems) if problems else "Invalid input."
    else:
        data = response.data
        detail = str(data.get("detail", "")) if isinstance(data, dict) else str(data)
        detail = _short([{"pointer": "", "message": detail}])[0]["message"]
        problems = []
    response.data = {"detail": detail, "problems": problems}
    response.content_type = "application/json"  # also where the client asked for a PDF or a roster file
    if isinstance(exc, ServiceUnavailable):
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    if isinstance(exc, PreconditionFailed) and exc.current_version is not None:
        response["ETag"] = f'"{exc.current_version}"'
    return response
