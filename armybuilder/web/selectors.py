"""Reads for the browser builder: places in a list by JSON pointer, books to start from, allies."""
import re

from armybuilder.lists.gamedata import handbook_data
from armybuilder.lists.matchups.selectors import share_token_from_link  # noqa: F401 - imported from here too
from armybuilder.lists.models import ArmyList, ListCard, ListFormation, ListUnit
from armybuilder.lists.services import ListOperationError
from handbooks.models import Handbook

_FORMATION = re.compile(r"/formations/(\d{1,4})")
_FORMATION_UNIT = re.compile(r"/formations/(\d{1,4})/units/(\d{1,4})")
_SUPPORT_UNIT = re.compile(r"/support/(\d{1,4})")
_CARD = re.compile(r"/cards/(\d{1,4})")

GONE = "That part of the list is no longer there; reload the page to see the list as it is now."


def _nth(queryset, index: int):
    found = list(queryset.order_by("order", "pk")[index:index + 1])
    if not found:
        raise ListOperationError(GONE)
    return found[0]


def list_formation_at(army_list: ArmyList, pointer: str) -> ListFormation:
    """The formation a pointer such as ``/formations/1`` names, in the list's own order (one query)."""
    match = _FORMATION.fullmatch(pointer or "")
    if match is None:
        raise ListOperationError(f"'{pointer}' does not point at a formation")
    return _nth(ListFormation.objects.filter(army_list=army_list), int(match[1]))


def list_unit_at(army_list: ArmyList, pointer: str) -> ListUnit:
    """The unit at ``/formations/N/units/M`` or ``/support/M`` (at most two queries)."""
    match = _FORMATION_UNIT.fullmatch(pointer or "")
    if match is not None:
        formation = list_formation_at(army_list, f"/formations/{match[1]}")
        return _nth(ListUnit.objects.filter(list_formation=formation).select_related("unit"), int(match[2]))
    match = _SUPPORT_UNIT.fullmatch(pointer or "")
    if match is not None:
        return _nth(ListUnit.objects.filter(army_list=army_list, list_formation__isnull=True)
                    .select_related("unit"), int(match[1]))
    raise ListOperationError(f"'{pointer}' does not point at a unit")


def list_card_at(army_list: ArmyList, pointer: str) -> ListCard:
    match = _CARD.fullmatch(pointer or "")
    if match is None:
        raise ListOperationError(f"'{pointer}' does not point at a command card")
    return _nth(ListCard.objects.filter(army_list=army_list), int(match[1]))


def list_target_at(army_list: ArmyList, pointer: str) -> ListFormation | ListUnit:
    """A card's target: a formation or a unit."""
    if _FORMATION.fullmatch(pointer or ""):
        return list_formation_at(army_list, pointer)
    return list_unit_at(army_list, pointer)


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

