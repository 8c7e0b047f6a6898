"""Shared start-up for benchmarks: Django on a throw-away SQLite database with test and sample data."""
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def django_with_data(database_file: str | None = None):
    # Each run gets its own database so benchmarks started side by side never share one.
    database_file = database_file or tempfile.mkstemp(prefix="armybuilder-bench-", suffix=".sqlite3")[1]
    if os.path.exists(database_file):
        os.remove(database_file)
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{database_file}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("load_handbooks", verbosity=0)
    call_command("load_handbooks", str(ROOT / "tests" / "rules" / "books"), verbosity=0)


def median_time(fn, repeat: int = 200, warmup: int = 20) -> float:
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)
