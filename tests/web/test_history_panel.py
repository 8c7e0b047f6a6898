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
    # An action's answer carries the short panel too, with the entry the action just made on top.
    answer = action(player_client, army, "settings", name="Afrika", points_limit=100).content.decode()
    army.refresh_from_db()
    assert restorable_versions(answer) == kept[:SHOWN_ENTRIES - 1]
