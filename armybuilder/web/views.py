"""Pages of the browser builder. Thin: forms check shape, services write, selectors read.

Every list URL goes through ``army_list_get_for_user`` (404 for a list that is missing
or someone else's); the share page goes through ``army_list_get_shared``.
"""
import hashlib
import re
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.db import transaction
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from armybuilder.downloads import attachment
from armybuilder.lists import services as list_services
from armybuilder.lists.catalog import handbook_data
from armybuilder.lists.history import HISTORY_LIMIT
from armybuilder.lists.listjson.document import ListDocumentError
from armybuilder.lists.models import ListFormation, ListUnit
from armybuilder.lists.pointers import list_card_at, list_formation_at, list_target_at, list_unit_at
from armybuilder.lists.selectors import army_list_force, army_list_get_for_user, army_list_get_shared
from armybuilder.lists.services import ListOperationError, StaleListError
from armybuilder.lists.summary import army_list_summary_store
from armybuilder.ratelimit import client_ident, rate_limit_hit
from armybuilder.rules import check
from armybuilder.services.exports import ListFile, list_json
from armybuilder.services.list_files import list_file_import

from . import forms
from . import history as builder_history
from .builder import allied_offers, builder_view
from .extras_views import composition_html, my_lists_context
from .selectors import allied_handbook, allied_handbooks
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
    # With whether its book has a newer revision (the builder's book-update notice), in the same query.
    return army_list_get_for_user(user=request.user, public_id=public_id, session_key=request.session.session_key,
                                  newer_revision=True)


def own_list_or_login(request, public_id):
    """For pages a player opens by link: a visitor who is not logged in gets the log-in page (coming back
    here) for any list their session does not hold, whether it exists, is someone else's or is theirs: the
    answer says nothing about the list. Once logged in, a list that is not theirs is a 404 as before."""
    try:
        return own_list(request, public_id), None
    except Http404:
        if request.user.is_authenticated:
            raise
        return None, redirect_to_login(request.get_full_path(), login_url=reverse("web:login"))


def hidden_fields(request, army_list) -> str:
    """What every builder form carries: the CSRF token (for posts without htmx) and the list's version."""
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">'
                       '<input type="hidden" name="version" value="{}">', get_token(request), army_list.version)


def ally_books(army_list) -> list:
    return [handbook_data(book.pk) for book in allied_handbooks(army_list)]


def builder_urls(army_list) -> dict:
    # One reverse() for all the actions: their URLs differ only in the action's name, the last part.
    base = reverse("web:action", args=[army_list.public_id, "settings"]).removesuffix("settings/")
    urls = {name.replace("-", "_"): f"{base}{name}/" for name in ACTIONS}
    urls["card_offers"] = reverse("web:card-offers", args=[army_list.public_id])
    urls["history"] = reverse("web:history-panel", args=[army_list.public_id])
    return urls


def builder_context(request, army_list, *, message: str = "", message_kind: str = "error",
                    allies: bool = True, panels: bool = True) -> dict:
    """What the builder's templates draw. ``allies=False``: without the allied books (one query), for an
    answer that does not draw the "Add a formation" panel; ``panels=False``: without the history, the book
    update and the chart, for an answer that draws none of them (the card offers)."""
    force = army_list_force(army_list, version=army_list.version, remember=True)  # the action's own document
    report = check(force)
    army_list_summary_store(army_list=army_list, report=report)  # what "My lists" shows of it
    allies = ally_books(army_list) if allies else []
    share_url = ""
    if army_list.visibility == "shared":
        share_url = request.build_absolute_uri(reverse("web:shared", args=[army_list.share_token]))
    view = builder_view(force, report, allies)
    context = {"army_list": army_list, "view": view, "message": message,
               "message_kind": message_kind, "share_url": share_url, "readonly": False, "urls": builder_urls(army_list),
               "hidden": hidden_fields(request, army_list),
               "variant_name": dict(view.variants).get(army_list.variant, army_list.variant)}
    if panels:
        # The History panel's entries: in a page, and in an answer to a page whose panel is open
        # (static/web/history.js says so); a closed panel fetches them when it is opened.
        inline = not request.htmx or request.headers.get("X-History-Open") == "1"
        context.update(history=builder_history.history_view(
                           army_list, entries=inline,
                           **({"shown": HISTORY_LIMIT} if request.GET.get("history") == "all" else {})),
                       history_inline=inline, book_update=builder_history.book_update_view(army_list))
        context["composition_svg"] = composition_html(force, report)
        # The page keeps it on the chart and sends it back (X-Chart-Digest): an answer leaves out a chart that
        # shows the same.
        context["composition_digest"] = hashlib.blake2s(str(context["composition_svg"]).encode(),
                                                        digest_size=8).hexdigest()
    return context


