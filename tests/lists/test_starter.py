"""Starter lists: the cheapest legal force of a formation, for every formation of the bundled books; a
box's minimum is met by repeating its one cheapest choice."""
import pytest

from armybuilder.lists.catalog import handbook_data
from armybuilder.lists.selectors import army_list_report
from armybuilder.services.starter import army_list_start_cheapest, starter_for
from handbooks.models import Handbook
from tests.factories import ArmyListFactory, UserFactory

pytestmark = pytest.mark.django_db


def cheapest_by_hand(book, box):
    """The cheapest (unit, size) of a box, priced from the game data rows with its compulsory options."""
    prices = []
    for choice in box.choices:
        if choice.unit is None or choice.variants:
            continue
        unit = book.units[choice.unit]
        for size in unit.sizes:
            if size.variants:
                continue
            extra = 0
            for group in unit.groups:
                costs = sorted(u.points * (size.teams if u.cost_basis == "team" else 1) for u in group.upgrades)
                extra += sum(costs[:max(group.min_choices, 0)])
            prices.append(size.points + extra + choice.option_cost)
    return min(prices) if prices else None


def test_every_formation_of_the_bundled_books_gets_its_cheapest_legal_force(sample_data):
    checked, legal = 0, 0
    failures = []
    for hb in Handbook.objects.filter(is_current=True).exclude(source="battlescribe"):
        book = handbook_data(hb.pk)
        for code, formation in book.formations.items():
            if formation.is_standard is False and book.system == "oww2" and not formation.is_standard:
                continue  # Operation WW2 grows from a Standard formation: only those start a force
            starter = starter_for(handbook=hb, formation_code=code)
            checked += 1
            if not starter.legal:
                failures.append(f"{hb.code}/{code}: {starter.problems}")
                continue
            legal += 1
            units = starter.document["formations"][0]["units"]
            compulsory = any(box.min_picks > 0 for box in formation.boxes)
            if not compulsory:  # nothing compulsory (Hail of Fire): the one cheapest unit on offer
                assert len(units) == 1
                continue
            for box in formation.boxes:
                placed = [u for u in units if u["box"] == box.code]
                assert len(placed) == max(box.min_picks, 0), (code, box.code)
                if placed:  # the minimum is met by one cheapest choice repeated, not by distinct choices
                    assert len({(u["unit"], u["size"]) for u in placed}) == 1
            if book.uses_points:
                expected = sum(cheapest_by_hand(book, box) * box.min_picks for box in formation.boxes
                               if box.min_picks > 0 and cheapest_by_hand(book, box) is not None)
                assert starter.points == expected, (code, starter.points, expected)
    print(f"\nstarter lists: {legal} of {checked} formations legal; not: {failures}")
    assert checked >= 5
    assert legal == checked, failures


def test_the_starter_is_saved_as_a_new_list(sample_data):
    hb = Handbook.objects.get(code="sample-afrika-korps", is_current=True)
    army_list = army_list_start_cheapest(handbook=hb, formation_code="SG100", session_key="s", points_limit=100)
    report = army_list_report(army_list)
    assert report.legal and army_list.points_limit == 100
    assert army_list.name.endswith("(cheapest)")


def test_the_builder_button_makes_a_new_legal_list(sample_data):
    from django.test import Client

    from armybuilder.lists.models import ArmyList

    user = UserFactory(username="starter")
    client = Client()
    client.force_login(user)
    current = ArmyListFactory(owner=user, book="sample-afrika-korps", name="Mine", points_limit=100)
    page = client.get(f"/lists/{current.public_id}/").content.decode()
    assert "Start from the cheapest legal force" in page
    answer = client.post(f"/lists/{current.public_id}/starter/", {"formation": "SG100"})
    assert answer.status_code == 302
    new = ArmyList.objects.exclude(pk=current.pk).get(owner=user)
    assert answer["Location"] == f"/lists/{new.public_id}/"
    assert army_list_report(new).legal and army_list_report(new).total_points > 0
    assert client.post(f"/lists/{current.public_id}/starter/", {"formation": "nope"}).status_code == 400
    assert ArmyList.objects.filter(owner=user).count() == 2
