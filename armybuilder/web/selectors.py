"""Reads for the browser builder: books to start from and allies (places in a list by JSON pointer are
``armybuilder.lists.pointers``; match-ups and share links ``armybuilder.lists.matchups.selectors``)."""

from armybuilder.lists.catalog import handbook_data
from armybuilder.lists.models import ArmyList
from armybuilder.lists.services import ListOperationError
from handbooks.models import Handbook


def handbooks_to_start_from():
    """Current revisions of every book, grouped by system in the order a player scans them."""
    return (Handbook.objects.filter(is_current=True).select_related("system", "nation")
            .order_by("system__name", "name"))


def allied_handbooks(army_list: ArmyList, extra_nations=()) -> list[Handbook]:
    """Other current books of the list's system whose nation the list's book (or its diagrams) allows as allies.

    Only books of the same source (sample data files or imported catalogues: invented and real data never
    mix) and, where both say it, of the same period. One query; each book's diagrams come from the
    per-revision game-data cache.
    """
    data = handbook_data(army_list.handbook_id)
    nations = set(data.allied_nations) | set(extra_nations)
    for formation in data.formations.values():
        nations |= formation.allied_nations
    if not nations:
        return []
    books = (Handbook.objects.filter(system_id=army_list.system_id, is_current=True, nation__code__in=nations,
                                     source=army_list.handbook.source)
             .exclude(code=army_list.handbook.code).select_related("nation").order_by("name"))
    period = army_list.handbook.period
    return [book for book in books if not period or not book.period or book.period == period]


def allied_handbook(army_list: ArmyList, code: str) -> Handbook:
    for book in allied_handbooks(army_list):
        if book.code == code:
            return book
    raise ListOperationError(f"'{code}' is not a book your force may take allies from")

