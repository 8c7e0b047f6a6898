"""The adversarial suite: generated hostile inputs through every way in (issue 15).

Every URL of the URLconf (web pages and API; the OpenAPI schema is checked against the walk) and every
management command of our apps is found by walking the project, so a way in added later is covered by
default; one that cannot be filled automatically fails ``test_every_way_in_can_be_reached``, which says
what to add (tests/hostile/world.py). Each input runs in a forked child under resource limits
(tests/hostile/child.py). For every one:

* no 500 and no traceback; a refusal is a 4xx (HTTP) or exit code 2 (commands) with a message;
* a refused input changes nothing in the database;
* peak memory at most MEMORY_CAP_MIB above what the process held before, and time at most TIME_CAP_SECONDS.
"""
import html
import io
import json
import re
import sys
from pathlib import Path

import pytest
from django.apps import apps
from django.core.cache import cache
from django.core.management import ManagementUtility, call_command
from django.core.management.base import BaseCommand
from django.core.signals import got_request_exception
from django.db import connections, transaction
from django.test import Client

from armybuilder.lists import catalog
from armybuilder.lists.selectors import army_list_document

from . import hostile_inputs as H
from .child import Outcome, measured, run_in_child
from .ways_in import BODY_METHODS, openapi_operations, openapi_path_matches, our_commands, request_methods, routes
from .world import NO_INPUT_COMMANDS, build_world, concrete_paths, route_parameters

MEMORY_CAP_MIB = 256
TIME_CAP_SECONDS = 20
MAX_MESSAGE_BYTES = 512 * 1024  # an answer to a bad input is a page or a JSON error, not an echo of the input
NOT_COMPARED = {"axes": "failed log-ins are counted on purpose, in the database"}
GAME_DATA_APPS = {"handbooks"}  # large tables: compared by row count and highest key

# The world is committed once per module; each test runs in pytest-django's transaction on top of it (which
# also makes pytest-django create the test database), and each child rolls its own cases back.
pytestmark = pytest.mark.django_db

ROUTES = routes()
COMMANDS = our_commands()
COUNTS: dict[str, int] = {}  # way in -> inputs tried (for the closing note; kept in pytest's cache)
PEAKS: dict[str, tuple[float, float]] = {}  # way in -> (highest peak MiB, longest seconds)


# -- the world, committed so that the children (new connections on PostgreSQL) see it ----------------------------

@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, request):
    with django_db_blocker.unblock():
        catalog.clear_cache()
        cache.clear()
        built = build_world()
        yield built
        call_command("flush", interactive=False, verbosity=0)
        catalog.clear_cache()
    request.config.cache.set("hostile/counts", COUNTS)
    request.config.cache.set("hostile/peaks", PEAKS)
    total = sum(COUNTS.values())
    sys.__stdout__.write(f"\nhostile suite: {total} inputs through {len(COUNTS)} ways in\n")


SIZE_ONLY = {"contenttypes.ContentType", "auth.Permission"}  # written by migrations only


def _sized_tables():
    models = [m for m in apps.get_models() if m._meta.app_label not in NOT_COMPARED
              and (m._meta.app_label in GAME_DATA_APPS or m._meta.label in SIZE_ONLY)]
    return models


def fingerprint() -> dict:
    """What a refused input must leave as it was: every row of user data, the size of game data
    (one query for all the sized tables, one per table of user data). The rows are read as the database gives
    them, without the ORM: a case reads them twice, and turning them into Python values (JSON documents above
    all) made this most of the hostile suite's time."""
    from django.db import connection

    sized_sql, row_queries = _fingerprint_queries(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sized_sql)
        out = {label: (count, top) for label, count, top in cursor.fetchall()}
        for label, sql in row_queries:
            cursor.execute(sql)
            out[label] = hash(repr(cursor.fetchall()))
    return out


_QUERIES: dict = {}


