"""Every way a saved list leaves the tool, in one place: its JSON document, a BattleScribe roster (.ros or
.rosz), text for forums (plain, Markdown, BBCode) and the roster PDF. The web pages, the API, the PDF pages and
the management commands all export through these, so a format and its file name are the same everywhere.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from django.utils.text import slugify

from armybuilder.lists.selectors import army_list_document

from .printing.services import roster_filename, roster_pdf_for_list
from .printing.text import FLAVOURS, army_list_text, text_filename
from .rosters import roster_export

TEXT_FLAVOURS = FLAVOURS


@dataclass(frozen=True)
class ListFile:
    """An exported list: the bytes, their media type and the file name to offer them under."""

    content: bytes
    content_type: str
    filename: str


def list_json(army_list) -> ListFile:
    """The list's JSON document (format v2; v1 for authored books), pretty-printed, as a file."""
    body = json.dumps(army_list_document(army_list), indent=2, ensure_ascii=False) + "\n"
    return ListFile(body.encode("utf-8"), "application/json; charset=utf-8",
                    (slugify(army_list.name) or "army-list")[:80] + ".json")


def list_roster(army_list, *, zipped: bool = False) -> ListFile:
    """The list as a BattleScribe roster (.ros XML, or a .rosz zip); BattleScribeRosterError when its book did not
    come from BattleScribe data."""
    content = roster_export(army_list, zipped=zipped)
    return ListFile(content, "application/zip" if zipped else "application/xml",
                    f"{army_list.name or 'roster'}.{'rosz' if zipped else 'ros'}")


def list_text(army_list, *, flavour: str = "text", player: str = "", event: str = "") -> ListFile:
    """The list as text for forums and chat (one of TEXT_FLAVOURS; ValueError for another)."""
    body = army_list_text(army_list=army_list, flavour=flavour, player=player, event=event)
    return ListFile(body.encode("utf-8"), "text/plain; charset=utf-8", text_filename(army_list.name, flavour))


def list_pdf(army_list, *, paper: str = "a4", cards: bool = True, player: str = "", event: str = "",
             list_url: str = "", extras: tuple = ()) -> ListFile:
    """The roster PDF (cached by list version and options); PrintOptionsError for an unknown paper size."""
    pdf = roster_pdf_for_list(army_list=army_list, paper=paper, cards=cards, player=player, event=event,
                              list_url=list_url, extras=extras)
    return ListFile(pdf, "application/pdf", roster_filename(army_list.name, paper))
