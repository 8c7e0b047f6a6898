"""Database constraints on game data: the rules no loader bug may break."""
import pytest
from django.db import IntegrityError, transaction

from handbooks import models as m


@pytest.fixture
def book(systems):
    system = m.GameSystem.objects.get(code="fow4")
    return m.Handbook.objects.create(system=system, code="b", revision=1, name="B",
                                     nation=system.nations.get(code="germany"), content_hash="x")


def refused(create):
    with pytest.raises(IntegrityError), transaction.atomic():
        create()


def test_a_handbook_has_only_one_current_revision(book):
    refused(lambda: m.Handbook.objects.create(system=book.system, code="b", revision=2, name="B",
                                              nation=book.nation, content_hash="y", is_current=True))
    m.Handbook.objects.create(system=book.system, code="b", revision=2, name="B", nation=book.nation,
                              content_hash="y", is_current=False)


def test_a_revision_number_is_used_once_per_handbook(book):
    refused(lambda: m.Handbook.objects.create(system=book.system, code="b", revision=1, name="B",
                                              nation=book.nation, content_hash="y", is_current=False))


def test_codes_are_unique_within_their_handbook(book):
    m.UnitEntry.objects.create(handbook=book, code="U1", name="U")
    refused(lambda: m.UnitEntry.objects.create(handbook=book, code="U1", name="again"))


def test_a_box_never_allows_fewer_than_its_minimum(book):
    refused(lambda: m.Box.objects.create(handbook=book, code="f/x", name="x", min_picks=2, max_picks=1))


def test_sizes_never_cost_negative_points(book):
    unit = m.UnitEntry.objects.create(handbook=book, code="U1", name="U")
    refused(lambda: m.SizeOption.objects.create(unit=unit, code="s", label="s", points=-1))


def test_a_box_choice_offers_a_unit_or_a_formation_never_both(book):
    unit = m.UnitEntry.objects.create(handbook=book, code="U1", name="U")
    formation = m.Formation.objects.create(handbook=book, code="F1", name="F")
    box = m.Box.objects.create(handbook=book, code="F1/x", name="x")
    refused(lambda: m.BoxChoice.objects.create(box=box, unit=unit, formation=formation))
    refused(lambda: m.BoxChoice.objects.create(box=box))


def test_availability_dates_are_ordered(book):
    refused(lambda: m.UnitEntry.objects.create(handbook=book, code="U2", name="U", available_from=1944,
                                               available_to=1942))


def test_a_constraint_states_at_least_one_limit(book):
    refused(lambda: m.Constraint.objects.create(handbook=book, code="c", description="d", target_kind="unit"))
