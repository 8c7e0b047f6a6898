"""What the builder draws: diagram columns, hints, and every issue tied to an element on the page."""
import pytest

from armybuilder.lists import services as s
from armybuilder.lists.selectors import army_list_force
from armybuilder.rules import check
from armybuilder.rules.data import BoxData
from armybuilder.web.builder import anchor_for_pointer, box_hint, builder_view, group_hint, points_text
from tests.factories import ArmyListFactory, ListCardFactory


@pytest.mark.parametrize("pointer, anchor", [
    ("/formations/0", "f0"),
    ("/formations/2/units/3", "f2-u3"),
    ("/formations/2/units/3/upgrades/1", "f2-u3"),
    ("/support/4", "s4"),
    ("/cards/1", "c1"),
    ("/points_limit", ""),
    ("", ""),
])
def test_pointers_become_element_ids(pointer, anchor):
    assert anchor_for_pointer(pointer) == anchor


@pytest.mark.parametrize("box, hint", [
    (BoxData("b", "B", kind="black", min_picks=1, max_picks=1), "Compulsory: pick one"),
    (BoxData("b", "B", kind="black", min_picks=2, max_picks=2), "Compulsory: pick two"),
    (BoxData("b", "B", kind="grey", min_picks=0, max_picks=1), "Optional: pick up to one"),
    (BoxData("b", "B", kind="grey", part_of_formation=False), "Support, optional: pick up to one"),
])
def test_boxes_say_whether_they_are_compulsory_or_optional(box, hint):
    assert box_hint(box) == hint


def test_option_groups_and_costs_read_plainly():
    assert group_hint(1, 1) == "Choose 1"
    assert group_hint(0, 2) == "Up to 2"
    assert group_hint(0, None) == "Choose any"
    assert points_text(1, "team") == "+1 pt per team"
    assert points_text(-2) == "−2 pts"


@pytest.fixture
def view(army):
    force = army_list_force(army)
    return builder_view(force, check(force))


def test_the_diagram_keeps_the_columns_in_book_order_with_support_marked(view):
    formation = view.formations[0]
    assert [c.name for c in formation.columns] == ["HQ", "Combat", "Weapons", "Support"]
    assert [c.is_support for c in formation.columns] == [False, False, False, True]
    combat = formation.columns[1]
    assert [b.kind for b in combat.boxes] == ["black", "black", "grey", "grey", "grey"]
    assert combat.boxes[0].units[0].name == "Panzer III Tank Platoon"
    assert not combat.boxes[0].is_open and combat.boxes[1].is_open


def test_a_missing_black_box_unit_is_linked_to_its_box(view):
    issue = next(i for i in view.issues if i.code == "fow.black_box.missing")
    assert issue.anchor == "f0-box-sg100-panzer-2"
    assert issue.where == "Panzer Company › Panzer III or Panzer IV Tank Platoon"
    box = view.formations[0].columns[1].boxes[1]
    assert issue in box.issues


def test_a_unit_problem_is_linked_to_the_unit(army):
    tanks = army.units.get(unit__code="SG102")
    s.army_list_set_upgrade(army_list=army, list_unit=tanks, upgrade_code="gun/short-5cm", quantity=0)
    force = army_list_force(army)
    view = builder_view(force, check(force))
    no_gun = [i for i in view.issues if i.code == "fow.upgrade_group.too_few"]
    assert {i.anchor for i in no_gun} == {"f0-u0", "f0-u1"}  # the HQ has no gun chosen either
    tanks_issue = next(i for i in no_gun if i.anchor == "f0-u1")
    assert tanks_issue in view.formations[0].columns[1].boxes[0].units[0].issues


def test_force_level_issues_point_at_the_settings_or_the_section(afrika, player):
    army = ArmyListFactory(owner=player, handbook=afrika, name="Empty", points_limit=1)
    ListCardFactory(army_list=army, card_code="forward-command-post")
    force = army_list_force(army)
    view = builder_view(force, check(force))
    anchors = {i.code: i.anchor for i in view.issues}
    assert anchors["fow.force.no_formation"] == "formations"
    assert anchors["fow.points.over_limit"] == "list-settings"


def test_variant_only_choices_are_labelled_until_a_variant_is_chosen_then_hidden(army):
    force = army_list_force(army)
    grenadiers = builder_view(force, check(force)).formations[0].columns[1].boxes[4]
    assert [(c.code, c.note) for c in grenadiers.choices] == [("SG106", ""), ("SG105", "21. Panzer-Division only")]
    s.army_list_update(army_list=army, variant="pz15")
    force = army_list_force(army)
    grenadiers = builder_view(force, check(force)).formations[0].columns[1].boxes[4]
    assert [c.code for c in grenadiers.choices] == ["SG106"]


def test_card_offers_list_only_the_units_a_card_may_go_to(view):
    veteran = next(o for o in view.card_offers if o.code == "veteran-panzer-crews")
    assert [label for _, label in veteran.targets] == ["Panzer Company HQ (Panzer Company)",
                                                       "Panzer III Tank Platoon (Panzer Company)"]
    squads = next(o for o in view.card_offers if o.code == "tank-hunter-squads")
    assert squads.targets == [] and not squads.available