def _fingerprint_queries(vendor: str):
    if vendor not in _QUERIES:
        from django.db import connection

        quote = connection.ops.quote_name
        sized = _sized_tables()
        sized_sql = " UNION ALL ".join(
            f"SELECT '{m._meta.label}', COUNT(*), MAX({quote(m._meta.pk.column)}) FROM {quote(m._meta.db_table)}"
            for m in sized)
        rows = [(m._meta.label, f"SELECT * FROM {quote(m._meta.db_table)} ORDER BY {quote(m._meta.pk.column)}")
                for m in apps.get_models() if m._meta.app_label not in NOT_COMPARED and m not in sized]
        _QUERIES[vendor] = sized_sql, rows
    return _QUERIES[vendor]


def _changed(before: dict, after: dict) -> list[str]:
    return sorted(label for label in before if before[label] != after.get(label))


# -- what a response told the client ------------------------------------------------------------------------------

def told(response) -> str:
    if response.status_code == 405:
        return f"Allow: {response.get('Allow', '')}" if response.get("Allow") else ""
    body = b"".join(response.streaming_content) if getattr(response, "streaming", False) else response.content
    if len(body) > MAX_MESSAGE_BYTES:
        return ""
    kind = response.get("Content-Type", "")
    if "json" in kind:
        try:
            data = json.loads(body)
        except ValueError:
            return ""
        return str(data.get("detail", "")) if isinstance(data, dict) else ""
    text = body.decode("utf-8", "replace")
    if "html" in kind:
        main = re.search(r"<main.*?</main>", text, re.S)
        text = html.unescape(re.sub(r"<[^>]+>", " ", main.group(0) if main else text))
    return " ".join(text.split())


# -- the inputs ----------------------------------------------------------------------------------------------------

FORM_FIELDS = sorted({name for module in ("armybuilder.web.forms", "armybuilder.services.printing.forms")
                      for form in vars(__import__(module, fromlist=["x"])).values()
                      if isinstance(form, type) and hasattr(form, "base_fields")
                      for name in form.base_fields} | {"username", "password", "password1", "password2", "email",
                                                       "new_password1", "new_password2", "step", "move"})
FILE_FIELDS = ["file", "list_file"]
FORM_VALUES = {
    "nul": "a\x00b",
    "huge-number": "9" * 5000,
    "negative": "-99999999999999999999",
    "pointer-abuse": "/formations/99999999/units/99999999",
    "long-text": "x" * 300_000,
}
FILE_PAYLOADS = {name: H.JSON_CASES[name] for name in ("huge-number", "deep-nesting", "nul-in-string",
                                                       "lone-surrogate", "not-utf8")} | \
    {name: H.XML_CASES[name] for name in ("entity-bomb", "zip-bomb", "binary-junk")}
QUERY_CASES = {
    "query-huge": {name: "q" * 20_000 for name in FORM_FIELDS[:5]},
    "query-nul": {name: "a\x00b" for name in FORM_FIELDS},
    "query-number": {name: "9" * 5000 for name in FORM_FIELDS},
    "query-surrogate-bytes": "QUERY_STRING=" + "&".join(f"{n}=%ED%A0%80" for n in FORM_FIELDS),
}


def body_cases() -> dict[str, dict]:
    """name -> keyword arguments for Client.generic (data, content_type, extra headers)."""
    cases = {}
    for name, body in H.JSON_CASES.items():
        cases[f"json:{name}"] = {"data": body, "content_type": "application/json"}
    for name, body in H.XML_CASES.items():
        cases[f"raw:{name}"] = {"data": body, "content_type": "application/octet-stream"}
    for name, value in FORM_VALUES.items():
        cases[f"form:{name}"] = {"form": {field: value for field in FORM_FIELDS}}
    cases["form:surrogate-bytes"] = {"data": "&".join(f"{n}=%ED%A0%80" for n in FORM_FIELDS).encode(),
                                     "content_type": "application/x-www-form-urlencoded"}
    cases["form:too-many-fields"] = {"data": "&".join(f"f{i}=1" for i in range(3000)).encode(),
                                     "content_type": "application/x-www-form-urlencoded"}
    for name, payload in FILE_PAYLOADS.items():
        cases[f"file:{name}"] = {"files": {field: payload for field in FILE_FIELDS}}
    cases["oversize:declared"] = {"data": b"", "content_type": "application/json", "CONTENT_LENGTH": str(200 * H.MiB)}
    cases["oversize:real"] = {"data": b"{" + b" " * (3 * H.MiB) + b"}", "content_type": "application/json"}
    cases["content-length:garbage"] = {"data": b"{}", "content_type": "application/json", "CONTENT_LENGTH": "-5"}
    return cases


