"""Load test of the real stack (make serve: gunicorn, Celery worker and beat on PostgreSQL and Redis), with one
and with two app processes, and a roster PDF fresh against cached.

For each app-process count it starts ``scripts/serve`` (WEB_CONCURRENCY=1, then 2) on a throw-away PostgreSQL
database and a Redis database, and drives it from this process with a pool of client threads (a new loopback
connection per request, as gunicorn's sync workers close each one) through four endpoints:

    builder page    GET /lists/<id>/ as its owner (session cookie)
    builder action  POST /lists/<id>/do/settings/ as htmx does it (rename; each client its own list)
    check           POST /api/v1/check with the 26-unit force of bench_pdf.py (token)
    pdf (cached)    GET /api/v1/lists/<id>/roster.pdf of an unchanged list

and prints requests per second and p50/p99 latency, the ratio 2 processes / 1 process, and where the CPU went
(this client, the gunicorn workers, PostgreSQL, Redis, and everything else on the machine) as a share of its
cores: on a 2-core machine the client, the database and anything else running take cores the second app
process would need, which is what caps the ratio. The last column, requests per CPU-second of the app
processes, shows whether a request costs the same with two processes (then throughput follows the CPU the app
processes can get).
Then: the median time of a fresh roster render (the list changed, so nothing is cached) against a repeat
download of the unchanged roster, both over HTTP from one running stack. Bounded: at most --requests requests or
--seconds seconds per endpoint and process count.

    .venv/bin/python bench/bench_load.py [--requests 1500] [--seconds 15] [--concurrency 8]

Settings: BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/armybuilder_bench, dropped and created),
BENCH_REDIS_URL (redis://127.0.0.1:6379/1, flushed), BENCH_PORT (18150).
"""
import argparse
import http.client
import json
import os
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from _setup import ROOT
from bench_pdf import big_document

sys.path.insert(0, str(ROOT))
from tests.stack.stack import fresh_database  # noqa: E402

DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/armybuilder_bench")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/1")
PORT = int(os.environ.get("BENCH_PORT", "18150"))
TICKS = os.sysconf("SC_CLK_TCK")
CORES = os.cpu_count() or 1


# --- processes and CPU --------------------------------------------------------------------------------

def machine_busy() -> float:
    """CPU seconds the whole machine has been busy (all cores, from /proc/stat)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq + steal) / TICKS


def cpu_by_group(serve_pid: int) -> dict[str, float]:
    """CPU seconds so far of: the gunicorn processes under make serve, PostgreSQL, Redis, this client, and the
    whole machine (``others`` is then what none of these used: other people's work on a shared machine)."""
    out = {"client": time.process_time(), "app": 0.0, "postgres": 0.0, "redis": 0.0, "machine": machine_busy()}
    children: dict[int, list[int]] = {}
    stats = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            raw = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        name = raw[raw.index("(") + 1:raw.rindex(")")]
        fields = raw[raw.rindex(")") + 2:].split()
        pid, ppid = int(entry), int(fields[1])
        # Own time plus that of children already reaped (gunicorn recycles workers, PostgreSQL's backends end).
        seconds = sum(int(v) for v in fields[11:15]) / TICKS
        stats[pid] = (name, seconds)
        children.setdefault(ppid, []).append(pid)
        if name.startswith("postgres"):
            out["postgres"] += seconds
        elif name.startswith("redis-server"):
            out["redis"] += seconds
    stack = [serve_pid]
    while stack:  # everything under make serve that is gunicorn
        pid = stack.pop()
        stack.extend(children.get(pid, []))
        name, seconds = stats.get(pid, ("", 0.0))
        if "gunicorn" in name:
            out["app"] += seconds
    return out


def start_serve(processes: int, env: dict, log: Path) -> subprocess.Popen:
    env = {**env, "WEB_CONCURRENCY": str(processes), "BIND": f"127.0.0.1:{PORT}"}
    proc = subprocess.Popen(["bash", "scripts/serve"], cwd=ROOT, env=env, stdout=log.open("ab"),
                            stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"make serve stopped:\n{log.read_text()[-3000:]}")
        try:
            if request("GET", "/readyz")[0] == 200:
                return proc
        except OSError:
            pass
        time.sleep(0.5)
    raise TimeoutError("make serve did not become ready in 300 s")


def stop_serve(proc: subprocess.Popen) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)


# --- HTTP ----------------------------------------------------------------------------------------------

