"""A job's status for pages (a partial htmx polls while the job runs) and its file for download."""
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from .selectors import job_get_for_user, job_result_file, job_status

POLL_SECONDS = 1


def _job(request, job_id):
    return job_get_for_user(user=request.user, job_id=job_id, session_key=request.session.session_key)


@require_GET
def status(request, job_id):
    """The status partial for htmx (it replaces itself every second until the job is done), or a page."""
    context = {"job": job_status(_job(request, job_id)), "poll_seconds": POLL_SECONDS}
    template = "jobs/_status.html" if request.htmx else "jobs/status.html"
    response = render(request, template, context)
    response["Cache-Control"] = "no-store"
    response["Vary"] = "HX-Request"
    return response


@require_GET
def result(request, job_id):
    content, filename, content_type = job_result_file(_job(request, job_id))
    response = HttpResponse(content, content_type=content_type)
    safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in filename)[:120] or "result"
    response["Content-Disposition"] = f'attachment; filename="{safe}"'
    response["Cache-Control"] = "private, max-age=0"
    return response
