"""How long an event pack takes: 128 rosters of about 25 units each with their unit cards, built by real Celery
workers on Redis, against 128 times one roster render measured in the same run.

Figures (wall clock, and CPU time, which a busy shared machine disturbs less; each is one run):
- a single roster render (median of 3 after a warm-up): resolving the snapshot, HTML and WeasyPrint;
- the pack with 1 worker process and with 2 (from the start of the job to its end), its peak memory (the
  highest resident set of any worker process, and their sum), and the ratio to 128 x a single render
  (target <= 1.05 with 1 worker, and scaling with workers);
- a rebuild after one list changed (one roster to draw, the rest from the cache): ratio to a single render
  (target <= 1.2).
CPU time: of the single render, the CPU seconds of this process; of the pack, those of every worker process
(their pool children included) from the start of the job to its end, and the job's own (it reports them per
phase). The CPU ratios compare work done; the wall-clock ones also count waiting for a core.

    python bench/bench_event_pack.py [--rosters N] [--workers 1,2] [--redis redis://127.0.0.1:6379/4]
                                     [--keep DIR]

Redis: the given database is flushed before each configuration (broker and cache); give it one of its own.
"""
import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rosters", type=int, default=128)
    parser.add_argument("--workers", default="1,2", help="worker process counts to try, e.g. 1,2")
    parser.add_argument("--redis", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/4"))
    parser.add_argument("--keep", type=Path, help="write the last pack's PDF, CSV and ZIP here")
    return parser.parse_args()


def worker_processes(pgid: int) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid:
                pids.append(int(entry.name))
    return pids


TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process and of its children that have ended."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(f) for f in fields[11:15]) / TICKS


def peak_rss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class Worker:
    def __init__(self, concurrency: int, env: dict, log: Path):
        self.log = log
        handle = log.open("wb")
        self.popen = subprocess.Popen(
            [str(Path(sys.executable).parent / "celery"), "-A", "armybuilder", "worker", "--concurrency",
             str(concurrency), "--loglevel", "INFO", "--without-mingle", "--without-gossip", "--pool", "prefork"],
            cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 90
        while b" ready." not in log.read_bytes():
            if self.popen.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the worker did not start:\n" + log.read_text()[-3000:])
            time.sleep(0.2)

    def peak_memory(self) -> tuple[float, float]:
        sizes = [peak_rss_mib(pid) for pid in worker_processes(self.popen.pid)]
        return max(sizes, default=0.0), sum(sizes)

    def cpu(self) -> float:
        return sum(cpu_seconds(pid) for pid in worker_processes(self.popen.pid))

    def stop(self):
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.popen.pid, signal.SIGKILL)
                self.popen.wait(10)


def main():
    args = parse_args()
    database = tempfile.mkstemp(prefix="h13b-bench-pack-", suffix=".sqlite3")[1]
    os.environ.update({"DATABASE_URL": f"sqlite:///{database}", "REDIS_URL": args.redis,
                       "CELERY_BROKER_URL": args.redis, "CACHE_KEY_PREFIX": "bench-pack", "DEBUG": "0",
                       "SECRET_KEY": "bench-only-not-secret", "ALLOWED_HOSTS": "127.0.0.1",
                       "DJANGO_SETTINGS_MODULE": "armybuilder.settings"})
    sys.path.insert(0, str(HERE))
    from _setup import django_with_data

    django_with_data(database)
    import redis
    from bench_pdf import big_document
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from armybuilder.jobs.models import Job
    from armybuilder.lists import services as lists
    from armybuilder.lists.selectors import list_document_report
    from armybuilder.services.events import services as ev
    from armybuilder.services.events.pack import build
    from armybuilder.services.events.pack import services as pack
    from armybuilder.services.printing.services import roster_pdf
    from handbooks.models import GameSystem

    broker = redis.Redis.from_url(args.redis)
    users = get_user_model().objects
    organiser = users.create_user("organiser", password="x-bench-123456")
    now = timezone.now()
    event = ev.event_create(user=organiser, system=GameSystem.objects.get(code="fow4"), name="Benchmark Open",
                            date=date.today() + timedelta(days=10), place="The bench hall",
                            deadline=now + timedelta(days=3), reveal_at=now + timedelta(days=5))
    started = time.perf_counter()
    players = []
    for n in range(args.rosters):
        player = users.create_user(f"player{n:03d}", password="x-bench-123456")
        army = lists.army_list_import(doc=dict(big_document(), name=f"Kampfgruppe {n:03d}"), owner=player)
        registration = ev.event_register(event=event, player=player)
        submission = ev.submission_create(registration=registration, army_list=army, by=player)
        ev.submission_review(submission=submission, by=organiser, approve=True)
        players.append((player, army, registration))
    entries = pack.pack_entries(event)
    units = sum(len(f["units"]) for f in entries[0].document["formations"]) + len(entries[0].document["support"])
    print(f"{len(entries)} approved submissions of {units} units each, set up in {time.perf_counter() - started:.0f} s")

    # -- baseline: one roster render, the existing way, in this process ------------------------------------------
    document = entries[0].document

    def single():
        force, report = list_document_report(document)
        return roster_pdf(force=force, report=report, document=document, paper="a4", cards=True,
                          player="player000", event=event.name)

    t, c = time.perf_counter(), time.process_time()
    pdf = single()  # warm-up: imports, fonts, the stylesheet
    print(f"first render in this process (imports, fonts, stylesheet): {time.perf_counter() - t:.2f} s, "
          f"CPU {time.process_time() - c:.2f} s")
    samples, cpu_samples = [], []
    for _ in range(3):
        t, c = time.perf_counter(), time.process_time()
        single()
        samples.append(time.perf_counter() - t)
        cpu_samples.append(time.process_time() - c)
    one, one_cpu = statistics.median(samples), statistics.median(cpu_samples)
    print(f"single roster render: {one:.2f} s, CPU {one_cpu:.2f} s (medians of 3; {build.page_count(pdf)} pages, "
          f"{len(pdf) // 1024} KiB)")
    print(f"{len(entries)} x single: {one * len(entries):.1f} s, CPU {one_cpu * len(entries):.1f} s")

    def run_pack(label: str, worker) -> tuple[float, float, Job]:
        t, c = time.perf_counter(), worker.cpu()
        job = pack.event_pack_start(event=event, user=organiser)
        while job.status not in Job.FINISHED:
            time.sleep(0.05)
            job.refresh_from_db(fields=["status", "error", "result"])
        elapsed, cpu = time.perf_counter() - t, worker.cpu() - c
        if job.status != Job.SUCCEEDED:
            raise RuntimeError(f"{label}: the pack failed: {job.error}")
        return elapsed, cpu, job

    def phases(r: dict) -> str:
        t = r.get("timings", {})
        return "; ".join(f"{name} {t.get(f'{key}_ms', 0) / 1000:.2f} s (CPU {t.get(f'{key}_cpu_ms', 0) / 1000:.2f})"
                         for name, key in (("rosters", "rosters"), ("cover and contents", "front"),
                                           ("merging", "merge"), ("CSV, ZIP and bundle", "files")))

    def resubmit(index: int):
        player, army, registration = players[index]
        lists.army_list_update(army_list=army, name=f"Kampfgruppe {index:03d} revised")
        submission = ev.submission_create(registration=registration, army_list=army, by=player)
        ev.submission_review(submission=submission, by=organiser, approve=True)

    def drain():
        deadline = time.monotonic() + 120
        while broker.llen("celery") and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(1.0)

    env = dict(os.environ)
    workdir = Path(tempfile.mkdtemp(prefix="h13b-bench-pack-"))
    changed = 0
    last = None
    for count in [int(c) for c in args.workers.split(",") if c.strip()]:
        broker.flushdb()  # an empty cache: every roster is drawn
        Job.objects.filter(kind=pack.KIND).delete()  # and no finished pack to hand back
        worker = Worker(count, env, workdir / f"worker-{count}.log")
        try:
            elapsed, cpu, job = run_pack(f"{count} worker(s)", worker)
            most, total = worker.peak_memory()
            r = job.result
            print(f"pack, {count} worker process(es): {elapsed:.1f} s, CPU {cpu:.1f} s in the workers "
                  f"(the job {r['cpu_ms'] / 1000:.1f} s); {r['pages']} pages, {r['bytes'] // 1024} KiB; "
                  f"rosters drawn by the pack job {r['rendered']}, by the other workers {r['by_workers']}; "
                  f"peak memory {most:.0f} MiB in one process, {total:.0f} MiB all processes")
            print(f"  ratio to {len(entries)} x single: {elapsed / (one * len(entries)):.3f}, "
                  f"CPU {cpu / (one_cpu * len(entries)):.3f}"
                  f"   (target <= 1.05 with 1 worker; with {count}: ideal {1 / count:.2f} wall, 1.00 CPU)")
            print(f"    of which {phases(r)}; the job ran {r['duration_ms'] / 1000:.2f} s")
            drain()
            resubmit(changed)
            changed += 1
            rebuilt, cpu, job = run_pack("rebuild", worker)
            r = job.result
            print(f"  rebuild after one list changed: {rebuilt:.2f} s, CPU {cpu:.2f} s in the workers (the job "
                  f"{r['cpu_ms'] / 1000:.2f} s) (drawn {r['rendered'] + r['by_workers']}, from the cache "
                  f"{r['cached']}); ratio to single {rebuilt / one:.2f}, CPU {cpu / one_cpu:.2f}   (target <= 1.2)")
            print(f"    of which {phases(r)}; the job ran {r['duration_ms'] / 1000:.2f} s")
            last = job
            drain()
        finally:
            worker.stop()
    if args.keep and last is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        for part in ("pdf", "csv", "zip"):
            content, filename, _ = pack.event_pack_file(event=event, user=organiser, part=part)
            (args.keep / filename).write_bytes(content)
        print(f"pack files written to {args.keep}")
    os.remove(database)


if __name__ == "__main__":
    main()