def request(method: str, path: str, body: bytes | None = None, headers: dict | None = None):
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        data = response.read()
        return response.status, time.perf_counter() - start, data, dict(response.getheaders())
    finally:
        conn.close()


def drive(make_request, *, requests: int, seconds: float, concurrency: int, serve_pid: int) -> dict:
    for n in range(min(40, requests)):
        make_request(n % concurrency)
    latencies, statuses, lock = [], {}, threading.Lock()
    issued = 0
    deadline = time.perf_counter() + seconds

    def worker(slot: int):
        nonlocal issued
        while True:
            with lock:
                if issued >= requests or time.perf_counter() > deadline:
                    return
                issued += 1
            status, elapsed = make_request(slot)
            with lock:
                latencies.append(elapsed)
                statuses[status] = statuses.get(status, 0) + 1

    cpu_before = cpu_by_group(serve_pid)
    threads = [threading.Thread(target=worker, args=(slot,)) for slot in range(concurrency)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - start
    cpu_after = cpu_by_group(serve_pid)
    latencies.sort()
    cpu = {k: (cpu_after[k] - cpu_before[k]) / (wall * CORES) for k in cpu_after}
    cpu["others"] = max(0.0, cpu.pop("machine") - sum(cpu.values()))
    return {"count": len(latencies), "rps": len(latencies) / wall, "statuses": statuses,
            "p50": latencies[len(latencies) // 2] * 1000, "p99": latencies[int(len(latencies) * 0.99)] * 1000,
            "cpu": cpu}


# --- data ----------------------------------------------------------------------------------------------

SETUP = """
import json, sys
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.cached_db import SessionStore
from armybuilder.api.services import api_token_rotate
from armybuilder.lists import services
user = get_user_model().objects.create_user("bench", password="pw-bench-12345")
token = api_token_rotate(user=user)[1]
session = SessionStore()
session.update({"_auth_user_id": str(user.pk), "_auth_user_backend": "django.contrib.auth.backends.ModelBackend",
                "_auth_user_hash": user.get_session_auth_hash()})
session.create()
doc = json.loads(sys.stdin.read())
lists = [str(services.army_list_import(doc=doc, owner=user, name=f"Bench {n}").public_id) for n in range(%d)]
print(json.dumps({"token": token, "session": session.session_key, "lists": lists}))
"""


def set_up_data(env: dict, lists: int) -> dict:
    done = subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "manage.py", "shell", "--no-imports", "-c",
                           SETUP % lists], cwd=ROOT, env=env, input=json.dumps(big_document()), capture_output=True,
                          text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- the run -------------------------------------------------------------------------------------------

def endpoints(data: dict, concurrency: int):
    csrf = secrets.token_hex(16)  # an unmasked 32-character token, as cookie and header (what htmx sends)
    web = {"Cookie": f"sessionid={data['session']}; csrftoken={csrf}"}
    api = {"Authorization": f"Token {data['token']}"}
    page_list, action_lists, pdf_list = data["lists"][0], data["lists"][1:1 + concurrency], data["lists"][-1]
    versions = {}
    for slot, list_id in enumerate(action_lists):  # the version each list is at now (an earlier run changed it)
        versions[slot] = int(request("GET", f"/api/v1/lists/{list_id}/", headers=api)[3]["ETag"].strip('"'))
    check_body = json.dumps(big_document()).encode()

    def page(slot):
        status, elapsed, _, _ = request("GET", f"/lists/{page_list}/", headers=web)
        return status, elapsed

    def action(slot):
        body = f"version={versions[slot]}&name=Bench+{slot}+v{versions[slot]}&points_limit=150".encode()
        status, elapsed, data_, _ = request("POST", f"/lists/{action_lists[slot]}/do/settings/", body, {
            **web, "X-CSRFToken": csrf, "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded"})
        found = re.search(rb'data-version="(\d+)"', data_)
        if found is None:  # the stale-list alert instead of the redrawn builder: not the action measured here
            return "stale", elapsed
        versions[slot] = int(found.group(1))
        return status, elapsed

    def check(slot):
        status, elapsed, _, _ = request("POST", "/api/v1/check", check_body,
                                        {**api, "Content-Type": "application/json"})
        return status, elapsed

    def pdf(slot):
        status, elapsed, _, _ = request("GET", f"/api/v1/lists/{pdf_list}/roster.pdf", headers=api)
        return status, elapsed

    return {"builder page": page, "builder action": action, "check": check, "pdf (cached)": pdf}, api, pdf_list


def fresh_and_cached_pdf(api: dict, list_id: str, repeat: int) -> tuple[float, float]:
    fresh, cached = [], []
    for n in range(repeat):
        # A change of the list: a new version, so its roster is not in the cache.
        status, _, body, headers = request("GET", f"/api/v1/lists/{list_id}/", headers=api)
        patched = request("PATCH", f"/api/v1/lists/{list_id}/", json.dumps({"notes": f"take {n}"}).encode(),
                          {**api, "Content-Type": "application/json", "If-Match": headers["ETag"]})
        assert patched[0] == 200, patched[2]
        status, elapsed, pdf, _ = request("GET", f"/api/v1/lists/{list_id}/roster.pdf", headers=api)
        assert status == 200 and pdf.startswith(b"%PDF-")
        fresh.append(elapsed)
        for _ in range(5):
            status, elapsed, again, _ = request("GET", f"/api/v1/lists/{list_id}/roster.pdf", headers=api)
            assert again == pdf
            cached.append(elapsed)
    return statistics.median(fresh), statistics.median(cached)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=1500)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--pdf-repeat", type=int, default=5)
    args = parser.parse_args()

    import redis

    fresh_database(DATABASE_URL)
    redis.Redis.from_url(REDIS_URL).flushdb()
    var = Path(tempfile.mkdtemp(prefix="armybuilder-bench-load-"))
    env = {**os.environ, "ARMYBUILDER_ENV": "production", "DATABASE_URL": DATABASE_URL, "REDIS_URL": REDIS_URL,
           "ALLOWED_HOSTS": "127.0.0.1", "SECRET_KEY": secrets.token_urlsafe(50), "ARMYBUILDER_VAR": str(var),
           "STATIC_ROOT": str(var / "static"), "LOG_LEVEL": "WARNING",
           # Throttles stay on (they are counted in Redis as always), with room for a load test.
           "THROTTLE_RATE_CHECK_USER": "1000000/minute", "THROTTLE_RATE_PDF": "1000000/minute"}
    log = var / "serve.log"
    results: dict[int, dict] = {}
    data = None
    pdf_figures = None
    for processes in (1, 2):
        print(f"starting make serve with {processes} app process(es)…", flush=True)
        serve = start_serve(processes, env, log)
        try:
            if data is None:
                data = set_up_data(env, args.concurrency + 2)
            calls, api, pdf_list = endpoints(data, args.concurrency)
            results[processes] = {name: drive(call, requests=args.requests, seconds=args.seconds,
                                              concurrency=args.concurrency, serve_pid=serve.pid)
                                  for name, call in calls.items()}
            if processes == 2:
                pdf_figures = fresh_and_cached_pdf(api, data["lists"][-2], args.pdf_repeat)
        finally:
            stop_serve(serve)

    print(f"\nmake serve on this machine ({CORES} cores), {args.concurrency} client threads, "
          f"at most {args.requests} requests or {args.seconds:.0f} s per row")
    print(f"{'endpoint':16} {'procs':>5} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8}  statuses      "
          f"CPU share: client  app  postgres redis others  req/app-CPU-s")
    for name in results[1]:
        for processes in (1, 2):
            r = results[processes][name]
            cpu = r["cpu"]
            print(f"{name:16} {processes:>5} {r['rps']:8.1f} {r['p50']:8.1f} {r['p99']:8.1f}  "
                  f"{json.dumps(r['statuses']):13} {cpu['client']:16.0%} {cpu['app']:4.0%} {cpu['postgres']:9.0%} "
                  f"{cpu['redis']:5.0%} {cpu['others']:6.0%} {r['rps'] / max(cpu['app'] * CORES, 1e-9):14.0f}")
        ratio = results[2][name]["rps"] / results[1][name]["rps"]
        print(f"{'':16} {'2 / 1':>5} {ratio:8.2f}x  (target ≥ 1.70x)")
    fresh, cached = pdf_figures
    print(f"\nroster PDF over HTTP (26 units): fresh render {fresh * 1000:.0f} ms, repeat download of the unchanged "
          f"roster {cached * 1000:.1f} ms (budget ≤ 20 ms), {fresh / cached:.0f}x faster")
    bad = [(p, n) for p in results for n, r in results[p].items() if set(r["statuses"]) != {200}]
    if bad:
        print(f"unexpected statuses in: {bad}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
