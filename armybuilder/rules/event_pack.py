"""An event's rules pack, checked on top of the system's rules: plain Python, no ORM, no HTTP.

The system's check says whether a force is legal in the game; the pack says whether it is legal at this event:
its points limit (with an optional separate pool for command cards), how many formations it may field, which
books, nations, periods and points sets are allowed, and whether lists must use the current book revision.
Issues have the engine's format (code, severity, message, pointer, rule, fix), codes start with ``event.``.
"""
from dataclasses import dataclass, field, replace

from . import issue_codes as c
from .force import Force
from .report import Issue, Report, RuleRef


@dataclass(frozen=True)
class PackSettings:
    event: str = "the event"  # the event's name, for the rule reference
    points_limit: int | None = None
    formation_limit: int | None = None
    card_points: int | None = None  # a pool for command cards on top of the points limit
    books: frozenset = frozenset()  # handbook codes; empty: any
    nations: frozenset = frozenset()  # nation codes; empty: any
    periods: frozenset = frozenset()  # empty: any
    points_sets: frozenset = frozenset()  # empty: any
    # Handbook code -> its current revision, when the pack asks for current revisions (else empty).
    current_revisions: dict = field(default_factory=dict)

    @property
    def judges_points(self) -> bool:
        return self.points_limit is not None


def _rule(pack: PackSettings, name: str) -> RuleRef:
    return RuleRef("Event rules pack", name, f"{pack.event}: rules pack")


def _names(items) -> str:
    return ", ".join(sorted(items))


def force_for_pack(force: Force, pack: PackSettings) -> Force:
    """The force the system checks at this event: when the pack sets the points limit, the pack judges points
    (with its card pool) instead of the limit the player typed into the list."""
    return replace(force, points_limit=None) if pack.judges_points else force


def _books(force: Force):
    """Every book the force uses: its own, then each allied formation's, once each, with a pointer."""
    seen = {}
    seen[(force.handbook.code, force.handbook.revision)] = (force.handbook, "/handbook")
    for formation in force.formations:
        key = (formation.handbook.code, formation.handbook.revision)
        if key not in seen:
            seen[key] = (formation.handbook, formation.pointer)
    return list(seen.values())


def pack_issues(force: Force, report: Report, pack: PackSettings) -> list[Issue]:
    issues: list[Issue] = []

    def add(code: c.IssueCode, pointer: str, rule: str, *, fix: str, form: str = "", **values):
        issues.append(code.issue(pointer, form=form, rule=_rule(pack, rule), fix=fix, **values))

    if pack.points_limit is not None:
        pool = pack.card_points or 0
        from_pool = min(report.card_points, pool)
        counted = report.total_points - from_pool
        if counted > pack.points_limit:
            over = counted - pack.points_limit
            code = c.EVENT_POINTS_OVER
            fix = code.fix(over=over)
            if pool:
                add(code, "/points_limit", "Points limit", fix=fix, form="pool", total=report.total_points,
                    pool=pool, counted=counted, over=over, limit=pack.points_limit)
            else:
                add(code, "/points_limit", "Points limit", fix=fix, total=report.total_points, over=over,
                    limit=pack.points_limit)
    formations = [f for f in force.formations if f.parent_index is None]
    if pack.formation_limit is not None and len(formations) > pack.formation_limit:
        extra = len(formations) - pack.formation_limit
        names = [f.formation.name for f in formations[pack.formation_limit:]]
        code = c.EVENT_FORMATIONS_TOO_MANY
        add(code, "/formations", "Formation limit",
            fix=code.fix("several" if extra > 1 else "one", extra=extra, names=_names(names)),
            count=len(formations), most=pack.formation_limit)
    for book, pointer in _books(force):
        if pack.books and book.code not in pack.books:
            add(c.EVENT_BOOK_NOT_ALLOWED, pointer, "Allowed books", fix=c.EVENT_BOOK_NOT_ALLOWED.fix(), book=book.name)
        if pack.nations and book.nation not in pack.nations:
            add(c.EVENT_NATION_NOT_ALLOWED, pointer, "Allowed nations", fix=c.EVENT_NATION_NOT_ALLOWED.fix(),
                nation=book.nation_name or book.nation, book=book.name)
        if pack.periods and book.period not in pack.periods:
            add(c.EVENT_PERIOD_NOT_ALLOWED, pointer, "Allowed periods", fix=c.EVENT_PERIOD_NOT_ALLOWED.fix(),
                book=book.name, period=book.period or "of no period", periods=_names(pack.periods))
        if pack.points_sets and book.points_set not in pack.points_sets:
            add(c.EVENT_POINTS_SET_NOT_ALLOWED, pointer, "Points set", fix=c.EVENT_POINTS_SET_NOT_ALLOWED.fix(),
                book=book.name, points_set=book.points_set or "no named points set",
                points_sets=_names(pack.points_sets))
        current = pack.current_revisions.get(book.code)
        if current is not None and book.revision != current:
            code = c.EVENT_REVISION_OLD
            add(code, pointer, "Book revision", fix=code.fix(current=current, book=book.name), book=book.name,
                revision=book.revision, current=current)
    return issues


def check_with_pack(force: Force, pack: PackSettings, system_check) -> Report:
    """The system's check of the force as the event sees it, with the pack's issues added after its own."""
    report = system_check(force_for_pack(force, pack))
    if pack.judges_points:
        report.points_limit = pack.points_limit
    report.issues.extend(pack_issues(force, report, pack))
    return report
