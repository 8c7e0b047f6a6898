"""The last word on a request that raised: JSON under /api/, a short page elsewhere; 503 when a backing
service (the database, the cache) is down, 500 for a bug. Django has already logged the traceback."""
import sys

from django.db import InterfaceError, OperationalError
from django.http import JsonResponse
from django.template import loader
from django.http import HttpResponse

from .observability import current_request_id

try:  # Redis is only there when the cache uses it
    from redis.exceptions import ConnectionError as RedisConnectionError, TimeoutError as RedisTimeoutError
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
