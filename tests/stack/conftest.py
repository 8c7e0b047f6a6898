"""The running stack for the scale-out tests: two gunicorn app processes and one Celery worker (make test-stack)."""
import os

import pytest
import redis

from .stack import Stack, fresh_database, stack_environment

DATABASE_URL = os.environ.get("STACK_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/armybuilder_stack")
REDIS_URL = os.environ.get("STACK_REDIS_URL", "redis://127.0.0.1:6379/1")


@pytest.fixture(scope="session")
def stack(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("stack")
    fresh_database(DATABASE_URL)
    redis.Redis.from_url(REDIS_URL).flushdb()
    running = Stack(workdir=workdir, database_url=DATABASE_URL, redis_url=REDIS_URL,
                    env=stack_environment(workdir, DATABASE_URL, REDIS_URL))
    running.manage("migrate", "--noinput", "-v0")
    running.manage("load_handbooks", "-v0")
    running.manage("collectstatic", "--noinput", "-v0")
    running.token = running.manage("shell", "--no-imports", "-c", (
        "from django.contrib.auth import get_user_model; from armybuilder.api.services import api_token_rotate; "
        "u = get_user_model().objects.create_user('organiser', password='pw-organiser-1234', is_staff=True); "
        "print(api_token_rotate(user=u)[1])")).strip().splitlines()[-1]
    try:
        for name in ("app-a", "app-b"):
            proc, port = running.start_app(name)
            running.apps.append(proc)
            running.ports.append(port)
        running.start_worker()
        for port in running.ports:
            ready = running.wait_for(lambda port=port: running.get(port, "/readyz").status == 200, f"/readyz on {port}")
            assert ready
        yield running
    finally:
        running.stop()
