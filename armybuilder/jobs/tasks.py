"""The Celery side of jobs: one task runs any kind, plus the periodic recovery of stale jobs."""
from celery import shared_task
from celery.signals import worker_ready

from .services import jobs_recover_stale
from .worker import run_job  # noqa: F401 (Celery looks for every task in this module)


@shared_task(name="jobs.recover_stale", ignore_result=True)
def recover_stale_jobs() -> dict:
    return jobs_recover_stale()


@worker_ready.connect
def _recover_at_start(sender=None, **kwargs):
    # A worker that starts after a crash picks up what the dead one left, without waiting for beat.
    jobs_recover_stale()
