"""Drawing one roster of a pack into the shared cache: the ``events.pack_roster`` task's work, also done by the
pack job itself for the rosters no other worker took (``services.gather_rosters``). It imports nothing of the
pack's use cases, so the task module and the use cases that send the task never import each other."""
import secrets

from django.conf import settings
from django.core.cache import cache

from armybuilder.services.printing.render import PAPERS

from ..models import Submission
from . import build

CLAIM_SECONDS = 120  # a roster being drawn by some worker; a dead worker's claim runs out after this


def roster_cache_seconds() -> int:
    return int(getattr(settings, "EVENT_PACK_ROSTER_CACHE_SECONDS", 14 * 24 * 3600))


def player_name(user) -> str:
    return (user.get_full_name() or user.username).strip()[:120]


def pack_entry(submission: Submission, player) -> build.PackEntry:
    return build.PackEntry(
        submission=str(submission.public_id), number=submission.number, list_version=submission.list_version,
        player=player_name(player), list_name=str(submission.document.get("name", ""))[:200] or "Untitled list",
        points=submission.points, card_points=submission.card_points, formations=submission.formations,
        code=submission.code, status=submission.status, legal=submission.legal, document=submission.document)


def render_into_cache(entry: build.PackEntry, key: str, *, event_name: str, paper: str) -> dict | None:
    """Render and cache the roster unless another worker is drawing it right now (then None)."""
    claim = key + ":claim"
    if not cache.add(claim, secrets.token_hex(8), CLAIM_SECONDS):
        return None
    try:
        artefacts = build.roster_artefacts(entry, event_name=event_name, paper=paper)
        cache.set(key, artefacts, roster_cache_seconds())
        return artefacts
    finally:
        cache.delete(claim)


def roster_prerender(*, submission_id: int, paper: str) -> str:
    """The ``events.pack_roster`` task: draw one roster into the cache if nobody has or is drawing it."""
    submission = (Submission.objects.select_related("registration__player", "registration__event")
                  .filter(pk=submission_id).first())
    if submission is None or paper not in PAPERS:
        return "gone"
    event = submission.registration.event
    entry = pack_entry(submission, submission.registration.player)
    key = build.roster_key(entry, event_name=event.name, paper=paper)
    if cache.has_key(key):  # asks, without fetching the cached PDF
        return "cached"
    return "rendered" if render_into_cache(entry, key, event_name=event.name, paper=paper) else "claimed"
