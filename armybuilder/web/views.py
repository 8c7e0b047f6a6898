"""Pages of the browser builder. Thin: forms check shape, services write, selectors read.

Every list URL goes through ``army_list_get_for_user`` (404 for a list that is missing
or someone else's); the share page goes through ``army_list_get_shared``.
"""
import json
from dataclasses import dataclass

from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.utils.html import format_html
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from armybuilder.interchange.listjson import parse_list_json
from armybuilder.interchange.listjson.document import ListDocumentError
from armybuilder.lists import services as list_services
from armybuilder.lists.gamedata import handbook_data
from armybuilder.lists.models import ListFormation, ListUnit
from armybuilder.lists.selectors import (army_list_document, army_list_force, army_list_get_for_user,
                                         army_list_get_shared, army_lists_visible_to)
from armybuilder.lists.services import ListOperationError, StaleListError
from armybuilder.rules import check

from . import forms
from .builder import builder_view
from .selectors import (allied_handbook, allied_handbooks, list_card_at, list_formation_at, list_target_at,
                        list_unit_at)
from .services import army_list_choose_upgrade

STALE_MESSAGE = "This list was changed in another tab or window — reload to see the newer version."


# -- helpers -----------------------------------------------------------------------------------------------------

def session_key(request, *, create: bool = False) -> str | None:
    """The visitor's session key; with ``create`` a session is started if there is none yet."""
    if create and not request.session.session_key:
        request.session.save()
    return request.session.session_key


def owner_kwargs(request) -> dict:
    """Who a new list belongs to: the logged-in player, or the visitor's session."""
    if request.user.is_authenticated:
        return {"owner": request.user}
    return {"session_key": session_key(request, create=True)}


def own_list(request, public_id):
    return army_list_get_for_user(user=request.user, public_id=public_id, session_key=request.session.session_key)


def hidden_fields(request, army_list) -> str:
    """What every builder form carries: the CSRF token (for posts without htmx) and the list's version."""
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">'
                       '<input type="hidden" name="version" value="{}">', get_token(request), army_list.version)


def builder_context(request, army_list, *, message: str = "", message_kind: str = "error") -> dict:
    force = army_list_force(army_list)
    report = check(force)
    allies = [handbook_data(book.pk) for book in allied_handbooks(army_list)]
    share_url = ""
    if army_list.visibility == "shared":
        share_url = request.build_absolute_uri(reverse("web:shared", args=[army_list.share_token]))
    urls = {name.replace("-", "_"): reverse("web:action", args=[army_list.public_id, name]) for name in ACTIONS}
    return {"army_list": army_list, "view": builder_view(force, report, allies), "message": message,
            "message_kind": message_kind, "share_url": share_url, "readonly": False, "urls": urls,
            "hidden": hidden_fields(request, army_list)}


def form_problem(form) -> str:
    parts = []
    for name, errors in form.errors.items():
        label = "" if name == "__all__" else f"{name.replace('_', ' ')}: "
        parts.append(label + " ".join(errors))
    return "; ".join(parts) or "That request was not understood."


