"""A change the builder makes writes its history entry with the document it already has, edited the way the change
edits the rows (armybuilder/lists/services.py, _record), instead of reading the list again: the entry (and the
document the builder's answer then draws) is exactly the one read back from the rows, action after action."""
import json

import pytest
from django.db import connection

from armybuilder.lists import history, selectors
from armybuilder.lists.models import ListVersion
from armybuilder.lists.selectors import army_list_document
from tests.web.conftest import action, player_client  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def reads(monkeypatch):
    """How many times history_record read the list's document back."""
    count = [0]
    read = history.army_list_document

    def counted(army_list):
        count[0] += 1
        return read(army_list)

    monkeypatch.setattr(history, "army_list_document", counted)
    return count


def play(client, army, reads, name, /, **data) -> dict:
    """One action as the page posts it, after the page drew the list (which keeps its document for the action)."""
    army.refresh_from_db()
    selectors.army_list_force(army, version=army.version, remember=True)
    before = reads[0]
    response = action(client, army, name, **data)
    assert response.status_code == 200 and "alert--error" not in response.content.decode(), response.content[:400]
    assert reads[0] == before, f"{name}: the document was read back"
    army.refresh_from_db()
    written = ListVersion.objects.get(army_list=army, version=army.version).document
    read = army_list_document(army)
    assert written == read
    if connection.vendor != "postgresql":  # jsonb keeps no key order: PostgreSQL hands keys back in its own
        assert json.dumps(written) == json.dumps(read)  # the same keys in the same order
    assert json.loads(selectors._DOCUMENTS[(army.public_id, army.version)]) == read  # what the answer drew
    return read


STEPS = [
    ("pick", {"formation": "/formations/0", "box": "SG100/panzer-2", "unit": "SG103"}),
    ("pick", {"formation": "", "box": "force/artillery", "unit": "SG110"}),
    ("pick", {"formation": "", "box": "force/artillery", "unit": "SG110"}),
    ("size", {"unit": "/formations/0/units/1", "size": "four-tanks"}),
    ("add-formation", {"formation": "SG150"}),
    ("add-card", {"card": "mixed-battlegroup", "target": "/formations/1"}),
    ("add-card", {"card": "veteran-panzer-crews", "target": "/formations/0/units/2"}),
    ("add-card", {"card": "veteran-panzer-crews", "target": "/support/1"}),
    ("name-notes", {"target": "/formations/0/units/2", "custom_name": "Tigers", "notes": "the\nbest"}),
    ("name-notes", {"target": "/formations/1", "custom_name": "Kampfgruppe", "notes": ""}),
    ("name-notes", {"target": "/formations/0/units/2", "custom_name": "", "notes": "just notes"}),
    ("settings", {"name": "Ghost Division", "points_limit": 120, "variant": "pz21"}),
    ("settings", {"name": "Ghost Division", "points_limit": 100, "variant": ""}),
    ("visibility", {"visibility": "shared"}),
    ("new-link", {}),
    # Removing a unit moves up the units after it and the cards given to them; its own card goes with it.
    ("remove-unit", {"unit": "/formations/0/units/1"}),
    ("remove-unit", {"unit": "/support/0"}),
    ("remove-card", {"card": "/cards/0"}),
    ("add-formation", {"formation": "SG150"}),
    ("add-card", {"card": "mixed-battlegroup", "target": "/formations/2"}),
    # Removing a formation takes its units and their cards; the formations after it move up, with their cards.
    ("remove-formation", {"formation": "/formations/1"}),
    ("remove-formation", {"formation": "/formations/0"}),
]


def test_each_action_writes_the_document_read_back_without_reading_it(player_client, army, reads):  # noqa: F811
    seen = []
    for name, data in STEPS:
        doc = play(player_client, army, reads, name, **data)
        seen.append(doc)
    # The steps did what they say (so the documents compared hold formations, units, cards and names).
    assert max(len(d["formations"]) for d in seen) == 3 and max(len(d["cards"]) for d in seen) == 3
    assert any(u.get("custom_name") == "Tigers" and u.get("notes") == "the\nbest"
               for d in seen for f in d["formations"] for u in f["units"])
    assert seen[-1]["formations"][0]["formation"] == "SG150" and len(seen[-1]["formations"]) == 1
    # The support unit's card moved up with it; the tank's card went with its company; the second company's
    # card moved up with it.
    assert [(c["card"], c["target"]) for c in seen[-1]["cards"]] == [("veteran-panzer-crews", "/support/0"),
                                                                    ("mixed-battlegroup", "/formations/0")]


def test_without_a_kept_document_the_entry_reads_the_list(player_client, army, reads):  # noqa: F811
    selectors._DOCUMENTS.clear()
    response = action(player_client, army, "pick", formation="/formations/0", box="SG100/panzer-2", unit="SG103")
    assert response.status_code == 200
    assert reads[0] == 1
    army.refresh_from_db()
    assert ListVersion.objects.get(army_list=army, version=army.version).document == army_list_document(army)
