"""POST /api/v1/check: a document in, the engine's report out, nothing saved; rate-limited."""
import pytest
from django.conf import settings
from django.test import override_settings

from armybuilder.lists.models import ArmyList

from ..rules.listdocs import listdoc, tank_company, unit

pytestmark = pytest.mark.django_db


def check(client, document):
    return client.post("/api/v1/check", document, format="json")


def test_a_legal_document_gets_a_legal_report_and_nothing_is_saved(anon, germany):
    response = check(anon, listdoc(tank_company()))
    assert response.status_code == 200
    body = response.json()
    assert body["legal"] is True and body["total_points"] == 21 and body["issues"] == []
    assert body["formation_points"] == {"/formations/0": 21}
    assert not ArmyList.objects.exists()


def test_a_document_that_breaks_the_rules_is_200_with_issues_at_pointers(anon, germany):
    document = listdoc(tank_company(), points_limit=20)
    response = check(anon, document)
    body = response.json()
    assert response.status_code == 200 and body["legal"] is False
    over = [i for i in body["issues"] if "21 points, 1 more than" in i["message"]]
    assert len(over) == 1 and over[0]["severity"] == "error"


def test_a_missing_black_box_is_reported_with_its_rule(anon, germany):
    document = listdoc({"formation": "F1", "allied": False, "units": [unit("F1/hq", "HQ1", "1x")]})
    issues = check(anon, document).json()["issues"]
    missing = [i for i in issues if i["code"] == "fow.black_box.missing"]
    assert missing and missing[0]["pointer"] == "/formations/0" and missing[0]["rule"]["system"] == "Flames of War"


def test_an_unreadable_document_is_a_400_with_every_problem(anon, germany):
    document = listdoc(tank_company())
    document["formations"][0]["units"][1]["size"] = "9x"
    document["handbook"]["revision"] = "one"
    response = check(anon, document)
    assert response.status_code == 400
    assert {p["pointer"] for p in response.json()["problems"]} >= {"/handbook/revision"}


def test_unknown_codes_are_a_400_at_their_pointers(anon, germany):
    document = listdoc(tank_company(unit("F1/g1", "NOPE", "4x")))
    response = check(anon, document)
    assert response.status_code == 400
    assert [p["pointer"] for p in response.json()["problems"]] == ["/formations/0/units/3/unit"]


def rates(**changes):
    return override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **changes}})


def test_anonymous_checks_are_throttled_with_429_and_retry_after(anon, germany):
    with rates(check_anon="3/minute"):
        statuses = [check(anon, listdoc(tank_company())).status_code for _ in range(4)]
        last = check(anon, listdoc(tank_company()))
    assert statuses == [200, 200, 200, 429]
    assert last.status_code == 429 and int(last["Retry-After"]) > 0
    assert last.json()["detail"].startswith("Request was throttled.")


def test_signed_in_users_have_their_own_larger_allowance(anon, owner_client, germany):
    with rates(check_anon="1/minute", check_user="3/minute"):
        assert check(anon, listdoc(tank_company())).status_code == 200
        assert check(anon, listdoc(tank_company())).status_code == 429
        assert [check(owner_client, listdoc(tank_company())).status_code for _ in range(4)] == [200, 200, 200, 429]


def test_imports_and_copies_are_throttled_too(owner_client, army):
    with rates(lists_import="2/minute"):
        statuses = [owner_client.post(f"/api/v1/lists/{army.public_id}/copy", format="json").status_code
                    for _ in range(3)]
    assert statuses == [201, 201, 429]
