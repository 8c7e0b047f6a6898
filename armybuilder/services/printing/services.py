"""Use cases for printing: a saved list's roster, a list file's roster, and checking a printed code.

Views and management commands call these and nothing else from this package.
"""
import hashlib
import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from armybuilder.jobs.models import Job
from armybuilder.jobs.services import job_enqueue, jobs_in_process
from armybuilder.lists.listjson import parse_list_json, validate_list_document
from armybuilder.lists.listjson.document import ListDocumentError, ListProblem
from armybuilder.lists.models import ArmyList, ListUnit
from armybuilder.lists.selectors import army_list_document, army_list_force, list_document_report
from armybuilder.rules import check

from .codes import BadCode, list_code, normalize_code
from .render import PAPERS, PrintOptionsError, roster_pdf_render
from .selectors import roster_print_data

CACHE_SECONDS = 60 * 60
logger = logging.getLogger("armybuilder.pdf")


def roster_pdf(*, force, report, document: dict, **options) -> bytes:
    """The roster PDF of a checked force: the renderer, given what it needs from the database
    (``selectors.roster_print_data``). ``options``: paper, cards, player, event, list_url, extras."""
    return roster_pdf_render(force=force, report=report, document=document, **roster_print_data(force), **options)


def share_path(army_list: ArmyList) -> str:
    """The read-only page of a shared list (the web app serves it at /s/<share_token>/)."""
    return f"/s/{army_list.share_token}/"


def roster_qr_path(army_list: ArmyList) -> str:
    """Where the QR code on a roster leads: the share page while the list is shared; otherwise /verify/ with
    the roster's code (anyone scanning it can check the code; the list itself stays private)."""
    if army_list.visibility == "shared":
        return share_path(army_list)
    return "/verify/?code=" + list_code(army_list_document(army_list))


def roster_filename(name: str, paper: str) -> str:
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in name).strip("-")[:60] or "roster"
    return f"{safe}-{paper}.pdf"


def roster_cache_key(*, army_list: ArmyList, paper: str = "a4", cards: bool = True, player: str = "",
                     event: str = "", list_url: str = "", extras: tuple = ()) -> str:
    """The key of a rendered roster in the shared cache: the list's version, the paper and every print option."""
    options = "\x1f".join([str(army_list.public_id), str(army_list.version), paper, str(cards), player, event,
                           list_url, ",".join(sorted(extras))])
    return "pdf:roster:" + hashlib.sha256(options.encode("utf-8")).hexdigest()


def roster_pdf_cached(**options) -> bytes | None:
    """The rendered roster if some process already rendered this version with these options, else None."""
    return cache.get(roster_cache_key(**options))


def roster_pdf_for_list(*, army_list: ArmyList, paper: str = "a4", cards: bool = True, player: str = "",
                        event: str = "", list_url: str = "", extras: tuple = ()) -> bytes:
    """The roster of a saved list. Cached (shared by every process) by list version and options, so a
    re-download costs nothing."""
    if paper not in PAPERS:
        raise PrintOptionsError(f"paper is one of: {', '.join(PAPERS)}")
    extras = tuple(sorted(set(extras)))
    key = roster_cache_key(army_list=army_list, paper=paper, cards=cards, player=player, event=event,
                           list_url=list_url, extras=extras)
    pdf = cache.get(key)
    if pdf is None:
        started = time.perf_counter()
        document = army_list_document(army_list)
        force = army_list_force(army_list)
        pdf = roster_pdf(force=force, report=check(force), document=document, paper=paper, cards=cards,
                                player=player, event=event, list_url=list_url, extras=extras)
        cache.set(key, pdf, CACHE_SECONDS)
        logger.info("roster rendered", extra={"list": str(army_list.public_id), "version": army_list.version,
                                              "paper": paper, "bytes": len(pdf),
                                              "duration_ms": round((time.perf_counter() - started) * 1000)})
    return pdf


def roster_renders_in_background(*, army_list: ArmyList) -> bool:
    """Whether a fresh render of this list is long enough to hand to a worker instead of holding a request.

    About 0.2 s plus 0.1 s a unit card; past ROSTER_SYNC_MAX_UNITS units a request would wait a second or more.
    Without a worker (make run) everything renders in the request.
    """
    if jobs_in_process():
        return False
    return ListUnit.objects.filter(army_list=army_list).count() > settings.ROSTER_SYNC_MAX_UNITS


def roster_pdf_job_start(*, army_list: ArmyList, owner=None, session_key: str = "", paper: str = "a4",
                         cards: bool = True, player: str = "", event: str = "", list_url: str = "",
                         extras: tuple = ()) -> Job:
    """Render the roster in the background; the same list version and options share one job."""
    if paper not in PAPERS:
        raise PrintOptionsError(f"paper is one of: {', '.join(PAPERS)}")
    extras = tuple(sorted(set(extras)))
    key = roster_cache_key(army_list=army_list, paper=paper, cards=cards, player=player, event=event,
                           list_url=list_url, extras=extras)
    return job_enqueue(kind="roster_pdf", owner=owner, session_key=session_key, dedupe_key=key,
                       params={"list": str(army_list.public_id), "version": army_list.version, "paper": paper,
                               "cards": cards, "player": player, "event": event, "list_url": list_url,
                               "extras": list(extras)})


def roster_pdf_for_document(*, raw: bytes | str, paper: str = "a4", cards: bool = True, player: str = "",
                            event: str = "", list_url: str = "") -> bytes:
    """The roster of a list file (JSON v1). ListDocumentError says why the file is not a usable list."""
    document = parse_list_json(raw)
    force, report = list_document_report(document)
    return roster_pdf(force=force, report=report, document=document, paper=paper, cards=cards,
                             player=player, event=event, list_url=list_url)


@dataclass(frozen=True)
class Verification:
    """The answer to "was this roster printed from this list?"."""

    code: str  # the code as given, normalised
    matches: bool | None  # None: no list to compare with
    list_code: str = ""  # the code of the given list
    list_name: str = ""

    @property
    def message(self) -> str:
        if self.matches is None:
            return (f"{self.code} is a well-formed verification code. Paste or upload the list's JSON file to "
                    f"check that the roster was printed from it.")
        if self.matches:
            return f"Match: the roster with code {self.code} was printed from the list '{self.list_name}'."
        return (f"No match: the list '{self.list_name}' has code {self.list_code}, the roster shows {self.code}. "
                f"The roster was printed from another list, or the list changed since it was printed.")


def roster_verify(*, code: str, raw: bytes | str | None = None) -> Verification:
    """Check a printed code, and the list it should belong to if one is given.

    BadCode if the code is malformed; ListDocumentError if the list cannot be read as a list document.
    The list does not need its books to be loaded: only its exact content counts.
    """
    normalized = normalize_code(code)
    if raw is None or (isinstance(raw, (str, bytes)) and not raw.strip()):
        return Verification(code=normalized, matches=None)
    document = parse_list_json(raw)
    problems = validate_list_document(document)
    if problems:
        raise ListDocumentError(problems)
    actual = list_code(document)
    return Verification(code=normalized, matches=actual == normalized, list_code=actual,
                        list_name=str(document.get("name", "")))


__all__ = ["BadCode", "ListDocumentError", "ListProblem", "PrintOptionsError", "Verification", "roster_cache_key",
           "roster_filename", "roster_pdf", "roster_pdf_cached", "roster_pdf_for_document", "roster_pdf_for_list",
           "roster_pdf_job_start", "roster_qr_path", "roster_renders_in_background", "roster_verify", "share_path"]
