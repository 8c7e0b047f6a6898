"""Benchmark: import the whole BSData Flames of War library.

Usage: python bench/bench_battlescribe_import.py [FOLDER]
(default: ../shared/data/bsdata-flamesofwar). Uses a throw-away SQLite
database, never the project's. Prints the time to only parse the XML files
(with the same parser and garbage-collector setting as the import), the full import (read + map + load) and
a re-import with nothing changed, and their ratios to parsing (budgets: 4x and 1.5x), in elapsed and in CPU
time, with the machine's load average (on a loaded machine the CPU-time ratios are the ones that count).

Parsing and the full import each run five times, alternately (parse, import, parse, import, ...), every
import into freshly emptied tables; the ratios take the best of each, so that a slow moment of a shared
machine does not fall on one side only (with three, a 2-core machine shared with other work gave ratios
from 3.3x to 3.8x for the same code: the first import is cold, which left two warm ones to take the best
of). The first import, cold (modules and caches not yet warm), is printed on its own line. Measured as
production runs: DEBUG off (no query log).
"""
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DEFAULT = ROOT.parent / "shared" / "data" / "bsdata-flamesofwar"
RUNS = 5

# Measure like production: DEBUG off (Django then keeps no log of the queries), a real secret key.
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "benchmark-only-secret-key-not-for-production")


def main() -> int:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    if not folder.is_dir():
        print(f"no BSData library at {folder}")
        return 2
    tmp = tempfile.mkdtemp(prefix="bench-bs-")
    # BENCH_DATABASE_URL: an empty database of another kind (e.g. PostgreSQL) to measure on instead.
    os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{tmp}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    from armybuilder.interchange.battlescribe import import_library
    from armybuilder.interchange.battlescribe.importer import data_files

    systems = str(Path(settings.HANDBOOK_DATA_DIR) / "systems")
    call_command("migrate", verbosity=0)
    call_command("load_handbooks", systems, verbosity=0)
    files = data_files([folder])

    parses, imports = [], []
    for run in range(RUNS):
        parses.append(parse_files(files))
        if run:  # every import starts from the same tables: the game systems only
            call_command("flush", interactive=False, verbosity=0)
            call_command("load_handbooks", systems, verbosity=0)
        started, cpu = time.perf_counter(), time.process_time()
        report = import_library([folder])
        imports.append((time.perf_counter() - started, time.process_time() - cpu, report))
        if not report.ok or "created" not in {r.status for r in report.catalogues}:
            print("\n".join(report.lines()))
            return 1
    parse_only, parse_cpu = min(r[0] for r in parses), min(r[1] for r in parses)
    full, full_cpu = min(r[0] for r in imports), min(r[1] for r in imports)
    cold, cold_cpu, _ = imports[0]
    report = min(imports, key=lambda r: r[1])[2]
    totals = report.totals()
    print(f"database: {connection.vendor}")
    print(f"files: {len(files)} ({sum(p.stat().st_size for p in files) / 1e6:.1f} MB)")
    print(f"imported: {totals['formations']} formations, {totals['units']} units, {totals['sizes']} sizes, "
          f"{totals['upgrades']} upgrades, {totals['command cards']} cards, {totals['profiles']} profiles")
    print(f"parse only:    {parse_only:6.2f} s  (best of {RUNS}; CPU {parse_cpu:.2f} s)")
    print(f"cold import:   {cold:6.2f} s  (the first one; CPU {cold_cpu:.2f} s)")
    print(f"full import:   {full:6.2f} s  (best of {RUNS}; its read+parse {report.parse_seconds:.2f}, "
          f"map {report.map_seconds:.2f}, load {report.load_seconds:.2f}; CPU {full_cpu:.2f} s)")
    print(f"ratio full/parse: {full / parse_only:.1f}x   (budget 4x; in CPU time of this process "
          f"{full_cpu / parse_cpu:.1f}x, which other processes on the machine do not change and the database "
          "server's work is not part of)")
    started, cpu = time.perf_counter(), time.process_time()
    again = import_library([folder])
    reimport, reimport_cpu = time.perf_counter() - started, time.process_time() - cpu
    print(f"re-import (all unchanged): {reimport:6.2f} s (CPU {reimport_cpu:.2f} s), "
          f"statuses {sorted({r.status for r in again.catalogues})}")
    print(f"ratio re-import/parse: {reimport / parse_only:.1f}x   (budget 1.5x; CPU {reimport_cpu / parse_cpu:.1f}x)")
    load, cores = os.getloadavg()[0], os.cpu_count() or 1
    if load > cores / 2:
        print(f"machine loaded (load average {load:.1f} on {cores} cores): the CPU-time ratios are the ones to read; "
              "wall times include waiting for the cores")
    else:
        print(f"load average {load:.1f} on {cores} cores")
    bench_engine()
    return 0


def parse_files(files) -> tuple[float, float]:
    """Seconds (elapsed, CPU) to read and parse the XML of ``files`` with the import's own parser and nothing
    more (no mapping, no database), under the same conditions as the import (the garbage collector paused)."""
    from armybuilder.interchange.battlescribe.collector import collector_paused
    from armybuilder.interchange.battlescribe.safe_read import parse_xml_bytes

    started, cpu = time.perf_counter(), time.process_time()
    with collector_paused():
        for path in files:
            parse_xml_bytes(path.read_bytes(), path.name)
    return time.perf_counter() - started, time.process_time() - cpu


def bench_engine() -> None:
    """The engine on the imported data: the cheapest legal list of every formation, and a roster round trip."""
    from armybuilder.interchange.battlescribe.cheapest import cheapest_list
    from armybuilder.interchange.battlescribe.roster import read_roster_bytes
    from armybuilder.interchange.battlescribe.roster_map import roster_to_document
    from armybuilder.interchange.battlescribe.roster_write import force_to_ros
    from armybuilder.lists.catalog import handbook_data
    from armybuilder.lists.selectors import DbCatalog, list_document_report
    from handbooks.models import Handbook

    started = time.perf_counter()
    books = [handbook_data(pk) for pk in Handbook.objects.filter(source="battlescribe", is_current=True)
             .values_list("pk", flat=True)]
    build = time.perf_counter() - started
    started = time.perf_counter()
    results = [cheapest_list(book, code) for book in books for code in book.formations]
    elapsed = time.perf_counter() - started
    print(f"engine data for {len(books)} handbooks: {build:6.2f} s (cold cache)")
    print(f"cheapest list per formation: {len(results)} in {elapsed:6.2f} s "
          f"({elapsed / max(len(results), 1) * 1000:.1f} ms each)")
    biggest = max(results, key=lambda r: sum(len(f["units"]) for f in r.document["formations"]))
    force, _ = list_document_report(biggest.document)
    units = sum(1 for _ in force.all_units())
    started = time.perf_counter()
    for _ in range(20):
        xml = force_to_ros(force)
        roster_to_document(read_roster_bytes(xml, "bench.ros"), DbCatalog())
    print(f"roster export + read + map ({units} units, {len(xml)} bytes): "
          f"{(time.perf_counter() - started) / 20 * 1000:.1f} ms")


if __name__ == "__main__":
    raise SystemExit(main())
