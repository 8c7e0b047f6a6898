"""The import report: what was imported, and every construct that was not."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

ERROR, WARNING, INFO = "error", "warning", "info"


@dataclass(frozen=True)
class Unmapped:
    """A construct of the source that is not (fully) represented in our data."""

    severity: str  # error: a wrong price or rule would follow; warning: lost detail; info: deliberately skipped
    source: str  # file name
    id: str  # BattleScribe id (or path) of the construct
    what: str  # e.g. "modifier", "constraint", "entryLink"
    reason: str

    def __str__(self) -> str:
        return f"{self.severity.upper():7} {self.source}: {self.what} {self.id}: {self.reason}"


@dataclass
class CatalogueReport:
    source: str
    catalogue_id: str
    name: str
    revision: int = 0
    handbook_code: str = ""
    nation: str = ""
    # created | revised | updated (the system) | unchanged | library | mapped (dry run) | failed | rolled back
    status: str = ""
    counts: Counter = field(default_factory=Counter)
    unmapped: list[Unmapped] = field(default_factory=list)
    load_problems: list[str] = field(default_factory=list)
    allies: list[str] | None = None  # nations it may take Allied Formations from (the allies table), None: not given
    allies_source: str = ""

    def add(self, severity: str, ident: str, what: str, reason: str) -> None:
        self.unmapped.append(Unmapped(severity, self.source, ident, what, reason))

    def error(self, ident: str, what: str, reason: str) -> None:
        self.add(ERROR, ident, what, reason)

    def warning(self, ident: str, what: str, reason: str) -> None:
        self.add(WARNING, ident, what, reason)

    def info(self, ident: str, what: str, reason: str) -> None:
        self.add(INFO, ident, what, reason)

    @property
    def errors(self) -> list[Unmapped]:
        return [u for u in self.unmapped if u.severity == ERROR]


@dataclass
class ImportReport:
    system: CatalogueReport | None = None
    catalogues: list[CatalogueReport] = field(default_factory=list)
    read_errors: list[str] = field(default_factory=list)  # files that could not be read: nothing was written
    notes: list[str] = field(default_factory=list)  # what the import as a whole did differently, and why
    written: bool = False
    parse_seconds: float = 0.0
    map_seconds: float = 0.0
    load_seconds: float = 0.0

    def all_reports(self) -> list[CatalogueReport]:
        return ([self.system] if self.system else []) + self.catalogues

    @property
    def unmapped(self) -> list[Unmapped]:
        return [u for r in self.all_reports() for u in r.unmapped]

    @property
    def errors(self) -> list[Unmapped]:
        return [u for u in self.unmapped if u.severity == ERROR]

    @property
    def ok(self) -> bool:
        return not self.read_errors and not any(r.status == "failed" for r in self.all_reports())

    def totals(self) -> Counter:
        total: Counter = Counter()
        for r in self.all_reports():
            total.update(r.counts)
        return total

    def unmapped_summary(self) -> Counter:
        """(severity, what, reason) -> count, for a short overview."""
        return Counter((u.severity, u.what, u.reason) for u in self.unmapped)

    def lines(self, *, verbose: bool = False) -> list[str]:
        out: list[str] = []
        for err in self.read_errors:
            out.append(f"UNREADABLE {err}")
        for note in self.notes:
            out.append(f"NOTE {note}")
        for r in self.all_reports():
            counts = ", ".join(f"{k} {v}" for k, v in sorted(r.counts.items()))
            sev = Counter(u.severity for u in r.unmapped)
            out.append(f"{r.status or '-':9} {r.source} [{r.handbook_code or r.catalogue_id} rev {r.revision}"
                       f"{', nation ' + r.nation if r.nation else ''}]: {counts}; unmapped: "
                       f"{sev.get(ERROR, 0)} error(s), {sev.get(WARNING, 0)} warning(s), {sev.get(INFO, 0)} info")
            if r.allies is not None:
                out.append(f"  allies ({r.allies_source}): {', '.join(r.allies) or 'none'}")
            for p in r.load_problems:
                out.append(f"  LOAD {p}")
            if verbose:
                out.extend(f"  {u}" for u in r.unmapped)
            else:
                out.extend(f"  {u}" for u in r.unmapped if u.severity == ERROR)
        return out
