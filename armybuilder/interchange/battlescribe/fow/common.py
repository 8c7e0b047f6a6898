"""Names, codes and points as the Flames of War mapping writes them, and the patterns it reads names by."""
from __future__ import annotations

import re

from armybuilder.rules.battlescribe.names import display_name, order_number

from ..report import CatalogueReport

CODE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:/-]*$")
TEAMS_RE = re.compile(r"(\d+)\s*x\b", re.I)
CARD_CODE_RE = re.compile(r"\(([A-Z]{1,4}\d{2,4}[A-Z]?)\)\s*$")
HQ_RE = re.compile(r"\bHQ\b")
SIZE_NAME_RE = re.compile(r"size|configuration", re.I)
CARD_GROUP_RE = re.compile(r"command cards?", re.I)
SCOPE_RE = re.compile(r"\[(force|formation|unit)\]", re.I)
MAX_COUNT = 100

ROLE_BY_CATEGORY_NAME = {
    "formations": "formation",
    "support units": "support",
    "support platoons": "support",
    "formation support": "formation-support",
    "wildcards": "wildcard",
    "command cards": "card",
    "allied formation": "allied-formation",
    "allied unit": "allied-unit",
}
COLUMN_BY_ROLE = {"support": "Support", "formation-support": "Formation Support", "wildcard": "Wildcards",
                  "allied-unit": "Allied", "allied-formation": "Allied"}
CARD_PROFILE_HINT = "command card"


def safe_code(ident: str) -> str:
    if CODE_RE.match(ident) and len(ident) <= 120:
        return ident
    cleaned = re.sub(r"[^A-Za-z0-9_.:/-]", "_", ident).lstrip("_.:/-") or "x"
    return cleaned[:120]


def clean_name(name: str, fallback: str = "Unnamed") -> str:
    name = " ".join((name or "").split())
    return (name or fallback)[:200]


def strip_order(name: str) -> tuple[int | None, str]:
    """The number a box or group is ordered by, and its name as shown (see rules/battlescribe/names.py)."""
    return order_number(name), display_name(name)


def as_points(value, report: CatalogueReport, ident: str, what: str) -> int:
    if isinstance(value, float) and not value.is_integer():
        report.warning(ident, what, f"cost {value} is not a whole number; rounded to {round(value)}")
        return round(value)
    return int(value)
