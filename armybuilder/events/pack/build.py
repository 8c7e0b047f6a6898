"""From pack entries to files: one roster's artefacts, the cover and contents, the merged PDF, the CSV, the ZIPs.

Everything here works on ``PackEntry`` values (what a frozen submission says) and bytes: it reads game data
(to resolve a snapshot into a force) but writes nothing.
"""
import csv
import hashlib
import io
import json
import logging
import time
import zipfile
from dataclasses import dataclass

from django.template.loader import render_to_string
from pypdf import PdfReader, PdfWriter

from armybuilder.interchange.battlescribe.roster import RosterError as RosError
from armybuilder.interchange.battlescribe.roster_write import force_to_ros
from armybuilder.interchange.listjson.document import ListDocumentError
from armybuilder.lists.selectors import list_document_report
from armybuilder.pdf import render
from armybuilder.pdf.render import PAPERS, roster_pdf_render

logger = logging.getLogger("armybuilder.events")

# Bump when what a cached roster or a pack looks like changes: old cache entries and packs are then not reused.
FORMAT = "pack-1"
COVER_TEMPLATE = "events/pack/cover.html"
ROWS_PER_CONTENTS_PAGE = 35  # contents rows an A4 page holds (measured); the real page count is read back


@dataclass(frozen=True)
class PackEntry:
    """One approved submission as the pack prints it."""

    submission: str  # the submission's public id
    number: int  # the player's n-th submission
    list_version: int
    player: str
    list_name: str
    points: int
    card_points: int
    formations: int
    code: str  # the roster's verification code
    status: str
    legal: bool
    document: dict  # the frozen list document


@dataclass(frozen=True)
class PackEvent:
    """What the cover says about the event."""

    name: str
    date: str
    place: str
    system: str
    points_limit: int | None
    card_points: int | None
    formation_limit: int | None
    organisers: tuple[str, ...] = ()


def roster_key(entry: PackEntry, *, event_name: str, paper: str) -> str:
    """The cache key of one roster: the submission and its version, and everything printed on it."""
    parts = [FORMAT, entry.submission, str(entry.number), str(entry.list_version), entry.code, entry.player,
             event_name, paper]
    return "events:pack:roster:" + hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


def pack_digest(event: PackEvent, entries: list[PackEntry], *, paper: str) -> str:
    """What a pack depends on: the event as the cover shows it and the set of submissions with their versions."""
    parts = [FORMAT, paper, json.dumps(event.__dict__, sort_keys=True, default=str)]
    parts += [f"{e.submission}:{e.number}:{e.list_version}:{e.code}:{e.status}:{e.player}" for e in entries]
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


# -- one roster ----------------------------------------------------------------------------------------------

def page_count(pdf: bytes) -> int:
    return len(PdfReader(io.BytesIO(pdf)).pages)


def _problem_page(entry: PackEntry, problem: str, *, event_name: str, paper: str) -> bytes:
    html = render_to_string("events/pack/unprintable.html", {"entry": entry, "problem": problem,
                                                             "event": event_name, "size": PAPERS[paper]["size"]})
    return _html_pdf(html)


def roster_artefacts(entry: PackEntry, *, event_name: str, paper: str = "a4") -> dict:
    """Render one submission's roster (with unit cards) from its snapshot, and its .ros export.

    A snapshot whose books are no longer loaded cannot be drawn: its place in the pack is a page that says why,
    so one broken list never stops the pack.
    """
    started = time.perf_counter()
    ros, ros_problem, problem = None, "", ""
    try:
        force, report = list_document_report(entry.document)
    except ListDocumentError as exc:
        problem = "; ".join(str(p) for p in exc.problems[:5])
        pdf = _problem_page(entry, problem, event_name=event_name, paper=paper)
    else:
        pdf = roster_pdf_render(force=force, report=report, document=entry.document, paper=paper, cards=True,
                                player=entry.player, event=event_name)
        try:
            ros = force_to_ros(force, name=entry.list_name)
        except RosError as exc:
            ros_problem = "; ".join(str(p) for p in getattr(exc, "problems", None) or [str(exc)])[:300]
    logger.info("pack roster rendered", extra={"submission": entry.submission, "number": entry.number,
                                               "bytes": len(pdf),
                                               "duration_ms": round((time.perf_counter() - started) * 1000)})
    return {"pdf": pdf, "pages": page_count(pdf), "ros": ros, "ros_problem": ros_problem, "problem": problem}


