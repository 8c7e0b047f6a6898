"""Builder extras (issue 17): the list as text, the composition chart, print options, the one import page
for every list format and the starter list. Thin: a form or a query parameter in, a service call, a response out.
"""
from django.http import HttpResponse, HttpResponseBadRequest
from django.views.decorators.http import require_GET

from armybuilder.downloads import attachment
from armybuilder.lists.selectors import army_list_get_for_user, army_list_get_shared
from armybuilder.pdf.text import FLAVOURS, army_list_text, text_filename


def own_list(request, public_id):
    return army_list_get_for_user(user=request.user, public_id=public_id, session_key=request.session.session_key)


def _flavour_or_400(request):
    flavour = request.GET.get("style", "text")
    if flavour not in FLAVOURS:
        return None, HttpResponseBadRequest(f"Unknown text format: use style={'|'.join(FLAVOURS)}.",
                                            content_type="text/plain; charset=utf-8")
    return flavour, None


def _text_response(army_list, flavour: str, download: bool) -> HttpResponse:
    body = army_list_text(army_list=army_list, flavour=flavour)
    response = HttpResponse(body, content_type="text/plain; charset=utf-8")
    if download:
        response["Content-Disposition"] = attachment(text_filename(army_list.name, flavour))
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
