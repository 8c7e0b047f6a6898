"""What "My lists" shows of each list without checking it again: points, legal or not, errors and warnings,
kept with the list (ArmyList.summary) for the version and book they were worked out for.

The builder and the API detail check the list anyway; they store the result when the stored one is for
another version (one UPDATE, no further check). A list whose summary is stale when "My lists" is shown
(changed through the API or a command since it was last opened) is checked then, once, and stored: after
that the page costs the same number of queries however many lists there are.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone

from .models import ArmyList


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


def summary_of(report, army_list) -> dict:
    return {"version": army_list.version, "handbook": army_list.handbook_id, "points": report.total_points,
            "legal": report.legal, "errors": len(report.errors), "warnings": len(report.warnings)}


def is_fresh(army_list) -> bool:
    stored = army_list.summary or {}
    return stored.get("version") == army_list.version and stored.get("handbook") == army_list.handbook_id


def army_list_summary_store(*, army_list, report) -> None:
    """Keep the check of the list's current version (nothing is written when it is already kept)."""
    if is_fresh(army_list):
        return
    summary = summary_of(report, army_list)
    # only if the list is still at that version: a newer save elsewhere keeps its own summary
    ArmyList.objects.filter(pk=army_list.pk, version=army_list.version).update(summary=summary)
    army_list.summary = summary


def army_list_summaries(army_lists) -> dict[int, ListSummary]:
    """pk -> summary for each list, checking (and keeping) only those whose kept summary is stale."""
    from armybuilder.rules import check

    from .selectors import army_list_force

    out = {}
    for army_list in army_lists:
        if not is_fresh(army_list):
            army_list_summary_store(army_list=army_list, report=check(army_list_force(army_list)))
        stored = army_list.summary
        uses_points = army_list.system.uses_points
        out[army_list.pk] = ListSummary(points=stored["points"] if uses_points else None,
                                        points_limit=army_list.points_limit if uses_points else None,
                                        legal=stored["legal"], errors=stored["errors"], warnings=stored["warnings"])
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
