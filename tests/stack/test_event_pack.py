"""The event pack on the real stack: the API starts the build, Celery workers on Redis draw the rosters (one task
per roster, shared between two worker processes), the job combines them; a rebuild after one list changed draws
exactly that one. Run with the other stack tests (make test-stack, or pytest tests/stack --stack)."""
import io
import json
import time
from collections import Counter

import pytest
from pypdf import PdfReader

PLAYERS = 4

SETUP = """
import json
from datetime import date, timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from armybuilder.services.events import services as ev
from armybuilder.lists import services as s
from handbooks.models import GameSystem, Handbook
User = get_user_model()
organiser = User.objects.get(username="organiser")
book = Handbook.objects.get(code="sample-afrika-korps", is_current=True)
now = timezone.now()
event = ev.event_create(user=organiser, system=GameSystem.objects.get(code="fow4"), name="Stack Cup",
                        date=date.today() + timedelta(days=9), deadline=now + timedelta(days=2),
                        reveal_at=now + timedelta(days=4))
out = {"event": str(event.public_id), "submissions": {}}
for n in range(%(players)d):
    player = User.objects.create_user(f"stack-player-{n}", password="pw-stack-player-1234")
    army = s.army_list_create(owner=player, handbook=book, name=f"Stack force {n}", points_limit=100)
    company = s.army_list_add_formation(army_list=army, formation_code="SG100")
    s.army_list_pick_unit(army_list=army, list_formation=company, box_code="SG100/hq", unit_code="SG101",
                          size_code="two-tanks")
    for box in ("SG100/panzer-1", "SG100/panzer-2"):
        s.army_list_pick_unit(army_list=army, list_formation=company, box_code=box, unit_code="SG102",
                              size_code="three-tanks")
    army.refresh_from_db()
    sub = ev.submission_create(registration=ev.event_register(event=event, player=player), army_list=army, by=player)
    ev.submission_review(submission=sub, by=organiser, approve=True)
    out["submissions"][sub.code] = str(sub.public_id)
print(json.dumps(out))
"""

RESUBMIT = """
from django.contrib.auth import get_user_model
from armybuilder.services.events import services as ev
from armybuilder.services.events.models import Registration
from armybuilder.lists import services as s
player = get_user_model().objects.get(username="stack-player-0")
registration = Registration.objects.get(player=player)
army = registration.current.army_list
s.army_list_update(army_list=army, name="Stack force 0, revised")
army.refresh_from_db()
sub = ev.submission_create(registration=registration, army_list=army, by=player)
ev.submission_review(submission=sub, by=registration.event.created_by, approve=True)
print(sub.code, sub.public_id)
"""


def rendered(procs) -> list[tuple[str, str]]:
    """(worker, submission) of every roster drawn, from the workers' JSON log lines."""
    return [(proc.name, line["submission"]) for proc in procs for line in proc.log_lines()
            if line.get("message") == "pack roster rendered"]


@pytest.fixture(scope="module")
def second_worker(stack):
    from .stack import BIN

    proc = stack._spawn("worker-2", [str(BIN / "celery"), "-A", "armybuilder", "worker", "--concurrency", "1",
                                     "--loglevel", "INFO", "--without-mingle", "--without-gossip", "-n", "second@%h"])
    stack.wait_for(lambda: any(r.get("message", "").endswith("ready.") for r in proc.log_lines()),
                   "the second worker ready", proc=proc, timeout=60)
    yield proc
    proc.stop()


def build(stack, event_id) -> dict:
    a, b = stack.ports
    path = f"/api/v1/events/{event_id}/pack"
    started = stack.request(a, "POST", path, {})
    assert started.status == 202, started.body
    assert started.headers["location"] == path
    seen_progress = set()
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        status = stack.get(b, path)  # the other app process answers the status: the job lives in the database
        assert status.status == 200, status.body
        body = status.json()
        seen_progress.add(body["job"]["progress"])
        if body["job"]["status"] in ("succeeded", "failed"):
            assert body["job"]["status"] == "succeeded", body
            body["seen_progress"] = seen_progress
            return body
        time.sleep(0.3)
    raise AssertionError("the pack was not built in 240 s")


def test_two_workers_share_the_rosters_and_a_rebuild_draws_only_the_changed_one(stack, second_worker):
    setup = json.loads(stack.manage("shell", "--no-imports", "-c",
                                    SETUP % {"players": PLAYERS}).strip().splitlines()[-1])
    event_id, codes = setup["event"], setup["submissions"]
    workers = [stack.worker, second_worker]

    body = build(stack, event_id)
    result = body["job"]["result"]
    assert result["rosters"] == PLAYERS and result["cached"] == 0
    drawn = rendered(workers)
    assert sorted(s for _, s in drawn) == sorted(codes.values())  # each roster drawn once, by some worker
    assert {w for w, _ in drawn} == {"worker", "worker-2"}, drawn  # both worker processes drew rosters
    assert result["rendered"] + result["by_workers"] == PLAYERS
    assert any(0 < p < 100 for p in body["seen_progress"]) or len(body["seen_progress"]) > 1

    pdf = stack.get(stack.ports[0], body["files"]["pdf"])
    assert pdf.status == 200 and pdf.headers["content-type"] == "application/pdf"
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.body)).pages)
    for code in codes:
        assert code in text
    again = stack.request(stack.ports[1], "POST", f"/api/v1/events/{event_id}/pack", {})
    assert again.status == 200 and again.json()["job"]["id"] == body["job"]["id"]  # kept: nothing changed

    code, new_id = stack.manage("shell", "--no-imports", "-c", RESUBMIT).strip().splitlines()[-1].split()
    before = Counter(rendered(workers))
    body = build(stack, event_id)
    assert body["job"]["result"]["cached"] == PLAYERS - 1
    # What was drawn since (by either worker: the logs are read worker by worker, so compare counts, not order).
    after = Counter(rendered(workers)) - before
    assert [s for _, s in after.elements()] == [new_id]  # exactly the changed roster was drawn again
    pdf = stack.get(stack.ports[0], body["files"]["pdf"]).body
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert code in text and "Stack force 0, revised" in text
