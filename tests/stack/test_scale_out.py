"""Scale-out: two app processes and one worker on one PostgreSQL and one Redis, all on loopback.

What one process does, the other sees: list edits (If-Match), rate limits, rendered PDFs, job status. A
worker killed mid-job leaves nothing written and the job is picked up again. Bounded: fixed request counts,
every wait with a deadline.
"""
import io
import re
import threading
import time
import zipfile
from collections import Counter

import pytest

from .stack import ROOT, sql_query

BSDATA = ROOT.parent / "shared" / "data" / "bsdata-flamesofwar"
CLIENTS, EDITS_EACH = 20, 3


@pytest.fixture(scope="module")
def army(stack):
    a, _ = stack.ports
    response = stack.request(a, "POST", "/api/v1/lists/", {"system": "fow4", "handbook": "sample-afrika-korps",
                                                           "name": "Shared list", "points_limit": 100})
    assert response.status == 201, response.body
    return response.json()


def test_twenty_clients_editing_one_list_through_both_processes_lose_no_update(stack, army):
    path = f"/api/v1/lists/{army['id']}/"
    outcomes, lock = Counter(), threading.Lock()
    served = Counter()

    def client(n: int):
        for edit in range(EDITS_EACH):
            for attempt in range(200):  # bounded: retries after someone else's write
                port = stack.ports[(n + edit + attempt) % 2]
                current = stack.get(port, path)
                notes = current.json()["notes"]
                changed = stack.request(port, "PATCH", path, {"notes": notes + f"[{n}.{edit}]"},
                                        headers={"If-Match": current.headers["etag"]})
                with lock:
                    outcomes[changed.status] += 1
                    if changed.status == 200:
                        served[port] += 1
                if changed.status == 200:
                    break
                assert changed.status == 412, changed.body
            else:
                raise AssertionError(f"client {n} never got its edit {edit} in")

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    final = stack.get(stack.ports[0], path).json()
    markers = re.findall(r"\[\d+\.\d+\]", final["notes"])
    assert sorted(markers) == sorted(f"[{n}.{e}]" for n in range(CLIENTS) for e in range(EDITS_EACH))
    assert final["version"] == 1 + CLIENTS * EDITS_EACH
    assert outcomes[200] == CLIENTS * EDITS_EACH and set(outcomes) <= {200, 412}
    assert served[stack.ports[0]] > 0 and served[stack.ports[1]] > 0


