"""History, undo, redo and restore, and moving a list to a newer revision of its book (services)."""
import pytest

from armybuilder.lists import services as s
from armybuilder.lists.history import HISTORY_LIMIT, history_entries
from armybuilder.lists.models import ListVersion
from armybuilder.lists.revisions import revision_update_for
from armybuilder.lists.selectors import army_list_document, army_list_report
from armybuilder.lists.services import ListOperationError, StaleListError
from tests.factories import ArmyListFactory

from .revision_books import afrika_revision_2

pytestmark = pytest.mark.django_db


def contents(army_list):
    doc = army_list_document(army_list)
    return {k: doc[k] for k in ("name", "handbook", "points_limit", "formations", "support", "cards")}


def test_every_change_is_an_entry_holding_the_list_as_it_became(army):
    entries = history_entries(army)
    # created, added the company, its HQ, a tank platoon, an option: five changes, one entry each
    assert [e.version for e in entries] == [5, 4, 3, 2, 1]
    assert [e.what for e in reversed(entries)] == [
        "Created the list", "Added Panzer Company", "Added Panzer Company HQ", "Added Panzer III Tank Platoon",
        "Panzer III Tank Platoon: Short 5cm gun (Panzer III H)"]
    assert [e.from_version for e in reversed(entries)] == [None, 1, 2, 3, 4]
    newest = ListVersion.objects.get(army_list=army, version=5)
    assert newest.document == army_list_document(army)


def test_undo_of_a_formation_removal_brings_it_back_as_a_new_version(army):
    before = contents(army)
    s.army_list_remove_formation(army_list=army, list_formation=army.formations.get(), expected_version=5)
    assert army.formations.count() == 0
    s.army_list_undo(army_list=army, expected_version=6)
    army.refresh_from_db()
    assert army.version == 7
    assert contents(army) == before
    entry = ListVersion.objects.get(army_list=army, version=7)
    assert entry.kind == "undo" and entry.what == "Undid “Removed Panzer Company”"
    # and redo removes it again
    s.army_list_redo(army_list=army, expected_version=7)
    assert army.formations.count() == 0


def test_undo_and_redo_walk_back_and_forth_through_several_changes(army):
    states = {5: contents(army)}
    tanks = army.units.get(unit__code="SG102")
    s.army_list_set_size(army_list=army, list_unit=tanks, size_code="four-tanks", expected_version=5)
    states[6] = contents(army)
    s.army_list_update(army_list=army, name="Renamed", expected_version=6)
    states[7] = contents(army)
    s.army_list_undo(army_list=army, expected_version=7)
    assert contents(army) == states[6]
    s.army_list_undo(army_list=army, expected_version=8)
    assert contents(army) == states[5]
    s.army_list_redo(army_list=army, expected_version=9)
    assert contents(army) == states[6]
    s.army_list_redo(army_list=army, expected_version=10)
    assert contents(army) == states[7]
    with pytest.raises(ListOperationError, match="nothing to redo"):
        s.army_list_redo(army_list=army, expected_version=11)
    s.army_list_undo(army_list=army, expected_version=11)
    assert contents(army) == states[6]
    # a new change after an undo drops the redo chain
    s.army_list_update(army_list=army, points_limit=120, expected_version=12)
    with pytest.raises(ListOperationError, match="nothing to redo"):
        s.army_list_redo(army_list=army, expected_version=13)


def test_undo_back_to_creation_then_nothing_more(afrika, player):
    army = ArmyListFactory(owner=player, handbook=afrika, name="Empty", points_limit=100)
    s.army_list_add_formation(army_list=army, formation_code="SG100", expected_version=1)
    s.army_list_undo(army_list=army, expected_version=2)
    assert army.formations.count() == 0
    with pytest.raises(ListOperationError, match="nothing to undo"):
        s.army_list_undo(army_list=army, expected_version=3)


def test_restore_an_earlier_version_as_a_new_one_and_undo_the_restore(army):
    at_3 = ListVersion.objects.get(army_list=army, version=3).document
    now = contents(army)
    s.army_list_restore(army_list=army, version=3, expected_version=5)
    army.refresh_from_db()
    assert army.version == 6
    assert army_list_document(army) == at_3
    assert ListVersion.objects.get(army_list=army, version=6).what.startswith("Restored version 3")
    s.army_list_undo(army_list=army, expected_version=6)
    assert contents(army) == now


def test_history_steps_keep_optimistic_locking(army):
    with pytest.raises(StaleListError):
        s.army_list_undo(army_list=army, expected_version=4)
    with pytest.raises(StaleListError):
        s.army_list_restore(army_list=army, version=2, expected_version=3)
    army.refresh_from_db()
    assert army.version == 5 and army.formations.count() == 1


def test_sharing_is_recorded_but_undo_skips_it_and_never_changes_sharing(army):
    s.army_list_update(army_list=army, visibility="shared", expected_version=5)
    assert ListVersion.objects.get(army_list=army, version=6).what == "Shared with a read-only link"
    s.army_list_undo(army_list=army, expected_version=6)  # undoes the option, not the sharing
    army.refresh_from_db()
    assert army.visibility == "shared"
    assert not army.units.get(unit__code="SG102").upgrades.exists()