BODY_CASES = body_cases()


def _send(client: Client, method: str, path: str, spec: dict):
    spec = dict(spec)
    headers = {"HTTP_IF_MATCH": "*"}  # past the 428, so the body reaches the view
    if "form" in spec:
        return client.generic(method, path, *_encoded_form(spec.pop("form")), **headers)
    if "files" in spec:
        fields = {name: io.BytesIO(content) for name, content in spec.pop("files").items()}
        for name, stream in fields.items():
            stream.name = f"{name}.json"
        from django.test.client import MULTIPART_CONTENT, encode_multipart

        body = encode_multipart("BoUnDaRy", {**fields, "code": "3F2A-91C0-7B4E"})
        return client.generic(method, path, body, MULTIPART_CONTENT.replace("BoUnDaRyStRiNg", "BoUnDaRy"),
                              **headers)
    data, content_type = spec.pop("data"), spec.pop("content_type")
    return client.generic(method, path, data, content_type, **headers, **spec)


def _encoded_form(values: dict):
    from urllib.parse import urlencode

    return urlencode(values).encode(), "application/x-www-form-urlencoded"


def _get(client: Client, path: str, query):
    if isinstance(query, str):  # a raw query string
        return client.generic("GET", path, QUERY_STRING=query.split("=", 1)[1])
    return client.get(path, query)


# -- running one request in the child -----------------------------------------------------------------------------

_SESSIONS: dict[str, str] = {}  # role -> session key, made once per child process (outside the cases' rollback)


def _client_for(world, role: str):
    from django.conf import settings

    def make():
        client = Client(raise_request_exception=False)
        if role != "anonymous":
            if role not in _SESSIONS:
                login = Client()
                login.force_login(world.users[role])
                _SESSIONS[role] = login.cookies[settings.SESSION_COOKIE_NAME].value
            client.cookies[settings.SESSION_COOKIE_NAME] = _SESSIONS[role]
        return client
    return make


def _request_run(way: str, case: str, make_client, send):
    def run() -> Outcome:
        errors = []

        def record(sender, request=None, **kwargs):
            import traceback

            errors.append(traceback.format_exc()[-1500:])

        got_request_exception.connect(record)
        try:
            client = make_client()
            with transaction.atomic():
                cache.clear()
                before = fingerprint()
                response, peak, seconds = measured(lambda: send(client))
                message = told(response)
                after = fingerprint()
                transaction.set_rollback(True)
        finally:
            got_request_exception.disconnect(record)
        changed = _changed(before, after)
        outcome = Outcome(way, case, status=response.status_code, message=message[:300], peak_mib=round(peak, 1),
                          seconds=round(seconds, 3), db_changed=bool(changed) and 400 <= response.status_code < 500)
        if errors or "Traceback (most recent call last)" in message:
            outcome.traceback, outcome.error = True, (errors[0] if errors else message)[-1500:]
        if outcome.db_changed:
            outcome.error = "changed: " + ", ".join(changed)
        return outcome
    return run


