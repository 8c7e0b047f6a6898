"""Use cases of the pack: which submissions it holds, building it as a job, and reading what it made.

Keys:
- a **pack** is keyed on the event as its cover prints it and on the set of approved submissions with their
  versions (``pack_digest``): while none of that changes, starting the build again returns the finished job;
- a **roster** is cached (the shared cache: Redis in production) by submission, version and what is printed
  on it (``roster_key``), so a rebuilt pack renders only the submissions that changed.

Rosters render in parallel: the pack job sends one ``events.pack_roster`` task per roster it does not find
in the cache (to whichever workers are free) and renders the others itself, in the opposite order; a claim in
the cache makes sure no roster is drawn twice at once. The job then combines them. Without a broker (tests,
``make run``) the job renders everything itself.
"""
import logging
import time
from dataclasses import dataclass

from django.core.cache import cache
from django.http import Http404

from armybuilder.jobs.models import Job
from armybuilder.jobs.registry import JobError, JobResult
from armybuilder.jobs.services import job_enqueue, jobs_in_process
from armybuilder.services.printing.render import PAPERS

from .. import services as event_services
from ..models import Event, EventOrganiser, Registration
from . import build
from .rosters import pack_entry, player_name, render_into_cache, roster_cache_seconds
from .tasks import pack_roster

logger = logging.getLogger("armybuilder.events")

KIND = "event_pack"
# The submissions printed in the pack: approved ones (a locked one was locked as it stood).
PACKED_STATUSES = ("approved", "locked")
WAIT_STEP_SECONDS = 0.1


class PackError(event_services.EventError):
    """The pack cannot be built as asked; the message says why (pages and the API show it as a 400)."""


def pack_entries(event: Event) -> list[build.PackEntry]:
    """The approved submissions of the event, one per player (their current one), by player name."""
    registrations = (Registration.objects.filter(event=event, current__status__in=PACKED_STATUSES)
                     .select_related("current", "player"))
    entries = [pack_entry(r.current, r.player) for r in registrations]
    return sorted(entries, key=lambda e: (e.player.casefold(), e.player, e.submission))


def pack_event(event: Event) -> build.PackEvent:
    organisers = EventOrganiser.objects.filter(event=event).select_related("user")
    return build.PackEvent(name=event.name, date=event.date.strftime("%A %d %B %Y"), place=event.place,
                           system=event.system.name, points_limit=event.points_limit, card_points=event.card_points,
                           formation_limit=event.formation_limit,
                           organisers=tuple(player_name(o.user) for o in organisers))


def _key_prefix(event: Event) -> str:
    return f"event-pack:{event.public_id}:"


def pack_key(event: Event, entries: list[build.PackEntry] | None = None, *, paper: str = "a4") -> str:
    entries = pack_entries(event) if entries is None else entries
    return _key_prefix(event) + build.pack_digest(pack_event(event), entries, paper=paper)


def _require_organiser(event: Event, user) -> None:
    if not event_services.is_organiser(event, user):
        raise Http404("No such event.")  # the same answer as a missing one


def event_pack_start(*, event: Event, user, paper: str = "a4") -> Job:
    """Build the pack in the background. The same submissions (and cover) give the same job back, finished or
    not, whichever organiser started it; a changed submission starts a new build."""
    _require_organiser(event, user)
    if paper not in PAPERS:
        raise PackError(f"paper is one of: {', '.join(PAPERS)}")
    entries = pack_entries(event)
    if not entries:
        raise PackError("No list is approved yet: approve at least one submission, then build the pack.")
    key = pack_key(event, entries, paper=paper)
    existing = (Job.objects.filter(kind=KIND, dedupe_key=key).exclude(status=Job.FAILED)
                .defer("input_file", "result_file").order_by("-created_at").first())
    if existing is not None:
        return existing
    return job_enqueue(kind=KIND, owner=user, dedupe_key=key,
                       params={"event": event.pk, "paper": paper, "key": key, "lists": len(entries)})


@dataclass(frozen=True)
class PackState:
    job: Job | None  # the latest build, finished or not
    up_to_date: bool  # it was built from the submissions as they are now


def event_pack_state(*, event: Event, user, paper: str = "a4") -> PackState:
    _require_organiser(event, user)
    job = (Job.objects.filter(kind=KIND, dedupe_key__startswith=_key_prefix(event))
           .defer("input_file", "result_file").order_by("-created_at").first())
    if job is None:
        return PackState(job=None, up_to_date=False)
    return PackState(job=job, up_to_date=job.dedupe_key == pack_key(event, paper=job.params.get("paper", paper)))


def event_pack_file(*, event: Event, user, part: str) -> tuple[bytes, str, str]:
    """(content, filename, content type) of the latest finished pack: its PDF, CSV or ZIP. 404 if none."""
    if part not in build.BUNDLE_PARTS:
        raise Http404("The pack has a pdf, a csv and a zip.")
    _require_organiser(event, user)
    row = (Job.objects.filter(kind=KIND, dedupe_key__startswith=_key_prefix(event), status=Job.SUCCEEDED)
           .exclude(result_file=None).order_by("-finished_at").values_list("result_file", flat=True).first())
    if row is None:
        raise Http404("This event has no finished pack yet: build it first.")
    stem = build.safe_name(event.name, 60)
    suffix = {"pdf": "pack.pdf", "csv": "players.csv", "zip": "lists.zip"}[part]
    return build.bundle_part(bytes(row), part), f"{stem}-{suffix}", build.BUNDLE_PARTS[part][1]


