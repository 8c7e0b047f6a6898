"""Request ids, one structured log line per request, and the log fields every record carries.

Each request gets an id: the incoming ``X-Request-ID`` when it is a sane token
(a proxy or load balancer may set one), else a new one. It is answered in the
``X-Request-ID`` header, stamped on every log record made while the request is
handled (``RequestIdFilter``), and stored with any job the request starts.
"""
import contextvars
import logging
import re
import time
import uuid

request_id_var: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")
_SANE = re.compile(r"[A-Za-z0-9._:-]{1,64}")

access_log = logging.getLogger("armybuilder.request")


def current_request_id() -> str:
    return request_id_var.get()


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` to every record (empty outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "request_id", ""):
            record.request_id = request_id_var.get()
        return True


class RequestIdMiddleware:
    """Outermost middleware: sets the request id, logs the request when it is done."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        incoming = request.headers.get("X-Request-ID", "")
        rid = incoming if _SANE.fullmatch(incoming) else uuid.uuid4().hex
        token = request_id_var.set(rid)
        request.request_id = rid
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            response["X-Request-ID"] = rid
            user = getattr(request, "user", None)
            access_log.info("%s %s %s", request.method, request.path, response.status_code, extra={
                "method": request.method, "path": request.path, "status": response.status_code,
                "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                "user_id": user.pk if user is not None and getattr(user, "is_authenticated", False) else None,
                "remote_addr": request.META.get("REMOTE_ADDR", ""),
            })
            return response
        finally:
            request_id_var.reset(token)
