"""The Celery task that runs one job of any kind. Apart from ``tasks`` (which Celery reads, and which also holds
the periodic recovery that calls ``services``) so that ``services`` can send it without the two importing each
other."""
from celery import shared_task

from .runner import job_execute


@shared_task(name="jobs.run", bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=None,
             ignore_result=True)
def run_job(self, job_id: str) -> str:
    outcome = job_execute(job_id)
    if outcome.status == "retry":
        raise self.retry(countdown=outcome.retry_in)
    return outcome.status
