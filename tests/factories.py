"""factory_boy factories for the list side: users, army lists and what goes in them, events.

Lists are built through the list services (``armybuilder.lists.services``), as the builder and the API build them,
so every row comes with its version, history entry and checks; the factories only supply defaults. The books
themselves are loaded from files by the fixtures (``test_books``, ``books``), and a factory finds one by code::

    army = ArmyListFactory(owner=player, book="tb-germany", name="Panzers", points_limit=100)
    company = ListFormationFactory(army_list=army, formation_code="F1")
    ListUnitFactory(list_formation=company, box_code="F1/hq", unit_code="HQ1", size_code="1x")
    ListUnitFactory(list_formation=company, box_code="F1/b1", unit_code="TNK", size_code="3x",
                    upgrades={"skirts/schurzen": 1})
    ListUnitFactory(army_list=army, box_code="force/art", unit_code="ART", size_code="4x")  # force support
    ListCardFactory(army_list=army, card_code="CF")
"""
from datetime import date, timedelta

import factory
from django.conf import settings
from django.utils import timezone
from factory.django import DjangoModelFactory, Password

from armybuilder.lists import services
from armybuilder.lists.models import ArmyList, ListCard, ListFormation, ListUnit
from armybuilder.services.events import services as events
from armybuilder.services.events.models import Event
from handbooks.models import GameSystem, Handbook

PASSWORD = "pw-not-secret-123"


class UserFactory(DjangoModelFactory):
    """A user who signs in with ``PASSWORD``."""

    class Meta:
        model = settings.AUTH_USER_MODEL
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    password = Password(PASSWORD)


def current_book(code: str) -> Handbook:
    return Handbook.objects.get(code=code, is_current=True)


class ArmyListFactory(DjangoModelFactory):
    """A list made by ``army_list_create``. Give ``handbook``, or ``book`` (a loaded book's code)."""

    class Meta:
        model = ArmyList
        skip_postgeneration_save = True

    class Params:
        book = None

    owner = factory.SubFactory(UserFactory)
    session_key = ""
    handbook = factory.LazyAttribute(lambda o: current_book(o.book) if o.book else None)
    name = factory.Sequence(lambda n: f"List {n}")
    points_limit = None
    variant = ""
    year = None

    @classmethod
    def _create(cls, model_class, **fields):
        assert fields.get("handbook") is not None, "ArmyListFactory needs handbook= or book="
        return services.army_list_create(**fields)


class ListFormationFactory(DjangoModelFactory):
    """A formation added by ``army_list_add_formation``: ``formation_code`` from the list's book (or ``handbook``,
    for an allied one)."""

    class Meta:
        model = ListFormation
        skip_postgeneration_save = True

    army_list = factory.SubFactory(ArmyListFactory)
    formation_code = None
    handbook = None
    allied = False
    parent = None
    via_box_code = None

    @classmethod
    def _create(cls, model_class, **fields):
        return services.army_list_add_formation(**fields)


class ListUnitFactory(DjangoModelFactory):
    """A unit picked by ``army_list_pick_unit`` into a box of ``list_formation``, or (with ``army_list`` and no
    formation) into a force-level support box; ``upgrades`` maps upgrade codes to quantities."""

    class Meta:
        model = ListUnit
        skip_postgeneration_save = True

    list_formation = None
    army_list = factory.LazyAttribute(lambda o: o.list_formation.army_list if o.list_formation else None)
    box_code = None
    unit_code = None
    size_code = None

    @classmethod
    def _create(cls, model_class, **fields):
        return services.army_list_pick_unit(**fields)

    @factory.post_generation
    def upgrades(unit, create, extracted, **kwargs):
        for code, quantity in (extracted or {}).items():
            services.army_list_set_upgrade(army_list=unit.army_list, list_unit=unit, upgrade_code=code,
                                           quantity=quantity)


class ListCardFactory(DjangoModelFactory):
    """A command card added by ``army_list_add_card``, to the force or to a target formation or unit."""

    class Meta:
        model = ListCard

    army_list = factory.SubFactory(ArmyListFactory)
    card_code = None
    target_formation = None
    target_unit = None

    @classmethod
    def _create(cls, model_class, **fields):
        return services.army_list_add_card(**fields)


class EventFactory(DjangoModelFactory):
    """An event made by ``event_create`` for ``system_code`` (a loaded game system), its deadline in three days,
    lists revealed in five, played in ten."""

    class Meta:
        model = Event

    class Params:
        system_code = "fow4"

    user = factory.SubFactory(UserFactory)
    system = factory.LazyAttribute(lambda o: GameSystem.objects.get(code=o.system_code))
    name = factory.Sequence(lambda n: f"Event {n}")
    date = factory.LazyFunction(lambda: date.today() + timedelta(days=10))
    deadline = factory.LazyFunction(lambda: timezone.now() + timedelta(days=3))
    reveal_at = factory.LazyFunction(lambda: timezone.now() + timedelta(days=5))

    @classmethod
    def _create(cls, model_class, **fields):
        return events.event_create(**fields)
