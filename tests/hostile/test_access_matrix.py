"""The access matrix (issue 15): every URL of the URLconf, for every role, with the list private, shared and
unshared again. It fails on any 200 that carries the list's name or content for anyone but its owner, apart
from the share link while the list is shared (and a match-up made through it, while it is shared).

Roles and objects are data: a new kind of object (an event, a submission, a job) is one entry in
tests/hostile/world.py, and its URLs join the matrix by themselves.
"""
import contextlib
import io
import json
import zipfile

import pytest
from django.test import Client

from armybuilder.lists import services as list_services
from armybuilder.lists.matchups import matchup_create
from armybuilder.lists.models import ArmyList

from .ways_in import request_methods, routes
from .world import PASSWORD, SECRET_NAME, SECRET_NOTES, build_world, concrete_paths

pytestmark = pytest.mark.django_db
ROLES = ("anonymous", "owner", "other", "staff", "visitor")
STATES = ("private", "shared", "unshared again")
SECRETS = (SECRET_NAME, SECRET_NOTES)


def _text(response) -> str:
    body = b"".join(response.streaming_content) if getattr(response, "streaming", False) else response.content
    kind = response.get("Content-Type", "")
    if "pdf" in kind:
        from pypdf import PdfReader

        return " ".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(body)).pages)
    if "zip" in kind:
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            return " ".join(archive.read(name).decode("utf-8", "replace") for name in archive.namelist())
    text = body.decode("utf-8", "replace")
    if "json" in kind:
        with contextlib.suppress(ValueError):
            text += " " + json.dumps(json.loads(text), ensure_ascii=False)  # names written as \\u escapes too
    return text


@pytest.fixture
def matrix_world(db):
    world = build_world()
    from django.contrib.auth import get_user_model

    visitor = get_user_model().objects.create_user("visitor-player", password=PASSWORD)
    world.objects["users"]["visitor"] = visitor
    theirs = list_services.army_list_create(owner=visitor, handbook=world.book, name="Visitor force")
    world.objects["visitor_matchup"] = matchup_create(list_a=theirs, list_b=world.army_list, owner=visitor)
    world.objects["old_tokens"] = []
    return world


def _set_state(world, state: str):
    army_list = ArmyList.objects.get(pk=world.army_list.pk)
    if state == "shared":
        list_services.army_list_update(army_list=army_list, visibility="shared")
    elif state == "unshared again":
        world.objects["old_tokens"].append(army_list.share_token)
        list_services.army_list_update(army_list=army_list, visibility="private")
    army_list.refresh_from_db()
    world.objects["army_list"] = army_list


def _parameters(world):
    return [
        (r"^matchups/", "public_id", lambda w: [w.matchup.public_id, w.visitor_matchup.public_id]),
        (r"^api/v1/matchups/", "matchup_id", lambda w: [w.matchup.public_id, w.visitor_matchup.public_id]),
        (r"", "share_token", lambda w: [w.army_list.share_token] + w.old_tokens),
    ]


def _allowed(role: str, state: str, path: str, world) -> bool:
    if role == "owner":
        return True
    if state != "shared":
        return False
    if str(world.army_list.share_token) in path:
        return True
    # the visitor's own match-up (its page and the index of their match-ups, on the site and in the API) names
    # the list while it is shared
    return role == "visitor" and (str(world.visitor_matchup.public_id) in path
                                  or path in ("/matchups/", "/api/v1/matchups/"))


def _clients(world):
    clients = {"anonymous": Client()}
    for role in ROLES[1:]:
        clients[role] = Client()
        clients[role].force_login(world.users[role])
    return clients


def test_no_route_shows_a_list_to_anyone_but_its_owner_unless_it_is_shared(matrix_world):
    world = matrix_world
    clients = _clients(world)
    leaks, errors, tried, owner_saw = [], [], 0, 0
    for state in STATES:
        _set_state(world, state)
        for route in routes():
            if "GET" not in request_methods(route):
                continue
            paths = concrete_paths(route.route, world, _parameters(world))
            assert paths is not None, f"{route.route}: a parameter has no filler (tests/hostile/world.py)"
            for path in paths:
                for role, client in clients.items():
                    response = client.get(path)
                    tried += 1
                    if response.status_code >= 500:
                        errors.append(f"{state} {role} GET {path} -> {response.status_code}")
                        continue
                    if response.status_code != 200:
                        continue
                    text = _text(response)
                    shown = [secret for secret in SECRETS if secret in text]
                    if role == "owner" and shown:
                        owner_saw += 1
                    if shown and not _allowed(role, state, path, world):
                        leaks.append(f"{state}: {role} GET {path} shows {shown}")
    assert owner_saw > 10  # the detector sees the name where it is shown
    assert not errors, "\n".join(errors)
    assert not leaks, f"{len(leaks)} leaks in {tried} requests:\n" + "\n".join(leaks)
    pytest.matrix_counts = {"roles": len(ROLES), "states": len(STATES), "requests": tried}


def test_no_one_but_the_owner_changes_the_list_through_any_route(matrix_world):
    world = matrix_world
    clients = _clients(world)
    _set_state(world, "shared")  # the most exposed state
    before = ArmyList.objects.filter(pk=world.army_list.pk).values_list("version", "name", "notes",
                                                                        "share_token").get()
    tried, errors = 0, []
    for route in routes():
        paths = concrete_paths(route.route, world, _parameters(world)) or []
        for method in request_methods(route):
            if method == "GET":
                continue
            for path in paths:
                for role in ("anonymous", "other", "staff", "visitor"):
                    response = clients[role].generic(method, path, b"{}", "application/json", HTTP_IF_MATCH="*")
                    tried += 1
                    if response.status_code >= 500:
                        errors.append(f"{role} {method} {path} -> {response.status_code}")
    after = ArmyList.objects.filter(pk=world.army_list.pk).values_list("version", "name", "notes",
                                                                       "share_token").get()
    assert not errors, "\n".join(errors)
    assert after == before, f"a non-owner changed the list in {tried} writes"
    assert tried > 100
