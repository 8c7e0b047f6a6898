"""The builder's History panel: every answer carries the newest entries only, and "show all" lists every kept one,
each with its Restore (so any kept version can be restored from the page)."""
import re

from django.urls import reverse

from armybuilder.lists import services as s
from armybuilder.lists.history import HISTORY_LIMIT, history_entries
from armybuilder.web.history import SHOWN_ENTRIES

from .conftest import action


def restorable_versions(html: str) -> list[int]:
    panel = html[html.index('id="history"'):]
    panel = panel[:panel.index("</section>")]
    return [int(v) for v in re.findall(r'name="to" value="(\d+)"', panel)]


def test_the_panel_lists_the_newest_entries_and_show_all_lists_every_kept_one(army, player_client):
    for n in range(SHOWN_ENTRIES + 5):  # more changes than the panel shows
        s.army_list_update(army_list=army, name=f"Desert Fox {n}")
    army.refresh_from_db()
    kept = [e.version for e in history_entries(army)]
    assert len(kept) == min(HISTORY_LIMIT, army.version) > SHOWN_ENTRIES
    older = [v for v in kept if v != army.version]  # the current version has no Restore
    page = player_client.get(reverse("web:builder", args=[army.public_id])).content.decode()
    assert restorable_versions(page) == older[:SHOWN_ENTRIES - 1]
    assert f"Show all {len(kept)}" in page
    everything = player_client.get(reverse("web:builder", args=[army.public_id]) + "?history=all").content.decode()
    assert restorable_versions(everything) == older and f"Show all {len(kept)}" not in everything
    # An action's answer to a page whose panel is open carries the short panel too, with the entry the action
    # just made on top (static/web/history.js says the panel is open).
    answer = action(player_client, army, "settings", name="Afrika", points_limit=100,
                    HTTP_X_HISTORY_OPEN="1").content.decode()
    army.refresh_from_db()
    assert restorable_versions(answer) == kept[:SHOWN_ENTRIES - 1]


def test_an_answer_to_a_closed_panel_leaves_the_entries_to_be_fetched_when_it_is_opened(army, player_client):
    for n in range(SHOWN_ENTRIES + 2):
        s.army_list_update(army_list=army, name=f"Desert Fox {n}")
    panel_url = reverse("web:history-panel", args=[army.public_id])
    answer = action(player_client, army, "settings", name="Afrika", points_limit=100).content.decode()
    army.refresh_from_db()
    assert restorable_versions(answer) == [] and f'data-src="{panel_url}"' in answer
    assert f"version {army.version}</span>" in answer  # the panel's head names the version all the same
    fetched = player_client.get(panel_url, HTTP_HX_REQUEST="true")
    assert fetched.status_code == 200 and fetched["Cache-Control"] == "no-store"
    html = fetched.content.decode()
    kept = [e.version for e in history_entries(army)]
    assert re.findall(r'name="to" value="(\d+)"', html) == [str(v) for v in kept[1:SHOWN_ENTRIES]]
    assert "Settings: name “Afrika”" in html and "csrfmiddlewaretoken" not in html  # htmx posts with its header
    everything = player_client.get(panel_url + "?history=all", HTTP_HX_REQUEST="true").content.decode()
    assert re.findall(r'name="to" value="(\d+)"', everything) == [str(v) for v in kept[1:]]


def test_someone_elses_history_is_not_found(client, army):
    assert client.get(reverse("web:history-panel", args=[army.public_id])).status_code == 404


def test_the_book_update_notice_goes_with_a_move_to_the_newer_revision_and_comes_back_with_its_undo(army,
                                                                                                   player_client):
    """The list is read with whether its book has a newer revision (one query for both): an action that moves the
    list to another revision asks again, so its own answer is right about the revision the list is on now."""
    from ..lists.history.revision_books import afrika_revision_2

    afrika_revision_2()
    page = player_client.get(reverse("web:builder", args=[army.public_id])).content.decode()
    assert 'id="book-update"' in page and "revision 2" in page
    moved = action(player_client, army, "move-revision", revision=2).content.decode()
    army.refresh_from_db()
    assert army.handbook.revision == 2 and "alert--error" not in moved
    assert 'id="book-update"' not in moved
    undone = action(player_client, army, "undo").content.decode()
    army.refresh_from_db()
    assert army.handbook.revision == 1 and 'id="book-update"' in undone and "Book update: revision 2" in undone


def test_an_answer_to_a_change_just_committed_shows_undo_and_redo_as_the_entries_say(army, player_client,
                                                                                   django_capture_on_commit_callbacks,
                                                                                   django_assert_num_queries):
    """A change the builder records and commits in this process keeps its entry's head: the answer's undo and
    redo (History panel closed) are drawn from it without reading the entries, and say what reading them says."""
    from dataclasses import asdict

    from django.utils.html import escape

    from armybuilder.lists import history as list_history
    from armybuilder.web.history import history_view

    player_client.get(reverse("web:builder", args=[army.public_id]))  # the page: its version's entry is seen
    with django_capture_on_commit_callbacks(execute=True):
        answer = action(player_client, army, "settings", name="Afrika", points_limit=100).content.decode()
    army.refresh_from_db()
    head = list_history.history_head(army)
    assert head is not None and head[0] == army.version
    with django_assert_num_queries(0):
        known = history_view(army, entries=False)
    del list_history._HEADS[(army.public_id, army.version)]  # as a process that did not record it: read them
    read = history_view(army, entries=False)
    assert list_history.history_head(army) is None
    assert known.can_undo and not known.can_redo and known.undo_to == army.version - 1
    assert asdict(known) == asdict(read)
    assert escape(known.undo_what) in answer
    # A change that is not committed leaves no head behind (its version may be written again by another change).
    with django_capture_on_commit_callbacks(execute=False):
        s.army_list_update(army_list=army, name="Rolled back")
    assert list_history.history_head(army) is None
