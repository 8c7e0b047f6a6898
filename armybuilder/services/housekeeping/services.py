"""What housekeeping removes, each a use case of its own so it can be run and tested alone."""
import logging
from datetime import timedelta

from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone

from armybuilder.jobs.services import jobs_delete_finished
from armybuilder.lists.models import ArmyList

logger = logging.getLogger("armybuilder.housekeeping")


def anonymous_lists_delete_stale(*, older_than_days: int) -> int:
    """Lists built without an account and untouched for ``older_than_days`` days (their session is long gone)."""
    cutoff = timezone.now() - timedelta(days=older_than_days)
    stale = ArmyList.objects.filter(owner__isnull=True, updated_at__lt=cutoff)
    # Deleting by primary key keeps the one statement small whatever the cascade does.
    deleted = 0
    for pk in stale.values_list("pk", flat=True).iterator(chunk_size=500):
        deleted += ArmyList.objects.filter(pk=pk, owner__isnull=True, updated_at__lt=cutoff).delete()[1].get(
            "lists.ArmyList", 0)
    return deleted


def sessions_delete_expired() -> int:
    """Expired sessions in the database (the cache forgets its copies by itself)."""
    deleted, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted


def housekeeping_run(*, anonymous_list_days: int | None = None, job_days: int | None = None) -> dict:
    counts = {
        "anonymous_lists": anonymous_lists_delete_stale(
            older_than_days=anonymous_list_days if anonymous_list_days is not None
            else settings.HOUSEKEEPING_ANONYMOUS_LIST_DAYS),
        "sessions": sessions_delete_expired(),
        "jobs": jobs_delete_finished(older_than_days=job_days if job_days is not None
                                     else settings.HOUSEKEEPING_JOB_DAYS),
    }
    logger.info("housekeeping done", extra={"deleted": counts})
    return counts
