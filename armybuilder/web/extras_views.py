"""Builder extras (issue 17): the list as text, the composition chart, print options, the one import page
for every list format and the starter list. Thin: a form or a query parameter in, a service call, a response out.
"""
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST

from armybuilder.downloads import attachment
from armybuilder.lists.listjson.document import ListDocumentError
from armybuilder.lists.selectors import (
    army_list_force,
    army_list_get_for_user,
    army_list_get_shared,
    army_lists_visible_to,
)
from armybuilder.lists.summary import my_lists
from armybuilder.rules import check
from armybuilder.services import exports
from armybuilder.services.exports import TEXT_FLAVOURS as FLAVOURS
from armybuilder.services.printing.extras import chart_svg, composition
from armybuilder.services.printing.forms import PrintOptionsForm
from armybuilder.services.printing.options import army_list_set_print_options, saved_print_options
from armybuilder.services.starter import army_list_start_cheapest
from handbooks.models import GameSystem


def own_list(request, public_id):
    return army_list_get_for_user(user=request.user, public_id=public_id, session_key=request.session.session_key)


def _flavour_or_400(request):
    flavour = request.GET.get("style", "text")
    if flavour not in FLAVOURS:
        return None, HttpResponseBadRequest(f"Unknown text format: use style={'|'.join(FLAVOURS)}.",
                                            content_type="text/plain; charset=utf-8")
    return flavour, None


def _text_response(army_list, flavour: str, download: bool) -> HttpResponse:
    exported = exports.list_text(army_list, flavour=flavour)
    response = HttpResponse(exported.content, content_type=exported.content_type)
    if download:
        response["Content-Disposition"] = attachment(exported.filename)
    response["Cache-Control"] = "private, max-age=0"
    return response


@require_GET
def list_text(request, public_id):
    """The list as plain text, Markdown or BBCode (?style=…; ?download=1 for a file)."""
    army_list = own_list(request, public_id)
    flavour, error = _flavour_or_400(request)
    if error:
        return error
    return _text_response(army_list, flavour, request.GET.get("download") == "1")


@require_GET
def shared_text(request, share_token):
    army_list = army_list_get_shared(share_token=share_token)
    flavour, error = _flavour_or_400(request)
    if error:
        return error
    return _text_response(army_list, flavour, request.GET.get("download") == "1")


# -- composition chart -------------------------------------------------------------------------------------------

def composition_html(force, report) -> str:
    """The chart as the builder shows it (drawn with the page, and again with every change)."""
    data = composition(force, report)
    if data.empty:
        hint = "choose sizes for its units" if force.formations else "add a formation"
        return mark_safe(f'<p class="empty">Nothing to chart yet: {hint}.</p>')
    return mark_safe(chart_svg(data))


def _chart_response(army_list) -> HttpResponse:
    force = army_list_force(army_list)
    body = composition_html(force, check(force))
    response = HttpResponse(body, content_type="text/html; charset=utf-8")
    response["Cache-Control"] = "private, max-age=0"
    return response


@require_GET
def list_chart(request, public_id):
    """The composition chart, an SVG drawn by the server, as a fragment the builder loads into its page."""
    return _chart_response(own_list(request, public_id))


@require_GET
def shared_chart(request, share_token):
    return _chart_response(army_list_get_shared(share_token=share_token))


# -- print options -----------------------------------------------------------------------------------------------

def print_form(army_list) -> PrintOptionsForm:
    return PrintOptionsForm(initial=saved_print_options(army_list))


@require_POST
def list_print_options(request, public_id):
    """Remember the print options; answer with the print panel again (htmx) or go back to the builder."""
    army_list = own_list(request, public_id)
    form = PrintOptionsForm(request.POST)
    message, status = "", 200
    if form.is_valid():
        army_list_set_print_options(army_list=army_list, options=form.cleaned_data)
        message = "Print options saved: the roster download uses them."
        form = print_form(army_list)
    else:
        message, status = "; ".join(f"{name}: {' '.join(errors)}" for name, errors in form.errors.items()), 400
    if not request.htmx:
        if status != 200:
            return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
        return redirect("web:builder", public_id=army_list.public_id)
    return render(request, "web/_print_options.html", {"army_list": army_list, "print_form": form,
                                                      "print_message": message, "print_ok": status == 200},
                  status=status)


# -- My lists ----------------------------------------------------------------------------------------------------

def my_lists_context(request) -> dict:
    """The start page's list of the visitor's lists, filtered by ?system= and ?q= (words of the name)."""
    visible = army_lists_visible_to(request.user, request.session.session_key)
    systems = dict(GameSystem.objects.filter(army_lists__in=visible).distinct().order_by("name")
                   .values_list("code", "name"))
    system = request.GET.get("system", "")
    system = system if system in systems else ""
    search = " ".join(request.GET.get("q", "").split())[:120]
    return {"lists": my_lists(visible, system=system, search=search), "list_systems": list(systems.items()),
            "list_system": system, "list_search": search}


# -- starter list ------------------------------------------------------------------------------------------------

@require_POST
def list_starter(request, public_id):
    """A new list: the cheapest legal force of the chosen formation of this list's book."""
    army_list = own_list(request, public_id)
    code = request.POST.get("formation", "")[:200]
    owner = {"owner": request.user} if request.user.is_authenticated else {"session_key": request.session.session_key}
    try:
        new = army_list_start_cheapest(handbook=army_list.handbook, formation_code=code,
                                       points_limit=army_list.points_limit, **owner)
    except ListDocumentError as exc:
        return HttpResponseBadRequest("No starter list: " + "; ".join(p.message for p in exc.problems),
                                      content_type="text/plain; charset=utf-8")
    return redirect("web:builder", public_id=new.public_id)
