"""The pack's pages, for the event's organisers: the panel on the dashboard (build, progress, downloads) and
the three files. Everyone else gets 404, like a missing event."""
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from armybuilder.downloads import attachment
from armybuilder.jobs.selectors import job_status
from armybuilder.jobs.views import POLL_SECONDS
from armybuilder.services.events import selectors
from armybuilder.services.events.models import Registration
from armybuilder.services.events.pack import services as pack

PAPER_CHOICES = [("a4", "A4"), ("letter", "US Letter")]


@require_http_methods(["GET", "POST"])
def pack_panel(request, event_id):
    """GET: the panel (htmx: just the partial, which polls itself while a build runs). POST: build the pack."""
    event = selectors.event_get_organised(public_id=event_id, user=request.user)
    error, status = "", 200
    if request.method == "POST":
        try:
            pack.event_pack_start(event=event, user=request.user, paper=request.POST.get("paper", "a4")[:10])
        except pack.PackError as exc:
            error, status = str(exc), 400
        else:
            if not request.htmx:
                return redirect(reverse("events:pack", args=[event.public_id]))
    state = pack.event_pack_state(event=event, user=request.user)
    job = job_status(state.job) if state.job is not None else None
    approved = Registration.objects.filter(event=event, current__status__in=pack.PACKED_STATUSES).count()
    context = {"event": event, "job": job, "up_to_date": state.up_to_date, "error": error, "approved": approved,
               "running": job is not None and job["status"] in ("queued", "running"), "poll_seconds": POLL_SECONDS,
               "papers": PAPER_CHOICES,
               "paper": (state.job.params or {}).get("paper", "a4") if state.job else "a4"}
    template = "events/pack/_panel.html" if request.htmx else "events/pack/page.html"
    response = render(request, template, context, status=status)
    response["Cache-Control"] = "no-store"
    response["Vary"] = "HX-Request"
    return response


def _download(part: str):
    @require_GET
    def view(request, event_id):
        event = selectors.event_get_organised(public_id=event_id, user=request.user)
        content, filename, content_type = pack.event_pack_file(event=event, user=request.user, part=part)
        response = HttpResponse(content, content_type=content_type)
        response["Content-Disposition"] = attachment(filename)
        response["Cache-Control"] = "private, no-store"
        return response

    view.__name__ = f"pack_{part}"
    return view


pack_pdf = _download("pdf")
pack_csv = _download("csv")
pack_zip = _download("zip")
