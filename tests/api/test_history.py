"""The API's history, undo/redo/restore, book updates and names/notes: each a write guarded by If-Match."""
from pathlib import Path

import pytest
import yaml

from armybuilder.lists.models import ArmyList
from handbooks.services import handbook_document_load

from .conftest import if_match, url

pytestmark = pytest.mark.django_db
BOOK = Path(__file__).parent.parent / "rules" / "books" / "tb-germany.yaml"


def test_history_lists_every_change_newest_first(owner_client, army):
    response = owner_client.get(url(army, "history"))
    assert response.status_code == 200 and response["ETag"] == f'"{army.version}"'
    body = response.json()
    # created, formation, HQ, tanks, skirts, tanks, artillery, card: eight writes in the fixture
    assert [e["version"] for e in body["entries"]] == list(range(8, 0, -1))
    assert body["entries"][0]["what"] == "Added the card " + army.cards.get().card.name
    assert body["undo_to"] == 7 and body["redo_to"] is None


def test_one_version_holds_the_list_as_it_was(owner_client, army):
    body = owner_client.get(url(army, "history/2")).json()
    assert [f["formation"] for f in body["document"]["formations"]] == ["F1"]
    assert body["document"]["formations"][0]["units"] == []
    assert owner_client.get(url(army, "history/99")).status_code == 404


def test_undo_redo_and_restore_are_new_versions_behind_if_match(owner_client, army):
    assert owner_client.post(url(army, "undo")).status_code == 428
    assert owner_client.post(url(army, "undo"), HTTP_IF_MATCH='"3"').status_code == 412
    response = owner_client.post(url(army, "undo"), **if_match(army))
    assert response.status_code == 200 and response["ETag"] == '"9"'
    assert response.json()["document"]["cards"] == []
    army.refresh_from_db()
    response = owner_client.post(url(army, "redo"), **if_match(army))
    assert len(response.json()["document"]["cards"]) == 1
    army.refresh_from_db()
    response = owner_client.post(url(army, "history/2/restore"), **if_match(army))
    assert response.status_code == 200 and response.json()["version"] == 11
    assert response.json()["document"]["formations"][0]["units"] == []
    army.refresh_from_db()
    assert owner_client.post(url(army, "history/77/restore"), **if_match(army)).status_code == 404
    assert owner_client.post(url(army, "redo"), **if_match(army)).status_code == 400


def test_someone_elses_history_is_a_404(other_client, army):
    for path in ("history", "history/1", "book-update"):
        assert other_client.get(url(army, path)).status_code == 404
    for path in ("undo", "redo", "history/1/restore", "book-update"):
        assert other_client.post(url(army, path), HTTP_IF_MATCH="*").status_code == 404
    assert ArmyList.objects.get(pk=army.pk).version == army.version


def test_names_and_notes_on_a_formation_and_a_unit(owner_client, army):
    response = owner_client.put(url(army, "formations/0/name-notes"), {"custom_name": "Kampfgruppe Hahn"},
                                format="json", **if_match(army))
    assert response.status_code == 200, response.json()
    assert response.json()["document"]["formations"][0]["custom_name"] == "Kampfgruppe Hahn"
    army.refresh_from_db()
    response = owner_client.put(url(army, "support/0/name-notes"), {"notes": "Ranges the crossroads."},
                                format="json", **if_match(army))
    assert response.json()["document"]["support"][0]["notes"] == "Ranges the crossroads."
    army.refresh_from_db()
    too_long = owner_client.put(url(army, "formations/0/units/1/name-notes"), {"custom_name": "x" * 121},
                                format="json", **if_match(army))
    assert too_long.status_code == 400
    empty = owner_client.put(url(army, "formations/0/units/1/name-notes"), {}, format="json", **if_match(army))
    assert empty.status_code == 400


def load_revision_2():
    doc = yaml.safe_load(BOOK.read_text(encoding="utf-8"))
    tank = next(u for u in doc["units"] if u["code"] == "TNK")
    for size in tank["sizes"]:
        if size["code"] == "3x":
            size["points"] = 10  # 9 -> 10
    result = handbook_document_load(doc, "tb-germany-rev2.yaml")
    assert result.ok and result.revision == 2, [str(p) for p in result.problems]


def test_book_update_report_and_move_and_undo(owner_client, army):
    body = owner_client.get(url(army, "book-update")).json()
    assert body == {"revision": 1, "newer_revision": None, "update": None, "problem": None}
    load_revision_2()
    body = owner_client.get(url(army, "book-update")).json()
    assert body["newer_revision"] == 2
    changes = body["update"]["changes"]
    # both tank platoons are 3x: each 9 -> 10 (the skirts cost the same in both revisions)
    skirts = next(o for u in yaml.safe_load(BOOK.read_text(encoding="utf-8"))["units"] if u["code"] == "TNK"
                  for g in u["upgrades"] if g["code"] == "skirts" for o in g["options"])
    skirts_cost = skirts["points"] * (3 if skirts.get("per") == "team" else 1)
    assert [(c["pointer"], c["before"], c["after"], c["delta"]) for c in changes] == [
        ("/formations/0/units/1", 9 + skirts_cost, 10 + skirts_cost, 1),
        ("/formations/0/units/2", 9, 10, 1)]
    assert body["update"]["delta"] == 2 and body["update"]["removed"] == []
    moved = owner_client.post(url(army, "book-update"), {}, format="json", **if_match(army))
    assert moved.status_code == 200 and moved.json()["document"]["handbook"]["revision"] == 2
    stale = owner_client.post(url(army, "book-update"), {}, format="json", HTTP_IF_MATCH=f'"{army.version}"')
    assert stale.status_code == 412  # the version this client saw before the move
    army.refresh_from_db()
    back = owner_client.post(url(army, "undo"), **if_match(army))
    assert back.json()["document"]["handbook"]["revision"] == 1