# -- rendering rosters: in the job, and in the per-roster tasks ----------------------------------------------

def _dispatch_rosters(submission_ids: list[int], paper: str) -> None:
    for submission_id in submission_ids:
        pack_roster.apply_async(args=[submission_id, paper])


def gather_rosters(entries, keys, *, event_name: str, paper: str, progress, submission_ids=None) -> tuple[list, dict]:
    """Every roster's artefacts, in order: from the cache, drawn here, or drawn by other workers meanwhile."""
    held = cache.get_many(keys)  # one round trip for the whole pack
    found = [held.get(key) for key in keys]
    missing = [i for i, art in enumerate(found) if art is None]
    counts = {"rosters": len(entries), "cached": len(entries) - len(missing), "rendered": 0, "by_workers": 0}
    if len(missing) > 1 and submission_ids is not None and not jobs_in_process():
        # Other workers start from the end, this one from the start: they meet in the middle.
        _dispatch_rosters([submission_ids[i] for i in reversed(missing)], paper)
    pending, done = missing, counts["cached"]
    while pending:
        waiting = []
        for i in pending:
            art = cache.get(keys[i])
            if art is not None:
                counts["by_workers"] += 1
            else:
                art = render_into_cache(entries[i], keys[i], event_name=event_name, paper=paper)
                if art is None:
                    waiting.append(i)  # someone else is drawing it
                    continue
                counts["rendered"] += 1
            found[i] = art
            done += 1
            progress(5 + 85 * done // max(1, len(entries)), f"Printed {done} of {len(entries)} rosters")
        if waiting:
            time.sleep(WAIT_STEP_SECONDS)
        pending = waiting
    return found, counts


class _Clock:
    """Wall and CPU time of each phase of the build (the CPU time of this process: steadier on a busy machine)."""

    def __init__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        self.cpu_started = self.cpu
        self.laps: dict[str, int] = {}

    def lap(self, name: str) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        self.laps[f"{name}_ms"] = round((wall - self.wall) * 1000)
        self.laps[f"{name}_cpu_ms"] = round((cpu - self.cpu) * 1000)
        self.wall, self.cpu = wall, cpu


def _draw_part(html: str) -> bytes:
    """A cover or contents page, from the cache when the same page was drawn before (for this or another pack)."""
    key = build.part_key(html)
    pdf = cache.get(key)
    if pdf is None:
        pdf = build.html_pdf(html)
        cache.set(key, pdf, roster_cache_seconds())
    return pdf


def pack_build(ctx) -> JobResult:
    """The ``event_pack`` job: gather the rosters, then the cover and contents, the PDF, the CSV and the ZIP."""
    params = ctx.params
    event = Event.objects.select_related("system").filter(pk=params.get("event")).first()
    if event is None:
        raise JobError("The event was deleted before its pack could be built.")
    paper = params.get("paper", "a4")
    if paper not in PAPERS:
        raise JobError(f"paper is one of: {', '.join(PAPERS)}")
    started = time.perf_counter()
    clock = _Clock()
    registrations = (Registration.objects.filter(event=event, current__status__in=PACKED_STATUSES)
                     .select_related("current", "player"))
    pairs = sorted(((pack_entry(r.current, r.player), r.current_id) for r in registrations),
                   key=lambda p: (p[0].player.casefold(), p[0].player, p[0].submission))
    if not pairs:
        raise JobError("No list is approved any more: there is nothing to print.")
    entries = [p[0] for p in pairs]
    keys = [build.roster_key(e, event_name=event.name, paper=paper) for e in entries]
    ctx.progress(5, f"Printing {len(entries)} rosters")
    artefacts, counts = gather_rosters(entries, keys, event_name=event.name, paper=paper, progress=ctx.progress,
                                       submission_ids=[p[1] for p in pairs])
    clock.lap("rosters")
    ctx.progress(92, "Putting the pack together")
    pages = [a["pages"] for a in artefacts]
    front = build.front_parts(pack_event(event), entries, pages, paper=paper, draw=_draw_part)
    front_pages = sum(build.page_count(part) for part in front)
    firsts, page = [], front_pages + 1
    for count in pages:
        firsts.append(page)
        page += count
    clock.lap("front")
    pdf = build.merge_pdf(front,
                          [(f"{e.player}: {e.list_name}", a["pdf"]) for e, a in zip(entries, artefacts, strict=False)])
    clock.lap("merge")
    ctx.progress(97, "Writing the CSV and the lists")
    csv_bytes = build.pack_csv(entries, firsts, pages)
    lists = build.lists_zip(entries, artefacts)
    result_file = build.bundle(pdf=pdf, csv_bytes=csv_bytes, lists=lists)
    clock.lap("files")
    data = {**counts, "event": str(event.public_id), "key": params.get("key", ""), "paper": paper,
            "pages": page - 1, "bytes": len(pdf), "unprintable": sum(1 for a in artefacts if a["problem"]),
            "without_ros": sum(1 for a in artefacts if not a["ros"]),
            "duration_ms": round((time.perf_counter() - started) * 1000), "timings": clock.laps,
            "cpu_ms": round((time.process_time() - clock.cpu_started) * 1000)}
    logger.info("event pack built", extra={k: v for k, v in data.items() if k not in ("key", "timings")})
    return JobResult(file=result_file,
                     filename=f"{build.safe_name(event.name, 60)}-pack.zip", content_type="application/zip",
                     data=data, message=f"The pack of {len(entries)} rosters ({page - 1} pages) is ready")
