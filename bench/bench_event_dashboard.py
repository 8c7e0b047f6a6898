"""Server time of the organiser's dashboard of an event with 128 submissions (budget: 50 ms).

Each of the 128 players submits a copy of the ~25-unit force of bench_builder.py; every second player then drops
a unit and submits again (so the dashboard shows a previous submission and its diff), every third is approved.
Requests go through Django's test Client (middleware, session, view, template): server time without the
network. A trivial view returning "ok" is measured the same way in the same run as the baseline.
Run: .venv/bin/python bench/bench_event_dashboard.py
"""
import os
import statistics
import sys
import time

from _setup import ROOT, django_with_data

REPEAT = int(os.environ.get("BENCH_REPEAT", "40"))
PLAYERS = int(os.environ.get("BENCH_PLAYERS", "128"))
BUDGET_MS = 50

os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "benchmark-only-secret-key-not-for-production")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")  # the test Client speaks plain HTTP

urlpatterns = []


def baseline(request):
    from django.http import HttpResponse

    return HttpResponse("ok")


def timed(fn, repeat=REPEAT, warmup=5):
    samples = []
    for index in range(warmup + repeat):
        start = time.perf_counter()
        response = fn()
        elapsed = time.perf_counter() - start
        if response.status_code != 200:
            raise SystemExit(f"benchmark request failed: {response.status_code} {response.content[:300]!r}")
        if index >= warmup:
            samples.append(elapsed)
    return statistics.median(samples)


def main():
    database = f"/tmp/armybuilder-bench-events-{os.getpid()}.sqlite3"
    try:
        run(database)
    finally:
        if os.path.exists(database):
            os.remove(database)


def run(database):
    django_with_data(database)
    sys.path.insert(0, str(ROOT))
    from datetime import date, timedelta

    from bench_builder import build_force
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import override_settings
    from django.urls import include, path, reverse
    from django.utils import timezone

    from armybuilder.lists.selectors import army_list_force
    from armybuilder.services.events import services as ev
    from handbooks.models import GameSystem
    from tests.events.populate import populate_event

    urlpatterns[:] = [path("bench-baseline/", baseline), path("", include("armybuilder.urls"))]
    with override_settings(ROOT_URLCONF=__name__):
        organiser = get_user_model().objects.create_user("organiser", password="bench-password-123")
        template = build_force(organiser)
        units = sum(1 for _ in army_list_force(template).all_units())
        now = timezone.now()
        event = ev.event_create(user=organiser, system=GameSystem.objects.get(code="fow4"), name="Bench cup",
                                date=date.today() + timedelta(days=30), deadline=now + timedelta(days=10),
                                reveal_at=now + timedelta(days=11), points_limit=300, card_points=10,
                                formation_limit=3)
        started = time.perf_counter()
        submissions = populate_event(event, template, PLAYERS)
        setup = time.perf_counter() - started
        client = Client()
        client.force_login(organiser)
        url = reverse("events:dashboard", args=[event.public_id])
        results = {"baseline (trivial view)": timed(lambda: client.get("/bench-baseline/")),
                   f"dashboard, {PLAYERS} players": timed(lambda: client.get(url))}
        queries = []
        with connection.execute_wrapper(lambda execute, sql, *args: queries.append(sql) or execute(sql, *args)):
            page = client.get(url)
    base = results["baseline (trivial view)"]
    dashboard = results[f"dashboard, {PLAYERS} players"]
    print(f"{PLAYERS} players, {len(submissions)} current submissions of {units} units each, "
          f"{sum(1 for i in range(PLAYERS) if i % 2)} with a previous one; set-up {setup:.1f} s; "
          f"DEBUG={settings.DEBUG}; "
          f"{REPEAT} timed requests each (median)")
    print(f"dashboard page: {len(page.content) // 1024} KiB HTML, {len(queries)} SQL queries")
    for name, seconds in results.items():
        print(f"{name:26} {seconds * 1000:8.2f} ms   x{seconds / base:6.1f} baseline")
    verdict = "within" if dashboard * 1000 <= BUDGET_MS else "OVER"
    print(f"budget {BUDGET_MS} ms: {verdict} ({dashboard * 1000:.1f} ms)")


if __name__ == "__main__":
    sys.exit(main())
