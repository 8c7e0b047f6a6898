"""Hostile and careless input: every one answers 4xx with a precise JSON message, none a 500."""
import json

import pytest

from armybuilder.lists.models import ArmyList

from .conftest import if_match, url

pytestmark = pytest.mark.django_db

CREATE = "/api/v1/lists/"


def raw_post(client, path, body: bytes, content_type="application/json", **extra):
    return client.generic("POST", path, body, content_type=content_type, **extra)


def assert_error(response, status, detail_part):
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"detail", "problems"}
    assert detail_part in body["detail"], body


@pytest.mark.parametrize("field,value,message", [
    ("name", 12, "Expected a string, got number."),
    ("name", ["a"], "Expected a string, got array."),
    ("handbook", {"code": "tb-germany"}, "Expected a string, got object."),
    ("points_limit", "100", "Expected an integer, got string."),
    ("points_limit", 99.5, "Expected an integer, got a fraction."),
    ("points_limit", True, "Expected an integer, got boolean."),
    ("year", "1943", "Expected an integer, got string."),
    ("system", None, "This field may not be null."),
])
def test_wrong_json_types_are_refused_not_coerced(owner_client, germany, field, value, message):
    body = {"system": "fow4", "handbook": "tb-germany", field: value}
    response = owner_client.post(CREATE, body, format="json")
    assert response.status_code == 400
    assert response.json()["problems"] == [{"pointer": f"/{field}", "message": message}]
    assert not ArmyList.objects.exists()


def test_every_problem_of_a_body_is_reported_at_once(owner_client, germany):
    response = owner_client.post(CREATE, {"system": 4, "points_limit": "x", "colour": "red"}, format="json")
    problems = {p["pointer"]: p["message"] for p in response.json()["problems"]}
    assert problems == {"/system": "Expected a string, got number.", "/handbook": "This field is required.",
                        "/points_limit": "Expected an integer, got string.", "/colour": "Unknown field."}
    assert response.json()["detail"].startswith("4 problems: ")


def test_a_boolean_field_takes_only_true_or_false(owner_client, army):
    response = owner_client.post(url(army, "formations/"), {"formation": "F2", "allied": "yes"}, format="json",
                                 **if_match(army))
    assert response.json()["problems"] == [{"pointer": "/allied", "message": "Expected true or false, got string."}]


def test_a_quantity_must_be_a_whole_number_in_range(owner_client, army):
    fraction = owner_client.put(url(army, "support/0/upgrades"), {"upgrade": "a/b", "quantity": 1.5},
                                format="json", **if_match(army))
    too_many = owner_client.put(url(army, "support/0/upgrades"), {"upgrade": "a/b", "quantity": 101},
                                format="json", **if_match(army))
    assert fraction.json()["problems"] == [{"pointer": "/quantity", "message": "Expected an integer, got a fraction."}]
    assert too_many.json()["problems"] == [{"pointer": "/quantity",
                                            "message": "Ensure this value is less than or equal to 100."}]


def test_a_nested_object_points_inside_itself(owner_client, army):
    response = owner_client.post(url(army, "formations/"), {"formation": "IF1", "allied": True,
                                                            "handbook": {"code": "tb-italy", "revision": "1"}},
                                 format="json", **if_match(army))
    assert response.json()["problems"] == [{"pointer": "/handbook/revision",
                                            "message": "Expected an integer, got string."}]


@pytest.mark.parametrize("body,message", [
    (b'{"system": "fow4",', "Malformed JSON: Expecting property name enclosed in double quotes at line 1, column 19."),
    (b"{'system': 'fow4'}", "Malformed JSON: Expecting property name enclosed in double quotes at line 1, column 2."),
    (b'{"points_limit": NaN}', "Malformed JSON: NaN is not a JSON number."),
    (b'{"points_limit": Infinity}', "Malformed JSON: Infinity is not a JSON number."),
    (b'\xff\xfe{"a": 1}', "The body is not UTF-8 text (bad byte at offset 0)."),
    (b'{"name": "\\ud800"}', "/name: text holds a lone surrogate"),
])
def test_malformed_json_is_a_400_saying_what_and_where(owner_client, germany, body, message):
    assert_error(raw_post(owner_client, CREATE, body), 400, message)


