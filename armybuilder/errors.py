"""The last word on a request that failed outside a view's own handling: JSON under /api/, a short page
elsewhere.

* ``server_error``: a request that raised. 503 when a backing service (the database, the cache) is down,
  500 for a bug; Django has already logged the traceback.
* ``bad_request``: what Django itself refuses before a view runs (too large, too many fields), saying which
  limit was passed instead of Django's bare "Bad Request (400)".
"""
import json
import sys

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import render
from django.template import loader

from .observability import current_request_id

try:  # Redis is only there when the cache uses it
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError
except ImportError:  # pragma: no cover
    RedisConnectionError = RedisTimeoutError = ()

UNAVAILABLE = (OperationalError, InterfaceError, RedisConnectionError, RedisTimeoutError, ConnectionError)
RETRY_AFTER_SECONDS = 30


def service_down(exc: BaseException | None) -> bool:
    return isinstance(exc, UNAVAILABLE)


def server_error(request, *args, **kwargs):
    exc = sys.exc_info()[1]
    down = service_down(exc)
    status = 503 if down else 500
    rid = current_request_id()
    if down:
        detail = (f"The service is temporarily unavailable (its database or cache does not answer); nothing was "
                  f"changed. Try again in a minute. Request id {rid}.")
    else:
        detail = f"Something went wrong on our side; it has been logged. Request id {rid}."
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": detail, "problems": []}, status=status)
    else:
        template = loader.get_template("500.html")
        response = HttpResponse(template.render({"detail": detail, "status": status}), status=status)
    if down:
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _message(exception) -> str:
    if isinstance(exception, RequestDataTooBig):
        return (f"The form sent is larger than {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes, the most this site "
                "reads (files aside). Nothing was saved.")
    if isinstance(exception, TooManyFieldsSent):
        return f"The form sent has more than {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS} fields. Nothing was saved."
    if isinstance(exception, TooManyFilesSent):
        return f"The form sent has more than {settings.DATA_UPLOAD_MAX_NUMBER_FILES} files. Nothing was saved."
    return "The request could not be read. Nothing was saved; reload the page and try again."


def bad_request(request, exception=None):
    message = _message(exception)
    if request.path.startswith("/api/"):
        return HttpResponse(json.dumps({"detail": message, "problems": []}), status=400,
                            content_type="application/json")
    try:
        return render(request, "400.html", {"message": message}, status=400)
    except Exception:  # noqa: BLE001 - the page of last resort must not fail in turn
        return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