def route_cases(route, world) -> list:
    paths = concrete_paths(route.route, world) or []
    cases = []
    for path in paths:
        for role in ("owner", "anonymous"):
            make = _client_for(world, role)
            for method in request_methods(route):
                way = f"{method} {path}"
                if method == "GET":
                    for name, query in QUERY_CASES.items():
                        cases.append((way, f"{role}:{name}",
                                      _request_run(way, f"{role}:{name}", make,
                                                   lambda c, p=path, q=query: _get(c, p, q))))
                elif method in BODY_METHODS:
                    for name, spec in BODY_CASES.items():
                        cases.append((way, f"{role}:{name}",
                                      _request_run(way, f"{role}:{name}", make,
                                                   lambda c, m=method, p=path, s=spec: _send(c, m, p, s))))
    return cases


def failures(outcomes: list[Outcome], *, command: bool = False) -> list[str]:
    out = []
    for o in outcomes:
        why = []
        if o.error and not o.db_changed:
            why.append(o.error.splitlines()[-1] if o.error else "error")
        if o.traceback:
            why.append("traceback")
        if o.status is None:
            why.append("no answer")
        elif command:
            if o.may_succeed and o.status == 0:
                pass
            elif o.status != 2:
                why.append(f"exit {o.status}, not 2")
            elif not o.message:
                why.append("exit 2 without a message")
        elif o.status >= 500:
            why.append(f"answered {o.status}")
        elif 400 <= o.status < 500 and (not o.message or o.message.startswith("Bad Request (400)")):
            why.append(f"{o.status} without a message")
        if o.db_changed and not (o.may_succeed and o.status == 0):
            why.append(o.error or "database changed")
        if o.peak_mib > MEMORY_CAP_MIB:
            why.append(f"peak {o.peak_mib} MiB > {MEMORY_CAP_MIB}")
        if o.seconds > TIME_CAP_SECONDS:
            why.append(f"{o.seconds} s > {TIME_CAP_SECONDS}")
        if why:
            out.append(f"{o.way} [{o.case}] -> {o.status}: {'; '.join(why)} | {o.message[:160]}")
    return out


# -- coverage: every way in is reachable by the generated cases -----------------------------------------------------

@pytest.mark.django_db
def test_the_fingerprint_sees_one_changed_value_inside_a_kept_document_and_nothing_else(world):
    from armybuilder.lists.models import ListVersion

    before = fingerprint()
    assert fingerprint() == before
    entry = ListVersion.objects.order_by("pk").first()
    entry.document = {**entry.document, "name": entry.document.get("name", "") + "!"}
    entry.save(update_fields=["document"])
    assert _changed(before, fingerprint()) == ["lists.ListVersion"]


def test_every_way_in_can_be_reached(world):
    unfilled = []
    for route in ROUTES:
        if concrete_paths(route.route, world) is None:
            missing = [name for _conv, name in route_parameters(route.route)]
            unfilled.append(f"{route.route}: add a filler for {missing} to PARAMETERS in tests/hostile/world.py")
    assert not unfilled, "\n".join(unfilled)
    exercised = {(method, path) for route in ROUTES for path in concrete_paths(route.route, world)
                 for method in request_methods(route)}
    missed = [f"{method} {template}" for method, template in openapi_operations()
              if not any(m == method and openapi_path_matches(template, p) for m, p in exercised)]
    assert not missed, "OpenAPI operations no route of the URLconf walk reaches:\n" + "\n".join(missed)
    uncovered = [name for name, command in COMMANDS.items()
                 if not command_inputs(command, name) and name not in NO_INPUT_COMMANDS]
    assert not uncovered, (f"commands with no argument to feed hostile input to: {uncovered}; if they take no "
                           "input, name them with the reason in NO_INPUT_COMMANDS (tests/hostile/world.py)")


# -- the requests -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("route", ROUTES, ids=[r.route or "/" for r in ROUTES])
def test_hostile_requests(route, world):
    cases = route_cases(route, world)
    assert cases, f"no cases for {route.route}"
    outcomes = run_in_child(cases)
    COUNTS[f"/{route.route}"] = len(outcomes)
    PEAKS[f"/{route.route}"] = (max(o.peak_mib for o in outcomes), max(o.seconds for o in outcomes))
    problems = failures(outcomes)
    assert not problems, f"{len(problems)} of {len(outcomes)} inputs went wrong:\n" + "\n".join(problems[:40])


