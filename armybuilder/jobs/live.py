"""A running job's progress and heartbeat, kept in the shared cache.

While a job runs, its work (and the write of its result) is one database
transaction, so nothing it writes to the database is visible before it ends.
Progress therefore goes to the cache (Redis in production, shared by every
process), refreshed every few seconds by a heartbeat thread; a job whose
heartbeat has stopped belongs to a worker that died.
"""
import contextlib
import threading
import time

from django.conf import settings
from django.core.cache import cache

PREFIX = "jobs:live:"


def _ttl() -> int:
    return int(settings.JOBS_HEARTBEAT_SECONDS) * 3


def live_set(job_id, *, progress: int, message: str) -> None:
    cache.set(f"{PREFIX}{job_id}", {"progress": progress, "message": message, "beat": time.time()}, _ttl())


def live_get(job_id) -> dict | None:
    return cache.get(f"{PREFIX}{job_id}")


def live_clear(job_id) -> None:
    cache.delete(f"{PREFIX}{job_id}")


class Heartbeat:
    """Refreshes a running job's live entry until stopped, so a silent long step still shows it alive."""

    def __init__(self, job_id):
        self.job_id = job_id
        self.progress = 0
        self.message = ""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"job-heartbeat-{job_id}", daemon=True)

    def update(self, progress: int, message: str) -> None:
        self.progress, self.message = progress, message
        live_set(self.job_id, progress=progress, message=message)

    def __enter__(self):
        live_set(self.job_id, progress=self.progress, message=self.message)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(timeout=5)
        live_clear(self.job_id)

    def _run(self):
        while not self._stop.wait(int(settings.JOBS_HEARTBEAT_SECONDS)):
            with contextlib.suppress(Exception):  # a cache hiccup must not kill the job; the next beat tries again
                live_set(self.job_id, progress=self.progress, message=self.message)
