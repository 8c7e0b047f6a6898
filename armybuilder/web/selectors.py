"""Reads for the browser builder: places in a list by JSON pointer, books to start from, allies."""
import re

from armybuilder.lists.gamedata import handbook_data
from django.http import Http404

from armybuilder.lists.models import ArmyList, ListCard, ListFormation, ListUnit, Matchup
from armybuilder.lists.pointers import found_at
from armybuilder.lists.services import ListOperationError
from handbooks.models import Handbook

_FORMATION = re.compile(r"/formations/(\d{1,4})")
_FORMATION_UNIT = re.compile(r"/formations/(\d{1,4})/units/(\d{1,4})")
_SUPPORT_UNIT = re.compile(r"/support/(\d{1,4})")
_CARD = re.compile(r"/cards/(\d{1,4})")

GONE = "That part of the list is no longer there; reload the page to see the list as it is now."


def _nth(queryset, index: int, pointer: str):
    found = list(queryset.order_by("order", "pk")[index:index + 1])
    if not found:
        raise ListOperationError(GONE)
    return found_at(found[0], pointer)


def list_formation_at(army_list: ArmyList, pointer: str) -> ListFormation:
    """The formation a pointer such as ``/formations/1`` names, in the list's own order (one query)."""
    match = _FORMATION.fullmatch(pointer or "")
    if match is None:
        raise ListOperationError(f"'{pointer}' does not point at a formation")
    return _nth(ListFormation.objects.filter(army_list=army_list), int(match[1]), pointer)


def list_unit_at(army_list: ArmyList, pointer: str) -> ListUnit:
    """The unit at ``/formations/N/units/M`` or ``/support/M`` (at most two queries)."""
    match = _FORMATION_UNIT.fullmatch(pointer or "")
    if match is not None:
        formation = list_formation_at(army_list, f"/formations/{match[1]}")
        return _nth(ListUnit.objects.filter(list_formation=formation).select_related("unit"), int(match[2]), pointer)
    match = _SUPPORT_UNIT.fullmatch(pointer or "")
    if match is not None:
        return _nth(ListUnit.objects.filter(army_list=army_list, list_formation__isnull=True)
                    .select_related("unit"), int(match[1]), pointer)
    raise ListOperationError(f"'{pointer}' does not point at a unit")


def list_card_at(army_list: ArmyList, pointer: str) -> ListCard:
    match = _CARD.fullmatch(pointer or "")
    if match is None:
        raise ListOperationError(f"'{pointer}' does not point at a command card")
    return _nth(ListCard.objects.filter(army_list=army_list), int(match[1]), pointer)


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


# -- match-ups ---------------------------------------------------------------------------------------------------

_SHARE_LINK = re.compile(r"(?:^|/s/)([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})"
                         r"(?:/(?:export\.json|roster\.pdf)?)?/?(?:[?#].*)?$")


def matchups_visible_to(user, session_key: str | None = None):
    """Match-ups a visitor may open: their own (account or, logged out, this session's). Like lists."""
    if user is not None and user.is_authenticated:
        return Matchup.objects.filter(owner=user)
    if session_key:
        return Matchup.objects.filter(owner__isnull=True, session_key=session_key)
    return Matchup.objects.none()


def matchup_get_for_user(*, user, public_id, session_key: str | None = None) -> Matchup:
    """The match-up, or 404 whether it is missing or someone else's (the two look the same)."""
    matchup = (matchups_visible_to(user, session_key)
               .select_related("list_a__system", "list_a__handbook", "list_a__owner",
                               "list_b__system", "list_b__handbook", "list_b__owner")
               .filter(public_id=public_id).first())
    if matchup is None:
        raise Http404("No such match-up.")
    return matchup


def share_token_from_link(text: str) -> str | None:
    """The share token in a pasted share link (https://…/s/<token>/) or a bare token; None if there is none."""
    text = (text or "").strip()
    if len(text) > 500:
        return None
    match = _SHARE_LINK.search(text)
    return match[1].lower() if match else None


def army_list_from_share_link(text: str) -> ArmyList | None:
    """The shared list a pasted link points at, or None (no token, no such list, or no longer shared)."""
    token = share_token_from_link(text)
    if token is None:
        return None
    return (ArmyList.objects.select_related("system", "handbook", "owner")
            .filter(share_token=token, visibility="shared").first())


def army_list_readable_in_matchup(army_list: ArmyList, *, user, session_key: str | None) -> bool:
    """A match-up shows a list only while its viewer may still read it: their own, or still shared."""
    if army_list.visibility == "shared":
        return True
    if user is not None and user.is_authenticated:
        return army_list.owner_id == user.pk
    return bool(session_key) and army_list.owner_id is None and army_list.session_key == session_key


PRIVATE_LIST = "A private list"


def matchup_side_labels(matchup: Matchup, *, user, session_key: str | None) -> dict:
    """What a match-up may say about its two lists to this viewer: names and books only of readable lists.

    A list its owner made private shows nothing to anyone else, not even its name (renames included).
    """
    labels = {}
    for key, army_list in (("a", matchup.list_a), ("b", matchup.list_b)):
        readable = army_list_readable_in_matchup(army_list, user=user, session_key=session_key)
        labels[f"name_{key}"] = army_list.name if readable else PRIVATE_LIST
        labels[f"book_{key}"] = army_list.handbook.name if readable else "a book not shown"
    return labels
