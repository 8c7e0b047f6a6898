"""Which imported books may ally: a table of ours (BSData holds no such thing), read from a data file.

The file (``handbooks/battlescribe/allies.yaml`` by default; format in docs/battlescribe-import.md) maps a
period and a nation to the nations whose books of the same period it may take Allied Formations from.
A malformed table is an import error that says where it is wrong; nothing is guessed.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import yaml

DEFAULT_PATH = Path(__file__).resolve().parents[3] / "handbooks" / "battlescribe" / "allies.yaml"
MAX_BYTES = 64 * 1024


class AlliesTableError(ValueError):
    """The allies table cannot be used: says the file and the place."""


@dataclass(frozen=True)
class AlliesTable:
    source: str
    periods: dict = field(default_factory=dict)  # period -> nation code -> tuple of nation codes

    def allies_of(self, period: str, nation: str) -> tuple[str, ...]:
        return tuple(self.periods.get(period, {}).get(nation, ()))

    @property
    def digest(self) -> str:
        """What the table says (not how its file is written): books made with another digest get other allies."""
        said = {period: {nation: list(allies) for nation, allies in sorted(table.items())}
                for period, table in sorted(self.periods.items())}
        return hashlib.sha256(json.dumps(said, sort_keys=True).encode()).hexdigest()


def read_allies_table(path: Path | None = None) -> AlliesTable:
    path = Path(path or DEFAULT_PATH)
    where = str(path)
    try:
        raw = path.read_bytes()
    except (OSError, ValueError) as exc:  # ValueError: a path no file can have (a NUL byte in it)
        raise AlliesTableError(f"{where!r}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    if len(raw) > MAX_BYTES:
        raise AlliesTableError(f"{where}: {len(raw)} bytes; an allies table is at most {MAX_BYTES}")
    try:
        doc = yaml.safe_load(raw)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" line {mark.line + 1}" if mark is not None else ""
        raise AlliesTableError(f"{where}{line}: not valid YAML") from None
    if not isinstance(doc, dict) or doc.get("version") != 1:
        raise AlliesTableError(f"{where}: expected a mapping with 'version: 1' and 'periods'")
    periods = doc.get("periods")
    if not isinstance(periods, dict):
        raise AlliesTableError(f"{where}: 'periods' must map a period to nations")
    out: dict = {}
    for period, nations in periods.items():
        if not isinstance(period, str) or not isinstance(nations, dict):
            raise AlliesTableError(f"{where}: periods.{period}: must map nation codes to lists of nation codes")
        table = {}
        for nation, allies in nations.items():
            if not isinstance(nation, str) or not isinstance(allies, list) or \
                    not all(isinstance(a, str) and a for a in allies):
                raise AlliesTableError(f"{where}: periods.{period}.{nation}: must be a list of nation codes")
            if nation in allies:
                raise AlliesTableError(f"{where}: periods.{period}.{nation}: a nation cannot ally with itself")
            table[nation] = tuple(dict.fromkeys(allies))
        out[period] = table
    return AlliesTable(source=where, periods=out)
