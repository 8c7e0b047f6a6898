"""The Content-Disposition of every download, from a name a player typed.

A list's name may hold anything: CR/LF used to make the header invalid (a 500 on
export.ros), and a non-ASCII name was sent RFC 2047-encoded, which browsers do not
decode. Control characters become spaces, and non-ASCII names go out as RFC 6266
``filename*=utf-8''…``.
"""
import unicodedata

from django.utils.http import content_disposition_header

MAX_NAME = 100


def safe_filename(name: str, *, fallback: str = "army-list") -> str:
    cleaned = "".join(" " if unicodedata.category(c)[0] == "C" else c for c in str(name))
    cleaned = " ".join(cleaned.replace("/", "-").replace("\\", "-").split()).strip(". ")
    return cleaned[:MAX_NAME] or fallback


def attachment(filename: str) -> str:
    """The header value that makes a browser save the response as ``filename``."""
    return content_disposition_header(True, safe_filename(filename))
