"""Tournament pages: thin views over ``services`` (writes) and ``selectors`` (reads and who may see what).

An organiser-only page or a submission the visitor may not see answers 404, exactly like one that does not
exist, so nobody learns that a hidden list is there.
"""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from armybuilder.downloads import attachment
from armybuilder.lists.selectors import army_lists_visible_to
from armybuilder.services.events import selectors, services
from armybuilder.services.events.exports import submission_filename, submission_json, submission_pdf, submission_ros
from armybuilder.services.events.models import Registration
from armybuilder.services.events.services import EventError, EventPermissionError
from armybuilder.services.printing.forms import RosterOptionsForm
from handbooks.models import Handbook

from .forms import EventForm, OrganiserForm, ReviewForm, SubmitForm


def _problem(form) -> str:
    parts = []
    for name, errors in form.errors.items():
        label = "" if name == "__all__" else f"{name.replace('_', ' ')}: "
        parts.append(label + " ".join(errors))
    return "; ".join(parts) or "That request was not understood."


WHEN = "%-d %b %Y %H:%M UTC"


def _pack_rows(event) -> list[tuple[str, str]]:
    """The rules pack in words, for the event page and the dashboard."""
    names = selectors.pack_names(event)
    rows = [("System", event.system.name)]
    if event.points_limit is not None:
        rows.append(("Points", f"{event.points_limit} points" + (
            f" plus up to {event.card_points} points of command cards" if event.card_points else "")))
    if event.formation_limit is not None:
        rows.append(("Formations", f"at most {event.formation_limit}"))
    rows.append(("Books", ", ".join(names["books"].get(c, c) for c in event.allowed_books)
                  or "any book of the system"))
    if event.allowed_nations:
        rows.append(("Nations", ", ".join(names["nations"].get(c, c) for c in event.allowed_nations)))
    if event.allowed_periods:
        rows.append(("Periods", ", ".join(event.allowed_periods)))
    if event.allowed_points_sets:
        rows.append(("Points sets", ", ".join(event.allowed_points_sets)))
    if event.current_revision_only:
        rows.append(("Revisions", "the current revision of each book"))
    rows.append(("List deadline", event.deadline.strftime(WHEN)))
    rows.append(("Lists revealed", event.reveal_at.strftime(WHEN)))
    rows.append(("Late changes", "organisers may reopen a submission" if event.late_changes else "none"))
    rows.append(("Lists after the reveal", "public" if event.public else "registered players only"))
    return rows


# -- events ---------------------------------------------------------------------------------------------------------

@require_GET
def index(request):
    return render(request, "events/index.html", {"events": selectors.events_listed(request.user)})


@login_required
@require_http_methods(["GET", "POST"])
def event_new(request):
    form = EventForm(request.POST or None)
    message = ""
    if request.method == "POST" and form.is_valid():
        fields = form.event_fields()
        try:
            event = services.event_create(user=request.user, **fields)
        except EventError as exc:
            message = str(exc)
        else:
            messages.success(request, f"{event.name} is created. Share this page with the players.")
            return redirect("events:event", event_id=event.public_id)
    elif request.method == "POST":
        message = _problem(form)
    return render(request, "events/event_form.html", {"form": form, "message": message, "event": None},
                  status=400 if message else 200)


@require_http_methods(["GET", "POST"])
def event_edit(request, event_id):
    event = selectors.event_get_organised(public_id=event_id, user=request.user)
    form = EventForm(request.POST or None, initial=None if request.POST else EventForm.initial_of(event))
    message = ""
    if request.method == "POST" and form.is_valid():
        fields = form.event_fields()
        if fields.pop("system") != event.system:
            message = "The system of an event cannot change once it is created."
        else:
            try:
                services.event_update(event=event, user=request.user, **fields)
            except EventError as exc:
                message = str(exc)
            else:
                messages.success(request, "The event is saved.")
                return redirect("events:event", event_id=event.public_id)
    elif request.method == "POST":
        message = _problem(form)
    return render(request, "events/event_form.html",
                  {"form": form, "message": message, "event": event, "organisers": selectors.event_organisers(event),
                   "organiser_form": OrganiserForm()}, status=400 if message else 200)


