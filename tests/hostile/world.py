"""The objects every way in is tried against, and how each URL parameter is filled from them.

Data-driven so that a new kind of object is one entry: add a builder to ``KINDS`` (it receives the world
built so far and returns the object) and the parameters that name it to ``PARAMETERS``. Issue 13's events
and submissions and issue 14's jobs are entries here; a URL that takes an id without a filler fails the
coverage test, which names the parameter to add.
"""
import contextlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

PASSWORD = "pw-not-secret-123"
SECRET_NAME = "Zebra Secret Name 7781"  # the list's name: nobody but its owner may see it while private
SECRET_NOTES = "Notes marker 5542 kept private"
FOW_BOOKS = [Path(settings.HANDBOOK_DATA_DIR) / "systems", Path(settings.HANDBOOK_DATA_DIR) / "fow4"]


@dataclass
class World:
    objects: dict = field(default_factory=dict)

    def __getattr__(self, name):
        try:
            return self.__dict__["objects"][name]
        except KeyError:
            raise AttributeError(name) from None


def _users(world):
    User = get_user_model()
    made = {}
    for role, extra in (("owner", {}), ("other", {}), ("staff", {"is_staff": True})):
        made[role] = User.objects.create_user(f"{role}-player", password=PASSWORD, email=f"{role}@example.org",
                                              **extra)
    return made


def _books(world):
    from handbooks.models import Handbook
    from handbooks.services import handbooks_load_paths

    results = handbooks_load_paths(FOW_BOOKS)
    assert all(r.ok for r in results), [str(p) for r in results for p in r.problems]
    return Handbook.objects.get(code="sample-afrika-korps", is_current=True)


def _army_list(world):
    """The owner's list, built out (a formation with units, a support unit, a card) so that every pointer
    into it resolves and the hostile input reaches the code behind it."""
    from armybuilder.lists import services as s
    from handbooks.models import Box, CommandCard, Formation

    book = world.book
    army_list = s.army_list_create(owner=world.users["owner"], handbook=book, name=SECRET_NAME, points_limit=100)
    s.army_list_update(army_list=army_list, notes=SECRET_NOTES)
    formation = Formation.objects.filter(handbook=book).first()
    list_formation = s.army_list_add_formation(army_list=army_list, formation_code=formation.code)
    for box in Box.objects.filter(formation=formation).prefetch_related("choices__unit")[:2]:
        choice = box.choices.first()
        if choice is not None and choice.unit_id:
            s.army_list_pick_unit(army_list=army_list, list_formation=list_formation, box_code=box.code,
                                  unit_code=choice.unit.code)
    support = Box.objects.filter(handbook=book, formation__isnull=True).prefetch_related("choices__unit").first()
    if support is not None and support.choices.exists():
        s.army_list_pick_unit(army_list=army_list, box_code=support.code, unit_code=support.choices.first().unit.code)
    card = CommandCard.objects.filter(handbook=book).first()
    if card is not None:
        with contextlib.suppress(s.ListOperationError):
            s.army_list_add_card(army_list=army_list, card_code=card.code)
    army_list.refresh_from_db()
    return army_list


def _matchup(world):
    from armybuilder.lists import services as s
    from armybuilder.lists.matchups import matchup_create

    second = s.army_list_create(owner=world.users["owner"], handbook=world.book, name="Second force")
    return matchup_create(list_a=world.army_list, list_b=second, owner=world.users["owner"])


def _hof_matchup(world):
    """A Hail of Fire match-up of the owner's (the sample Kampfgruppe against a copy of it), so that the
    parity procedure's steps read the hostile bodies instead of answering 404 for a system without one."""
    from armybuilder.lists import services as s
    from armybuilder.lists.listjson import parse_list_json
    from armybuilder.lists.matchups import matchup_create
    from handbooks.services import handbooks_load_paths

    results = handbooks_load_paths([Path(settings.HANDBOOK_DATA_DIR) / "hof"])
    assert all(r.ok for r in results), [str(p) for r in results for p in r.problems]
    example = Path(settings.BASE_DIR) / "docs" / "examples" / "hof-kampfgruppe.json"
    german = s.army_list_import(doc=parse_list_json(example.read_bytes()), owner=world.users["owner"])
    copy = s.army_list_copy(army_list=german, owner=world.users["owner"])
    return matchup_create(list_a=german, list_b=copy, owner=world.users["owner"])


def _api_token(world):
    from armybuilder.api.services import api_token_rotate

    _token, key = api_token_rotate(user=world.users["owner"])
    return key


def _job(world):
    """The owner's roster of the secret list, rendered as a job (run in the process, as without a worker): its
    status names the list and its file holds it, so the access matrix sees whether either leaks."""
    from armybuilder.services.printing.services import roster_pdf_job_start

    return roster_pdf_job_start(army_list=world.army_list, owner=world.users["owner"])


def _event(world):
    """Issue 13: an event the owner organises, where the owner submitted the secret list (approved) and the other
    player is registered, before the reveal, so the matrix sees whether the event's pages or its submission's
    files leak the list. (The same shape as the pack branch's, which also builds the event's printed pack.)"""
    from datetime import date, timedelta

    from django.utils import timezone

    from armybuilder.services.events import services as ev
    from handbooks.models import GameSystem

    owner, now = world.users["owner"], timezone.now()
    event = ev.event_create(user=owner, system=GameSystem.objects.get(code="fow4"), name="Hostile Cup",
                            date=date.today() + timedelta(days=10), deadline=now + timedelta(days=3),
                            reveal_at=now + timedelta(days=5))
    registration = ev.event_register(event=event, player=owner)
    submission = ev.submission_create(registration=registration, army_list=world.army_list, by=owner)
    ev.submission_review(submission=submission, by=owner, approve=True)
    ev.event_register(event=event, player=world.users["other"])
    return {"event": event, "registration": registration, "submission": submission}


