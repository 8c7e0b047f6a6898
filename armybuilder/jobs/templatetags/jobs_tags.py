"""{% load jobs_tags %}{% job_status job %}: a job's status partial in any page (it polls itself while running)."""
from django import template

from ..models import Job
from ..selectors import job_status as job_status_data
from ..views import POLL_SECONDS

register = template.Library()


@register.inclusion_tag("jobs/_status.html")
def job_status(job: Job) -> dict:
    return {"job": job_status_data(job), "poll_seconds": POLL_SECONDS}
