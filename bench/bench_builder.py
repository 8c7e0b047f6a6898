"""Server time of the builder's main actions on a force of about 25 units.

Every request goes through Django's test Client (middleware, session, view, template), so the
numbers are server time without the network. A trivial view returning "ok" is measured the same
way in the same run as the baseline; the ratios say how many "empty requests" each action costs.
Run: .venv/bin/python bench/bench_builder.py
"""
import os
import statistics
import sys
import time

from _setup import django_with_data

REPEAT = int(os.environ.get("BENCH_REPEAT", "60"))

# Measure like production: DEBUG off (no query log), a real secret key.
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")  # the test client speaks plain HTTP
os.environ.setdefault("SECRET_KEY", "benchmark-only-secret-key-not-for-production")

# A urlconf with the real URLs plus a trivial baseline view.
urlpatterns = []


def baseline(request):
    from django.http import HttpResponse

    return HttpResponse("ok")


def build_force(owner):
    from armybuilder.lists import services as s
    from handbooks.models import Handbook

    book = Handbook.objects.get(code="sample-afrika-korps", is_current=True)
    army = s.army_list_create(owner=owner, handbook=book, name="Benchmark", points_limit=300)
    company = s.army_list_add_formation(army_list=army, formation_code="SG100")
    for box, unit, size in [("SG100/hq", "SG101", "two-tanks"), ("SG100/panzer-1", "SG102", "three-tanks"),
                            ("SG100/panzer-2", "SG103", "two-tanks"), ("SG100/light-panzer", "SG104", "three-tanks"),
                            ("SG100/anti-tank", "SG115", "two-guns")]:
        picked = s.army_list_pick_unit(army_list=army, list_formation=company, box_code=box, unit_code=unit,
                                       size_code=size)
        if unit in ("SG101", "SG102"):
            s.army_list_set_upgrade(army_list=army, list_unit=picked, upgrade_code="gun/long-5cm", quantity=1)
    for _ in range(3):
        grenadiers = s.army_list_add_formation(army_list=army, formation_code="SG150")
        for box, unit, size in [("SG150/hq", "SG116", "two-teams"), ("SG150/grenadiers-1", "SG105", "seven-teams"),
                                ("SG150/grenadiers-2", "SG106", "five-teams"),
                                ("SG150/mortars", "SG117", "three-mortars"),
                                ("SG150/anti-tank", "SG115", "two-guns")]:
            picked = s.army_list_pick_unit(army_list=army, list_formation=grenadiers, box_code=box, unit_code=unit,
                                           size_code=size)
            if unit == "SG105":
                s.army_list_set_upgrade(army_list=army, list_unit=picked, upgrade_code="transport/sdkfz251", quantity=1)
        s.army_list_add_card(army_list=army, card_code="mixed-battlegroup", target_formation=grenadiers)
    for box, unit, size in [("force/artillery", "SG110", "four-guns"), ("force/observer", "SG112", "observer"),
                            ("force/anti-aircraft", "SG113", "two-guns"), ("force/recce", "SG114", "three-cars"),
                            ("force/air", "SG109", "two-aircraft")]:
        s.army_list_pick_unit(army_list=army, box_code=box, unit_code=unit, size_code=size)
    army.refresh_from_db()
    return army


def timed(fn, undo=None, repeat=REPEAT, warmup=5):
    samples = []
    for index in range(warmup + repeat):
        start = time.perf_counter()
        response = fn()
        elapsed = time.perf_counter() - start
        if response.status_code not in (200, 302) or b"alert--error" in response.content:
            raise SystemExit(f"benchmark request failed: {response.status_code} {response.content[:300]!r}")
        if index >= warmup:
            samples.append(elapsed)
        if undo:
            undo()
    return statistics.median(samples)


def main():
    database = f"/tmp/armybuilder-bench-builder-{os.getpid()}.sqlite3"  # its own file: benches may run side by side
    try:
        run(database)
    finally:
        if os.path.exists(database):
            os.remove(database)


def run(database):
    django_with_data(database)
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import override_settings
    from django.urls import include, path, reverse

    from armybuilder.lists import services as s
    from armybuilder.lists.models import ArmyList, ListCard, ListUnit
    from armybuilder.lists.selectors import army_list_force

    urlpatterns[:] = [path("bench-baseline/", baseline), path("", include("armybuilder.urls"))]
    with override_settings(ROOT_URLCONF=__name__):
        user = get_user_model().objects.create_user("bench", password="bench-password-123")
        army = build_force(user)
        units = sum(1 for _ in army_list_force(army).all_units())
        client = Client()
        client.force_login(user)

        def version():
            return ArmyList.objects.values_list("version", flat=True).get(pk=army.pk)

        def post(name, **data):
            data["version"] = version()
            return client.post(reverse("web:action", args=[army.public_id, name]), data, HTTP_HX_REQUEST="true")

        def drop_last_pick():
            unit = ListUnit.objects.filter(army_list=army, box__code="SG100/panzer-3").first()
            s.army_list_remove_unit(army_list=army, list_unit=unit)

        def drop_last_card():
            s.army_list_remove_card(army_list=army, list_card=ListCard.objects.filter(army_list=army).last())

        sizes = iter(["three-tanks", "four-tanks"] * (REPEAT + 10))
        builder_url = reverse("web:builder", args=[army.public_id])
        results = {
            "baseline (trivial view)": timed(lambda: client.get("/bench-baseline/")),
            "render builder (GET)": timed(lambda: client.get(builder_url)),
            "pick unit": timed(lambda: post("pick", formation="/formations/0", box="SG100/panzer-3", unit="SG102"),
                               undo=drop_last_pick),
            "set size": timed(lambda: post("size", unit="/formations/0/units/1", size=next(sizes))),
            "add card": timed(lambda: post("add-card", card="veteran-panzer-crews", target="/formations/0/units/1"),
                              undo=drop_last_card),
        }
        queries = []
        with connection.execute_wrapper(lambda execute, sql, *args: queries.append(sql) or execute(sql, *args)):
            client.get(builder_url)
        page_bytes = len(client.get(builder_url).content)

    base = results["baseline (trivial view)"]
    print(f"force: {units} units, DEBUG={settings.DEBUG}, {REPEAT} timed requests each (median)")
    print(f"builder page: {page_bytes // 1024} KiB HTML, {len(queries)} SQL queries")
    for name, seconds in results.items():
        print(f"{name:26} {seconds * 1000:8.2f} ms   x{seconds / base:6.1f} baseline")


if __name__ == "__main__":
    sys.exit(main())