def form_problem(form) -> str:
    parts = []
    for name, errors in form.errors.items():
        label = "" if name == "__all__" else f"{name.replace('_', ' ')}: "
        parts.append(label + " ".join(errors))
    return "; ".join(parts) or "That request was not understood."


def download(exported: ListFile) -> HttpResponse:
    response = HttpResponse(exported.content, content_type=exported.content_type)
    response["Content-Disposition"] = attachment(exported.filename)
    return response


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
    army_list, login = own_list_or_login(request, public_id)
    if login:
        return login
    return download(list_json(army_list))


# -- the builder -------------------------------------------------------------------------------------------------

def builder(request, public_id):
    army_list, login = own_list_or_login(request, public_id)
    if login:
        return login
    context = builder_context(request, army_list)
    # The card offers (hundreds in a real book) come with the page only without JavaScript (the panel's link);
    # otherwise the panel fetches them when it is opened (builder_card_offers).
    context["offers_inline"] = request.GET.get("cards") == "all"
    return compact(render(request, "web/builder.html", context))


@require_http_methods(["GET"])
def builder_card_offers(request, public_id):
    """The Command Cards panel's offers, fetched by the page (htmx) when the panel is open."""
    army_list = own_list(request, public_id)
    context = builder_context(request, army_list, allies=False, panels=False)
    context["hidden"] = ""  # only htmx posts these forms: it sends the version and the CSRF header itself
    response = compact(render(request, "web/builder.html#card-offer-groups", context))
    response["Vary"] = "HX-Request"
    response["Cache-Control"] = "no-store"
    return response


@require_http_methods(["GET"])
def builder_history_panel(request, public_id):
    """The History panel's entries, fetched by the page (static/web/history.js) when the panel is open and the
    action's answer that drew it did not carry them. Only the list's row and its kept entries are read."""
    army_list = own_list(request, public_id)
    context = {"army_list": army_list, "urls": builder_urls(army_list), "history": builder_history.history_view(
        army_list, **({"shown": HISTORY_LIMIT} if request.GET.get("history") == "all" else {})),
               "hidden": ""}  # only htmx posts these forms: it sends the version and the CSRF header itself
    response = compact(render(request, "web/builder_history.html#history-entries", context))
    response["Vary"] = "HX-Request"
    response["Cache-Control"] = "no-store"
    return response


_SPACE = re.compile(rb"\n\s+")
_KEEP = re.compile(rb"(<(textarea|pre)\b.*?</\2>)", re.S | re.I)


def compact(response):
    """The builder's HTML without its template indentation: a line break with the white space after it
    becomes one line break, which reads the same. What a <textarea> or <pre> holds (a unit's notes, as the
    player typed them) is kept as it is."""
    parts = _KEEP.split(response.content)
    # split() with two groups gives: text, the kept block, its tag name, text, …
    out = []
    for index, part in enumerate(parts):
        kind = index % 3
        if kind == 0:
            out.append(_SPACE.sub(b"\n", part))
        elif kind == 1:
            out.append(part)
    response.content = b"".join(out)
    return response


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
    # The pick needs the formation's id only (its book formation's row would be read for nothing).
    formation = list_formation_at(army_list, data["formation"], with_formation=False) if data["formation"] else None
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
    # history, book updates, names and notes (web/history.py)
    "undo": Action(builder_history.VersionForm, builder_history.run_undo),
    "redo": Action(builder_history.VersionForm, builder_history.run_redo),
    "restore": Action(builder_history.RestoreForm, builder_history.run_restore),
    "move-revision": Action(builder_history.MoveRevisionForm, builder_history.run_move_revision),
    "name-notes": Action(builder_history.NameNotesForm, builder_history.run_name_notes, "Name and notes saved."),
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
    variant = army_list.variant
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
                                  message_kind="error" if message else "ok", allies=False)
        context["hidden"] = ""  # htmx sends the version (#list-version) and the CSRF header with every post
        context["action"] = action  # a formation added or removed leaves the title and the settings as they were
        context["chart_unchanged"] = request.headers.get("X-Chart-Digest", "") == context["composition_digest"]
        if not message and action in builder_history.UNDO_OFFERED and context["history"].can_undo:
            context["undo_notice"] = context["history"].current.what
        region = None if message else action_region(action, form.cleaned_data, context["view"])
        if action == "settings" and army_list.variant != variant:
            region = None  # other boxes, units, sizes and formations to offer: the whole builder
        boxes = None
        if region is not None:
            # Only what the action changed. The page says what it shows (the digest of each formation and box, and
            # of the Command Cards section): what shows the same stays out of the answer.
            context.update(region=region,
                           cards_unchanged=request.headers.get("X-Cards-Digest", "") == context["view"].cards_digest)
            boxes = page_changes(region, context["view"], request.headers.get("X-Builder-Boxes"))
            if boxes is None and region.kind in ("page", "share"):
                region = None  # not a section of its own: the whole builder, below
        if boxes is not None:
            # The boxes that show something else, the head of their section, the points and the problems, all out
            # of band; the answer's own target is the list's version.
            if action == "add-formation" and boxes.new:
                context["focus"] = boxes.new[-1].anchor  # focus moves into the formation just added
            response = compact(render(request, "web/builder.html#action-boxes", {**context, "changes": boxes,
                                                                                "boxes": boxes.boxes}))
            return reswap(retarget(response, "#list-version"), "outerHTML")
        if region is not None:
            # A page that did not say what it shows: the formation (or the support or cards section) whole, the
            # points, the problems and the card offers out of band.
            response = compact(render(request, "web/builder.html#action-update", context))
            return reswap(retarget(response, f"#{region.anchor}"), "outerHTML")
        context["view"].ally_offers = allied_offers(ally_books(army_list))  # the whole builder, with its panel
        if action == "add-formation" and not message and context["view"].formations:
            # Focus moves into the formation just added (the last one in the list's order).
            context["focus"] = max(context["view"].formations, key=lambda f: f.index).anchor
        return compact(render(request, "web/builder.html#builder", context))
    if message:
        return render(request, "web/builder.html", builder_context(request, army_list, message=message),
                      status=status)
    return redirect("web:builder", public_id=army_list.public_id)