def _password_reset(world):
    user = world.users["owner"]
    return {"uidb64": urlsafe_base64_encode(force_bytes(user.pk)), "token": default_token_generator.make_token(user)}


def _event(world):
    """Issue 13: an event the owner organises, where the owner submitted the secret list (approved) and the other
    player is registered, before the reveal; its printed pack built (in the process), so the matrix sees whether
    the event's pages, its submission's files or its pack leak the list."""
    from datetime import date, timedelta

    from django.utils import timezone

    from armybuilder.services.events import services as ev
    from armybuilder.services.events.pack.services import event_pack_start
    from handbooks.models import GameSystem

    owner, now = world.users["owner"], timezone.now()
    event = ev.event_create(user=owner, system=GameSystem.objects.get(code="fow4"), name="Hostile Cup",
                            date=date.today() + timedelta(days=10), deadline=now + timedelta(days=3),
                            reveal_at=now + timedelta(days=5))
    registration = ev.event_register(event=event, player=owner)
    submission = ev.submission_create(registration=registration, army_list=world.army_list, by=owner)
    ev.submission_review(submission=submission, by=owner, approve=True)
    ev.event_register(event=event, player=world.users["other"])
    event_pack_start(event=event, user=owner)
    return {"event": event, "registration": registration, "submission": submission}


# Built in this order; each receives the world so far.
KINDS = {
    "users": _users,
    "book": _books,
    "army_list": _army_list,
    "matchup": _matchup,
    "hof_matchup": _hof_matchup,
    "api_token": _api_token,
    "job": _job,
    "password_reset": _password_reset,
    "event": _event,
}


def build_world() -> World:
    world = World()
    for name, builder in KINDS.items():
        world.objects[name] = builder(world)
    return world


def _formation_code(world):
    from handbooks.models import Formation

    return Formation.objects.filter(handbook=world.book).values_list("code", flat=True).first()


def _unit_code(world):
    from handbooks.models import UnitEntry

    return UnitEntry.objects.filter(handbook=world.book).values_list("code", flat=True).first()


def _actions(world):
    from armybuilder.web.views import ACTIONS

    return sorted(ACTIONS)


# (route pattern, parameter) -> the value(s) to put there. The route pattern is a regular expression searched
# in the route ("" matches every route); the first entry that matches wins. A callable may return a list: the
# URL is then tried with each value.
PARAMETERS = [
    (r"^matchups/", "public_id", lambda w: w.matchup.public_id),
    (r"^api/v1/matchups/.*parity", "matchup_id", lambda w: w.hof_matchup.public_id),
    (r"^api/v1/matchups/", "matchup_id", lambda w: w.matchup.public_id),
    (r"lists/<uuid:public_id>", "public_id", lambda w: w.army_list.public_id),
    (r"", "share_token", lambda w: w.army_list.share_token),
    (r"lists/<uuid:public_id>/do/", "action", _actions),
    (r"^api/v1/(systems|handbooks)/", "system", lambda w: w.book.system.code),
    (r"^api/v1/handbooks/", "code", lambda w: w.book.code),
    (r"^api/v1/handbooks/", "revision", lambda w: w.book.revision),
    (r"^api/v1/handbooks/.*formations/<str:formation>", "formation", _formation_code),
    (r"^api/v1/handbooks/.*units/<str:unit>", "unit", _unit_code),
    (r"^api/v1/lists/.*history/<int:version>", "version", lambda w: w.army_list.version),
    (r"^api/v1/lists/.*formations/<int:formation>", "formation", lambda w: 0),
    (r"^api/v1/lists/", "unit", lambda w: 0),
    (r"^api/v1/lists/", "card", lambda w: 0),
    (r"^schemas/", "name", lambda w: ["list.schema.json", "handbook.schema.json"]),
    (r"jobs/", "job_id", lambda w: w.job.pk),
    (r"events/", "event_id", lambda w: w.event["event"].public_id),
    (r"events/", "submission_id", lambda w: w.event["submission"].public_id),
    (r"events/", "registration_id", lambda w: w.event["registration"].pk),
    (r"^accounts/reset/", "uidb64", lambda w: w.password_reset["uidb64"]),
    (r"^accounts/reset/", "token", lambda w: w.password_reset["token"]),
]

# Routes that are not this project's ways in, each with the reason. Everything else must be covered.
NOT_OURS = {
    "admin/": "Django's own admin (staff only); its log-in page is covered as admin/login/",
}
ALSO = ["admin/login/"]  # covered although under a prefix above
# Management commands that take no input to be hostile with (no positional argument), each with the reason.
# A command without input that is not named here fails the coverage test.
NO_INPUT_COMMANDS: dict[str, str] = {}

_PARAM = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


def route_parameters(route: str) -> list[tuple[str, str]]:
    return [(m.group("converter") or "str", m.group("name")) for m in _PARAM.finditer(route)]


def filler_for(route: str, name: str, parameters=None):
    for pattern, param, filler in (parameters or []) + PARAMETERS:
        if param == name and re.search(pattern, route):
            return filler
    return None


def concrete_paths(route: str, world: World, parameters=None) -> list[str] | None:
    """Every concrete path for a route, or None when a parameter has no filler (the coverage test names it)."""
    paths = [route]
    for _converter, name in route_parameters(route):
        filler = filler_for(route, name, parameters)
        if filler is None:
            return None
        values = filler(world)
        values = values if isinstance(values, list) else [values]
        token = re.compile(r"<(?:[^>:]+:)?" + re.escape(name) + ">")
        paths = [token.sub(str(value), path, count=1) for path in paths for value in values]
    return ["/" + path for path in paths]
