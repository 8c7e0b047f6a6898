"""What "My lists" shows of each list without checking it again: points, legal or not, errors and warnings.

The check of a list's version is kept in the shared cache (Redis in production), keyed by the list, its
version and its book, so it is never stale: any change bumps the version. The builder and the API detail
check the list anyway and keep their result; "My lists" reads every row's summary with one cache call and
checks (and keeps) only the lists whose summary is missing, e.g. changed through a command since. A
read never writes to the database.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

from armybuilder.rules import check

from .models import ArmyList
from .selectors import army_list_force

CACHE_SECONDS = 30 * 24 * 3600


@dataclass(frozen=True)
class ListSummary:
    points: float | None
    points_limit: int | None
    legal: bool
    errors: int
    warnings: int

    @property
    def over_limit(self) -> bool:
        return self.points is not None and self.points_limit is not None and self.points > self.points_limit


def summary_key(army_list) -> str:
    return f"list-summary:{army_list.pk}:{army_list.version}:{army_list.handbook_id}"


def _summary_of(report) -> dict:
    return {"points": report.total_points, "legal": report.legal, "errors": len(report.errors),
            "warnings": len(report.warnings)}


def army_list_summary_store(*, army_list, report) -> None:
    """Keep the check of the list's current version for "My lists"."""
    cache.set(summary_key(army_list), _summary_of(report), CACHE_SECONDS)


def army_list_summaries(army_lists) -> dict[int, ListSummary]:
    """pk -> summary for each list: one cache read for all, a check only where none is kept."""
    keys = {army_list.pk: summary_key(army_list) for army_list in army_lists}
    kept = cache.get_many(list(keys.values())) if keys else {}
    fresh = {}
    out = {}
    for army_list in army_lists:
        stored = kept.get(keys[army_list.pk])
        if stored is None:
            stored = _summary_of(check(army_list_force(army_list)))
            fresh[keys[army_list.pk]] = stored
        uses_points = army_list.system.uses_points
        out[army_list.pk] = ListSummary(points=stored["points"] if uses_points else None,
                                        points_limit=army_list.points_limit if uses_points else None,
                                        legal=stored["legal"], errors=stored["errors"], warnings=stored["warnings"])
    if fresh:
        cache.set_many(fresh, CACHE_SECONDS)
    return out


@dataclass
class ListRow:
    army_list: ArmyList
    summary: ListSummary

    @property
    def changed_today(self) -> bool:
        return timezone.localdate(self.army_list.updated_at) == timezone.localdate()


def my_lists(queryset, *, system: str = "", search: str = "") -> list[ListRow]:
    """The rows of "My lists": filtered by system code and by words of the name, newest change first."""
    queryset = queryset.select_related("handbook", "system")
    if system:
        queryset = queryset.filter(system__code=system)
    for word in search.split()[:8]:
        queryset = queryset.filter(Q(name__icontains=word))
    lists = list(queryset.order_by("-updated_at"))
    summaries = army_list_summaries(lists)
    return [ListRow(army_list, summaries[army_list.pk]) for army_list in lists]
