"""The builder's operations: each changes the list as asked, checks its input, and guards against stale tabs."""
import pytest

from armybuilder.lists import services as s
from armybuilder.lists.models import ArmyList, ListUpgrade
from armybuilder.lists.selectors import army_list_document, army_list_report
from handbooks.models import Handbook
from tests.factories import ArmyListFactory, ListFormationFactory, ListUnitFactory


@pytest.fixture
def army(germany, player):
    return ArmyListFactory(owner=player, handbook=germany, name="Panzers", points_limit=100)


def build_tank_company(army):
    company = ListFormationFactory(army_list=army, formation_code="F1")
    hq = ListUnitFactory(list_formation=company, box_code="F1/hq", unit_code="HQ1", size_code="1x")
    first = ListUnitFactory(list_formation=company, box_code="F1/b1", unit_code="TNK", size_code="3x")
    second = ListUnitFactory(list_formation=company, box_code="F1/b2", unit_code="TNK", size_code="3x")
    return company, hq, first, second


def test_a_new_list_starts_empty_at_version_one_on_the_current_revision(army, germany):
    assert (army.version, army.handbook, army.points_limit, army.system.code) == (1, germany, 100, "fow4")
    assert army_list_document(army)["formations"] == []


def test_building_a_tank_company_gives_a_legal_force(army):
    build_tank_company(army)
    report = army_list_report(army)
    assert report.legal and report.total_points == 21
    army.refresh_from_db()
    assert army.version == 5  # one bump per change


def test_removing_a_black_box_unit_makes_the_list_illegal_with_a_fix(army):
    company, hq, first, second = build_tank_company(army)
    s.army_list_remove_unit(army_list=army, list_unit=first)
    found = [i for i in army_list_report(army).issues if i.code == "fow.black_box.missing"]
    assert found and found[0].fix == "Add one unit from: Tank Platoon, Heavy Tank Platoon."


def test_sizes_and_upgrades_change_the_points(army):
    company, hq, first, second = build_tank_company(army)
    s.army_list_set_size(army_list=army, list_unit=first, size_code="4x")
    s.army_list_set_upgrade(army_list=army, list_unit=first, upgrade_code="skirts/schurzen", quantity=1)
    assert army_list_report(army).unit_points["/formations/0/units/1"] == 16
    s.army_list_set_upgrade(army_list=army, list_unit=first, upgrade_code="skirts/schurzen", quantity=0)
    assert not ListUpgrade.objects.filter(list_unit=first).exists()


def test_cards_go_to_formations_and_units(army):
    company, hq, first, second = build_tank_company(army)
    s.army_list_add_card(army_list=army, card_code="CFORM", target_formation=company)
    s.army_list_add_card(army_list=army, card_code="CUNIT", target_unit=first)
    doc = army_list_document(army)
    assert doc["cards"] == [{"card": "CFORM", "target": "/formations/0"},
                            {"card": "CUNIT", "target": "/formations/0/units/1"}]
    assert army_list_report(army).card_points == 4


@pytest.mark.parametrize("operation, message", [
    (lambda a, c: s.army_list_add_formation(army_list=a, formation_code="NOPE"), "has no formation 'NOPE'"),
    (lambda a, c: s.army_list_pick_unit(army_list=a, list_formation=c, box_code="F1/b1", unit_code="INF"),
     "does not offer 'INF'"),
    (lambda a, c: s.army_list_pick_unit(army_list=a, list_formation=c, box_code="F2/b1", unit_code="INF"),
     "no box 'F2/b1' here"),
    (lambda a, c: s.army_list_pick_unit(army_list=a, list_formation=c, box_code="F1/hq", unit_code="HQ1",
                                        size_code="9x"), "has no size '9x'"),
    (lambda a, c: s.army_list_add_card(army_list=a, card_code="ZZ"), "has no command card 'ZZ'"),
    (lambda a, c: s.army_list_update(army_list=a, variant="v9"), "'v9' is not a variant"),
    (lambda a, c: s.army_list_update(army_list=a, name="   "), "a list needs a name"),
])
def test_operations_that_make_no_sense_are_refused_and_change_nothing(army, operation, message):
    company = s.army_list_add_formation(army_list=army, formation_code="F1")
    before = army_list_document(army)
    army.refresh_from_db()
    version = army.version
    with pytest.raises(s.ListOperationError, match=message):
        operation(army, company)
    army.refresh_from_db()
    assert army.version == version and army_list_document(army) == before


