"""Job kinds of tournaments: the event's pack."""
from armybuilder.jobs.registry import JobResult, job_kind

from .pack.services import pack_build


# Not atomic: the job writes nothing but its result, and holding a transaction open for the minutes a large
# pack takes would help nobody.
@job_kind("event_pack", title="Event pack", max_attempts=2, atomic=False)
def event_pack(ctx) -> JobResult:
    return pack_build(ctx)