@require_POST
def organiser_add(request, event_id):
    event = selectors.event_get_organised(public_id=event_id, user=request.user)
    form = OrganiserForm(request.POST)
    if not form.is_valid():
        messages.error(request, _problem(form))
    else:
        try:
            added = services.event_add_organiser(event=event, by=request.user, username=form.cleaned_data["username"])
        except EventError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, f"{added.user.get_username()} now organises {event.name} with you.")
    return redirect("events:edit", event_id=event.public_id)


@require_GET
def event_page(request, event_id):
    event = selectors.event_get(public_id=event_id)
    viewer = selectors.event_viewer(event, request.user)
    players = selectors.event_player_names(event)
    revealed = selectors.event_revealed_submissions(event, viewer)
    return render(request, "events/event.html", {
        "event": event, "viewer": viewer, "pack": _pack_rows(event), "players": players,
        "organisers": selectors.event_organisers(event),
        "revealed": revealed, "without_list": [n for n in players if n not in {s.registration.player.username
                                                                                  for s in revealed}],
        "mine": viewer.registration.current if viewer.registration else None})


@require_POST
def register(request, event_id):
    event = selectors.event_get(public_id=event_id)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('web:login')}?next={reverse('events:event', args=[event.public_id])}")
    try:
        services.event_register(event=event, player=request.user)
    except EventError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"You are registered for {event.name}. Now submit one of your lists.")
        return redirect("events:submit", event_id=event.public_id)
    return redirect("events:event", event_id=event.public_id)


# -- submitting -----------------------------------------------------------------------------------------------------

def _my_registration(request, event) -> Registration:
    viewer = selectors.event_viewer(event, request.user)
    if viewer.registration is None:
        raise Http404("You are not registered for this event.")
    return viewer.registration


@require_http_methods(["GET", "POST"])
def submit(request, event_id):
    """Choose one of my lists, see what the event's pack makes of it, hand it in."""
    event = selectors.event_get(public_id=event_id)
    registration = _my_registration(request, event)
    lists = list(army_lists_visible_to(request.user).filter(system=event.system).select_related("handbook", "system"))
    chosen, check, message, status = None, None, "", 200
    form = SubmitForm(request.POST or request.GET or None)
    if form.is_bound and form.is_valid():
        chosen = next((a for a in lists if a.public_id == form.cleaned_data["army_list"]), None)
        if chosen is None:
            message, status = "That is not one of your lists of this system.", 400
    elif form.is_bound:
        message, status = _problem(form), 400
    if chosen is not None and request.method == "POST":
        try:
            submission = services.submission_create(registration=registration, army_list=chosen, by=request.user)
        except EventError as exc:
            message, status = str(exc), 400
        else:
            verdict = "with no error" if submission.legal else f"with {len(submission.errors)} error(s) to fix"
            messages.success(request, f"'{submission.name}' is submitted ({verdict}).")
            return redirect("events:submission", submission_id=submission.public_id)
    if chosen is not None:
        try:
            _document, check = services.event_check_list(event=event, army_list=chosen)
        except EventError as exc:
            message, status = str(exc), 400
    context = {"event": event, "registration": registration, "lists": lists, "chosen": chosen, "check": check,
               "message": message, "history": selectors.player_submissions(registration)}
    template = "events/_check.html" if request.htmx and request.method == "GET" else "events/submit.html"
    return render(request, template, context, status=status)


@require_GET
def submission_page(request, submission_id):
    submission = selectors.submission_get_visible(public_id=submission_id, user=request.user)
    event = submission.registration.event
    viewer = selectors.event_viewer(event, request.user)
    book = submission.document.get("handbook") or {}
    return render(request, "events/submission.html", {
        "submission": submission, "event": event, "viewer": viewer,
        "has_ros": Handbook.objects.filter(system=event.system, code=book.get("code"), revision=book.get("revision"),
                                           source="battlescribe").exists(),
        "is_mine": viewer.registration is not None and viewer.registration.pk == submission.registration_id})


