"""Reads for jobs: who may see one, and its status as plain data for the API and the page."""
from django.http import Http404

from .live import live_get
from .models import Job
from .registry import job_kind_get


def job_get_for_user(*, user, job_id, session_key: str | None = None) -> Job:
    """A job its owner (or the visitor whose session started it) may see; 404 for anyone else."""
    jobs = Job.objects.defer("input_file", "result_file")
    if user is not None and user.is_authenticated:
        job = jobs.filter(pk=job_id, owner=user).first()
    elif session_key:
        job = jobs.filter(pk=job_id, owner=None, session_key=session_key).first()
    else:
        job = None
    if job is None:
        raise Http404("No such job.")
    return job


def job_result_file(job: Job) -> tuple[bytes, str, str]:
    """(content, filename, content type) of a succeeded job's file; Http404 if it has none."""
    row = Job.objects.filter(pk=job.pk, status=Job.SUCCEEDED).exclude(result_name="").values_list(
        "result_file", "result_name", "result_content_type").first()
    if row is None or row[0] is None:
        raise Http404("This job has no file to download (yet).")
    return bytes(row[0]), row[1], row[2] or "application/octet-stream"


def job_status(job: Job) -> dict:
    """The job as the API and the status partial show it; progress comes live from the cache while it runs."""
    progress, message = job.progress, job.message
    if job.status == Job.RUNNING:
        live = live_get(job.pk)
        if live:
            progress, message = live["progress"], live["message"] or message
    try:
        title = job_kind_get(job.kind).title
    except LookupError:
        title = job.kind
    return {
        "id": str(job.pk), "kind": job.kind, "title": title, "status": job.status, "progress": progress,
        "message": message, "error": job.error, "result": job.result, "attempts": job.attempts,
        "has_file": job.has_file, "filename": job.result_name if job.has_file else "",
        "created_at": job.created_at, "started_at": job.started_at, "finished_at": job.finished_at,
    }
