from celery import shared_task

from .services import housekeeping_run


@shared_task(name="housekeeping.run", ignore_result=True)
def housekeeping() -> dict:
    return housekeeping_run()
