"""Pages of the browser builder. Thin: forms check shape, services write, selectors read.

Every list URL goes through ``army_list_get_for_user`` (404 for a list that is missing
or someone else's); the share page goes through ``army_list_get_shared``.
"""
import json
from dataclasses import dataclass

from django.contrib import messages
from django.db import transaction

from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.utils.html import format_html
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from armybuilder.downloads import attachment
from armybuilder.interchange.any_file import list_file_import
from armybuilder.interchange.listjson.document import ListDocumentError
from armybuilder.lists import services as list_services
from armybuilder.lists.gamedata import handbook_data
from armybuilder.lists.models import ListFormation, ListUnit
from armybuilder.lists.selectors import (army_list_document, army_list_force, army_list_get_for_user,
                                         army_list_get_shared)
from armybuilder.lists.services import ListOperationError, StaleListError
from armybuilder.lists.summary import army_list_summary_store
from armybuilder.ratelimit import client_ident, rate_limit_hit
from armybuilder.rules import check

from . import forms
from .builder import builder_view
from .extras_views import composition_html, my_lists_context
from .selectors import (allied_handbook, allied_handbooks, list_card_at, list_formation_at, list_target_at,
                        list_unit_at)
from .services import army_list_choose_upgrade, player_display_name

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
    army_list_summary_store(army_list=army_list, report=report)  # what "My lists" shows of it
    allies = [handbook_data(book.pk) for book in allied_handbooks(army_list)]
    share_url = ""
    if army_list.visibility == "shared":
        share_url = request.build_absolute_uri(reverse("web:shared", args=[army_list.share_token]))
    urls = {name.replace("-", "_"): reverse("web:action", args=[army_list.public_id, name]) for name in ACTIONS}
    return {"army_list": army_list, "view": builder_view(force, report, allies), "message": message,
            "message_kind": message_kind, "share_url": share_url, "readonly": False, "urls": urls,
            "hidden": hidden_fields(request, army_list), "composition_svg": composition_html(force, report)}


def form_problem(form) -> str:
    parts = []
    for name, errors in form.errors.items():
        label = "" if name == "__all__" else f"{name.replace('_', ' ')}: "
        parts.append(label + " ".join(errors))
    return "; ".join(parts) or "That request was not understood."


