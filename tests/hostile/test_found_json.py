"""Regression tests for the JSON cases the attack run found (issue 15), one per case."""
import io
import json

import pytest
from django.core.management import call_command
from django.test import Client

from armybuilder.lists.models import ArmyList

from .conftest import page_text, spoiled

HUGE_NUMBER = "9" * 5000


def _doc_with_raw(document: dict, field: str, raw_value: str) -> bytes:
    """The document with one field's value spliced in as raw JSON text (json.dumps cannot write these)."""
    marker = "__SPLICE__"
    text = json.dumps({**document, field: marker})
    return text.replace(f'"{marker}"', raw_value).encode("utf-8")


def _web_import(client, body: bytes):
    return client.post("/import/", {"file": io.BytesIO(body)}, format="multipart")


def _verify(client, body: bytes):
    return client.post("/verify/", {"code": "3F2A-91C0-7B4E", "list_json": body.decode("utf-8", "surrogatepass")})


@pytest.mark.django_db
class TestAJsonNumberWithMoreThan4300Digits:
    def test_is_a_400_on_the_anonymous_check_endpoint(self, list_document):
        response = Client().post("/api/v1/check", _doc_with_raw(list_document, "points_limit", HUGE_NUMBER),
                                 content_type="application/json")
        assert response.status_code == 400
        assert "5000 digits" in response.json()["detail"]

    def test_is_a_400_on_the_api_import(self, list_document, player_client):
        before = ArmyList.objects.count()
        response = player_client.post("/api/v1/lists/import", _doc_with_raw(list_document, "points_limit",
                                                                            HUGE_NUMBER),
                                      content_type="application/json")
        assert response.status_code == 400 and "5000 digits" in response.json()["detail"]
        assert ArmyList.objects.count() == before

    def test_is_a_400_on_the_web_import(self, list_document, player_client):
        before = ArmyList.objects.count()
        response = _web_import(player_client, _doc_with_raw(list_document, "points_limit", HUGE_NUMBER))
        assert response.status_code == 400
        assert "5000 digits" in page_text(response)
        assert ArmyList.objects.count() == before

    def test_is_a_400_on_verify(self, list_document, player_client):
        response = _verify(player_client, _doc_with_raw(list_document, "points_limit", HUGE_NUMBER))
        assert response.status_code == 400 and "5000 digits" in page_text(response)

    def test_makes_check_list_exit_2_unreadable_not_1_not_legal(self, list_document, tmp_path, capsys):
        path = tmp_path / "huge.json"
        path.write_bytes(_doc_with_raw(list_document, "points_limit", HUGE_NUMBER))
        with pytest.raises(SystemExit) as exit_info:
            call_command("check_list", str(path), "--format", "json")
        assert exit_info.value.code == 2
        out = json.loads(capsys.readouterr().out)
        assert out["readable"] is False and "5000 digits" in out["problems"][0]["message"]


@pytest.mark.django_db
class TestANulCharacterInANameOrNotes:
    @pytest.mark.parametrize("field", ["name", "notes"])
    def test_is_a_400_with_its_pointer_on_the_web_import(self, list_document, player_client, field):
        before = ArmyList.objects.count()
        response = _web_import(player_client, spoiled(list_document, **{field: "Panzer\x00Company"}))
        assert response.status_code == 400
        assert f"/{field} text may not contain the NUL character" in page_text(response)
        assert ArmyList.objects.count() == before

    @pytest.mark.parametrize("field", ["name", "notes"])
    def test_is_a_400_with_its_pointer_on_the_api_import(self, list_document, player_client, field):
        before = ArmyList.objects.count()
        response = player_client.post("/api/v1/lists/import", spoiled(list_document, **{field: "a\x00b"}),
                                      content_type="application/json")
        assert response.status_code == 400
        assert response.json()["problems"][0]["pointer"] == f"/{field}"
        assert ArmyList.objects.count() == before

    def test_is_a_400_in_an_api_change_of_name(self, owned_list, player_client):
        response = player_client.patch(f"/api/v1/lists/{owned_list.public_id}/", b'{"name": "a\\u0000b"}',
                                       content_type="application/json", HTTP_IF_MATCH='"1"')
        assert response.status_code == 400 and response.json()["problems"][0]["pointer"] == "/name"
        owned_list.refresh_from_db()
        assert owned_list.name == "Panzer Company" and owned_list.version == 1


