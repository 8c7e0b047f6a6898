"""Probes for a load balancer or process manager.

/healthz: the process answers (liveness; touches nothing else).
/readyz: the database, the cache and the broker answer (readiness), each reported by name.
Both are plain JSON, never cached, and exempt from the HTTPS redirect.
"""
import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from armybuilder.celery import app

logger = logging.getLogger("armybuilder.health")


def _database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def _cache() -> str:
    key = "health:probe"
    cache.set(key, "1", 10)
    if cache.get(key) != "1":
        raise RuntimeError("the cache did not keep a value")
    return "ok"


def _broker() -> str:
    if settings.JOBS_IN_PROCESS:
        return "not used (jobs run in-process)"
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)
    return "ok"


CHECKS = {"database": _database, "cache": _cache, "broker": _broker}


@never_cache
@require_GET
def healthz(request):
    return JsonResponse({"status": "ok"})


@never_cache
@require_GET
def readyz(request):
    results, ready = {}, True
    for name, check in CHECKS.items():
        started = time.perf_counter()
        try:
            results[name] = {"status": check(), "ms": round((time.perf_counter() - started) * 1000, 1)}
        except Exception as exc:  # any failure means "not ready", with the reason for the operator
            ready = False
            results[name] = {"status": "error", "error": f"{type(exc).__name__}: {exc}"[:300]}
            logger.warning("readiness check failed", extra={"check": name, "error": str(exc)[:300]})
    return JsonResponse({"status": "ok" if ready else "unavailable", "checks": results}, status=200 if ready else 503)
