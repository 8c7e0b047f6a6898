"""Concurrency against a live server (issue 15): PATCH vs DELETE with one If-Match, sign-ups with one name,
token rotations at once, two load_handbooks runs at once. Zero 500s, zero lost updates.

Threads are bounded (at most 20 at once), every request goes to 127.0.0.1 with a timeout, and every loop
runs a fixed number of rounds.
"""
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from django.conf import settings

from .live import start_site

ROUNDS = 30
SIGNUPS = 20
ROTATIONS = 10
LOAD_ROUNDS = 3
TIMEOUT = 60
OPERATIONS: dict[str, int] = {}


@pytest.fixture(scope="module")
def site(tmp_path_factory, request):
    live, stop = start_site(tmp_path_factory.mktemp("live"))
    yield live
    stop()
    request.config.cache.set("hostile/concurrent-operations", OPERATIONS)


def _csrf(session: requests.Session, site, path: str) -> str:
    page = session.get(site.url + path, timeout=TIMEOUT)
    assert page.status_code == 200, page.text[:300]
    return session.cookies["csrftoken"]


def signed_up(site, username: str, password: str = "a-Live-test-pw-77") -> requests.Session:
    session = requests.Session()
    token = _csrf(session, site, "/accounts/signup/")
    response = session.post(site.url + "/accounts/signup/", timeout=TIMEOUT, allow_redirects=False,
                            data={"csrfmiddlewaretoken": token, "username": username, "password1": password,
                                  "password2": password})
    assert response.status_code == 302, response.text[:500]
    return session


def api_key(site, session: requests.Session) -> str:
    response = session.post(site.url + "/api/v1/auth/token", timeout=TIMEOUT,
                            headers={"X-CSRFToken": session.cookies["csrftoken"]})
    assert response.status_code == 201, response.text[:300]
    return response.json()["token"]


def together(*calls):
    """Run the calls in threads released at the same instant; their results, in order."""
    barrier = threading.Barrier(len(calls))

    def run(call):
        barrier.wait(timeout=TIMEOUT)
        return call()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return [future.result(timeout=TIMEOUT * 2) for future in [pool.submit(run, c) for c in calls]]


def test_patch_and_delete_sent_together_with_one_if_match_never_both_succeed(site):
    key = api_key(site, signed_up(site, "racer"))
    api = requests.Session()
    api.headers["Authorization"] = f"Token {key}"
    lost, server_errors, outcomes = [], [], {"patch won": 0, "delete won": 0}
    for round_number in range(ROUNDS):
        created = api.post(site.url + "/api/v1/lists/", timeout=TIMEOUT,
                           json={"system": "fow4", "handbook": "sample-afrika-korps", "name": f"round {round_number}"})
        assert created.status_code == 201, created.text[:300]
        url = f"{site.url}/api/v1/lists/{created.json()['id']}/"
        patch, delete = together(
            lambda url=url, n=round_number: api.patch(url, json={"name": f"patched {n}"}, headers={"If-Match": '"1"'},
                                                      timeout=TIMEOUT),
            lambda url=url: api.delete(url, headers={"If-Match": '"1"'}, timeout=TIMEOUT))
        after = api.get(url, timeout=TIMEOUT)
        statuses = (patch.status_code, delete.status_code, after.status_code)
        server_errors += [s for s in statuses if s >= 500]
        if patch.status_code == 200 and delete.status_code == 412 and after.status_code == 200 \
                and after.json()["name"] == f"patched {round_number}":
            outcomes["patch won"] += 1
        elif delete.status_code == 204 and patch.status_code in (404, 412) and after.status_code == 404:
            outcomes["delete won"] += 1
        else:
            lost.append(f"round {round_number}: PATCH {patch.status_code}, DELETE {delete.status_code}, "
                        f"then GET {after.status_code}")
    OPERATIONS["PATCH vs DELETE"] = 2 * ROUNDS
    assert not server_errors and not lost, "\n".join(lost)
    assert sum(outcomes.values()) == ROUNDS