@pytest.mark.django_db
class TestALoneSurrogate:
    def test_is_a_400_on_the_web_import_pasted_as_text(self, list_document, player_client):
        before = ArmyList.objects.count()
        text = json.dumps({**list_document, "name": "\ud800"})  # json.dumps writes it as the escape \ud800
        response = player_client.post("/import/", {"text": text})
        assert response.status_code == 400
        assert "/name text holds a lone surrogate" in page_text(response)
        assert ArmyList.objects.count() == before

    def test_is_a_400_on_verify(self, list_document, player_client):
        response = player_client.post("/verify/", {"code": "3F2A-91C0-7B4E",
                                                   "list_json": json.dumps({**list_document, "notes": "\udfff"})})
        assert response.status_code == 400
        assert "/notes: text holds a lone surrogate" in page_text(response)


@pytest.mark.django_db
def test_duplicate_json_keys_are_refused_not_silently_kept(list_document, player_client):
    text = json.dumps(list_document)
    body = text.replace('"name":', '"name": "first", "name":', 1).encode()
    before = ArmyList.objects.count()
    response = player_client.post("/api/v1/lists/import", body, content_type="application/json")
    assert response.status_code == 400
    assert "the key 'name' appears twice in one object" in response.json()["detail"]
    assert ArmyList.objects.count() == before
    response = player_client.post("/api/v1/lists/", b'{"system": "fow4", "system": "x", "handbook": "y"}',
                                  content_type="application/json")
    assert response.status_code == 400 and "appears twice" in response.json()["detail"]


@pytest.mark.django_db
def test_error_messages_do_not_echo_huge_values_in_full(list_document, player_client):
    huge = "X" * 100_000
    response = player_client.post("/api/v1/lists/import",
                                  spoiled(list_document, formations=[{"formation": huge, "units": []}]),
                                  content_type="application/json")
    assert response.status_code == 400
    assert len(response.content) < 5_000
    assert "XXXX" in page_text(response) and "100000 characters" in page_text(response)


@pytest.mark.django_db
def test_a_document_with_thousands_of_problems_reports_the_first_hundred_and_a_count(list_document,
                                                                                    player_client):
    formation = list_document["formations"][0]["formation"] if list_document["formations"] else None
    book = afrika_formation_code(list_document) if formation is None else formation
    units = [{"box": f"no-box-{i}", "unit": f"no-unit-{i}", "size": None, "upgrades": []} for i in range(80)]
    formations = [{"formation": book, "allied": False, "units": units} for _ in range(30)]
    response = player_client.post("/api/v1/lists/import", spoiled(list_document, formations=formations),
                                  content_type="application/json")
    assert response.status_code == 400
    problems = response.json()["problems"]
    # each of the 30 x 80 units has an unknown box and an unknown unit
    assert len(problems) == 101 and problems[-1]["message"] == f"and {30 * 80 * 2 - 100} more problem(s) not shown"


def afrika_formation_code(list_document) -> str:
    from handbooks.models import Formation

    return Formation.objects.filter(handbook__code=list_document["handbook"]["code"]).values_list(
        "code", flat=True).first()


@pytest.mark.django_db
def test_an_api_field_error_does_not_echo_a_huge_value(owned_list, player_client):
    response = player_client.patch(f"/api/v1/lists/{owned_list.public_id}/", {"visibility": "v" * 500_000},
                                   content_type="application/json", HTTP_IF_MATCH='"1"')
    assert response.status_code == 400
    assert len(response.content) < 5_000 and "500000 characters" in response.content.decode()
