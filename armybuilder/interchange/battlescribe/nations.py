"""Which nation a Flames of War catalogue belongs to, from its name."""
from __future__ import annotations

import re

# (pattern in the catalogue name, nation code, nation name, side); first match wins.
NATION_RULES: list[tuple[str, str, str, str]] = [
    (r"waffen|german|afrika korps|fallschirmj", "germany", "Germany", "Axis"),
    (r"finnish|finland|white death", "finland", "Finland", "Axis"),
    (r"hungar", "hungary", "Hungary", "Axis"),
    (r"romania", "romania", "Romania", "Axis"),
    (r"avanti|ital", "italy", "Italy", "Axis"),
    (r"japan", "japan", "Japan", "Axis"),
    (r"soviet|russia", "soviet-union", "Soviet Union", "Allies"),
    (r"australia", "australia", "Australia", "Allies"),
    (r"british|britain|armoured fist|desert rat", "britain", "Britain", "Allies"),
    (r"americ|\bus\b|u\.s\.|fighting first|all american", "usa", "United States", "Allies"),
    (r"fortification", "any", "Any nation", ""),
]

PERIODS = [(r"^mid-war|^mw\b", "Mid-War"), (r"^late-war|^lwl?\b", "Late-War"), (r"^pw\b|pacific", "Pacific"),
           (r"^early-war|^ew\b", "Early-War")]


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "unknown"


def nation_for(name: str, source: str = "") -> tuple[str, str, str, bool]:
    """(code, name, side, matched) for a catalogue name; an unknown name gets a slug nation."""
    text = f"{name} {source}".lower()
    for pattern, code, nation, side in NATION_RULES:
        if re.search(pattern, text):
            return code, nation, side, True
    tail = re.split(r"[:\-]", name)[-1].strip() or name
    return slug(tail)[:60], tail[:120], "", False


def period_for(name: str, source: str = "") -> str:
    for text in (name.lower(), source.lower()):
        for pattern, period in PERIODS:
            if re.search(pattern, text):
                return period
    return ""