def test_a_valid_surrogate_pair_is_fine(owner_client, germany):
    response = raw_post(owner_client, CREATE, b'{"system": "fow4", "handbook": "tb-germany", "name": "\\ud83d\\ude00"}')
    assert response.status_code == 201 and response.json()["name"] == "\U0001F600"


def test_a_body_that_is_not_an_object_is_a_400(owner_client, germany):
    response = owner_client.post(CREATE, [1, 2], format="json")
    assert response.json()["problems"] == [{"pointer": "", "message": "Expected a JSON object, got array."}]


@pytest.mark.parametrize("depth", [40, 5_000, 100_000])
def test_deeply_nested_json_is_a_400_not_a_crash(owner_client, germany, depth):
    body = b"[" * depth + b"]" * depth
    assert_error(raw_post(owner_client, CREATE, body), 400, "nested more than 32 levels deep")


@pytest.mark.parametrize("path", ["/api/v1/check", "/api/v1/lists/import"])
def test_a_deeply_nested_list_document_is_a_400_with_the_formats_limit(owner_client, germany, path):
    body = b'{"formations": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    response = raw_post(owner_client, path, body)
    assert response.status_code == 400
    assert response.json()["problems"] == [{"pointer": "", "message": "nested more than 20 levels deep"}]


def test_a_body_over_the_upload_limit_is_a_json_413(owner_client, germany):
    body = json.dumps({"system": "fow4", "handbook": "tb-germany", "notes": "x" * (1024 * 1024 + 1)}).encode()
    assert_error(raw_post(owner_client, CREATE, body), 413, "larger than 1048576 bytes")


def test_a_check_document_over_256_kib_is_a_413(anon, germany):
    body = json.dumps({"notes": "x" * (256 * 1024)}).encode()
    assert_error(raw_post(anon, "/api/v1/check", body), 413, "a list document may be at most 262144 bytes")


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                                          "text/plain"])
def test_a_body_that_is_not_json_is_a_415(owner_client, germany, content_type):
    response = raw_post(owner_client, CREATE, b"system=fow4", content_type=content_type)
    assert_error(response, 415, "Unsupported media type")


def test_an_accept_header_we_cannot_serve_is_a_406(owner_client, germany):
    response = owner_client.get("/api/v1/systems/", HTTP_ACCEPT="application/xml")
    assert response.status_code == 406 and response.json()["detail"].startswith("Could not satisfy")


def test_a_wrong_method_is_a_json_405(owner_client, army):
    assert_error(owner_client.put(url(army), {}, format="json"), 405, 'Method "PUT" not allowed.')


@pytest.mark.parametrize("path", [
    "/api/v1/nothing-here", "/api/v1/lists/not-a-uuid/", "/api/v1/handbooks/fow4/tb-germany/abc/",
    "/api/v2/systems/",
])
def test_an_unknown_api_path_is_a_json_404(anon, path):
    assert_error(anon.get(path), 404, "No API endpoint at")


@pytest.mark.parametrize("path,detail", [
    ("/api/v1/handbooks/fow4/tb-germany/99999999999999999999999/",
     "No handbook 'tb-germany' revision 99999999999999999999999 in system 'fow4'."),
    ("/api/v1/handbooks/fow4/tb-germany/0/units/", "No handbook 'tb-germany' revision 0 in system 'fow4'."),
    ("/api/v1/systems/nope/", "No game system 'nope'."),
    ("/api/v1/handbooks/nope/tb-germany/", "No handbook 'tb-germany' in system 'nope'."),
    ("/api/v1/handbooks/fow4/tb-germany/1/units/NOPE/", "Test Book Germany has no unit 'NOPE'."),
    ("/api/v1/handbooks/fow4/tb-germany/1/formations/NOPE/", "Test Book Germany has no formation 'NOPE'."),
])
def test_unknown_codes_and_impossible_revisions_in_paths_are_404(anon, germany, path, detail):
    response = anon.get(path)
    assert response.status_code == 404
    assert response.json() == {"detail": detail, "problems": []}


def test_an_invalid_token_is_a_401_even_on_open_endpoints(germany):
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert_error(client.get("/api/v1/systems/"), 401, "Invalid token.")


def test_a_path_with_a_newline_in_it_is_still_a_json_404(anon):
    assert_error(anon.get("/api/v1/lists/%0A/"), 404, "No API endpoint at")
