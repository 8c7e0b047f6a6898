"""Optimistic locking over HTTP: ETag out, If-Match in (docs/api.md).

A list's ETag is its version, e.g. ``"3"``. Writes must send it back in
If-Match: none -> 428, a malformed one -> 400, an old one -> 412 with nothing
changed (the services compare and bump the version in one UPDATE).
"""
import re

from rest_framework.exceptions import ParseError

from .exceptions import PreconditionRequired

_ETAG = re.compile(r'"?(\d{1,9})"?')


def etag(version: int) -> str:
    return f'"{version}"'


def expected_version(request) -> int | None:
    """The version the client last saw; None for ``If-Match: *`` (no check)."""
    header = request.headers.get("If-Match")
    if header is None or not header.strip():
        raise PreconditionRequired()
    value = header.strip()
    if value == "*":
        return None
    match = _ETAG.fullmatch(value)
    if match is None:
        raise ParseError(f'If-Match must be one ETag of this list, like "3" (got {value[:40]!r}).')
    return int(match.group(1))
