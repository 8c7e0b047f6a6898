"""Builder actions on the largest real book (the BSData library, read from ../shared/data), against a trivial
view measured the same way in the same run.

Budgets from issue 12, printed beside the figures (OVER marks one that is not met): every action at most
15 ms median server time and a response of at most 40 KB; the builder page at most 30 ms.

Each action is posted as the browser posts it (static/web/builder.js): with the digests of the formations and
boxes the page shows, of the Command Cards section and of the composition chart, read from the page before the
request (not timed), so the answer holds what changed only; the History panel closed, as a page opens (one pick is
measured with it open too: its answer then carries the panel's entries). Every kind of action is measured, and
the card offers the open panel fetches. Beside the wall time, the median CPU time of the request's thread: on a
machine shared with other work the wall time grows with the load (printed in the header), the CPU time much less.
Run: .venv/bin/python bench/bench_real_builder.py   (skips with a message when the library is absent)
"""
import json
import os
import re
import statistics
import sys
import time

from _setup import ROOT, django_with_data

REPEAT = int(os.environ.get("BENCH_REPEAT", "40"))
LIBRARY = ROOT.parent / "shared" / "data" / "bsdata-flamesofwar"
BUDGET_ACTION_MS, BUDGET_BYTES, BUDGET_PAGE_MS = 15, 40 * 1024, 30

os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")  # the test client speaks plain HTTP
os.environ.setdefault("SECRET_KEY", "benchmark-only-secret-key-not-for-production")
urlpatterns = []


def baseline(request):
    from django.http import HttpResponse

    return HttpResponse("ok")


def timed(fn, undo=None, repeat=REPEAT, warmup=3):
    """Median wall time, median CPU time of this thread (what the machine's other load does not inflate) and
    the response's size."""
    samples, cpu, size = [], [], 0
    for index in range(warmup + repeat):
        start, start_cpu = time.perf_counter(), time.thread_time()
        response = fn()
        elapsed = getattr(response, "elapsed", None) or time.perf_counter() - start  # post(): the action alone
        used = getattr(response, "cpu", None) or time.thread_time() - start_cpu
        if response.status_code != 200 or b"alert--error" in response.content:
            raise SystemExit(f"benchmark request failed: {response.status_code} {response.content[:300]!r}")
        size = len(response.content)
        if index >= warmup:
            samples.append(elapsed)
            cpu.append(used)
        if undo:
            undo()
    return statistics.median(samples), statistics.median(cpu), size


def largest_book():
    from handbooks.models import Handbook, HandbookCatalogue

    sizes = {c.handbook_id: len(json.dumps(c.document)) for c in HandbookCatalogue.objects.all()}
    pk = max(sizes, key=sizes.get)
    return Handbook.objects.get(pk=pk), sizes[pk]


def build_force(owner, book):
    """The book's first formation with every compulsory box filled, three support units and a unit card."""
    from armybuilder.lists import services as s
    from armybuilder.lists.catalog import handbook_data

    data = handbook_data(book.pk)
    army = s.army_list_create(owner=owner, handbook=book, name="Benchmark", points_limit=200)
    formation = next(iter(data.formations.values()))
    company = s.army_list_add_formation(army_list=army, formation_code=formation.code)
    for box in formation.boxes:
        if box.min_picks and box.choices and box.choices[0].unit:
            s.army_list_pick_unit(army_list=army, list_formation=company, box_code=box.code,
                                  unit_code=box.choices[0].unit)
    for box in data.support_boxes[:3]:
        if box.choices and box.choices[0].unit:
            s.army_list_pick_unit(army_list=army, box_code=box.code, unit_code=box.choices[0].unit)
    army.refresh_from_db()
    return army, formation


def main():
    if not LIBRARY.is_dir():
        print(f"skipped: the BSData library is not at {LIBRARY}")
        return 0
    database = f"/tmp/armybuilder-bench-real-{os.getpid()}.sqlite3"
    try:
        run(database)
    finally:
        if os.path.exists(database):
            os.remove(database)
    return 0