def _file(content: bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = attachment(filename)
    response["Cache-Control"] = "private, max-age=0"
    return response


@require_GET
def submission_export_json(request, submission_id):
    submission = selectors.submission_get_visible(public_id=submission_id, user=request.user)
    return _file(submission_json(submission), "application/json; charset=utf-8",
                 submission_filename(submission, "json"))


@require_GET
def submission_export_ros(request, submission_id):
    submission = selectors.submission_get_visible(public_id=submission_id, user=request.user)
    try:
        content = submission_ros(submission)
    except EventError as exc:
        return HttpResponse(str(exc), status=400, content_type="text/plain; charset=utf-8")
    return _file(content, "application/xml", submission_filename(submission, "ros"))


@require_GET
def submission_roster(request, submission_id):
    submission = selectors.submission_get_visible(public_id=submission_id, user=request.user)
    form = RosterOptionsForm(request.GET)
    if not form.is_valid():
        return HttpResponse(f"Bad roster options: {_problem(form)} (paper=a4|letter, cards=0|1)", status=400,
                            content_type="text/plain; charset=utf-8")
    options = form.options()
    try:
        pdf = submission_pdf(submission, paper=options["paper"], cards=options["cards"])
    except EventError as exc:
        return HttpResponse(str(exc), status=400, content_type="text/plain; charset=utf-8")
    return _file(pdf, "application/pdf", submission_filename(submission, "pdf"))


# -- the organiser's dashboard --------------------------------------------------------------------------------------

def _dashboard(request, event, *, rechecked=None, status=200):
    rows = selectors.event_dashboard(event)
    counts = {"players": len(rows), "submitted": sum(1 for r in rows if r.current is not None),
              "legal": sum(1 for r in rows if r.current is not None and r.current.legal),
              "approved": sum(1 for r in rows if r.current is not None and r.current.status in ("approved", "locked")
                              and r.registration.status != "rejected")}
    return render(request, "events/dashboard.html", {
        "event": event, "rows": rows, "counts": counts, "pack": _pack_rows(event), "rechecked": rechecked,
        "changed": [r for r in rechecked or [] if r.changed]}, status=status)


@require_GET
def dashboard(request, event_id):
    return _dashboard(request, selectors.event_get_organised(public_id=event_id, user=request.user))


@require_POST
def review(request, event_id, submission_id):
    event = selectors.event_get_organised(public_id=event_id, user=request.user)
    submission = selectors.submission_get_visible(public_id=submission_id, user=request.user)
    if submission.registration.event_id != event.pk:
        raise Http404("No such submission.")
    form = ReviewForm(request.POST)
    if not form.is_valid():
        messages.error(request, _problem(form))
    else:
        try:
            services.submission_review(submission=submission, by=request.user,
                                       approve=form.cleaned_data["decision"] == "approve",
                                       comment=form.cleaned_data["comment"])
        except EventPermissionError:
            raise Http404("No such submission.") from None
        except EventError as exc:
            messages.error(request, f"{submission.registration.player.get_username()}: {exc}")
        else:
            verb = "approved" if form.cleaned_data["decision"] == "approve" else "rejected"
            messages.success(request, f"{submission.registration.player.get_username()}'s list is {verb}.")
    return redirect(reverse("events:dashboard", args=[event.public_id]) + f"#player-{submission.registration_id}")


@require_POST
def reopen(request, event_id, registration_id):
    event = selectors.event_get_organised(public_id=event_id, user=request.user)
    registration = selectors.registration_get_organised(pk=registration_id, user=request.user)
    if registration.event_id != event.pk:
        raise Http404("No such registration.")
    try:
        services.registration_reopen(registration=registration, by=request.user)
    except EventError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"{registration.player.get_username()} may submit once more after the deadline.")
    return redirect(reverse("events:dashboard", args=[event.public_id]) + f"#player-{registration.pk}")


@require_POST
def lock_all(request, event_id):
    event = selectors.event_get_organised(public_id=event_id, user=request.user)
    locked = services.event_lock_all(event=event, by=request.user)
    messages.success(request,
                     f"{locked} approved list{'s' if locked != 1 else ''} locked. Players can no longer submit; "
                     "lists not approved keep their status.")
    return redirect("events:dashboard", event_id=event.public_id)


@require_POST
def recheck_all(request, event_id):
    event = selectors.event_get_organised(public_id=event_id, user=request.user)
    results = services.event_recheck_all(event=event, by=request.user)
    return _dashboard(request, event, rechecked=results)

