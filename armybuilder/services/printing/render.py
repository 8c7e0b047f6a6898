"""Printable rosters and unit cards: HTML from our template, PDF from WeasyPrint.

One entry point, ``roster_pdf_render``; it reads nothing from the database: the unit sheets and the system's
name come in as plain data (``selectors.roster_print_data``; ``services.roster_pdf`` reads and renders). The
roster and unit card templates are the game system's (``armybuilder.systems``). The stylesheet is parsed once
per process and shared; the few things that change per document (paper size, verification
code, the NOT LEGAL mark) go in a small inline style with no user text in it.
User text (list, player and event names) only ever reaches the page through
autoescaped HTML. Nothing outside the document is fetched: the only URLs
WeasyPrint may open are ``data:`` URIs (the QR code).
"""
import threading

from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from armybuilder.rules.force import Force
from armybuilder.rules.report import Report
from armybuilder.systems import system_for

from .codes import list_code, qr_svg_data_uri
from .context import roster_context
from .extras import roster_extras

STYLESHEET = "pdf/roster.css"

PAPERS = {
    # CSS page size, and the height of one unit card (two rows to a page) within the page margins.
    "a4": {"size": "A4", "card_height": "127mm"},
    "letter": {"size": "letter", "card_height": "118mm"},
}

# A FontConfiguration is not safe to share between threads rendering at once, so each thread has its own
# (parsed once per thread): renders in different threads run side by side, with no process-wide lock.
_local = threading.local()


class PrintOptionsError(ValueError):
    """A render request that makes no sense (an unknown paper size)."""


def _weasy():
    cached = getattr(_local, "weasy", None)
    if cached is None:
        cached = _local.weasy = _load_weasy()
    return cached


def _load_weasy():
    # Importing WeasyPrint loads Pango, HarfBuzz and the font machinery: seconds on a busy machine, and memory in
    # every process. Only a process that prints pays for it (the API, the commands and most workers never do).
    import weasyprint  # noqa: PLC0415

    fonts = weasyprint.text.fonts.FontConfiguration()
    path = finders.find(STYLESHEET)
    if path is None:
        raise RuntimeError(f"the print stylesheet static/{STYLESHEET} is missing")
    fetcher = weasyprint.urls.URLFetcher(allowed_protocols={"data"})
    css = weasyprint.CSS(filename=path, font_config=fonts, url_fetcher=fetcher)
    return weasyprint, fonts, css, fetcher


def stylesheet():
    """The parsed print stylesheet (cached for the life of the thread)."""
    return _weasy()[2]


def _page_css(*, paper: str, code: str, legal: bool, errors: int) -> str:
    """Per-document page rules. Only trusted values go in: a paper from PAPERS, a hex code, a count."""
    spec = PAPERS[paper]
    problems = f"{errors} problem{'' if errors == 1 else 's'}"
    mark = "" if legal else f'@top-right {{ content: "NOT LEGAL \\2014  {problems}" }}'
    footer = f'"Verification code {code}  \\00B7  page " counter(page) " of " counter(pages)'
    return (f"@page {{ size: {spec['size']}; @bottom-left {{ content: {footer} }} {mark} }}\n"
            f".card {{ min-height: {spec['card_height']} }}")


def roster_html(*, force: Force, report: Report, document: dict, sheets: dict, paper: str = "a4",
                cards: bool = True, player: str = "", event: str = "", list_url: str = "", system_name: str = "",
                extras: tuple = ()) -> str:
    if paper not in PAPERS:
        raise PrintOptionsError(f"paper is one of: {', '.join(PAPERS)}")
    code = list_code(document)
    context = roster_context(force=force, report=report, sheets=sheets, system_name=system_name,
                             player=(player or "").strip()[:120], event=(event or "").strip()[:120],
                             with_cards=cards)
    context.update({
        "code": code,
        "paper": paper,
        "list_url": list_url,
        "qr": qr_svg_data_uri(list_url) if list_url else "",
        "page_css": mark_safe(_page_css(paper=paper, code=code, legal=report.legal, errors=len(report.errors))),
    })
    context.update(roster_extras(force=force, report=report, context=context, extras=extras))
    return render_to_string(system_for(force.system).roster_template, context)


def html_to_pdf(html: str) -> bytes:
    weasyprint, fonts, css, fetcher = _weasy()
    document = weasyprint.HTML(string=html, url_fetcher=fetcher, base_url=None)
    return document.write_pdf(stylesheets=[css], font_config=fonts)


def roster_pdf_render(*, force: Force, report: Report, document: dict, sheets: dict, paper: str = "a4",
                      cards: bool = True, player: str = "", event: str = "", list_url: str = "", system_name: str = "",
                      extras: tuple = ()) -> bytes:
    """The roster (and unit cards, and rules appendix) of a checked force, as PDF bytes.

    ``document`` is the list's JSON document (format v1): its verification code is printed on
    every page. ``list_url`` is where the QR code on every page leads (leave empty for no QR). ``sheets`` are the
    units' profiles (``selectors.unit_sheets``).
    """
    return html_to_pdf(roster_html(force=force, report=report, document=document, sheets=sheets, paper=paper,
                                   cards=cards,
                                   player=player, event=event, list_url=list_url, system_name=system_name,
                                   extras=extras))