def test_the_anonymous_check_limit_is_sixty_a_minute_across_both_processes(stack):
    body = (ROOT / "docs" / "examples").glob("*.json")
    document = next(p for p in sorted(body) if "fow" in p.name).read_bytes()
    if 60 - time.time() % 60 < 25:  # the limit counts per minute: start in a minute with time to spare
        time.sleep(60 - time.time() % 60 + 0.2)
    statuses, lock = Counter(), threading.Lock()
    per_port = {port: Counter() for port in stack.ports}

    def client(n: int):
        for i in range(12):
            port = stack.ports[(n + i) % 2]
            response = stack.request(port, "POST", "/api/v1/check", document,
                                     headers={"Content-Type": "application/json"}, token=False)
            with lock:
                statuses[response.status] += 1
                per_port[port][response.status] += 1
            if response.status == 429:
                assert int(response.headers["retry-after"]) >= 1

    threads = [threading.Thread(target=client, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert statuses == Counter({200: 60, 429: 36})  # 96 requests, 60 allowed in all, not 60 per process
    assert all(counts[200] > 0 for counts in per_port.values())


def _renders(proc, list_id: str) -> int:
    return sum(1 for r in proc.log_lines() if r.get("message") == "roster rendered" and r.get("list") == list_id)


def test_a_pdf_rendered_by_one_process_is_served_by_the_other(stack, army):
    (app_a, app_b), (a, b) = stack.apps, stack.ports
    path = f"/api/v1/lists/{army['id']}/roster.pdf?paper=letter"
    first = stack.get(a, path)
    second = stack.get(b, path)
    assert first.status == second.status == 200 and first.body.startswith(b"%PDF-")
    assert second.body == first.body
    assert _renders(app_a, army["id"]) == 1 and _renders(app_b, army["id"]) == 0


def _library_zip(revision_offset: int = 0) -> bytes:
    """The BSData library zipped; with an offset, every catalogue changed (its own revision number), so the
    import writes each as a new handbook revision."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(BSDATA.iterdir()):
            data = path.read_bytes()
            if path.suffix == ".cat" and revision_offset:
                data = re.sub(rb'(<catalogue\b[^>]*?\brevision=")(\d+)"',
                              lambda m: m.group(1) + str(int(m.group(2)) + revision_offset).encode() + b'"',
                              data, count=1)
            archive.writestr(f"bsdata/{path.name}", data)
    return buffer.getvalue()


def _handbook_catalogues() -> int:
    return sum(1 for p in BSDATA.glob("*.cat") if not re.search(rb'<catalogue\b[^>]*\blibrary="true"',
                                                               p.read_bytes()[:4000]))


def _upload(stack, port: int, content: bytes):
    boundary = "stack-boundary-1"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; filename=\"bsdata.zip\"\r\n"
            f"Content-Type: application/zip\r\n\r\n").encode() + content + f"\r\n--{boundary}--\r\n".encode()
    return stack.request(port, "POST", "/api/v1/imports/battlescribe", body,
                         headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})


def _bs_handbooks(stack, min_revision: int = 0) -> int:
    return sql_query(stack.database_url, "SELECT count(*) FROM handbooks_handbook WHERE source = 'battlescribe' "
                                         "AND revision >= %s", [min_revision])[0][0]


@pytest.fixture(scope="module")
def bsdata():
    if not (BSDATA / "Flames_of_War_v4.gst").is_file():
        pytest.fail(f"the scale-out test imports the BSData library from {BSDATA}")
    return BSDATA


def test_a_battlescribe_import_runs_on_the_worker_while_both_processes_keep_serving(stack, bsdata):
    a, b = stack.ports
    started = _upload(stack, a, _library_zip())
    assert started.status == 202, started.body
    job_path = started.headers["location"]
    assert started.json()["status"] == "queued"
    served_while_running, seen_progress, statuses = Counter(), [], []
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        for port in (a, b):
            job = stack.get(port, job_path).json()  # either process reports the worker's progress
            statuses.append(job["status"])
            if job["status"] == "running":
                seen_progress.append(job["progress"])
                page = stack.get(port, "/api/v1/systems/")
                check = stack.get(port, "/")
                assert page.status == 200 and check.status == 200
                served_while_running[port] += 2
        if job["status"] in ("succeeded", "failed"):
            break
        time.sleep(0.2)
    assert job["status"] == "succeeded", job
    assert "running" in statuses and served_while_running[a] > 0 and served_while_running[b] > 0
    assert max(seen_progress) >= 5  # the worker's progress, read from the shared cache by the app processes
    assert _bs_handbooks(stack) == _handbook_catalogues() == len(job["result"]["handbooks"])
    worker_lines = [r for r in stack.worker.log_lines() if r.get("job_id") == job["id"]]
    assert [r["message"] for r in worker_lines][-1] == "job succeeded"


def _inserting_handbooks(stack) -> bool:
    # The worker's open transaction last ran a write of handbook rows: an INSERT of the handbook itself, or
    # the COPY of a table's rows (how the loader writes on PostgreSQL; the INSERT alone is over in a moment).
    return bool(sql_query(stack.database_url, (
        "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
        "AND xact_start IS NOT NULL "
        "AND (query ILIKE 'INSERT INTO \"handbooks_%%' OR query ILIKE 'COPY \"handbooks_%%')")))


def test_a_worker_killed_mid_import_leaves_nothing_and_the_job_is_retried_after_restart(stack, bsdata):
    a, b = stack.ports
    before = _bs_handbooks(stack)
    # Every catalogue changed, so each is written as a new handbook revision, above any already there
    # (whether or not the import test ran first).
    newer = 1 + sql_query(stack.database_url, "SELECT coalesce(max(revision), 0) FROM handbooks_handbook "
                                              "WHERE source = 'battlescribe'")[0][0]
    started = _upload(stack, b, _library_zip(revision_offset=1000))
    assert started.status == 202, started.body
    job_path = started.headers["location"]
    # Kill it while it writes handbooks: its transaction is open, rows are going in.
    stack.wait_for(lambda: _inserting_handbooks(stack), "the worker writing handbooks", timeout=180, every=0.05)
    stack.kill_worker()
    stack.wait_for(lambda: not _inserting_handbooks(stack), "PostgreSQL rolling back the dead worker's transaction")
    assert _bs_handbooks(stack, min_revision=newer) == 0 and _bs_handbooks(stack) == before
    interrupted = stack.get(a, job_path).json()
    assert interrupted["status"] == "running" and interrupted["attempts"] == 1
    # The heartbeat runs out; the new worker finds the job at start-up and runs it again.
    time.sleep(4)
    stack.start_worker()
    job = stack.wait_for(lambda: (lambda j: j if j["status"] in ("succeeded", "failed") else None)(
        stack.get(b, job_path).json()), "the retried job", timeout=240, every=0.5)
    assert job["status"] == "succeeded" and job["attempts"] == 2, job
    assert _bs_handbooks(stack, min_revision=newer) == _handbook_catalogues()
    current = sql_query(stack.database_url, "SELECT count(*) FROM handbooks_handbook WHERE source = 'battlescribe' "
                                            "AND is_current AND revision < %s", [newer])[0][0]
    assert current == 0  # the new revisions are the current ones


def test_jobs_status_is_private_to_whoever_started_it(stack):
    a, _ = stack.ports
    jobs = sql_query(stack.database_url, "SELECT id FROM jobs_job")
    assert jobs
    assert stack.get(a, f"/api/v1/jobs/{jobs[0][0]}", token=False).status == 401
