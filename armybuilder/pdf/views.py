"""Roster downloads and the verification page. Thin: options in, a service call, a response out."""
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from armybuilder.downloads import attachment
from armybuilder.lists.selectors import army_list_get_for_user, army_list_get_shared
from armybuilder.services.exports import list_pdf
from armybuilder.services.printing.forms import RosterOptionsForm, VerifyForm
from armybuilder.services.printing.options import render_options, saved_print_options
from armybuilder.services.printing.services import (
    BadCode,
    ListDocumentError,
    roster_filename,
    roster_pdf_cached,
    roster_pdf_job_start,
    roster_qr_path,
    roster_renders_in_background,
    roster_verify,
    share_path,
)


def _options_or_400(request, army_list=None):
    """The URL's options; with none in the URL, those remembered with the list (the builder's print options)."""
    if army_list is not None and not any(name in request.GET for name in RosterOptionsForm.base_fields):
        return render_options(saved_print_options(army_list)), None
    form = RosterOptionsForm(request.GET)
    if not form.is_valid():
        problems = "; ".join(f"{field}: {' '.join(errors)}" for field, errors in form.errors.items())
        return None, HttpResponseBadRequest(f"Bad roster options: {problems} (paper=a4|letter, cards=0|1, "
                                            "formation_pages|casualties|pick_list|chart=0|1)",
                                            content_type="text/plain; charset=utf-8")
    return form.options(), None


def _pdf_response(pdf: bytes, name: str, paper: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = attachment(roster_filename(name, paper))
    response["Cache-Control"] = "private, max-age=0"
    return response


@require_GET
def roster(request, public_id):
    """The owner's roster PDF (404 for anyone else, exactly as for a list that does not exist)."""
    army_list = army_list_get_for_user(user=request.user, public_id=public_id,
                                       session_key=request.session.session_key)
    options, error = _options_or_400(request, army_list)
    if error:
        return error
    if not options["player"] and request.user.is_authenticated:
        options["player"] = request.user.get_full_name() or request.user.get_username()
    path = roster_qr_path(army_list)
    return _roster_or_job(request, army_list, list_url=request.build_absolute_uri(path), **options)


def _roster_or_job(request, army_list, **options):
    """The PDF now when it is cached or quick to make; else a job, and its status page (which then offers it)."""
    pdf = roster_pdf_cached(army_list=army_list, **options)
    if pdf is None and roster_renders_in_background(army_list=army_list):
        if not request.session.session_key:
            request.session.save()  # an anonymous visitor needs a session to see the job
        job = roster_pdf_job_start(army_list=army_list, owner=request.user,
                                   session_key=request.session.session_key, **options)
        return redirect("jobs:status", job_id=job.pk)
    if pdf is None:
        pdf = list_pdf(army_list, **options).content
    return _pdf_response(pdf, army_list.name, options["paper"])


@require_GET
def shared_roster(request, share_token):
    """Anyone with the share link may print the list (without the owner's name unless ?player= is given)."""
    army_list = army_list_get_shared(share_token=share_token)
    options, error = _options_or_400(request, army_list)
    if error:
        return error
    return _roster_or_job(request, army_list, list_url=request.build_absolute_uri(share_path(army_list)), **options)


@require_http_methods(["GET", "POST"])
def verify(request):
    """Check a roster's printed code, alone (is it well-formed?) or against a pasted or uploaded list file."""
    result = problems = None
    status = 200
    if request.method == "POST":
        form = VerifyForm(request.POST, request.FILES)
    elif "code" in request.GET:
        form = VerifyForm(request.GET)
    else:
        form = VerifyForm()
    if form.is_bound:
        if form.is_valid():
            try:
                result = roster_verify(code=form.cleaned_data["code"], raw=form.list_source())
            except BadCode as exc:
                form.add_error("code", str(exc))
            except ListDocumentError as exc:
                problems = [str(p) for p in exc.problems]
        if form.errors or problems:
            status = 400
    return render(request, "pdf/verify.html", {"form": form, "result": result, "problems": problems},
                  status=status)
