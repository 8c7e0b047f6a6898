"""Each builder action costs the same number of SQL queries for a small list and a ~25-unit list."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from armybuilder.lists import services as s
from armybuilder.lists.selectors import army_list_force

from .conftest import action

pytestmark = pytest.mark.django_db

ACTIONS = [
    ("pick", {"formation": "/formations/0", "box": "SG100/panzer-2", "unit": "SG103"}),
    ("size", {"unit": "/formations/0/units/1", "size": "four-tanks"}),
    ("upgrade", {"unit": "/formations/0/units/1", "upgrade": "field-kit/schurzen", "quantity": 1}),
    ("upgrade", {"unit": "/formations/0/units/1", "upgrade": "gun/long-5cm", "quantity": 1, "swap": "on"}),
    ("remove-unit", {"unit": "/formations/0/units/1"}),
    ("add-card", {"card": "veteran-panzer-crews", "target": "/formations/0/units/1"}),
    ("remove-card", {"card": "/cards/0"}),
    ("settings", {"name": "Renamed", "points_limit": 150, "variant": "pz15"}),
    ("add-formation", {"formation": "SG150"}),
    ("remove-formation", {"formation": "/formations/0"}),
    ("visibility", {"visibility": "shared"}),
    ("name-notes", {"target": "/formations/0", "custom_name": "Kampfgruppe", "notes": "Holds the ridge."}),
]


def grow(army):
    """Add three Panzergrenadier Companies and force support: about 25 units in all."""
    for _ in range(3):
        company = s.army_list_add_formation(army_list=army, formation_code="SG150")
        for box, unit, size in [("SG150/hq", "SG116", "two-teams"), ("SG150/grenadiers-1", "SG105", "seven-teams"),
                                ("SG150/grenadiers-2", "SG106", "five-teams"),
                                ("SG150/grenadiers-3", "SG105", "nine-teams"),
                                ("SG150/mortars", "SG117", "three-mortars"), ("SG150/anti-tank", "SG115", "two-guns")]:
            picked = s.army_list_pick_unit(army_list=army, list_formation=company, box_code=box, unit_code=unit,
                                           size_code=size)
            if unit == "SG105":
                s.army_list_set_upgrade(army_list=army, list_unit=picked, upgrade_code="transport/sdkfz251", quantity=1)
        s.army_list_add_card(army_list=army, card_code="mixed-battlegroup", target_formation=company)
    for box, unit, size in [("force/artillery", "SG110", "four-guns"), ("force/observer", "SG112", "observer"),
                            ("force/anti-aircraft", "SG113", "two-guns"), ("force/recce", "SG114", "three-cars"),
                            ("force/air", "SG109", "two-aircraft")]:
        s.army_list_pick_unit(army_list=army, box_code=box, unit_code=unit, size_code=size)


@pytest.fixture
def small_and_large(army, afrika, player):
    s.army_list_add_card(army_list=army, card_code="forward-command-post")
    large = s.army_list_copy(army_list=army, owner=player, name="Large")
    grow(large)
    army.refresh_from_db()
    large.refresh_from_db()
    assert sum(1 for _ in army_list_force(large).all_units()) >= 25
    return army, large


def count(callable_):
    with CaptureQueriesContext(connection) as queries:
        response = callable_()
    assert response.status_code == 200, response.content[:500]
    assert "alert--error" not in response.content.decode()  # the action really ran
    return len(queries)


def test_rendering_the_builder_costs_the_same_for_a_small_and_a_large_list(player_client, small_and_large):
    small, large = small_and_large
    counts = []
    for army in (small, large, small, large):  # the first two warm the per-revision game-data cache
        counts.append(count(lambda army=army: player_client.get(reverse("web:builder", args=[army.public_id]))))
    assert counts[2] == counts[3]
    assert counts[3] <= 12


@pytest.mark.parametrize("name, data", ACTIONS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(ACTIONS)])
def test_each_action_costs_the_same_for_a_small_and_a_large_list(player_client, small_and_large, name, data):
    small, large = small_and_large
    for army in (small, large):
        player_client.get(reverse("web:builder", args=[army.public_id]))  # warm the caches
    small_count = count(lambda: action(player_client, small, name, **data))
    large_count = count(lambda: action(player_client, large, name, **data))
    assert small_count == large_count


def test_undo_redo_and_restore_cost_the_same_for_a_small_and_a_large_list(player_client, small_and_large):
    """They write a whole document back, in bulk: the same queries for 3 units as for 25. (Both lists hold
    formations, units, options and cards in every state used here: an empty kind of row costs no query.)"""
    small, large = small_and_large
    for army in (small, large):
        s.army_list_set_name_notes(army_list=army, target=army.formations.first(), custom_name="Named",
                                   expected_version=army.version)
        player_client.get(reverse("web:builder", args=[army.public_id]))  # warm the caches
    counts = {}
    for name, data in (("undo", {}), ("redo", {}), ("restore", {"to": "before"})):
        per_list = []
        for army in (small, large):
            army.refresh_from_db()
            if data.get("to") == "before":
                data = {"to": army.version - 2}  # the name change's own version, before undo and redo
            per_list.append(count(lambda army=army, name=name, data=data: action(player_client, army, name, **data)))
            data = {"to": "before"} if name == "restore" else data
        counts[name] = per_list
    assert all(a == b for a, b in counts.values()), counts
    print("undo, redo, restore:", {k: v[0] for k, v in counts.items()}, "queries (small and large)")


def test_the_builder_with_history_and_a_book_update_costs_the_same_for_a_small_and_a_large_list(
        player_client, small_and_large):
    """History on (every list has its entries) and a newer revision of the book waiting: the History panel and
    the update report read a fixed number of rows, whatever the list's size."""
    from armybuilder.lists.history import history_entries

    from ..lists.history.revision_books import afrika_revision_2

    small, large = small_and_large
    assert len(history_entries(large)) > len(history_entries(small)) + 20
    afrika_revision_2()
    counts = []
    for army in (small, large, small, large):
        response = player_client.get(reverse("web:builder", args=[army.public_id]))
        assert 'id="book-update"' in response.content.decode()
        counts.append(count(lambda army=army: player_client.get(reverse("web:builder", args=[army.public_id]))))
    assert counts[2] == counts[3]
    assert counts[3] <= 20
    print(f"builder with history and a book update: {counts[3]} queries (small and large)")
