"""Throughput and latency of POST /api/v1/check under concurrent load, beside a trivial endpoint.

Starts gunicorn (2 sync workers) on 127.0.0.1 with a throw-away SQLite database
holding the sample and test books, then drives it from this process with a pool
of client threads (a new loopback connection per request, as gunicorn's sync
workers close each one). For each endpoint it prints requests per second and
p50/p99 latency; the baseline, GET /api/v1/systems/ (two small queries, no
body), is measured in the same run. The check body is the 3-formation, ~25-unit
force of bench_check.py. Bounded: at most REQUESTS requests or SECONDS seconds
per endpoint. Then gunicorn is stopped.

    .venv/bin/python bench/bench_api.py [--requests 1500] [--seconds 20] [--concurrency 8]
"""
import argparse
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from _setup import ROOT, django_with_data

DATABASE = "/tmp/armybuilder-bench-api.sqlite3"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def request(port: int, method: str, path: str, body: bytes | None) -> tuple[int, float]:
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Content-Type": "application/json", "Accept": "application/json"} if body else {}
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        response.read()
        return response.status, time.perf_counter() - start
    finally:
        conn.close()


def drive(port, method, path, body, *, requests: int, seconds: float, concurrency: int) -> dict:
    for _ in range(min(50, requests)):  # warm-up: imports, caches, connections to SQLite in both workers
        request(port, method, path, body)
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    issued = 0
    deadline = time.perf_counter() + seconds

    def worker():
        nonlocal issued
        while True:
            with lock:
                if issued >= requests or time.perf_counter() > deadline:
                    return
                issued += 1
            status, elapsed = request(port, method, path, body)
            with lock:
                latencies.append(elapsed)
                statuses[status] = statuses.get(status, 0) + 1

    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - start
    latencies.sort()
    return {"count": len(latencies), "rps": len(latencies) / wall, "statuses": statuses,
            "p50": statistics.median(latencies) * 1000,
            "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000}


def start_gunicorn(port: int) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{DATABASE}", "DJANGO_SETTINGS_MODULE": "bench_api_settings",
           "DEBUG": "0", "SECRET_KEY": "bench-only-secret-key-not-for-production", "ALLOWED_HOSTS": "127.0.0.1"}
    gunicorn = Path(sys.executable).with_name("gunicorn")
    process = subprocess.Popen(
        [str(gunicorn), "armybuilder.wsgi:application", "--workers", "2", "--bind", f"127.0.0.1:{port}",
         "--pythonpath", f"{ROOT},{ROOT / 'bench'}", "--log-level", "warning"],
        cwd=ROOT, env=env)
    for _ in range(300):
        try:
            if request(port, "GET", "/api/v1/systems/", None)[0] == 200:
                return process
        except OSError:
            pass
        if process.poll() is not None:
            raise SystemExit(f"gunicorn exited with {process.returncode}")
        time.sleep(0.1)
    process.terminate()
    raise SystemExit("gunicorn did not answer within 30 s")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=1500, help="most requests per endpoint")
    parser.add_argument("--seconds", type=float, default=20, help="most seconds per endpoint")
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = f"sqlite:///{DATABASE}"
    django_with_data(DATABASE)
    from bench_check import build_force

    from armybuilder.lists.selectors import army_list_document

    build_force()  # saves the benchmark list; export it as the body to check
    from armybuilder.lists.models import ArmyList

    body = json.dumps(army_list_document(ArmyList.objects.get(name="Benchmark"))).encode()
    from django.db import connections

    connections.close_all()

    port = free_port()
    server = start_gunicorn(port)
    try:
        status, _ = request(port, "POST", "/api/v1/check", body)
        assert status == 200, f"check answered {status}"
        kwargs = dict(requests=args.requests, seconds=args.seconds, concurrency=args.concurrency)
        baseline = drive(port, "GET", "/api/v1/systems/", None, **kwargs)
        check = drive(port, "POST", "/api/v1/check", body, **kwargs)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)

    print(f"gunicorn: 2 sync workers on 127.0.0.1; client: {args.concurrency} threads in another process, "
          f"new connection per request; check body {len(body)} bytes")
    for label, result in (("GET /api/v1/systems/ (baseline)", baseline), ("POST /api/v1/check", check)):
        print(f"{label:34} {result['count']:5} requests  {result['rps']:7.1f} req/s  "
              f"p50 {result['p50']:6.1f} ms  p99 {result['p99']:6.1f} ms  statuses {result['statuses']}")
    print(f"check / baseline: {baseline['rps'] / check['rps']:.2f}x fewer requests per second, "
          f"p50 {check['p50'] / baseline['p50']:.2f}x the latency")


if __name__ == "__main__":
    main()
