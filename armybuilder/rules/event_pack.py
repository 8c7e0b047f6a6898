"""An event's rules pack, checked on top of the system's rules: plain Python, no ORM, no HTTP.

The system's check says whether a force is legal in the game; the pack says whether it is legal at this event:
its points limit (with an optional separate pool for command cards), how many formations it may field, which
books, nations, periods and points sets are allowed, and whether lists must use the current book revision.
Issues have the engine's format (code, severity, message, pointer, rule, fix), codes start with ``event.``.
"""
from dataclasses import dataclass, field, replace

from .force import Force
from .report import ERROR, Issue, Report, RuleRef

P = "event"


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

    def add(code, message, pointer, rule, fix=None):
        issues.append(Issue(f"{P}.{code}", ERROR, message, pointer, _rule(pack, rule), fix))

    if pack.points_limit is not None:
        pool = pack.card_points or 0
        from_pool = min(report.card_points, pool)
        counted = report.total_points - from_pool
        if counted > pack.points_limit:
            over = counted - pack.points_limit
            if pool:
                message = (f"The force costs {report.total_points} points; with up to {pool} points of command "
                           f"cards paid from the card pool that is {counted}, {over} more than the event's "
                           f"{pack.points_limit}-point limit.")
            else:
                message = (f"The force costs {report.total_points} points, {over} more than the event's "
                           f"{pack.points_limit}-point limit.")
            add("points.over", message, "/points_limit", "Points limit",
                f"Remove or shrink units or cards worth at least {over} points.")
    formations = [f for f in force.formations if f.parent_index is None]
    if pack.formation_limit is not None and len(formations) > pack.formation_limit:
        extra = len(formations) - pack.formation_limit
        names = [f.formation.name for f in formations[pack.formation_limit:]]
        add("formations.too_many",
            f"The force fields {len(formations)} formations; the event allows at most {pack.formation_limit}.",
            "/formations", "Formation limit",
            f"Remove {extra} formation{'s' if extra > 1 else ''}, e.g. {_names(names)}.")
    for book, pointer in _books(force):
        if pack.books and book.code not in pack.books:
            add("book.not_allowed", f"{book.name} is not one of the event's books.", pointer, "Allowed books",
                "Build the force from an allowed book.")
        if pack.nations and book.nation not in pack.nations:
            add("nation.not_allowed", f"{book.nation_name or book.nation} ({book.name}) is not one of the event's "
                f"nations.", pointer, "Allowed nations", "Build the force from a book of an allowed nation.")
        if pack.periods and book.period not in pack.periods:
            add("period.not_allowed", f"{book.name} is {book.period or 'of no period'}; the event plays "
                f"{_names(pack.periods)}.", pointer, "Allowed periods",
                "Build the force from a book of the event's period.")
        if pack.points_sets and book.points_set not in pack.points_sets:
            add("points_set.not_allowed", f"{book.name} uses {book.points_set or 'no named points set'}; the event "
                f"uses {_names(pack.points_sets)}.", pointer, "Points set",
                "Rebuild the list on a book revision with an allowed points set.")
        current = pack.current_revisions.get(book.code)
        if current is not None and book.revision != current:
            add("revision.old", f"{book.name} is revision {book.revision}; the event uses the current revision "
                f"{current}.", pointer, "Book revision",
                f"Copy the list onto revision {current} of {book.name} and submit it again.")
    return issues


def check_with_pack(force: Force, pack: PackSettings, system_check) -> Report:
    """The system's check of the force as the event sees it, with the pack's issues added after its own."""
    report = system_check(force_for_pack(force, pack))
    if pack.judges_points:
        report.points_limit = pack.points_limit
    report.issues.extend(pack_issues(force, report, pack))
    return report
