"""Kinds of job. An app declares each of its kinds in its ``jobkinds`` module:

    @job_kind("roster_pdf", max_attempts=3)
    def roster_pdf(ctx: JobContext) -> JobResult:
        ctx.progress(10, "Checking the list")
        ...
        return JobResult(file=pdf, filename="roster.pdf", content_type="application/pdf")

The function runs inside one database transaction (unless ``atomic=False``), together with
the write of its result, so a job that fails or whose worker dies leaves nothing behind.
"""
from collections.abc import Callable
from dataclasses import dataclass, field


class JobError(Exception):
    """The job cannot do what was asked; the message tells the person who started it why. Not retried."""


@dataclass
class JobResult:
    data: dict | None = None  # a JSON summary (shown in the status and the API)
    file: bytes | None = None  # a file to download
    filename: str = ""
    content_type: str = "application/octet-stream"
    message: str = ""  # the last line of the status, e.g. "Imported 37 handbooks"


@dataclass(frozen=True)
class JobKind:
    name: str
    func: Callable
    title: str  # what a page calls it: "Roster PDF"
    max_attempts: int = 3
    atomic: bool = True
    retry_on: tuple = field(default_factory=tuple)  # more exception types that mean "try again later"


_kinds: dict[str, JobKind] = {}


def job_kind(name: str, *, title: str = "", max_attempts: int = 3, atomic: bool = True, retry_on: tuple = ()):
    """Register the decorated function as the job kind ``name``."""
    if max_attempts < 1:
        raise ValueError("max_attempts is at least 1")

    def register(func):
        _kinds[name] = JobKind(name=name, func=func, title=title or name.replace("_", " ").capitalize(),
                               max_attempts=max_attempts, atomic=atomic, retry_on=tuple(retry_on))
        return func

    return register


def job_kind_get(name: str) -> JobKind:
    try:
        return _kinds[name]
    except KeyError:
        raise LookupError(f"no job kind {name!r}; registered: {', '.join(sorted(_kinds)) or 'none'}") from None


def job_kinds() -> dict[str, JobKind]:
    return dict(_kinds)