def download(body: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = attachment(filename)
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
    return render(request, "web/start.html", {"form": form, **my_lists_context(request)},
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
    return render(request, "web/start.html", {"form": forms.NewListForm(), **my_lists_context(request),
                                              "message": message}, status=status)


def _too_many(request, scope: str, what: str):
    """A 429 page when this visitor did ``what`` too often (armybuilder/ratelimit.py), else None."""
    limited = rate_limit_hit(scope=scope, ident=client_ident(request))
    if limited is None:
        return None
    message = (f"Too many {what} from your address in a short time: try again in {limited.retry_after} "
               "second(s). Nothing was saved.")
    response = render(request, "web/rate_limited.html", {"message": message}, status=429)
    response["Retry-After"] = str(limited.retry_after)
    return response


@require_POST
def list_copy(request, public_id):
    army_list = own_list(request, public_id)
    if not request.user.is_authenticated:
        refused = _too_many(request, "web_copy_anon", "copies")
        if refused:
            return refused
    copy = list_services.army_list_copy(army_list=army_list, **owner_kwargs(request))
    return redirect("web:builder", public_id=copy.public_id)


DELETE_STALE = ("This list was changed in another tab or window since you asked to delete it: nothing was "
                "deleted. Look at it again, then delete it if you still want to.")


@require_http_methods(["GET", "POST"])
def list_delete(request, public_id):
    """Delete only the version the player saw: the builder's link carries it, the confirmation posts it."""
    army_list = own_list(request, public_id)
    if request.method == "POST":
        form = forms.VersionForm(request.POST)
        if not form.is_valid():
            return render(request, "web/confirm_delete.html",
                          {"army_list": army_list, "version": army_list.version, "message": form_problem(form)},
                          status=400)
        try:
            list_services.army_list_delete(army_list=army_list, expected_version=form.cleaned_data["version"])
        except StaleListError:
            army_list.refresh_from_db()
            return render(request, "web/confirm_delete.html",
                          {"army_list": army_list, "version": army_list.version, "message": DELETE_STALE},
                          status=409)
        return redirect("web:start")
    form = forms.VersionForm(request.GET)
    version = form.cleaned_data["version"] if form.is_valid() else army_list.version
    message = DELETE_STALE if version != army_list.version else ""
    return render(request, "web/confirm_delete.html", {"army_list": army_list, "version": army_list.version,
                                                       "message": message})


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
                                      unit_code=data["unit"], alternative=data["alternative"] or None,
                                      expected_version=version)


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


def _new_link(army_list, data, version):
    list_services.army_list_new_share_link(army_list=army_list, expected_version=version)


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
    "new-link": Action(forms.VersionForm, _new_link, "New link made: the old one no longer works."),
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
        region = None if message else action_region(action, form.cleaned_data, context["view"])
        if region is not None:
            # Only what the action changed: its formation (or the support or cards section) in place, and the
            # points, the problems and the card offers out of band.
            # The Command Cards section goes along only when it shows something else now (the page says what it shows).
            unchanged = request.headers.get("X-Cards-Digest", "") == context["view"].cards_digest
            response = render(request, "web/builder.html#action-update",
                              {**context, "region": region, "cards_unchanged": unchanged})
            return reswap(retarget(response, f"#{region.anchor}"), "outerHTML")
        if action == "add-formation" and not message and context["view"].formations:
            # Focus moves into the formation just added (the last one in the list's order).
            context["focus"] = max(context["view"].formations, key=lambda f: f.index).anchor
        return render(request, "web/builder.html#builder", context)
    if message:
        return render(request, "web/builder.html", builder_context(request, army_list, message=message),
                      status=status)
    return redirect("web:builder", public_id=army_list.public_id)


@dataclass(frozen=True)
class Region:
    kind: str  # formation | support | cards
    anchor: str
    formation: object = None  # its FormationView


_UNIT_ACTIONS = {"pick": "formation", "remove-unit": "unit", "size": "unit", "upgrade": "unit", "select": "holder",
                 "setup": "target"}


def action_region(action: str, data: dict, view) -> Region | None:
    """The one part of the page an action changes, or None when it may change more (the whole builder is
    redrawn: formations added or removed, settings)."""
    if action in ("add-card", "remove-card"):
        return Region("cards", "cards") if view.has_cards else None
    field = _UNIT_ACTIONS.get(action)
    if field is None:
        return None
    pointer = data.get(field) or ""
    if action == "pick" and not pointer:
        return Region("support", "support") if view.has_support else None
    parts = [p for p in pointer.split("/") if p]
    if len(parts) >= 2 and parts[0] == "support":
        return Region("support", "support") if view.has_support else None
    if len(parts) >= 2 and parts[0] == "formations" and parts[1].isdigit():
        index = int(parts[1])
        formation = next((f for f in view.formations if f.index == index), None)
        if formation is not None and not formation.depth and not any(f.depth for f in view.formations):
            return Region("formation", formation.anchor, formation)
    return None


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
    context = {"army_list": army_list, "view": builder_view(force, check(force)), "readonly": True,
               "shared_by": player_display_name(army_list.owner)}
    return render(request, "web/shared.html", context)


def shared_export(request, share_token):
    body, filename = export_body(army_list_get_shared(share_token=share_token))
    return download(body, filename)


@require_http_methods(["GET", "POST"])
def import_list(request):
    form = forms.ImportForm(request.POST or None, request.FILES or None)
    problems = []
    if request.method == "POST":
        scope = "web_import_user" if request.user.is_authenticated else "web_import_anon"
        refused = _too_many(request, scope, "imports")
        if refused:
            return refused
    if request.method == "POST" and form.is_valid():
        had_session = bool(request.session.session_key)
        try:
            with transaction.atomic():  # a visitor's new session is only kept with the list it was made for
                imported = list_file_import(data=form.cleaned_data["raw"], source=form.cleaned_data["source"],
                                            **owner_kwargs(request))
        except ListDocumentError as exc:
            problems = exc.problems
            if not had_session and request.session.session_key:
                request.session.flush()  # its row went with the rollback: forget the key too
        else:
            for warning in imported.warnings[:20]:
                messages.warning(request, warning)
            return redirect("web:builder", public_id=imported.army_list.public_id)
    status = 400 if (problems or form.errors) else 200
    return render(request, "web/import.html", {"form": form, "problems": problems}, status=status)
