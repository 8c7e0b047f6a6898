"""Refuse a request body by its declared size, before anything reads it.

Django checks DATA_UPLOAD_MAX_MEMORY_SIZE only when a form body is read, and a raw
body (a roster upload) was read whole first: a 200 MB body took a worker to 283 MB.
Here Content-Length is compared with MAX_REQUEST_BYTES first; the body is not read.
(WSGI servers pass a body without Content-Length as empty, so the header is all there is.)
"""
import json

from django.conf import settings
from django.http import HttpResponse


def _answer(request, status: int, message: str) -> HttpResponse:
    if request.path.startswith("/api/"):
        body = json.dumps({"detail": message, "problems": []})
        return HttpResponse(body, status=status, content_type="application/json")
    return HttpResponse(message + "\n", status=status, content_type="text/plain; charset=utf-8")


class RequestBodyLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        declared = request.META.get("CONTENT_LENGTH") or "0"
        limit = settings.MAX_REQUEST_BYTES
        try:
            size = int(declared)
        except ValueError:
            size = -1
        if size < 0:
            return _answer(request, 400, f"The Content-Length header {declared[:40]!r} is not a size in bytes.")
        if size > limit:
            return _answer(request, 413, f"The request body is {size} bytes; this site reads at most {limit} "
                                         "bytes. Nothing was read or saved.")
        return self.get_response(request)
