"""Lists through the API: create, read, change, delete, copy, export and import."""
import json

import pytest

from armybuilder.lists.models import ArmyList
from armybuilder.lists.selectors import army_list_document

from .conftest import if_match, url

pytestmark = pytest.mark.django_db


def test_creating_a_list_picks_the_current_revision_and_answers_with_its_etag(owner_client, germany):
    response = owner_client.post("/api/v1/lists/", {"system": "fow4", "handbook": "tb-germany", "name": "Blitz",
                                                    "points_limit": 80, "variant": "v1"}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    army = ArmyList.objects.get(public_id=body["id"])
    assert (army.name, army.points_limit, army.variant, army.handbook_id) == ("Blitz", 80, "v1", germany.pk)
    assert response["ETag"] == f'"{army.version}"'
    assert response["Location"] == f"/api/v1/lists/{army.public_id}/"
    assert body["handbook"] == {"code": "tb-germany", "revision": 1, "name": "Test Book Germany"}
    assert body["document"]["formations"] == [] and body["report"]["system"] == "fow4"


def test_creating_a_list_with_an_unknown_handbook_or_variant_names_the_field(owner_client, germany):
    unknown_book = owner_client.post("/api/v1/lists/", {"system": "fow4", "handbook": "nope"}, format="json")
    unknown_revision = owner_client.post("/api/v1/lists/", {"system": "fow4", "handbook": "tb-germany",
                                                            "revision": 7}, format="json")
    unknown_variant = owner_client.post("/api/v1/lists/", {"system": "fow4", "handbook": "tb-germany",
                                                           "variant": "v9"}, format="json")
    assert unknown_book.json()["problems"] == [{"pointer": "/handbook",
                                                "message": "No handbook 'nope' in system 'fow4'."}]
    assert unknown_revision.json()["problems"][0]["message"] == "No handbook 'tb-germany' revision 7 in system 'fow4'."
    assert unknown_variant.json()["problems"] == [{"pointer": "/variant",
                                                   "message": "'v9' is not a variant of Test Book Germany."}]
    assert {unknown_book.status_code, unknown_revision.status_code, unknown_variant.status_code} == {400}
    assert not ArmyList.objects.exists()


def test_the_lists_collection_is_paginated_newest_first(owner_client, germany):
    for index in range(3):
        owner_client.post("/api/v1/lists/", {"system": "fow4", "handbook": "tb-germany", "name": f"L{index}"},
                          format="json")
    first = owner_client.get("/api/v1/lists/?page_size=2").json()
    second = owner_client.get("/api/v1/lists/?page_size=2&page=2").json()
    assert first["count"] == 3
    assert [item["name"] for item in first["results"] + second["results"]] == ["L2", "L1", "L0"]
    assert owner_client.get("/api/v1/lists/?page=9").status_code == 404


def test_reading_a_list_gives_the_document_the_report_and_the_version_as_etag(owner_client, army):
    response = owner_client.get(url(army))
    assert response.status_code == 200
    assert response["ETag"] == f'"{army.version}"'
    body = response.json()
    assert body["document"] == army_list_document(army)
    assert body["report"]["total_points"] == 3 + 12 + 9 + 10 + 2
    assert body["report"]["unit_points"]["/formations/0/units/1"] == 12
    assert body["version"] == army.version and body["share_token"] is None


def test_patch_changes_every_editable_field_and_bumps_the_version(owner_client, army):
    changes = {"name": "Renamed", "points_limit": 120, "variant": "v2", "year": 1943, "notes": "  two spaces",
               "visibility": "shared"}
    response = owner_client.patch(url(army), changes, format="json", **if_match(army))
    assert response.status_code == 200, response.json()
    old_version = army.version
    army.refresh_from_db()
    assert (army.name, army.points_limit, army.variant, army.year, army.notes, army.visibility) == \
        ("Renamed", 120, "v2", 1943, "  two spaces", "shared")
    assert army.version == old_version + 1 and response["ETag"] == f'"{army.version}"'
    assert response.json()["share_token"] == str(army.share_token)


def test_patch_clears_the_variant_and_the_points_limit_with_null(owner_client, army):
    owner_client.patch(url(army), {"variant": "v1"}, format="json", **if_match(army))
    response = owner_client.patch(url(army), {"variant": None, "points_limit": None}, format="json",
                                  **if_match(army))
    army.refresh_from_db()
    assert response.status_code == 200 and (army.variant, army.points_limit) == ("", None)


@pytest.mark.parametrize("body,pointer,message", [
    ({}, "", "Nothing to change: send at least one of name, points_limit, variant, year, notes, visibility."),
    ({"name": "   "}, "/name", "This field may not be blank."),
    ({"visibility": "public"}, "/visibility", '"public" is not a valid choice.'),
    ({"variant": "nope"}, "/variant", "'nope' is not a variant of Test Book Germany."),
    ({"points_limit": -5}, "/points_limit", "Ensure this value is greater than or equal to 0."),
    ({"year": 3000}, "/year", "Ensure this value is less than or equal to 2100."),
    ({"owner": 1}, "/owner", "Unknown field."),
    ({"version": 99}, "/version", "Unknown field."),
])
def test_patch_refuses_nonsense_with_the_field_and_changes_nothing(owner_client, army, body, pointer, message):
    before = army.version
    response = owner_client.patch(url(army), body, format="json", **if_match(army))
    assert response.status_code == 400
    assert {"pointer": pointer, "message": message} in response.json()["problems"]
    army.refresh_from_db()
    assert army.version == before and army.name == "Panzers"


def test_delete_removes_the_list(owner_client, army):
    response = owner_client.delete(url(army), **if_match(army))
    assert response.status_code == 204
    assert not ArmyList.objects.filter(pk=army.pk).exists()
    assert owner_client.get(url(army)).status_code == 404


def test_delete_with_a_stale_etag_keeps_the_list(owner_client, army):
    response = owner_client.delete(url(army), HTTP_IF_MATCH=f'"{army.version - 1}"')
    assert response.status_code == 412 and response["ETag"] == f'"{army.version}"'
    assert ArmyList.objects.filter(pk=army.pk).exists()


def test_delete_without_if_match_is_refused_with_428(owner_client, army):
    assert owner_client.delete(url(army)).status_code == 428
    assert ArmyList.objects.filter(pk=army.pk).exists()


def test_copy_makes_a_new_private_list_with_the_same_force(owner_client, army):
    army.visibility = "shared"
    army.save()
    response = owner_client.post(url(army, "copy"), {"name": "Second"}, format="json")
    assert response.status_code == 201
    copy = ArmyList.objects.get(public_id=response.json()["id"])
    assert copy.pk != army.pk and copy.name == "Second" and copy.visibility == "private"
    assert {**army_list_document(copy), "name": army.name} == army_list_document(army)
    assert response["Location"] == f"/api/v1/lists/{copy.public_id}/"


def test_copy_without_a_name_is_called_copy_of(owner_client, army):
    response = owner_client.post(url(army, "copy"), format="json")
    assert response.status_code == 201 and response.json()["name"] == "Copy of Panzers"


def test_export_is_the_list_document_as_a_named_attachment(owner_client, army):
    response = owner_client.get(url(army, "export.json"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == 'attachment; filename="panzers.json"'
    assert json.loads(response.content) == army_list_document(army)


def test_export_then_import_then_export_gives_the_same_bytes(owner_client, army):
    exported = owner_client.get(url(army, "export.json")).content
    imported = owner_client.post("/api/v1/lists/import", exported, content_type="application/json")
    assert imported.status_code == 201, imported.json()
    again = owner_client.get(f"/api/v1/lists/{imported.json()['id']}/export.json").content
    assert again == exported


def test_import_answers_400_with_every_problem_and_its_pointer_and_saves_nothing(owner_client, army):
    document = army_list_document(army)
    document["formations"][0]["units"][1]["size"] = "9x"
    document["support"][0]["unit"] = "NOPE"
    document["points_limit"] = "lots"
    response = owner_client.post("/api/v1/lists/import", document, format="json")
    assert response.status_code == 400
    pointers = [p["pointer"] for p in response.json()["problems"]]
    assert "/points_limit" in pointers
    assert ArmyList.objects.count() == 1
    document["points_limit"] = 100
    response = owner_client.post("/api/v1/lists/import", document, format="json")
    assert response.status_code == 400
    pointers = {p["pointer"] for p in response.json()["problems"]}
    assert {"/formations/0/units/1/size", "/support/0/unit"} <= pointers
    assert ArmyList.objects.count() == 1


def test_import_refuses_a_document_larger_than_the_format_allows_with_413(owner_client, army):
    document = army_list_document(army)
    document["notes"] = "x" * (256 * 1024)
    response = owner_client.post("/api/v1/lists/import", document, format="json")
    assert response.status_code == 413
    assert "may be at most 262144 bytes" in response.json()["detail"]


def test_a_shared_list_reads_without_owner_fields(anon, shared_army):
    response = anon.get(f"/api/v1/shared/{shared_army.share_token}/")
    assert response.status_code == 200
    body = response.json()
    assert "share_token" not in body and "id" not in body and "visibility" not in body
    assert body["document"] == army_list_document(shared_army)
    assert response["ETag"] == f'"{shared_army.version}"'


def test_making_a_shared_list_private_again_closes_the_link(owner_client, anon, shared_army):
    owner_client.patch(url(shared_army), {"visibility": "private"}, format="json", **if_match(shared_army))
    assert anon.get(f"/api/v1/shared/{shared_army.share_token}/").status_code == 404
