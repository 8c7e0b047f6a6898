"""The tamper-evident verification code printed on every roster page, and its QR code.

The code is the start of the SHA-256 of the list's canonical JSON (the same
document the builder exports). Any change to the list — a unit, an option, a
card, even its name — gives another code, so an organiser can check a printed
roster against the list file the player submitted.
"""
import hashlib
import json
import re
from functools import lru_cache

import segno

CODE_HEX_DIGITS = 12
_SEPARATORS = re.compile(r"[\s\-_.:]+")
_HEX = re.compile(r"[0-9a-f]+")


class BadCode(ValueError):
    """The text is not a verification code (wrong length or characters)."""


def canonical_json(document: dict) -> str:
    """The one text a list document has: sorted keys, no spaces, UTF-8 kept as is."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def list_code(document: dict) -> str:
    """The verification code of a list document, grouped for reading aloud: '3F2A-91C0-7B4E'."""
    digest = hashlib.sha256(canonical_json(document).encode("utf-8")).hexdigest()[:CODE_HEX_DIGITS]
    return format_code(digest)


def format_code(hex_digits: str) -> str:
    hex_digits = hex_digits.upper()
    return "-".join(hex_digits[i:i + 4] for i in range(0, len(hex_digits), 4))


def normalize_code(text: str) -> str:
    """A code as typed (any case, spaces or dashes) -> 'XXXX-XXXX-XXXX'; BadCode if it cannot be one."""
    compact = _SEPARATORS.sub("", (text or "").strip()).lower()
    if len(compact) != CODE_HEX_DIGITS or not _HEX.fullmatch(compact):
        raise BadCode(f"'{(text or '').strip()[:40]}' is not a verification code: it has "
                      f"{CODE_HEX_DIGITS} letters and digits (0-9, A-F), like 3F2A-91C0-7B4E")
    return format_code(compact)


def code_matches(code: str, document: dict) -> bool:
    """Whether a printed code belongs to this document. BadCode if the code is malformed."""
    return normalize_code(code) == list_code(document)


@lru_cache(maxsize=64)
def qr_svg_data_uri(url: str) -> str:
    """A QR code for a URL as an SVG data URI (vector, so sharp at any print size)."""
    return segno.make(url, error="m").svg_data_uri(scale=1, border=0, omitsize=False)
