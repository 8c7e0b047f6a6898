"""The Celery side of jobs: one task runs any kind, plus the periodic recovery of stale jobs."""
from celery import shared_task
from celery.signals import worker_ready

from .runner import job_execute
from .services import jobs_recover_stale


@shared_task(name="jobs.run", bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=None,
             ignore_result=True)
def run_job(self, job_id: str) -> str:
    outcome = job_execute(job_id)
    if outcome.status == "retry":
        raise self.retry(countdown=outcome.retry_in)
    return outcome.status


@shared_task(name="jobs.recover_stale", ignore_result=True)
def recover_stale_jobs() -> dict:
    return jobs_recover_stale()


@worker_ready.connect
def _recover_at_start(sender=None, **kwargs):
    # A worker that starts after a crash picks up what the dead one left, without waiting for beat.
    jobs_recover_stale()