def test_sign_ups_with_one_name_at_once_make_one_account_and_no_500(site):
    sessions = [requests.Session() for _ in range(SIGNUPS)]
    tokens = [_csrf(s, site, "/accounts/signup/") for s in sessions]
    passwords = [f"a-Live-test-pw-{i:02d}-x" for i in range(SIGNUPS)]

    def sign_up(i):
        return lambda: sessions[i].post(site.url + "/accounts/signup/", allow_redirects=False, timeout=TIMEOUT,
                                        data={"csrfmiddlewaretoken": tokens[i], "username": "same-name",
                                              "password1": passwords[i], "password2": passwords[i]})
    answers = together(*(sign_up(i) for i in range(SIGNUPS)))
    statuses = sorted(a.status_code for a in answers)
    OPERATIONS["sign-ups with one name"] = SIGNUPS
    assert statuses == [302] + [400] * (SIGNUPS - 1), statuses
    refused = [a for a in answers if a.status_code == 400]
    assert all("A user with that username already exists" in a.text for a in refused)
    logins = []
    for password in passwords:
        session = requests.Session()
        token = _csrf(session, site, "/accounts/login/")
        logins.append(session.post(site.url + "/accounts/login/", allow_redirects=False, timeout=TIMEOUT,
                                   data={"csrfmiddlewaretoken": token, "username": "same-name",
                                         "password": password}).status_code)
    assert sorted(logins) == [200] * (SIGNUPS - 1) + [302]  # one password is the account's


def test_token_rotations_at_once_all_answer_and_exactly_the_last_one_made_works(site):
    session = signed_up(site, "rotator")
    csrf = session.cookies["csrftoken"]
    answers = together(*(lambda: session.post(site.url + "/api/v1/auth/token", headers={"X-CSRFToken": csrf},
                                              timeout=TIMEOUT) for _ in range(ROTATIONS)))
    OPERATIONS["token rotations"] = ROTATIONS
    assert [a.status_code for a in answers] == [201] * ROTATIONS, [a.text[:200] for a in answers]
    keys = [a.json()["token"] for a in answers]
    assert len(set(keys)) == ROTATIONS
    works = [requests.get(site.url + "/api/v1/lists/", headers={"Authorization": f"Token {k}"},
                          timeout=TIMEOUT).status_code for k in keys]
    assert sorted(works) == [200] + [401] * (ROTATIONS - 1)
    prefix = session.get(site.url + "/api/v1/auth/token", timeout=TIMEOUT).json()["prefix"]
    assert keys[works.index(200)].startswith(prefix)


def test_two_load_handbooks_runs_at_once_write_one_revision_and_neither_crashes(site, tmp_path):
    book = Path(settings.HANDBOOK_DATA_DIR) / "fow4" / "sample-afrika-korps.yaml"
    url = site.url + "/api/v1/handbooks/fow4/sample-afrika-korps/"
    start = len(requests.get(url, timeout=TIMEOUT).json()["revisions"])
    for round_number in range(1, LOAD_ROUNDS + 1):
        folder = tmp_path / f"round-{round_number}"
        folder.mkdir()
        text = re.sub(r"^name: .*$", f"name: Sample Afrika Korps, changed {round_number} (illustrative)",
                      book.read_text(encoding="utf-8"), count=1, flags=re.M)
        (folder / book.name).write_text(text, encoding="utf-8")
        runs = [site.manage_async("load_handbooks", str(folder)) for _ in range(2)]
        results = [(run.wait(timeout=300), *run.communicate()) for run in runs]
        assert [code for code, _out, _err in results] == [0, 0], [err[-1500:] for _c, _o, err in results]
        statuses = sorted(out.split()[0] for _code, out, _err in results)
        assert statuses == ["revised", "unchanged"], results
        revisions = requests.get(url, timeout=TIMEOUT).json()["revisions"]
        assert len(revisions) == start + round_number
        assert sum(1 for r in revisions if r["is_current"]) == 1
    OPERATIONS["load_handbooks runs"] = 2 * LOAD_ROUNDS
