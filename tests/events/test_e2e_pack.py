"""In real Chromium: the organiser builds the event's printed pack from the dashboard, watches its progress (the
panel polls itself under the CSP) and downloads the PDF and the CSV, which are read back. The pack's first pages
are rendered to PNG (to $PACK_SCREENSHOTS if set) to be looked at.

The job runs in a thread of its own, as a worker would run it, so the page really sees it queued, running and
done; its rosters are drawn for real, each followed by a pause of two seconds so that the page's one-second
polling is sure to catch the build half way.
"""
import csv
import io
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest
from django.db import OperationalError, connection
from pypdf import PdfReader

from armybuilder.jobs import services as job_services
from armybuilder.jobs.runner import job_execute
from armybuilder.jobs.tasks import run_job
from armybuilder.services.events import services as ev
from armybuilder.services.events.pack import build
from tests.web.browser import PYTESTMARK, axe_violations, browser, expect, page  # noqa: F401 (fixtures)
from tests.web.conftest import PASSWORD

from .conftest import make_user, panzer_company

pytestmark = PYTESTMARK


LOCK_WAIT_SECONDS = 20  # the production SQLite timeout (settings.py)


def wait_when_locked(execute, sql, params, many, context):
    """Wait for another connection's lock as a SQLite file does, instead of failing at once.

    The test database is SQLite in memory with a shared cache, which has no busy timeout: a statement that
    meets a lock held by another connection (here the live server's, reading the job the worker updates)
    fails at once with "database table is locked". A file database, as in production, waits for it."""
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        try:
            return execute(sql, params, many, context)
        except OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


@pytest.fixture
def worker_thread(monkeypatch):
    """Jobs go to "a worker" (a thread here) instead of running inside the request that starts them."""
    threads = []

    def run(job_id):
        try:
            with connection.execute_wrapper(wait_when_locked):
                job_execute(job_id)
        finally:
            connection.close()

    def apply_async(args=(), **kwargs):
        thread = threading.Thread(target=run, args=(args[0],), daemon=True)
        threads.append(thread)
        thread.start()

    real = build.roster_artefacts

    def drawn_slowly(entry, **kwargs):
        artefacts = real(entry, **kwargs)
        time.sleep(2)
        return artefacts

    monkeypatch.setattr(build, "roster_artefacts", drawn_slowly)
    monkeypatch.setattr(job_services, "jobs_in_process", lambda: False)
    monkeypatch.setattr(run_job, "apply_async", apply_async)
    # The live server's threads share this thread's connection to the in-memory database: they wait too.
    with connection.execute_wrapper(wait_when_locked):
        yield threads
    for thread in threads:
        thread.join(timeout=120)


@pytest.fixture
def shots(tmp_path):
    folder = Path(os.environ.get("PACK_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_the_organiser_builds_watches_and_downloads_the_pack(live_server, page, event, afrika, organiser,  # noqa: F811
                                                             worker_thread, shots):
    subs = {}
    for name, list_name in (("anna", "Anna's Kampfgruppe"), ("bruno", "Bruno's Rejected Force"),
                            ("carl", "Carl's Panzers")):
        player = make_user(name)
        army = panzer_company(player, afrika, name=list_name)
        subs[name] = ev.submission_create(registration=ev.event_register(event=event, player=player),
                                          army_list=army, by=player)
    ev.submission_review(submission=subs["anna"], by=organiser, approve=True)
    ev.submission_review(submission=subs["bruno"], by=organiser, approve=False, comment="Too many tanks.")
    ev.submission_review(submission=subs["carl"], by=organiser, approve=True)

    violations = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("organiser")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/events/{event.public_id}/dashboard/")

    panel = page.locator("#event-pack")
    expect(panel).to_have_attribute("data-status", "none")  # loaded into the dashboard by htmx
    expect(panel).to_contain_text("2 approved lists")
    panel.get_by_role("button", name="Build the pack").click()
    expect(panel).to_have_attribute("data-status", "running", timeout=20000)
    bar = panel.locator("progress")
    expect(bar).to_be_visible()
    expect(panel).to_contain_text("Printed 1 of 2 rosters", timeout=30000)
    assert int(bar.get_attribute("value")) > 5
    page.screenshot(path=str(shots / "pack-running.png"), full_page=False)
    expect(panel).to_have_attribute("data-status", "succeeded", timeout=60000)
    expect(panel).to_contain_text("The pack of 2 rosters")
    page.screenshot(path=str(shots / "pack-ready.png"), full_page=True)
    assert axe_violations(page) == []

    with page.expect_download() as info:
        panel.get_by_role("link", name="Download the PDF").click()
    assert info.value.suggested_filename == "Desert-Cup-pack.pdf"
    pdf_path = shots / "pack.pdf"
    info.value.save_as(pdf_path)
    pages = [p.extract_text() for p in PdfReader(str(pdf_path)).pages]
    assert "Desert Cup" in pages[0] and "anna" in pages[0] and "carl" in pages[0] and "bruno" not in pages[0]
    assert subs["anna"].code in pages[1] and subs["carl"].code in pages[1]
    whole = "\n".join(pages)
    assert subs["bruno"].code not in whole and "Bruno's Rejected Force" not in whole

    with page.expect_download() as info:
        panel.get_by_role("link", name="Players CSV").click()
    rows = list(csv.DictReader(io.StringIO(Path(info.value.path()).read_text(encoding="utf-8-sig"))))
    assert [(r["player"], r["verification_code"]) for r in rows] == [("anna", subs["anna"].code),
                                                                       ("carl", subs["carl"].code)]
    assert violations == []
    if shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-png", "-r", "50", "-f", "1", "-l", "3", str(pdf_path), str(shots / "pack")],
                       check=True, timeout=120)
        assert (shots / "pack-1.png").exists() or (shots / "pack-01.png").exists()
