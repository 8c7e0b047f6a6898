"""Reads for the API: game data addressed by codes, and places inside a list addressed by JSON pointers.

Game data is read-only here; every queryset prefetches what its serializer
shows, so list endpoints run a fixed number of queries whatever the page size.
"""
from django.db.models import Prefetch
from django.http import Http404

from armybuilder.lists import pointers
from armybuilder.lists.models import ArmyList, ListCard, ListFormation, ListUnit
from armybuilder.lists.pointers import PointerError
from handbooks import models as hb

# Path indexes and revisions above this cannot exist; checking keeps huge numbers away from the database.
MAX_INDEX = 100_000


def systems_all():
    return hb.GameSystem.objects.order_by("name")


def system_get(*, code: str) -> hb.GameSystem:
    system = hb.GameSystem.objects.prefetch_related("nations").filter(code=code).first()
    if system is None:
        raise Http404(f"No game system '{code}'.")
    return system


def handbooks_filter(*, system: str | None = None, nation: str | None = None, current: bool | None = None):
    qs = hb.Handbook.objects.select_related("system", "nation").order_by("system__code", "code", "-revision")
    if system:
        qs = qs.filter(system__code=system)
    if nation:
        qs = qs.filter(nation__code=nation)
    if current is not None:
        qs = qs.filter(is_current=current)
    return qs


def handbook_revisions(*, system: str, code: str) -> list[hb.Handbook]:
    revisions = list(handbooks_filter(system=system).filter(code=code))
    if not revisions:
        raise Http404(f"No handbook '{code}' in system '{system}'.")
    return revisions


def handbook_get(*, system: str, code: str, revision: int, detail: bool = False) -> hb.Handbook:
    """One revision; with ``detail`` also its variants, special rules, allied nations and support boxes."""
    book = None
    if 1 <= revision <= MAX_INDEX:
        qs = hb.Handbook.objects.select_related("system", "nation")
        if detail:
            qs = qs.prefetch_related("variants", "special_rules", "allied_nations",
                                     Prefetch("boxes", queryset=_boxes().filter(formation__isnull=True),
                                              to_attr="support_boxes"))
        book = qs.filter(system__code=system, code=code, revision=revision).first()
    if book is None:
        raise Http404(f"No handbook '{code}' revision {revision} in system '{system}'.")
    return book


def _boxes():
    return hb.Box.objects.prefetch_related(
        "variants",
        Prefetch("choices", queryset=hb.BoxChoice.objects.select_related("unit", "formation")
                 .prefetch_related("variants")),
    ).order_by("order", "pk")


def formations_of(*, handbook: hb.Handbook, q: str | None = None):
    qs = (hb.Formation.objects.filter(handbook=handbook)
          .prefetch_related("variants", "allied_nations", Prefetch("boxes", queryset=_boxes()))
          .order_by("order", "name", "pk"))
    if q:
        qs = qs.filter(name__icontains=q)
    return qs


def formation_get(*, handbook: hb.Handbook, code: str) -> hb.Formation:
    formation = formations_of(handbook=handbook).filter(code=code).first()
    if formation is None:
        raise Http404(f"{handbook.name} has no formation '{code}'.")
    return formation


def units_of(*, handbook: hb.Handbook, unit_type: str | None = None, q: str | None = None):
    profiles = hb.Profile.objects.select_related("profile_type").order_by("order", "pk")
    qs = (hb.UnitEntry.objects.filter(handbook=handbook)
          .select_related("observer_source")
          .prefetch_related(
              "variants", "special_rules",
              Prefetch("sizes", queryset=hb.SizeOption.objects.prefetch_related("variants").order_by("order", "pk")),
              Prefetch("upgrade_groups", queryset=hb.UpgradeGroup.objects.order_by("order", "pk").prefetch_related(
                  Prefetch("upgrades", queryset=hb.Upgrade.objects.prefetch_related("variants")
                           .order_by("order", "pk")))),
              Prefetch("profiles", queryset=profiles),
              Prefetch("teams", queryset=hb.Team.objects.order_by("order", "pk")
                       .prefetch_related(Prefetch("profiles", queryset=profiles))),
          ).order_by("order", "name", "pk"))
    if unit_type:
        qs = qs.filter(unit_type=unit_type)
    if q:
        qs = qs.filter(name__icontains=q)
    return qs


def unit_get(*, handbook: hb.Handbook, code: str) -> hb.UnitEntry:
    unit = units_of(handbook=handbook).filter(code=code).first()
    if unit is None:
        raise Http404(f"{handbook.name} has no unit '{code}'.")
    return unit


def cards_of(*, handbook: hb.Handbook, scope: str | None = None, q: str | None = None):
    qs = (hb.CommandCard.objects.filter(handbook=handbook)
          .prefetch_related("target_units", "target_formations").order_by("order", "name", "pk"))
    if scope:
        qs = qs.filter(scope=scope)
    if q:
        qs = qs.filter(name__icontains=q)
    return qs


# --- places in a list, by the same JSON pointers the list document uses -------------------------

def _at(resolve, army_list: ArmyList, pointer: str):
    """The API's places are path segments (indices); the one resolver (``lists.pointers``) takes their pointer.
    Whatever is wrong with it, the answer is the same 404."""
    try:
        return resolve(army_list, pointer)
    except PointerError:
        raise Http404(f"The list has nothing at {pointer}.") from None


def list_formation_at(*, army_list: ArmyList, index: int) -> ListFormation:
    return _at(pointers.list_formation_at, army_list, f"/formations/{index}")


def list_unit_at(*, army_list: ArmyList, formation_index: int | None, index: int) -> ListUnit:
    if formation_index is None:
        return _at(pointers.list_unit_at, army_list, f"/support/{index}")
    return _at(pointers.list_unit_at, army_list, f"/formations/{formation_index}/units/{index}")


def list_card_at(*, army_list: ArmyList, index: int) -> ListCard:
    return _at(pointers.list_card_at, army_list, f"/cards/{index}")
