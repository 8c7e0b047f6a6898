"""Use cases for jobs: start one, and the housekeeping that keeps them honest."""
import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from armybuilder.observability import current_request_id

from .live import live_get
from .models import Job
from .registry import job_kind_get
from .runner import job_execute
from .worker import run_job

logger = logging.getLogger("armybuilder.jobs")

MAX_INPUT_BYTES = 64 * 1024 * 1024


def jobs_in_process() -> bool:
    """Without a broker (``make run``), jobs run in the process that starts them, before enqueue returns."""
    return bool(settings.JOBS_IN_PROCESS)


def _dispatch(job_id) -> None:
    if jobs_in_process():
        # Retries happen at once: the only waiting here would be the visitor's.
        for _ in range(job_kind_get(Job.objects.values_list("kind", flat=True).get(pk=job_id)).max_attempts + 1):
            if job_execute(job_id).status != "retry":
                return
        return
    # After commit: a worker must never look for a job row the database does not show yet.
    transaction.on_commit(lambda: run_job.apply_async(args=[str(job_id)]))


def job_enqueue(*, kind: str, owner=None, session_key: str = "", params: dict | None = None,
                input_file: bytes | None = None, input_name: str = "", dedupe_key: str = "") -> Job:
    """Create a job and hand it to a worker (or run it now, without a broker).

    With ``dedupe_key``, a job of the same kind, owner and key that is queued, running or succeeded is
    returned instead of starting the same work twice.
    """
    job_kind_get(kind)  # an unknown kind is a programming error: fail here, not in the worker
    if input_file is not None and len(input_file) > MAX_INPUT_BYTES:
        raise ValueError(f"a job's input file may be at most {MAX_INPUT_BYTES} bytes")
    if owner is not None and not getattr(owner, "is_authenticated", False):
        owner = None
    if dedupe_key:
        same = Job.objects.filter(kind=kind, dedupe_key=dedupe_key).exclude(status=Job.FAILED)
        same = same.filter(owner=owner) if owner is not None else same.filter(owner=None, session_key=session_key)
        existing = same.order_by("-created_at").first()
        if existing is not None:
            return existing
    job = Job.objects.create(kind=kind, owner=owner, session_key="" if owner is not None else session_key,
                             params=params or {}, input_file=input_file, input_name=input_name[:200],
                             dedupe_key=dedupe_key[:200], request_id=current_request_id()[:64],
                             message="Waiting for a worker")
    logger.info("job queued", extra={"job_id": str(job.pk), "kind": kind})
    _dispatch(job.pk)
    if jobs_in_process():
        job.refresh_from_db()
    return job


def jobs_recover_stale() -> dict:
    """Queue again the jobs a dead worker left running, or fail them when out of attempts; re-send lost ones.

    A running job is dead when its heartbeat has expired; a queued job whose message the broker lost
    (a restarted Redis keeps nothing) is sent again after JOBS_RESEND_AFTER_SECONDS. Sending a job twice is
    harmless: only one attempt can claim it.
    """
    now = timezone.now()
    grace = timedelta(seconds=int(settings.JOBS_HEARTBEAT_SECONDS) * 3)
    resend_after = timedelta(seconds=int(settings.JOBS_RESEND_AFTER_SECONDS))
    counts = {"resent": 0, "recovered": 0}
    running = Job.objects.filter(status=Job.RUNNING, started_at__lt=now - grace)
    for job in running:
        if live_get(job.pk) is None:
            counts["recovered"] += 1
            _dispatch(job.pk)  # the attempt sees the dead run, and retries or fails the job
    for job_id in Job.objects.filter(status=Job.QUEUED, updated_at__lt=now - resend_after).values_list("pk", flat=True):
        counts["resent"] += 1
        _dispatch(job_id)
    if any(counts.values()):
        logger.warning("stale jobs sent again", extra=counts)
    return counts


def jobs_delete_finished(*, older_than_days: int) -> int:
    """Finished jobs (and their files) are kept for a while so people can download the result, then removed."""
    cutoff = timezone.now() - timedelta(days=older_than_days)
    deleted, _ = Job.objects.filter(Q(status__in=Job.FINISHED) & Q(updated_at__lt=cutoff)).delete()
    return deleted
