"""A real server for the concurrency tests: gunicorn (2 processes x 8 threads) on loopback, on a database of
its own (a PostgreSQL database beside the test one, or a SQLite file), migrated and loaded like production.

Ports come from ARMYBUILDER_TEST_PORTS ("18200-18299" unless set); requests go to 127.0.0.1 only, and every
loop in the tests is bounded.
"""
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

from django.conf import settings

BASE_DIR = Path(settings.BASE_DIR)
SETTINGS = "tests.hostile.live_settings"


@dataclass
class LiveSite:
    url: str
    env: dict

    def manage(self, *args, timeout: float = 120) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=self.env, capture_output=True,
                              text=True, timeout=timeout)

    def manage_async(self, *args) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=self.env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def free_port() -> int:
    low, _, high = os.environ.get("ARMYBUILDER_TEST_PORTS", "18200-18299").partition("-")
    for port in range(int(low), int(high) + 1):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {low}-{high}")


def _postgres_admin(db):
    import psycopg

    return psycopg.connect(host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432, user=db["USER"],
                           password=db["PASSWORD"] or None, dbname="postgres", autocommit=True)


def database_url(tmp_dir: Path) -> tuple[str, callable]:
    """A fresh database for the live server, and how to remove it."""
    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.postgresql":
        path = tmp_dir / "live.sqlite3"
        return f"sqlite:///{path}", lambda: None
    base = urlparse(os.environ.get("DATABASE_URL", "")).path.lstrip("/") or "armybuilder"
    name = f"{base}_live"
    with _postgres_admin(db) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')

    def drop():
        with _postgres_admin(db) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}", drop


def start_site(tmp_dir: Path):
    """(LiveSite, stop): the server answering, or RuntimeError with its log."""
    url, drop = database_url(tmp_dir)
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": SETTINGS, "DEBUG": "0",
           "SECRET_KEY": "live-test-only-key", "ALLOWED_HOSTS": "127.0.0.1", "SESSION_COOKIE_SECURE": "0",
           "CSRF_COOKIE_SECURE": "0", "SECURE_SSL_REDIRECT": "0", "SECURE_HSTS_SECONDS": "0"}  # plain HTTP on loopback
    site = LiveSite("", env)
    for args in (("migrate", "--noinput"), ("load_handbooks", "handbooks/data/systems", "handbooks/data/fow4")):
        done = site.manage(*args, timeout=300)
        if done.returncode:
            drop()
            raise RuntimeError(f"{args[0]} failed: {done.stderr[-2000:]}")
    port = free_port()
    log = open(tmp_dir / "gunicorn.log", "w")  # noqa: SIM115 - open while the server runs; stop() closes it
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "armybuilder.wsgi:application",
                               "--bind", f"127.0.0.1:{port}", "--workers", "2", "--worker-class", "gthread",
                               "--threads", "8", "--timeout", "60", "--graceful-timeout", "5"],
                              cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT)
    site.url = f"http://127.0.0.1:{port}"

    def stop():
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
        drop()

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            break
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return site, stop
        except OSError:
            time.sleep(0.2)
    stop()
    raise RuntimeError("the live server did not start: " + (tmp_dir / "gunicorn.log").read_text()[-3000:])
