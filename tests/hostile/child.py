"""Run hostile cases in a forked child process under resource limits, and measure each one.

The child inherits the test process (Django set up, the world built and committed). It caps its address
space (RLIMIT_AS) and CPU time (RLIMIT_CPU), so a bomb that gets through cannot take the machine, and for
each case it resets the kernel's peak-RSS counter (/proc/self/clear_refs) and reads it back after (VmHWM):
the case's peak memory above what the process held before it. Every case runs in a transaction that is
rolled back, so the next case meets the same database. Outcomes come back one JSON line each, so a case
that kills the child is still named.
"""
import json
import os
import resource
import sys
import time
import traceback
from dataclasses import asdict, dataclass

from django.db import connections

MiB = 1024 * 1024
ADDRESS_SPACE_HEADROOM = 1536 * MiB  # the hard stop; the per-case memory cap asserted by the tests is lower
CPU_SECONDS = 600
_KEEP = []  # the parent's database connection objects: never closed (or collected) in the child


@dataclass
class Outcome:
    way: str
    case: str
    status: int | None = None  # HTTP status, or the command's exit code
    message: str = ""  # what the client was told (cut)
    traceback: bool = False
    db_changed: bool = False
    peak_mib: float = 0.0
    seconds: float = 0.0
    error: str = ""  # an exception in the application, or in running the case
    may_succeed: bool = False  # a value the command may take and act on (an option's text): exit 0 is fine too


def _status_field(name: str) -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(name + ":"):
                return int(line.split()[1]) * 1024
    return 0


def _reset_peak() -> int:
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")
    return _status_field("VmRSS")


def measured(run):
    """Run ``run()``; (its value, peak MiB above the RSS before it, wall seconds)."""
    before = _reset_peak()
    started = time.monotonic()
    value = run()
    seconds = time.monotonic() - started
    return value, max(0, _status_field("VmHWM") - before) / MiB, seconds


def _own_database_connection():
    """PostgreSQL: the socket is the parent's; a new connection is opened for the child. SQLite's in-memory
    test database lives in the process and is copied by fork, so the inherited connection is the child's own."""
    # Caches need nothing: the test settings use the local-memory cache, which fork copies (and redis-py's
    # connection pool notices a new process id and opens its own connections).
    for conn in connections.all():
        if conn.vendor != "sqlite" and conn.connection is not None:
            _KEEP.append(conn.connection)
            conn.connection = None
            # The parent's test transaction is not the child's: start from a connection in autocommit.
            conn.in_atomic_block, conn.savepoint_ids, conn.atomic_blocks = False, [], []
            conn.needs_rollback, conn.commit_on_exit, conn.closed_in_transaction = False, True, False
            conn.savepoint_state = 0


def _forget_parent_sessions():
    """Sessions made for one child are not valid in the next (its database state was rolled back)."""
    for module in list(sys.modules.values()):
        sessions = getattr(module, "_SESSIONS", None)
        if isinstance(sessions, dict) and getattr(module, "__name__", "").startswith("tests.hostile"):
            sessions.clear()


def _limit_resources():
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = _status_field("VmSize") + ADDRESS_SPACE_HEADROOM
    if hard == resource.RLIM_INFINITY or limit < hard:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    used = int(resource.getrusage(resource.RUSAGE_SELF).ru_utime)
    resource.setrlimit(resource.RLIMIT_CPU, (used + CPU_SECONDS, resource.RLIM_INFINITY))


def run_in_child(cases) -> list[Outcome]:
    """``cases`` is a list of (way, case, run) where ``run()`` returns an Outcome; each runs in the child."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        code = 0
        try:
            os.close(read_end)
            out = os.fdopen(write_end, "w", buffering=1)
            _own_database_connection()
            _limit_resources()
            _forget_parent_sessions()
            for way, case, run in cases:
                try:
                    outcome = run()
                except BaseException as exc:  # noqa: BLE001 - recorded, the suite fails on it
                    outcome = Outcome(way, case, error=f"{type(exc).__name__}: {exc}"[:2000],
                                      traceback=True)
                    outcome.message = traceback.format_exc()[-2000:]
                out.write(json.dumps(asdict(outcome)) + "\n")
            out.flush()
        except BaseException:  # noqa: BLE001
            traceback.print_exc(file=sys.stderr)
            code = 3
        finally:
            os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end) as incoming:
        lines = incoming.read().splitlines()
    _, status = os.waitpid(pid, 0)
    outcomes = [Outcome(**json.loads(line)) for line in lines if line.strip()]
    if len(outcomes) < len(cases):  # the child died: name the case it died in
        way, case, _run = cases[len(outcomes)]
        how = f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"exit {os.WEXITSTATUS(status)}"
        outcomes.append(Outcome(way, case, error=f"the child process died ({how}) during this case"))
    return outcomes
