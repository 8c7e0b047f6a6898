"""The production stack as separate processes on loopback: gunicorn app processes and a Celery worker on one
PostgreSQL database and one Redis database, set up the way ``make serve`` sets them up.

Everything is bounded: each wait has a deadline, each process is stopped (its whole process group) at the end.
Settings come from the environment:
    STACK_DATABASE_URL  postgres://postgres@127.0.0.1:5432/armybuilder_stack (dropped and created anew)
    STACK_REDIS_URL     redis://127.0.0.1:6379/1 (flushed: give the stack a database of its own)
    STACK_PORTS         18100-18199 (app processes listen on free ports in this range)
"""
import contextlib
import http.client
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import dj_database_url

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port(taken: set[int]) -> int:
    low, high = (int(p) for p in os.environ.get("STACK_PORTS", "18100-18199").split("-"))
    for port in range(low, high + 1):
        if port in taken:
            continue
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        taken.add(port)
        return port
    raise RuntimeError(f"no free port in {low}-{high}")


@dataclass
class Response:
    status: int
    headers: dict
    body: bytes
    port: int

    def json(self):
        return json.loads(self.body)


@dataclass
class Proc:
    name: str
    popen: subprocess.Popen
    log: Path

    def stop(self, sig=signal.SIGTERM, timeout: float = 15) -> None:
        if self.popen.poll() is not None:
            return
        try:
            os.killpg(self.popen.pid, sig)
        except ProcessLookupError:
            return
        try:
            self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait(10)

    def log_lines(self) -> list[dict]:
        """The JSON log lines this process wrote (other lines, e.g. Celery's banner, are skipped)."""
        out = []
        for line in self.log.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("{"):
                with contextlib.suppress(json.JSONDecodeError):
                    out.append(json.loads(line))
        return out


@dataclass
class Stack:
    workdir: Path
    database_url: str
    redis_url: str
    env: dict
    ports: list[int] = field(default_factory=list)
    apps: list[Proc] = field(default_factory=list)
    worker: Proc | None = None
    taken: set = field(default_factory=set)
    token: str = ""

    # --- processes ---------------------------------------------------------------------------------

    def manage(self, *args: str, env: dict | None = None, timeout: float = 300) -> str:
        done = subprocess.run([str(BIN / "python"), "manage.py", *args], cwd=ROOT, env=env or self.env,
                              capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
        return done.stdout

    def _spawn(self, name: str, argv: list[str], env: dict | None = None) -> Proc:
        log = self.workdir / f"{name}.log"
        handle = log.open("ab")
        popen = subprocess.Popen(argv, cwd=ROOT, env=env or self.env, stdout=handle, stderr=subprocess.STDOUT,
                                 start_new_session=True)  # its own process group, so it can be killed whole
        return Proc(name, popen, log)

    def start_app(self, name: str, env: dict | None = None) -> tuple[Proc, int]:
        port = free_port(self.taken)
        proc = self._spawn(name, [str(BIN / "gunicorn"), "armybuilder.wsgi", "--bind", f"127.0.0.1:{port}",
                                  "--workers", "1", "--timeout", "60", "--backlog", "128"], env)
        self.wait_for(lambda: self.get(port, "/healthz").status == 200, f"{name} answering on {port}", proc=proc)
        return proc, port

    def start_worker(self) -> Proc:
        self.worker = self._spawn("worker", [str(BIN / "celery"), "-A", "armybuilder", "worker", "--concurrency",
                                             "1", "--loglevel", "INFO", "--without-mingle", "--without-gossip"])
        self.wait_for(lambda: any(r.get("message", "").endswith("ready.") for r in self.worker.log_lines()),
                      "the worker ready", proc=self.worker, timeout=60)
        return self.worker

    def kill_worker(self) -> None:
        """SIGKILL the worker and its pool children at once: no clean-up of any kind happens."""
        self.worker.stop(sig=signal.SIGKILL)

    def stop(self) -> None:
        for proc in self.apps + ([self.worker] if self.worker else []):
            proc.stop()

    def wait_for(self, predicate, what: str, *, timeout: float = 90, every: float = 0.2, proc: Proc | None = None):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc is not None and proc.popen.poll() is not None:
                raise RuntimeError(f"{proc.name} exited while waiting for {what}:\n{proc.log.read_text()[-3000:]}")
            try:
                value = predicate()
                if value:
                    return value
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(every)
        raise TimeoutError(f"gave up waiting for {what} after {timeout} s")

    # --- HTTP --------------------------------------------------------------------------------------

    def request(self, port: int, method: str, path: str, body: bytes | dict | None = None,
                headers: dict | None = None, token: bool = True, timeout: float = 60) -> Response:
        headers = dict(headers or {})
        if isinstance(body, dict):
            body = json.dumps(body).encode()
            headers.setdefault("Content-Type", "application/json")
        if token and self.token:
            headers.setdefault("Authorization", f"Token {self.token}")
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            return Response(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read(), port)
        finally:
            conn.close()

    def get(self, port: int, path: str, **kwargs) -> Response:
        return self.request(port, "GET", path, **kwargs)


def stack_environment(workdir: Path, database_url: str, redis_url: str) -> dict:
    """The production profile as make serve sets it (plain HTTP on loopback), plus short job heartbeats."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "ARMYBUILDER_", "SENTRY_"))}
    env.update({
        "ARMYBUILDER_ENV": "production", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": database_url, "REDIS_URL": redis_url, "STATIC_ROOT": str(workdir / "static"),
        "SECURE_SSL_REDIRECT": "0", "SESSION_COOKIE_SECURE": "0", "CSRF_COOKIE_SECURE": "0",
        "SECURE_HSTS_SECONDS": "0", "LOG_FORMAT": "json", "PYTHONUNBUFFERED": "1",
        # A dead worker's job is noticed within seconds instead of 15 s.
        "JOBS_HEARTBEAT_SECONDS": "1", "JOBS_RETRY_DELAY_SECONDS": "1",
    })
    return env


def fresh_database(url: str) -> None:
    import psycopg
    from psycopg import sql

    config = dj_database_url.parse(url)
    with psycopg.connect(dbname="postgres", host=config["HOST"], port=config["PORT"] or 5432,
                         user=config["USER"] or None, password=config["PASSWORD"] or None, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(config["NAME"])))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(config["NAME"])))


def sql_query(url: str, query: str, params=()) -> list[tuple]:
    import psycopg

    config = dj_database_url.parse(url)
    with psycopg.connect(dbname=config["NAME"], host=config["HOST"], port=config["PORT"] or 5432,
                         user=config["USER"] or None, password=config["PASSWORD"] or None, autocommit=True) as conn:
        return conn.execute(query, params).fetchall()