def test_a_formation_from_another_book_is_only_allowed_as_an_ally(army):
    italy = Handbook.objects.get(code="tb-italy")
    with pytest.raises(s.ListOperationError, match="only be added as an Allied Formation"):
        s.army_list_add_formation(army_list=army, formation_code="IF1", handbook=italy)
    ally = s.army_list_add_formation(army_list=army, formation_code="IF1", handbook=italy, allied=True)
    assert army_list_document(army)["formations"][0]["handbook"] == {"code": "tb-italy", "revision": 1}
    assert ally.allied


def test_a_stale_tab_cannot_overwrite_newer_work(army):
    seen_by_both_tabs = army.version
    s.army_list_update(army_list=army, name="Tab one", expected_version=seen_by_both_tabs)
    stale = ArmyList.objects.get(pk=army.pk)
    with pytest.raises(s.StaleListError) as raised:
        s.army_list_update(army_list=stale, name="Tab two", expected_version=seen_by_both_tabs)
    assert raised.value.current_version == seen_by_both_tabs + 1
    with pytest.raises(s.StaleListError):
        s.army_list_add_formation(army_list=stale, formation_code="F1", expected_version=seen_by_both_tabs)
    army.refresh_from_db()
    assert army.name == "Tab one" and army.formations.count() == 0


def test_a_copy_is_the_same_list_under_a_new_name(army, player):
    build_tank_company(army)
    copy = s.army_list_copy(army_list=army, owner=player)
    original, copied = army_list_document(army), army_list_document(copy)
    assert copied.pop("name") == "Copy of Panzers"
    original.pop("name")
    assert copied == original and copy.public_id != army.public_id and copy.share_token != army.share_token


def test_objects_of_another_list_cannot_be_touched_through_this_one(army, germany, player):
    other = ArmyListFactory(owner=player, handbook=germany, name="Other")
    company, hq, *_ = build_tank_company(other)
    with pytest.raises(s.ListOperationError, match="belongs to another list"):
        s.army_list_remove_unit(army_list=army, list_unit=hq)
    with pytest.raises(s.ListOperationError, match="belongs to another list"):
        s.army_list_remove_formation(army_list=army, list_formation=company)


def test_set_up_letters_and_outflanking_are_kept_and_checked(army):
    company, hq, first, second = build_tank_company(army)
    s.army_list_set_setup(army_list=army, list_unit=first, letter="b", outflank="left")
    s.army_list_set_setup(army_list=army, list_formation=company, letter="A")
    doc = army_list_document(army)
    assert doc["formations"][0]["letter"] == "A"
    assert (doc["formations"][0]["units"][1]["letter"], doc["formations"][0]["units"][1]["outflank"]) == ("B", "left")
    with pytest.raises(s.ListOperationError, match="one to four letters"):
        s.army_list_set_setup(army_list=army, list_unit=first, letter="A-1")
    with pytest.raises(s.ListOperationError, match="only a unit"):
        s.army_list_set_setup(army_list=army, list_formation=company, outflank="left")


def test_a_stale_tab_cannot_delete_a_list_that_changed(army):
    seen = army.version
    s.army_list_update(army_list=army, name="Renamed", expected_version=seen)
    with pytest.raises(s.StaleListError):
        s.army_list_delete(army_list=army, expected_version=seen)
    assert ArmyList.objects.filter(pk=army.pk).exists()
    s.army_list_delete(army_list=army, expected_version=seen + 1)
    assert not ArmyList.objects.filter(pk=army.pk).exists()


def test_a_new_list_refuses_a_variant_its_book_does_not_have(germany, player):
    with pytest.raises(s.ListOperationError, match="'v9' is not a variant"):
        s.army_list_create(owner=player, handbook=germany, name="X", variant="v9")
    assert s.army_list_create(owner=player, handbook=germany, name="X", variant="v1").variant == "v1"