# -- the management commands --------------------------------------------------------------------------------------

def _is_path(action) -> bool:
    return action.type is Path or getattr(action.type, "__name__", "") == "Path"


BENIGN = {"code": lambda w: "3F2A-91C0-7B4E", "list_public_id": lambda w: str(w.army_list.public_id)}
SUFFIXES = {"import_battlescribe": {"json": ".cat", "xml": ".cat", "zip": ".catz", "yaml": ".gst"},
            "import_roster": {"json": ".json", "xml": ".ros", "zip": ".rosz", "yaml": ".ros"},
            "load_handbooks": {"json": ".json", "xml": ".yaml", "zip": ".yaml", "yaml": ".yaml"}}
DEFAULT_SUFFIXES = {"json": ".json", "xml": ".xml", "zip": ".zip", "yaml": ".yaml"}
YAML_CASES = {"billion-laughs": H.billion_laughs_yaml(), "wide-aliases": H.wide_alias_yaml(),
              "million-elements": H.million_elements_yaml(), "deep": "a: " + "[" * 50_000 + "]" * 50_000,
              "python-object": "!!python/object/apply:os.system ['echo pwned']"}
HOSTILE_STRINGS = {"empty": "", "huge": "x" * 100_000, "nul": "a\x00b", "surrogate": "\ud800", "number": "9" * 5000,
                   "traversal": "../../../../etc/passwd"}
# What an option's value may be besides the strings above: numbers at and past every edge.
HOSTILE_OPTION_VALUES = {**HOSTILE_STRINGS, "zero": "0", "negative": "-1", "past-c-int": "99999999999",
                         "float": "1e309", "nan": "nan"}
_BASE_DESTS = {a.dest for a in BaseCommand().create_parser("manage.py", "base")._actions}


def own_value_options(parser) -> list:
    """A command's own options that take a value (Django's common ones, such as --settings, aside)."""
    return [a for a in parser._actions if a.option_strings and a.dest not in _BASE_DESTS and a.nargs != 0
            and not a.required]


def command_inputs(command, name) -> list[str]:
    """The kinds of hostile argument a command takes, from its argument parser: "file" when a positional
    argument is a path (hostile files go there), "string" when one is text (hostile strings go there)."""
    parser = command.create_parser("manage.py", name)
    positionals = [a for a in parser._actions if not a.option_strings and a.dest != "help"]
    kinds = []
    if any(_is_path(a) for a in positionals):
        kinds.append("file")
    if any(not _is_path(a) for a in positionals):
        kinds.append("string")
    if own_value_options(parser):
        kinds.append("option")
    return kinds


def _payloads():
    for name, body in H.JSON_CASES.items():
        yield f"json:{name}", "json", body
    for name, body in H.XML_CASES.items():
        yield f"xml:{name}", ("zip" if body[:2] == b"PK" else "xml"), body
    for name, text in YAML_CASES.items():
        yield f"yaml:{name}", "yaml", text.encode()
    yield "empty-file", "json", b""
    yield "missing-file", "json", None
    yield "a-folder", "json", "FOLDER"