_SEEN = re.compile(r"([a-z0-9-]{1,200})=([0-9a-f]{16})")
SEEN_MAX = 16_000


@dataclass
class Changes:
    """What an answer sends, against what the page shows: boxes whose digest changed, formations to draw whole
    (new ones go before the "Add a formation" panel), formations to take away."""
    boxes: list
    whole: list = None
    new: list = None
    gone: list = None


def page_changes(region, view, seen_header: str | None) -> Changes | None:
    """The boxes (and formations) an action may have changed that show something else than the page shows
    (``seen_header``: the page's "anchor=digest" of each formation and box), or None when the whole section
    (or builder) must go: no (or an unreadable) header, or boxes that are not the same ones any more."""
    if region.kind == "share":
        return Changes([])
    if region.kind not in ("formation", "support", "page") or not seen_header or len(seen_header) > SEEN_MAX:
        return None
    seen = dict(_SEEN.findall(seen_header))
    if region.kind == "formation":
        return _section_changes(seen, [region.formation], f"{region.anchor}-box-", [])
    if region.kind == "support":
        return _section_changes(seen, [], "support-box-", view.support_boxes)
    # The whole page (settings, a formation added or removed): formations in the list's order, none nested.
    shown = [a for a in seen if "-box-" not in a]
    if any(f.depth for f in view.formations) or view.grows_by_options or not shown or not view.formations:
        return None
    changes = Changes([], [], [], [a for a in shown if a not in {f.anchor for f in view.formations}])
    for formation in view.formations:
        if formation.anchor not in seen:
            changes.new.append(formation)
            continue
        part = _section_changes(seen, [formation], f"{formation.anchor}-box-", [])
        if part is None:
            changes.whole.append(formation)  # another formation at this place now (one before it was removed)
        else:
            changes.boxes += part.boxes
    if [f.index for f in changes.new] != list(range(len(view.formations) - len(changes.new), len(view.formations))):
        return None  # new formations go after the others only
    support = _section_changes(seen, [], "support-box-", view.support_boxes)
    if support is None:
        return None
    changes.boxes += support.boxes
    return changes


def _section_changes(seen: dict, formations: list, prefix: str, boxes: list) -> Changes | None:
    for formation in formations:
        if seen.get(formation.anchor) != formation.shell_digest:
            return None
        boxes = [*boxes, *(box for column in formation.columns for box in column.boxes)]
    if {box.anchor for box in boxes} != {a for a in seen if a.startswith(prefix)}:
        return None
    return Changes([box for box in boxes if seen[box.anchor] != box.digest])


@dataclass(frozen=True)
class Region:
    kind: str  # formation | support | cards | page (settings: every box may change) | share
    anchor: str
    formation: object = None  # its FormationView


_UNIT_ACTIONS = {"pick": "formation", "remove-unit": "unit", "size": "unit", "upgrade": "unit", "select": "holder",
                 "setup": "target", "name-notes": "target"}


def action_region(action: str, data: dict, view) -> Region | None:
    """The part of the page an action changes, or None when it may change more (the whole builder is redrawn:
    formations added or removed, a new variant)."""
    if action in ("add-card", "remove-card"):
        return Region("cards", "cards") if view.has_cards else None
    if action in ("settings", "add-formation", "remove-formation"):  # a new variant: see builder_action
        return Region("page", "formations")
    if action in ("visibility", "new-link"):
        return Region("share", "share-form")
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
    return download(list_json(army_list_get_shared(share_token=share_token)))


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
