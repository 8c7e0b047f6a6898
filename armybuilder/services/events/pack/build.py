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

import pikepdf
from django.template.loader import render_to_string

from armybuilder.interchange.battlescribe.roster import BattleScribeRosterError
from armybuilder.interchange.battlescribe.roster_write import force_to_ros
from armybuilder.lists.listjson.document import ListDocumentError
from armybuilder.lists.selectors import list_document_report
from armybuilder.services.printing import render
from armybuilder.services.printing.render import PAPERS
from armybuilder.services.printing.services import roster_pdf

logger = logging.getLogger("armybuilder.events")

# Bump when what a cached roster or a pack looks like changes: old cache entries and packs are then not reused.
FORMAT = "pack-2"
COVER_TEMPLATE = "events/pack/cover.html"
CONTENTS_FRAME_TEMPLATE = "events/pack/contents_frame.html"
CONTENTS_ROWS_TEMPLATE = "events/pack/contents_rows.html"

# The contents' geometry (mm). A contents page is a frame (heading, header row, footer) with strips of rows laid
# on it at fixed places: every row is one line of a fixed height, so a strip's height is known. Each frame and
# strip is drawn on its own and kept, so a rebuild after one list changed draws one strip of a few rows.
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
SIDE_MM, TOP_MM, BOTTOM_MM, HEAD_MM, ROW_MM = 16.0, 18.0, 20.0, 24.0, 7.0
ROWS_PER_STRIP = 4
STRIP_SLACK_MM = 1.0  # a strip's page is a little taller than its rows: a row never spills onto a second page
ROWS_PER_CONTENTS_PAGE = {paper: int((h - TOP_MM - BOTTOM_MM - HEAD_MM) // (ROW_MM * ROWS_PER_STRIP)) * ROWS_PER_STRIP
                          for paper, (_w, h) in PAPER_MM.items()}
POINTS_PER_MM = 72 / 25.4


class PackLayoutError(RuntimeError):
    """A part of the front came out longer than the one page it was drawn for (a bug in the layout above)."""


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
    """Pages of a PDF, from its page tree alone (qpdf reads no page content)."""
    with pikepdf.open(io.BytesIO(pdf)) as document:
        return len(document.pages)


def _problem_page(entry: PackEntry, problem: str, *, event_name: str, paper: str) -> bytes:
    html = render_to_string("events/pack/unprintable.html", {"entry": entry, "problem": problem,
                                                             "event": event_name, "size": PAPERS[paper]["size"]})
    return html_pdf(html)


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
        pdf = roster_pdf(force=force, report=report, document=entry.document, paper=paper, cards=True,
                         player=entry.player, event=event_name)
        try:
            ros = force_to_ros(force, name=entry.list_name)
        except BattleScribeRosterError as exc:
            ros_problem = "; ".join(str(p) for p in getattr(exc, "problems", None) or [str(exc)])[:300]
    logger.info("pack roster rendered", extra={"submission": entry.submission, "number": entry.number,
                                               "bytes": len(pdf),
                                               "duration_ms": round((time.perf_counter() - started) * 1000)})
    return {"pdf": pdf, "pages": page_count(pdf), "ros": ros, "ros_problem": ros_problem, "problem": problem,
            "json": list_json(entry)}  # written here, in parallel with the other rosters, not when the ZIP is


# -- cover, contents and the merged PDF ----------------------------------------------------------------------

def html_pdf(html: str) -> bytes:
    """A small page of our own (cover, contents, a problem page): its own few style rules, not the roster's."""
    weasyprint, fonts, _css, fetcher = render._weasy()
    return weasyprint.HTML(string=html, url_fetcher=fetcher, base_url=None).write_pdf(font_config=fonts)


def part_key(html: str) -> str:
    """The cache key of a cover or contents page: what it prints is all it depends on."""
    return "events:pack:part:" + hashlib.sha256(f"{FORMAT}\x1f{html}".encode()).hexdigest()


def front_parts(event: PackEvent, entries: list[PackEntry], pages: list[int], *, paper: str,
                draw=html_pdf) -> list[bytes]:
    """The cover, then the contents pages: one PDF each.

    Every frame and strip of rows is HTML drawn by ``draw`` (the caller may keep what it has drawn before). The
    cover does not depend on the rosters' page counts and a strip only on its own rows, so after one list changed
    only its strip is drawn again (and the strips after it if its page count changed: their page numbers move).
    """
    size = PAPERS[paper]["size"]
    cover = draw(render_to_string(COVER_TEMPLATE, {"event": event, "names": [e.player for e in entries],
                                                   "players": len(entries), "size": size}))
    cover_pages = page_count(cover)
    per_page = ROWS_PER_CONTENTS_PAGE[paper]
    chunks = [range(i, min(i + per_page, len(entries))) for i in range(0, max(1, len(entries)), per_page)]
    firsts, page = [], cover_pages + len(chunks) + 1
    for count in pages:
        firsts.append(page)
        page += count
    width, height = PAPER_MM[paper]
    # A cell's height and its .4pt border (0.14 mm) make one row.
    style = {"cell_mm": ROW_MM - 0.15, "size": size, "top_mm": TOP_MM, "side_mm": SIDE_MM, "head_mm": HEAD_MM,
             "width_mm": width - 2 * SIDE_MM, "height_mm": ROW_MM * ROWS_PER_STRIP + STRIP_SLACK_MM}
    parts = [cover]
    for part, chunk in enumerate(chunks, 1):
        frame = draw(render_to_string(CONTENTS_FRAME_TEMPLATE, {**style, "event": event, "part": part,
                                                                "page": cover_pages + part}))
        strips = []
        for at in range(chunk.start, chunk.stop, ROWS_PER_STRIP):
            rows = [{"n": i + 1, "entry": entries[i], "page": firsts[i]}
                    for i in range(at, min(at + ROWS_PER_STRIP, chunk.stop))]
            strips.append(draw(render_to_string(CONTENTS_ROWS_TEMPLATE, {**style, "event": event, "rows": rows})))
        parts.append(lay_strips(frame, strips, paper=paper))
    return parts


def lay_strips(frame: bytes, strips: list[bytes], *, paper: str) -> bytes:
    """One contents page: its frame with the strips of rows laid under the header row, one after another."""
    width, height = PAPER_MM[paper]
    strip_height = ROW_MM * ROWS_PER_STRIP + STRIP_SLACK_MM
    opened = []
    try:
        page_pdf = pikepdf.open(io.BytesIO(frame))
        opened.append(page_pdf)
        if len(page_pdf.pages) != 1:
            raise PackLayoutError(f"a contents page's frame came out as {len(page_pdf.pages)} pages")
        page = page_pdf.pages[0]
        for n, strip in enumerate(strips):
            source = pikepdf.open(io.BytesIO(strip))
            opened.append(source)
            if len(source.pages) != 1:
                raise PackLayoutError(f"a strip of contents rows came out as {len(source.pages)} pages")
            top = TOP_MM + HEAD_MM + n * ROW_MM * ROWS_PER_STRIP
            box = [SIDE_MM, height - top - strip_height, width - SIDE_MM, height - top]
            page.add_overlay(source.pages[0], pikepdf.Rectangle(*(v * POINTS_PER_MM for v in box)))
        out = io.BytesIO()
        page_pdf.save(out)  # before the strips' files close: their streams are read as it writes
        return out.getvalue()
    finally:
        for document in opened:
            document.close()


def merge_pdf(front: list[bytes], rosters: list[tuple[str, bytes]]) -> bytes:
    """The front pages then each roster, with a bookmark per roster (its title: player and list).

    qpdf (through pikepdf) copies the pages' objects as they are, without decoding WeasyPrint's streams; the
    page tree is written once, as one list of pages (adding pages one by one costs a third more)."""
    out = pikepdf.new()
    sources, kids, marks = [], [], []
    try:
        for n, data in enumerate([*front, *(pdf for _title, pdf in rosters)]):
            source = pikepdf.open(io.BytesIO(data))
            sources.append(source)
            if n == 0 or n >= len(front):
                marks.append(len(kids))
            kids.extend(out.copy_foreign(page.obj) for page in source.pages)
        tree = out.Root.Pages
        for page in kids:
            page.Parent = tree
        tree.Kids = pikepdf.Array(kids)
        tree.Count = len(kids)
        titles = ["Cover and contents"] + [title for title, _pdf in rosters]
        with out.open_outline() as outline:
            outline.root.extend(pikepdf.OutlineItem(title, page) for title, page in zip(titles, marks, strict=False))
        out.Root.PageMode = pikepdf.Name.UseOutlines
        buffer = io.BytesIO()
        out.save(buffer)  # before the sources close: the copied streams are read from them as it writes
        return buffer.getvalue()
    finally:
        for source in sources:
            source.close()
        out.close()


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
    for n, (entry, first, count) in enumerate(zip(entries, first_pages, pages, strict=False), 1):
        writer.writerow([n, _cell(entry.player), _cell(entry.list_name), entry.points, entry.card_points,
                         entry.formations, entry.code, "yes" if entry.legal else "no", entry.status,
                         entry.submission, first, count])
    return ("\ufeff" + out.getvalue()).encode("utf-8")  # the BOM makes spreadsheets read UTF-8 names right


def safe_name(text: str, limit: int = 40) -> str:
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "-" for c in text).strip("-")[:limit] or "x"


def entry_stem(n: int, entry: PackEntry) -> str:
    return f"{n:03d}-{safe_name(entry.player)}-{safe_name(entry.list_name)}"


def list_json(entry: PackEntry) -> str:
    return json.dumps(entry.document, indent=2, ensure_ascii=False) + "\n"


def lists_zip(entries: list[PackEntry], artefacts: list[dict]) -> bytes:
    """Each list as its JSON document and, when its books came from BattleScribe data, as a .ros roster."""
    out = io.BytesIO()
    notes = []
    # Level 1: JSON still shrinks to a fifth, in a fraction of the time of the default level.
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for n, (entry, art) in enumerate(zip(entries, artefacts, strict=False), 1):
            stem = entry_stem(n, entry)
            archive.writestr(f"{stem}.json", art.get("json") or list_json(entry))
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