def _command_run(way, case, argv, may_succeed=False):
    def run() -> Outcome:
        out, err = io.StringIO(), io.StringIO()
        real = sys.stdout, sys.stderr
        code, crashed = 0, ""
        with transaction.atomic():
            before = fingerprint()

            def call():
                nonlocal code, crashed
                sys.stdout, sys.stderr = out, err
                # run_from_argv closes every connection when a command ends; the case's transaction lives on it
                close_all, connections.close_all = connections.close_all, lambda: None
                try:
                    ManagementUtility(["manage.py", *argv]).execute()
                except SystemExit as exc:
                    code = exc.code if isinstance(exc.code, int) else 1
                except BaseException:  # noqa: BLE001
                    import traceback

                    crashed = traceback.format_exc()[-1500:]
                finally:
                    sys.stdout, sys.stderr = real
                    connections.close_all = close_all
            _none, peak, seconds = measured(call)
            after = fingerprint()
            transaction.set_rollback(True)
        text = err.getvalue()
        outcome = Outcome(way, case, status=None if crashed else code, message=text[:300], peak_mib=round(peak, 1),
                          seconds=round(seconds, 3), may_succeed=may_succeed)
        if crashed or "Traceback (most recent call last)" in text + out.getvalue():
            outcome.traceback, outcome.error = True, crashed or text[-1500:]
        if len(text) > 100_000:
            outcome.error = f"printed {len(text)} characters of errors"
        changed = _changed(before, after)
        if changed:
            outcome.db_changed, outcome.error = True, "changed: " + ", ".join(changed)
        return outcome
    return run


def command_cases(name, command, world, folder: Path) -> list:
    parser = command.create_parser("manage.py", name)
    positionals = [a for a in parser._actions if not a.option_strings and a.dest != "help"]
    options = []
    for action in (a for a in parser._actions if a.option_strings and a.required):
        options += [action.option_strings[0], str(folder / f"out-{action.dest}.out")]
    benign_file = folder / "benign-list.json"
    benign_file.write_text(json.dumps(army_list_document(world.army_list)), encoding="utf-8")
    cases = []
    kinds = command_inputs(command, name)
    if "file" in kinds:
        for case, family, body in _payloads():
            suffix = SUFFIXES.get(name, DEFAULT_SUFFIXES)[family]
            path = folder / (re.sub(r"[^a-z0-9]+", "-", case) + suffix)
            if body == "FOLDER":
                path.mkdir()
            elif body is not None:
                path.write_bytes(body)
            argv = [name] + [str(path) if _is_path(a) else BENIGN.get(a.dest, lambda w: "x")(world)
                             for a in positionals] + options
            cases.append((f"{name} FILE", case, _command_run(f"{name} FILE", case, argv)))
    if "string" in kinds:
        for case, value in HOSTILE_STRINGS.items():
            argv = [name] + [str(benign_file) if _is_path(a) else value for a in positionals] + options
            cases.append((f"{name} ARG", case, _command_run(f"{name} ARG", case, argv)))
    if "option" in kinds:
        benign = [str(benign_file) if _is_path(a) else BENIGN.get(a.dest, lambda w: "x")(world) for a in positionals]
        for action in own_value_options(parser):
            flag = action.option_strings[-1]
            for case, value in HOSTILE_OPTION_VALUES.items():
                argv = [name, *benign, f"{flag}={value}", *options]
                # Free text (a player's name) may be taken as it is; a value with choices or a type may not.
                free = action.choices is None and action.type not in (int, float, Path)
                cases.append((f"{name} {flag}", case, _command_run(f"{name} {flag}", case, argv, may_succeed=free)))
    return cases


@pytest.mark.parametrize("name", sorted(set(COMMANDS) - set(NO_INPUT_COMMANDS)))
def test_hostile_command_inputs(name, world, tmp_path, monkeypatch):
    cases = command_cases(name, COMMANDS[name], world, tmp_path)
    # The commands run from a folder deep inside the test's own: a hostile relative path ("../../../../etc/passwd")
    # given to an option that writes a file lands in the sandbox, never on the machine.
    sandbox = tmp_path.joinpath(*["sandbox"] * 12)
    sandbox.mkdir(parents=True)
    monkeypatch.chdir(sandbox)
    outcomes = run_in_child(cases)
    COUNTS[f"manage.py {name}"] = len(outcomes)
    PEAKS[f"manage.py {name}"] = (max(o.peak_mib for o in outcomes), max(o.seconds for o in outcomes))
    problems = failures(outcomes, command=True)
    assert not problems, f"{len(problems)} of {len(outcomes)} inputs went wrong:\n" + "\n".join(problems[:40])