# -- cover, contents and the merged PDF ----------------------------------------------------------------------

def _html_pdf(html: str) -> bytes:
    weasyprint, fonts, _css, fetcher = render._weasy()
    return weasyprint.HTML(string=html, url_fetcher=fetcher, base_url=None).write_pdf(font_config=fonts)


def front_pdf(event: PackEvent, entries: list[PackEntry], pages: list[int], *, paper: str) -> bytes:
    """The cover and the contents. The contents' page numbers count the front pages, so the front is drawn
    again when its own length was guessed wrong."""
    front = 1 + max(1, -(-len(entries) // ROWS_PER_CONTENTS_PAGE))
    for _ in range(3):
        rows, page = [], front + 1
        for n, (entry, count) in enumerate(zip(entries, pages), 1):
            rows.append({"n": n, "entry": entry, "page": page, "pages": count})
            page += count
        html = render_to_string(COVER_TEMPLATE, {"event": event, "rows": rows, "size": PAPERS[paper]["size"],
                                                 "players": len(entries), "total_pages": page - 1})
        pdf = _html_pdf(html)
        got = page_count(pdf)
        if got == front:
            return pdf
        front = got
    return pdf


def merge_pdf(front: bytes, rosters: list[tuple[str, bytes]]) -> bytes:
    """The front pages then each roster, with a bookmark per roster (its title: player and list)."""
    writer = PdfWriter()
    writer.append(io.BytesIO(front), import_outline=False)
    writer.add_outline_item(title="Cover and contents", page_number=0)
    for title, pdf in rosters:
        first = len(writer.pages)
        writer.append(io.BytesIO(pdf), import_outline=False)
        writer.add_outline_item(title=title, page_number=first)
    writer.page_mode = "/UseOutlines"
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


# -- CSV and ZIP ---------------------------------------------------------------------------------------------

CSV_COLUMNS = ["number", "player", "list", "points", "card_points", "formations", "verification_code", "legal",
               "status", "submission", "first_page", "pages"]


def _cell(value) -> str:
    """A spreadsheet never runs a player's text as a formula."""
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def pack_csv(entries: list[PackEntry], first_pages: list[int], pages: list[int]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for n, (entry, first, count) in enumerate(zip(entries, first_pages, pages), 1):
        writer.writerow([n, _cell(entry.player), _cell(entry.list_name), entry.points, entry.card_points,
                         entry.formations, entry.code, "yes" if entry.legal else "no", entry.status,
                         entry.submission, first, count])
    return ("\ufeff" + out.getvalue()).encode("utf-8")  # the BOM makes spreadsheets read UTF-8 names right


def safe_name(text: str, limit: int = 40) -> str:
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "-" for c in text).strip("-")[:limit] or "x"


def entry_stem(n: int, entry: PackEntry) -> str:
    return f"{n:03d}-{safe_name(entry.player)}-{safe_name(entry.list_name)}"


def lists_zip(entries: list[PackEntry], artefacts: list[dict]) -> bytes:
    """Each list as its JSON document and, when its books came from BattleScribe data, as a .ros roster."""
    out = io.BytesIO()
    notes = []
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for n, (entry, art) in enumerate(zip(entries, artefacts), 1):
            stem = entry_stem(n, entry)
            archive.writestr(f"{stem}.json", json.dumps(entry.document, indent=2, ensure_ascii=False) + "\n")
            if art.get("ros"):
                archive.writestr(f"{stem}.ros", art["ros"])
            else:
                notes.append(f"{stem}: no .ros: {art.get('ros_problem') or art.get('problem') or 'not exported'}")
        if notes:
            archive.writestr("README.txt", "Lists without a BattleScribe roster, and why:\n" + "\n".join(notes) + "\n")
    return out.getvalue()


BUNDLE_PARTS = {"pdf": ("pack.pdf", "application/pdf"), "csv": ("players.csv", "text/csv; charset=utf-8"),
                "zip": ("lists.zip", "application/zip")}


def bundle(*, pdf: bytes, csv_bytes: bytes, lists: bytes) -> bytes:
    """The job's one result file: the three downloads side by side (stored, not compressed again)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr(BUNDLE_PARTS["pdf"][0], pdf)
        archive.writestr(BUNDLE_PARTS["csv"][0], csv_bytes)
        archive.writestr(BUNDLE_PARTS["zip"][0], lists)
    return out.getvalue()


def bundle_part(data: bytes, part: str) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return archive.read(BUNDLE_PARTS[part][0])
