"""The Celery task that draws one roster of a pack into the shared cache (see ``services.gather_rosters``)."""
from celery import shared_task

from .rosters import roster_prerender


@shared_task(name="events.pack_roster", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def pack_roster(submission_id: int, paper: str = "a4") -> str:
    return roster_prerender(submission_id=submission_id, paper=paper)
