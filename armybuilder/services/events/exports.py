"""A submission's files, made from its frozen document (never from the list, which may have changed since):
the JSON list document, the roster PDF and, for books on BattleScribe data, the .ros roster."""
import json

from django.core.cache import cache
from django.utils.text import slugify

from armybuilder.interchange.battlescribe.roster import BattleScribeRosterError
from armybuilder.lists.listjson.document import ListDocumentError
from armybuilder.lists.selectors import DbCatalog, list_document_report
from armybuilder.services.printing.services import roster_pdf
from armybuilder.services.rosters import document_to_ros

from .models import Submission
from .services import EventError

CACHE_SECONDS = 60 * 60


def submission_filename(submission: Submission, extension: str) -> str:
    player = submission.registration.player.get_username()
    base = slugify(f"{player}-{submission.document.get('name', '')}")[:70] or "list"
    return f"{base}-{submission.number}.{extension}"


def submission_json(submission: Submission) -> bytes:
    return (json.dumps(submission.document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def submission_ros(submission: Submission) -> bytes:
    try:
        return document_to_ros(submission.document, DbCatalog())
    except BattleScribeRosterError as exc:
        problems = "; ".join(getattr(exc, "problems", []) or []) or str(exc)
        raise EventError(f"This list has no BattleScribe form: {problems}") from None


def submission_pdf(submission: Submission, *, paper: str = "a4", cards: bool = True) -> bytes:
    """The roster of the submitted document, with the player and the event printed on it. Cached by the
    submission (which never changes) and the options."""
    key = f"pdf:submission:{submission.public_id}:{submission.code}:{paper}:{int(cards)}"
    pdf = cache.get(key)
    if pdf is None:
        try:
            force, report = list_document_report(submission.document)
        except ListDocumentError as exc:
            raise EventError(f"The submitted list can no longer be read: {exc}") from None
        event = submission.registration.event
        pdf = roster_pdf(force=force, report=report, document=submission.document, paper=paper, cards=cards,
                                player=submission.registration.player.get_username(), event=event.name)
        cache.set(key, pdf, CACHE_SECONDS)
    return pdf
