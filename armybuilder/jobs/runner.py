"""Runs one attempt of a job, whoever calls it: the Celery task, or ``job_enqueue`` itself without a broker.

An attempt claims the job (queued -> running, one conditional UPDATE, so two
workers never run it at once), runs the kind's function and stores its result
in one transaction, and marks the job succeeded. Errors end it:
- ``JobError``: failed, with its message, not retried;
- a database or connection error (or the kind's ``retry_on``): queued again and
  retried later, until ``max_attempts`` attempts have been made;
- anything else: failed with a generic message; the traceback is logged.
A worker killed mid-job leaves the job "running" with no heartbeat: its
transaction is rolled back by the database, and ``jobs_recover_stale`` (at
worker start and every minute) queues it again or, out of attempts, fails it.
"""
import logging
import time
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F
from django.utils import timezone

from armybuilder.observability import request_id_var

from .live import Heartbeat, live_get
from .models import Job
from .registry import JobError, JobKind, JobResult, job_kind_get

logger = logging.getLogger("armybuilder.jobs")

TRANSIENT = (OperationalError, InterfaceError, ConnectionError, TimeoutError)
GENERIC_FAILURE = "Something went wrong on our side while running this job; it has been logged (job {id})."


@dataclass
class Outcome:
    status: str  # succeeded | failed | retry | skipped
    retry_in: float | None = None


class JobContext:
    """What a job kind's function gets: its arguments, its input file, and a way to report progress."""

    def __init__(self, job: Job, heartbeat: Heartbeat | None = None):
        self.job = job
        self._heartbeat = heartbeat

    @property
    def params(self) -> dict:
        return self.job.params or {}

    @property
    def input_file(self) -> bytes:
        return bytes(self.job.input_file or b"")

    @property
    def attempt(self) -> int:
        return self.job.attempts

    def progress(self, percent: int, message: str = "") -> None:
        percent = max(0, min(99, int(percent)))  # 100 means done, which only the runner says
        if self._heartbeat is not None:
            self._heartbeat.update(percent, message[:300])


def _retry_delay(attempt: int) -> float:
    return min(float(settings.JOBS_RETRY_DELAY_SECONDS) * (2 ** max(0, attempt - 1)), 300.0)


def _alive(job: Job) -> bool:
    """Whether some worker is running this job right now (its heartbeat is fresh)."""
    return live_get(job.pk) is not None


def _claim(job: Job) -> bool:
    now = timezone.now()
    claimed = Job.objects.filter(pk=job.pk, status=job.status, attempts=job.attempts).update(
        status=Job.RUNNING, attempts=F("attempts") + 1, started_at=now, updated_at=now, progress=0, message="Started",
        error="")
    if claimed:
        job.refresh_from_db()
    return bool(claimed)


def _finish(job: Job, *, status: str, message: str = "", error: str = "", result: JobResult | None = None) -> None:
    now = timezone.now()
    fields = {"status": status, "finished_at": now, "updated_at": now, "message": message[:300], "error": error}
    if status == Job.SUCCEEDED:
        fields["progress"] = 100
    if result is not None:
        fields.update(result=result.data, result_file=result.file if result.file is not None else None,
                      result_name=result.filename if result.file is not None else "",
                      result_content_type=result.content_type if result.file is not None else "")
    # Only the attempt that holds the job may end it.
    Job.objects.filter(pk=job.pk, status=Job.RUNNING, attempts=job.attempts).update(**fields)


def _requeue(job: Job, reason: str) -> None:
    Job.objects.filter(pk=job.pk, status=Job.RUNNING, attempts=job.attempts).update(
        status=Job.QUEUED, updated_at=timezone.now(), message=f"Will try again: {reason}"[:300])


def job_execute(job_id) -> Outcome:
    """One attempt at a job. Safe to call twice for the same job, from any process."""
    job = Job.objects.filter(pk=job_id).first()
    if job is None or job.finished:
        return Outcome("skipped")
    try:
        kind = job_kind_get(job.kind)
    except LookupError as exc:
        Job.objects.filter(pk=job.pk).update(status=Job.FAILED, error=str(exc), finished_at=timezone.now(),
                                                 updated_at=timezone.now())
        logger.error("job kind unknown", extra={"job_id": str(job.pk), "kind": job.kind})
        return Outcome("failed")
    if job.status == Job.RUNNING:
        grace = timedelta(seconds=int(settings.JOBS_HEARTBEAT_SECONDS) * 3)
        if _alive(job) or (job.started_at and timezone.now() - job.started_at < grace):
            return Outcome("skipped")  # a duplicate delivery while another worker runs it
        logger.warning("job's worker stopped mid-job", extra={"job_id": str(job.pk), "kind": job.kind,
                                                               "attempt": job.attempts})
    if job.attempts >= kind.max_attempts:
        Job.objects.filter(pk=job.pk, status=job.status, attempts=job.attempts).update(
            status=Job.FAILED, finished_at=timezone.now(), updated_at=timezone.now(),
            error=f"The job was interrupted {job.attempts} times (its worker stopped) and was given up; "
                  f"nothing it did was kept. Start it again.")
        return Outcome("failed")
    if not _claim(job):
        return Outcome("skipped")
    return _run(job, kind)


def _run(job: Job, kind: JobKind) -> Outcome:
    log = {"job_id": str(job.pk), "kind": job.kind, "attempt": job.attempts, "request_id": job.request_id}
    token = request_id_var.set(job.request_id)  # the job's log lines carry the id of the request that started it
    try:
        return _attempt(job, kind, log)
    finally:
        request_id_var.reset(token)


def _attempt(job: Job, kind: JobKind, log: dict) -> Outcome:
    logger.info("job started", extra=log)
    started = time.perf_counter()
    try:
        with Heartbeat(job.pk) as heartbeat, transaction.atomic() if kind.atomic else nullcontext():
            result = kind.func(JobContext(job, heartbeat))
            if not isinstance(result, JobResult):
                result = JobResult(data=result if isinstance(result, dict) else None)
            _finish(job, status=Job.SUCCEEDED, message=result.message or "Done", result=result)
    except JobError as exc:
        _finish(job, status=Job.FAILED, message="Failed", error=str(exc))
        logger.info("job failed", extra={**log, "error": str(exc)})
        return Outcome("failed")
    except TRANSIENT + kind.retry_on as exc:
        if job.attempts < kind.max_attempts:
            _requeue(job, f"{type(exc).__name__}")
            delay = _retry_delay(job.attempts)
            logger.warning("job will be retried", exc_info=True, extra={**log, "retry_in": delay})
            return Outcome("retry", retry_in=delay)
        _finish(job, status=Job.FAILED, message="Failed",
                error=f"The job failed {job.attempts} times on a temporary problem ({type(exc).__name__}); "
                      f"nothing it did was kept. Try again later.")
        logger.error("job failed after retries", exc_info=True, extra=log)
        return Outcome("failed")
    except Exception:
        _finish(job, status=Job.FAILED, message="Failed", error=GENERIC_FAILURE.format(id=job.pk))
        logger.exception("job failed", extra=log)
        return Outcome("failed")
    logger.info("job succeeded", extra={**log, "duration_ms": round((time.perf_counter() - started) * 1000)})
    return Outcome("succeeded")