def download(body: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def export_body(army_list) -> tuple[str, str]:
    body = json.dumps(army_list_document(army_list), indent=2, ensure_ascii=False) + "\n"
    return body, f"{slugify(army_list.name) or 'army-list'}.json"


# -- start page and list management ------------------------------------------------------------------------------

@require_http_methods(["GET", "POST"])
def start(request):
    form = forms.NewListForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        book = form.cleaned_data["handbook"]
        army_list = list_services.army_list_create(handbook=book, name=form.cleaned_data["name"],
                                                   points_limit=form.cleaned_data["points_limit"],
                                                   **owner_kwargs(request))
        return redirect("web:builder", public_id=army_list.public_id)
    lists = (army_lists_visible_to(request.user, request.session.session_key)
             .select_related("handbook", "system"))
    return render(request, "web/start.html", {"form": form, "lists": lists},
                  status=400 if form.errors else 200)


@require_POST
def list_rename(request, public_id):
    army_list = own_list(request, public_id)
    form = forms.RenameForm(request.POST)
    if form.is_valid():
        try:
            list_services.army_list_update(army_list=army_list, expected_version=form.cleaned_data["version"],
                                           name=form.cleaned_data["name"])
        except StaleListError:
            return _start_with_message(request, STALE_MESSAGE, status=409)
        except ListOperationError as exc:
            return _start_with_message(request, str(exc).capitalize() + ".", status=400)
        return redirect("web:start")
    return _start_with_message(request, form_problem(form), status=400)


def _start_with_message(request, message: str, status: int):
    lists = army_lists_visible_to(request.user, request.session.session_key).select_related("handbook", "system")
    return render(request, "web/start.html", {"form": forms.NewListForm(), "lists": lists, "message": message},
                  status=status)


@require_POST
def list_copy(request, public_id):
    army_list = own_list(request, public_id)
    copy = list_services.army_list_copy(army_list=army_list, **owner_kwargs(request))
    return redirect("web:builder", public_id=copy.public_id)


@require_http_methods(["GET", "POST"])
def list_delete(request, public_id):
    army_list = own_list(request, public_id)
    if request.method == "POST":
        list_services.army_list_delete(army_list=army_list)
        return redirect("web:start")
    return render(request, "web/confirm_delete.html", {"army_list": army_list})


def list_export(request, public_id):
    body, filename = export_body(own_list(request, public_id))
    return download(body, filename)


# -- the builder -------------------------------------------------------------------------------------------------

def builder(request, public_id):
    army_list = own_list(request, public_id)
    return render(request, "web/builder.html", builder_context(request, army_list))


@dataclass(frozen=True)
class Action:
    form: type
    run: callable
    done: str = ""


def _settings(army_list, data, version):
    fields = {"name": data["name"], "points_limit": data["points_limit"], "variant": data["variant"] or ""}
    if not army_list.system.uses_points:
        fields["points_limit"] = None  # Hail of Fire and War Ain't Fair: no points field, no limit
    fields["year"] = data["year"]
    list_services.army_list_update(army_list=army_list, expected_version=version, **fields)


def _setup(army_list, data, version):
    target = list_target_at(army_list, data["target"])
    if isinstance(target, ListFormation):
        list_services.army_list_set_setup(army_list=army_list, list_formation=target, letter=data["letter"],
                                          outflank=data["outflank"] or None, expected_version=version)
    else:
        list_services.army_list_set_setup(army_list=army_list, list_unit=target, letter=data["letter"],
                                          outflank=data["outflank"], expected_version=version)


def _add_formation(army_list, data, version):
    book, parent = None, None
    if data["book"]:
        book = allied_handbook(army_list, data["book"])
    if data["parent"]:
        parent = list_formation_at(army_list, data["parent"])
    list_services.army_list_add_formation(army_list=army_list, formation_code=data["formation"], handbook=book,
                                          allied=book is not None, parent=parent,
                                          via_box_code=data["via_box"] or None, expected_version=version)


def _remove_formation(army_list, data, version):
    list_services.army_list_remove_formation(army_list=army_list, expected_version=version,
                                             list_formation=list_formation_at(army_list, data["formation"]))


def _pick(army_list, data, version):
    formation = list_formation_at(army_list, data["formation"]) if data["formation"] else None
    list_services.army_list_pick_unit(army_list=army_list, list_formation=formation, box_code=data["box"],
                                      unit_code=data["unit"], expected_version=version)


def _remove_unit(army_list, data, version):
    list_services.army_list_remove_unit(army_list=army_list, list_unit=list_unit_at(army_list, data["unit"]),
                                        expected_version=version)


def _size(army_list, data, version):
    list_services.army_list_set_size(army_list=army_list, list_unit=list_unit_at(army_list, data["unit"]),
                                     size_code=data["size"], expected_version=version)


def _upgrade(army_list, data, version):
    army_list_choose_upgrade(army_list=army_list, list_unit=list_unit_at(army_list, data["unit"]),
                             upgrade_code=data["upgrade"], quantity=data["quantity"], replace_in_group=data["swap"],
                             expected_version=version)


def _select(army_list, data, version):
    list_services.army_list_set_selection(army_list=army_list, pointer=data["holder"] or "", at=data["at"],
                                          entry=data["entry"], number=data["number"], expected_version=version)


def _add_card(army_list, data, version):
    target = list_target_at(army_list, data["target"]) if data["target"] else None
    list_services.army_list_add_card(army_list=army_list, card_code=data["card"], expected_version=version,
                                     target_formation=target if isinstance(target, ListFormation) else None,
                                     target_unit=target if isinstance(target, ListUnit) else None)


def _remove_card(army_list, data, version):
    list_services.army_list_remove_card(army_list=army_list, list_card=list_card_at(army_list, data["card"]),
                                        expected_version=version)


def _visibility(army_list, data, version):
    list_services.army_list_update(army_list=army_list, expected_version=version, visibility=data["visibility"])


ACTIONS = {
    "settings": Action(forms.SettingsForm, _settings, "Saved."),
    "add-formation": Action(forms.AddFormationForm, _add_formation),
    "remove-formation": Action(forms.FormationForm, _remove_formation),
    "pick": Action(forms.PickUnitForm, _pick),
    "remove-unit": Action(forms.UnitForm, _remove_unit),
    "size": Action(forms.SizeForm, _size),
    "upgrade": Action(forms.UpgradeForm, _upgrade),
    "select": Action(forms.SelectForm, _select),
    "add-card": Action(forms.AddCardForm, _add_card),
    "remove-card": Action(forms.CardForm, _remove_card),
    "visibility": Action(forms.VisibilityForm, _visibility, "Sharing updated."),
    "setup": Action(forms.SetupForm, _setup, "Set-up saved."),
}


@require_POST
def builder_action(request, public_id, action):
    """Run one builder action and answer with the re-drawn builder (htmx) or a redirect back to it."""
    army_list = own_list(request, public_id)
    spec = ACTIONS.get(action)
    if spec is None:
        raise Http404("No such action.")
    form = spec.form(request.POST)
    message, status = "", 200
    if not form.is_valid():
        message, status = form_problem(form), 400
    else:
        try:
            spec.run(army_list, form.cleaned_data, form.cleaned_data["version"])
        except StaleListError:
            return stale_response(request, army_list)
        except ListOperationError as exc:
            message, status = str(exc)[:1].upper() + str(exc)[1:].rstrip(".") + ".", 400
    if request.htmx:
        context = builder_context(request, army_list, message=message or spec.done,
                                  message_kind="error" if message else "ok")
        return render(request, "web/builder.html#builder", context)
    if message:
        return render(request, "web/builder.html", builder_context(request, army_list, message=message),
                      status=status)
    return redirect("web:builder", public_id=army_list.public_id)


def stale_response(request, army_list):
    """Nothing was written. htmx: only the alert changes, the page stays as the player saw it."""
    if request.htmx:
        response = render(request, "web/builder.html#stale-alert", {"army_list": army_list})
        return reswap(retarget(response, "#builder-alert"), "innerHTML")
    army_list.refresh_from_db()
    return render(request, "web/builder.html", builder_context(request, army_list, message=STALE_MESSAGE),
                  status=409)


# -- sharing, import, export -------------------------------------------------------------------------------------

def shared(request, share_token):
    army_list = army_list_get_shared(share_token=share_token)
    force = army_list_force(army_list)
    context = {"army_list": army_list, "view": builder_view(force, check(force)), "readonly": True}
    return render(request, "web/shared.html", context)


def shared_export(request, share_token):
    body, filename = export_body(army_list_get_shared(share_token=share_token))
    return download(body, filename)


@require_http_methods(["GET", "POST"])
def import_list(request):
    form = forms.ImportForm(request.POST or None, request.FILES or None)
    problems = []
    if request.method == "POST" and form.is_valid():
        try:
            doc = parse_list_json(form.cleaned_data["raw"])
            army_list = list_services.army_list_import(doc=doc, **owner_kwargs(request))
        except ListDocumentError as exc:
            problems = exc.problems
        else:
            return redirect("web:builder", public_id=army_list.public_id)
    status = 400 if (problems or form.errors) else 200
    return render(request, "web/import.html", {"form": form, "problems": problems}, status=status)
