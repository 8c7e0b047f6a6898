"""Places in a list by JSON pointer (the same pointers the list document, issues and pages use).

``/formations/N``, ``/formations/N/units/M``, ``/support/M``, ``/cards/K``, and "" for the force itself;
positions follow the list's own order, as :func:`armybuilder.lists.selectors.army_list_document` writes them.
"""
import re

from .errors import ListOperationError
from .models import ArmyList, ListCard, ListFormation, ListUnit

_FORMATION = re.compile(r"/formations/(\d{1,4})")
_FORMATION_UNIT = re.compile(r"/formations/(\d{1,4})/units/(\d{1,4})")
_SUPPORT_UNIT = re.compile(r"/support/(\d{1,4})")
_CARD = re.compile(r"/cards/(\d{1,4})")

GONE = "That part of the list is no longer there; reload the page to see the list as it is now."


class PointerError(ListOperationError, ValueError):
    """The pointer names no part of this list (a ListOperationError: the pages show it as any other)."""


def _nth(queryset, index: int, pointer: str):
    found = list(queryset.order_by("order", "pk")[index:index + 1])
    if not found:
        raise PointerError(GONE)
    return found_at(found[0], pointer)


def found_at(obj, pointer: str):
    """Mark ``obj`` with the pointer it was just found at, so :func:`pointer_of` need not count its place again
    (the same request, before it writes: a write from a list that moved on meanwhile fails as stale)."""
    obj._found_at = pointer
    return obj


def list_object_at(army_list: ArmyList, pointer: str, *, with_formation: bool = True):
    """The ArmyList (pointer ""), ListFormation, ListUnit or ListCard a pointer names (at most two queries).
    ``with_formation=False``: a formation without its book formation's row (for a caller that needs its id only)."""
    pointer = pointer or ""
    if pointer in ("", "/"):
        return army_list
    match = _FORMATION_UNIT.fullmatch(pointer)
    if match is not None:
        formation = _nth(ListFormation.objects.filter(army_list=army_list), int(match[1]), f"/formations/{match[1]}")
        return _nth(ListUnit.objects.filter(list_formation=formation).select_related("unit"), int(match[2]), pointer)
    match = _FORMATION.fullmatch(pointer)
    if match is not None:
        formations = ListFormation.objects.filter(army_list=army_list)
        return _nth(formations.select_related("formation") if with_formation else formations, int(match[1]), pointer)
    match = _SUPPORT_UNIT.fullmatch(pointer)
    if match is not None:
        return _nth(ListUnit.objects.filter(army_list=army_list, list_formation__isnull=True).select_related("unit"),
                    int(match[1]), pointer)
    match = _CARD.fullmatch(pointer)
    if match is not None:
        return _nth(ListCard.objects.filter(army_list=army_list), int(match[1]), pointer)
    raise PointerError(f"'{pointer}' does not point at a formation, unit, card or the force")


def list_formation_at(army_list: ArmyList, pointer: str, *, with_formation: bool = True) -> ListFormation:
    """The formation at ``/formations/N`` (one query)."""
    if _FORMATION.fullmatch(pointer or "") is None:
        raise PointerError(f"'{pointer}' does not point at a formation")
    return list_object_at(army_list, pointer, with_formation=with_formation)


def list_unit_at(army_list: ArmyList, pointer: str) -> ListUnit:
    """The unit at ``/formations/N/units/M`` or ``/support/M`` (at most two queries)."""
    if _FORMATION_UNIT.fullmatch(pointer or "") is None and _SUPPORT_UNIT.fullmatch(pointer or "") is None:
        raise PointerError(f"'{pointer}' does not point at a unit")
    return list_object_at(army_list, pointer)


def list_card_at(army_list: ArmyList, pointer: str) -> ListCard:
    """The command card at ``/cards/K`` (one query)."""
    if _CARD.fullmatch(pointer or "") is None:
        raise PointerError(f"'{pointer}' does not point at a command card")
    return list_object_at(army_list, pointer)


def list_target_at(army_list: ArmyList, pointer: str) -> ListFormation | ListUnit:
    """A card's (or a name's) target: a formation or a unit."""
    if _FORMATION.fullmatch(pointer or ""):
        return list_formation_at(army_list, pointer)
    return list_unit_at(army_list, pointer)


def pointer_of(army_list: ArmyList, obj) -> str:
    """The pointer of a formation, unit or card of the list (the inverse of :func:`list_object_at`)."""
    if isinstance(obj, ArmyList):
        return ""
    if getattr(obj, "_found_at", None) is not None and obj.army_list_id == army_list.pk:
        return obj._found_at
    if isinstance(obj, ListFormation):
        pks = list(ListFormation.objects.filter(army_list=army_list).order_by("order", "pk")
                   .values_list("pk", flat=True))
        return f"/formations/{pks.index(obj.pk)}"
    if isinstance(obj, ListUnit):
        siblings = ListUnit.objects.filter(army_list=army_list, list_formation_id=obj.list_formation_id)
        pks = list(siblings.order_by("order", "pk").values_list("pk", flat=True))
        if obj.list_formation_id is None:
            return f"/support/{pks.index(obj.pk)}"
        return f"{pointer_of(army_list, obj.list_formation)}/units/{pks.index(obj.pk)}"
    if isinstance(obj, ListCard):
        pks = list(ListCard.objects.filter(army_list=army_list).order_by("order", "pk").values_list("pk", flat=True))
        return f"/cards/{pks.index(obj.pk)}"
    raise PointerError("not a part of a list")