def quiet_logs():
    """The request log (one INFO line a request), axes' log-in lines and pikepdf's greeting would bury the
    figures: warnings only (set before Django starts, whose LOGGING leaves these loggers' levels alone). So would
    whitenoise's warning that no static files were collected (the benchmark serves none)."""
    import logging
    import warnings

    for name in ("armybuilder.request", "axes", "pikepdf"):
        logging.getLogger(name).setLevel(logging.WARNING)
    warnings.filterwarnings("ignore", message="No directory at: .*staticfiles")


def run(database):
    quiet_logs()
    django_with_data(database)
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import override_settings
    from django.urls import include, path, reverse

    from armybuilder.interchange.battlescribe import import_library
    from armybuilder.lists import services as s
    from armybuilder.lists.models import ArmyList, ListCard, ListFormation, ListUnit
    from armybuilder.lists.selectors import army_list_force
    from armybuilder.rules import check
    from armybuilder.web.builder import builder_view

    call_command("load_handbooks", str(ROOT / "handbooks" / "data" / "systems"), verbosity=0)
    assert import_library([LIBRARY]).written
    book, doc_bytes = largest_book()
    urlpatterns[:] = [path("bench-baseline/", baseline), path("", include("armybuilder.urls"))]
    with override_settings(ROOT_URLCONF=__name__):
        user = get_user_model().objects.create_user("bench", password="bench-password-123")
        army, formation = build_force(user, book)
        force = army_list_force(army)
        view = builder_view(force, check(force))
        client = Client()
        client.force_login(user)
        url = reverse("web:builder", args=[army.public_id])

        def page_state() -> dict:
            """What the browser sends with an action (static/web/builder.js): the Command Cards and chart digests
            and the digest of each formation and box, read from the page as it is now (not timed). The History
            panel is closed, as a page opens (static/web/history.js then sends no X-History-Open)."""
            html = client.get(url).content.decode()
            seen = re.findall(r'<section class="(?:formation|box)\b[^"]*" id="([^"]+)"[^>]*data-digest="([0-9a-f]+)"',
                              html)
            return {"HTTP_X_CARDS_DIGEST": re.search(r'id="cards"[^>]*data-digest="([0-9a-f]+)"', html)[1],
                    "HTTP_X_CHART_DIGEST": re.search(r'id="composition-chart"[^>]*data-digest="([0-9a-f]+)"', html)[1],
                    "HTTP_X_BUILDER_BOXES": " ".join(f"{a}={d}" for a, d in seen)}

        def post(name, /, extra_headers=None, **data):
            headers = {**page_state(), **(extra_headers or {})}
            data["version"] = ArmyList.objects.values_list("version", flat=True).get(pk=army.pk)
            start, start_cpu = time.perf_counter(), time.thread_time()
            response = client.post(reverse("web:action", args=[army.public_id, name]), data, HTTP_HX_REQUEST="true",
                                   **headers)
            response.elapsed, response.cpu = time.perf_counter() - start, time.thread_time() - start_cpu
            return response

        def walk(groups):
            for group in groups:
                yield group
                for option in group.options:
                    yield from walk(option.children)

        boxes = [b for f in view.formations for c in f.columns for b in c.boxes] + list(view.support_boxes)
        picked = [u for b in boxes for u in b.units]
        unit, group = next(((u, g) for u in picked for g in walk(u.choices or [])
                            if g.pick_one and len([o for o in g.options if not o.hidden]) >= 2), (picked[0], None))
        grey = next((b for f in view.formations for c in f.columns for b in c.boxes
                     if b.kind == "grey" and b.is_open and b.unit_choices), None)
        support = next((b for b in view.support_boxes if b.is_open and b.unit_choices and not b.units), None)
        card = next((o for g in view.card_groups for o in g.offers
                     if o.available and (o.targets or o.scope == "force")), None)

        def drop_last_unit():
            s.army_list_remove_unit(army_list=army,
                                    list_unit=ListUnit.objects.filter(army_list=army).order_by("pk").last())

        def drop_last_card():
            s.army_list_remove_card(army_list=army, list_card=ListCard.objects.filter(army_list=army).last())

        def pick_fields(box):
            choice = box.unit_choices[0]
            return {"alternative": choice.pick_value} if choice.alternative else {"unit": choice.code}

        results = {"baseline (trivial view)": timed(lambda: client.get("/bench-baseline/")),
                   "render builder (GET)": timed(lambda: client.get(url))}
        if grey is not None:
            results["pick unit"] = timed(lambda: post("pick", formation="/formations/0", box=grey.code,
                                                      **pick_fields(grey)), undo=drop_last_unit)
            # The same with the History panel open: the answer then carries the panel's entries too.
            results["pick unit, History open"] = timed(lambda: post(
                "pick", extra_headers={"HTTP_X_HISTORY_OPEN": "1"}, formation="/formations/0", box=grey.code,
                **pick_fields(grey)), undo=drop_last_unit)
        if support is not None:
            results["pick support unit"] = timed(lambda: post("pick", box=support.code,
                                                              **pick_fields(support)), undo=drop_last_unit)

            def remove_support():
                fields = pick_fields(support)
                s.army_list_pick_unit(army_list=army, box_code=support.code, unit_code=fields.get("unit"),
                                      alternative=fields.get("alternative"))
                pointer = f"/support/{ListUnit.objects.filter(army_list=army, list_formation=None).count() - 1}"
                return post("remove-unit", unit=pointer)

            results["remove unit"] = timed(remove_support)
        if group is not None:
            first, second = [o for o in group.options if not o.hidden][:2]
            flips = iter([second, first] * (REPEAT + 10))

            def choose():
                option = next(flips)
                return post("select", holder=unit.pointer, at=option.at, entry=option.entry, number=1)

            results["choose one (radio)"] = timed(choose)
        if card is not None:
            fields = {"choice": card.targets[0][0]} if card.targets else {"card": card.code}
            results["add card"] = timed(lambda: post("add-card", **fields), undo=drop_last_card)

            def remove_card():
                post("add-card", **fields)
                return post("remove-card", card=f"/cards/{ListCard.objects.filter(army_list=army).count() - 1}")

            results["remove card"] = timed(remove_card)
        names = iter(["Benchmark", "Benchmark renamed"] * (REPEAT + 10))
        results["settings (rename)"] = timed(lambda: post("settings", name=next(names), points_limit=200, variant=""))

        def drop_last_formation():
            s.army_list_remove_formation(army_list=army, list_formation=ListFormation.objects.filter(
                army_list=army).order_by("pk").last())

        results["add formation"] = timed(lambda: post("add-formation", formation=formation.code),
                                         undo=drop_last_formation)

        def remove_formation():
            s.army_list_add_formation(army_list=army, formation_code=formation.code)
            return post("remove-formation",
                        formation=f"/formations/{ListFormation.objects.filter(army_list=army).count() - 1}")

        results["remove formation"] = timed(remove_formation)
        offers_url = reverse("web:card-offers", args=[army.public_id])
        results["card offers (panel opened)"] = timed(lambda: client.get(offers_url, HTTP_HX_REQUEST="true"))
        units = sum(1 for _ in army_list_force(army).all_units())

    base = results["baseline (trivial view)"][0]
    print(f"book: {book.name} (catalogue document {doc_bytes // 1024} KiB, the largest), force: {units} units, "
          f"formation {formation.name}; {REPEAT} timed requests each (median; cpu: this thread's CPU time, "
          f"which other load on the machine does not inflate; load average {os.getloadavg()[0]:.1f})")
    for name, (seconds, cpu, size) in results.items():
        ms = seconds * 1000
        budget = BUDGET_PAGE_MS if name.startswith("render") else BUDGET_ACTION_MS
        over = []
        if name != "baseline (trivial view)":
            if ms > budget:
                over.append(f"time > {budget} ms")
            if not name.startswith("render") and size > BUDGET_BYTES:
                over.append(f"response > {BUDGET_BYTES // 1024} KB")
        mark = ("OVER: " + ", ".join(over)) if over else ("within budget" if name != "baseline (trivial view)" else "")
        print(f"{name:27} {ms:8.2f} ms  x{seconds / base:6.1f} baseline  cpu {cpu * 1000:6.2f} ms  "
              f"{size / 1024:7.1f} KiB  {mark}")


if __name__ == "__main__":
    sys.exit(main())