def test_history_is_bounded(afrika, player):
    army = ArmyListFactory(owner=player, handbook=afrika, name="Busy", points_limit=100)
    for i in range(HISTORY_LIMIT + 7):
        s.army_list_update(army_list=army, points_limit=100 + i, expected_version=army.version)
    kept = list(ListVersion.objects.filter(army_list=army).values_list("version", flat=True))
    assert len(kept) == HISTORY_LIMIT - 1 + 1 and max(kept) == army.version
    with pytest.raises(ListOperationError, match="no longer kept"):
        s.army_list_restore(army_list=army, version=1, expected_version=army.version)


def test_a_list_older_than_history_gets_a_baseline_so_its_first_change_can_be_undone(army):
    ListVersion.objects.filter(army_list=army).delete()
    before = contents(army)
    s.army_list_update(army_list=army, name="After", expected_version=5)
    s.army_list_undo(army_list=army, expected_version=6)
    assert contents(army) == before


def test_names_and_notes_are_kept_exported_and_restored(army):
    company = army.formations.get()
    s.army_list_set_name_notes(army_list=army, target=company, custom_name="  Kampfgruppe   Hahn ",
                               notes="Holds the ridge.", expected_version=5)
    tanks = army.units.get(unit__code="SG102")
    s.army_list_set_name_notes(army_list=army, target=tanks, custom_name="Hahn's Panzers", expected_version=6)
    doc = army_list_document(army)
    assert doc["formations"][0]["custom_name"] == "Kampfgruppe Hahn"
    assert doc["formations"][0]["notes"] == "Holds the ridge."
    assert doc["formations"][0]["units"][1]["custom_name"] == "Hahn's Panzers"
    assert "notes" not in doc["formations"][0]["units"][1]
    copy = s.army_list_copy(army_list=army, owner=army.owner)
    assert army_list_document(copy)["formations"] == doc["formations"]
    with pytest.raises(ListOperationError, match="at most 120"):
        s.army_list_set_name_notes(army_list=army, target=tanks, custom_name="x" * 121, expected_version=7)


def test_default_points_limit_comes_from_the_system_data(afrika, player):
    from handbooks.models import GameSystem

    army = s.army_list_create(owner=player, handbook=afrika, name="Default")
    assert army.points_limit == GameSystem.objects.get(code="fow4").default_points_limit == 100


# -- book updates ----------------------------------------------------------------------------------------------

@pytest.fixture
def panzer_iv_army(army):
    """The army with a Panzer IV platoon (gone in revision 2) and the Forward Command Post card (gone too)."""
    company = army.formations.get()
    s.army_list_pick_unit(army_list=army, list_formation=company, box_code="SG100/panzer-2", unit_code="SG103",
                          size_code="two-tanks")
    s.army_list_add_card(army_list=army, card_code="forward-command-post")
    s.army_list_add_card(army_list=army, card_code="veteran-panzer-crews",
                         target_unit=army.units.get(unit__code="SG102"))
    army.refresh_from_db()
    return army


def test_no_update_report_while_the_book_has_no_newer_revision(panzer_iv_army):
    assert revision_update_for(panzer_iv_army) is None


def test_the_update_report_counts_what_changes_for_this_list(panzer_iv_army):
    afrika_revision_2()
    update = revision_update_for(panzer_iv_army)
    assert (update.from_revision, update.to_revision) == (1, 2)
    # three Panzer III: 12 -> 14 points (by hand from the two data files); the option costs 0 in both
    assert [(c.name, c.before, c.after) for c in update.changes] == [("Panzer III Tank Platoon", 12, 14)]
    removed = {(r.kind, r.name) for r in update.removed}
    assert ("unit", "Panzer IV Tank Platoon") in removed
    assert ("card", "Forward Command Post") in removed
    assert ("option", "Panzer III Tank Platoon: Short 5cm gun (Panzer III H)") in removed
    before = army_list_report(panzer_iv_army).total_points
    assert update.points_before == before
    assert update.points_after == before + 2 - 12 - update.card_points_before + update.card_points_after


def test_moving_to_the_new_revision_is_a_version_that_undo_takes_back(panzer_iv_army):
    army = panzer_iv_army
    before = contents(army)
    version = army.version
    afrika_revision_2()
    expected_total = revision_update_for(army).points_after
    s.army_list_move_to_revision(army_list=army, expected_version=version)
    army.refresh_from_db()
    assert army.handbook.revision == 2 and army.version == version + 1
    assert not army.units.filter(unit__code="SG103").exists()
    # the card for the Panzer III platoon followed it (its pointer did not change, but it was rewritten)
    assert army.cards.get(card__code="veteran-panzer-crews").target_unit.unit.code == "SG102"
    assert army_list_report(army).total_points == expected_total
    s.army_list_undo(army_list=army, expected_version=version + 1)
    army.refresh_from_db()
    assert army.handbook.revision == 1
    assert contents(army) == before


def test_moving_without_a_newer_revision_is_refused(panzer_iv_army):
    with pytest.raises(ListOperationError, match="no newer revision"):
        s.army_list_move_to_revision(army_list=panzer_iv_army, expected_version=panzer_iv_army.version)
