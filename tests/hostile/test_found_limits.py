"""Regression tests: request bodies were read before their size was checked, and the anonymous web import had
no rate limit (issue 15)."""
import io
import json

import pytest
from django.test import Client

from armybuilder.lists.models import ArmyList, ListUnit

from .conftest import page_text


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/lists/import.ros", "/api/v1/lists/import", "/api/v1/check"])
def test_an_oversize_api_body_is_a_413_by_its_content_length_before_it_is_read(player_client, path, settings):
    declared = 200 * 1024 * 1024

    class Unreadable(io.BytesIO):
        def read(self, *args):
            raise AssertionError("the body was read")

    response = player_client.generic("POST", path, b"", CONTENT_TYPE="application/octet-stream",
                                     CONTENT_LENGTH=str(declared), **{"wsgi.input": Unreadable()})
    assert response.status_code == 413
    assert response.json()["detail"].startswith(f"The request body is {declared} bytes; this site reads at most")


@pytest.mark.django_db
def test_an_oversize_web_upload_is_a_413_in_plain_words(player_client, settings):
    body = b"x" * (settings.MAX_REQUEST_BYTES + 1)
    response = player_client.post("/import/", {"file": io.BytesIO(body)})
    assert response.status_code == 413 and "this site reads at most" in response.content.decode()
    assert ArmyList.objects.count() == 0


@pytest.mark.django_db
def test_a_roster_body_above_the_roster_limit_is_refused_without_parsing(player_client):
    from armybuilder.interchange.battlescribe.roster import MAX_ROSTER_BYTES

    body = b"<roster>" + b" " * MAX_ROSTER_BYTES + b"</roster>"
    response = player_client.post("/api/v1/lists/import.ros", body, content_type="application/xml")
    assert response.status_code == 413
    assert f"at most {MAX_ROSTER_BYTES} bytes" in response.json()["detail"]


@pytest.mark.django_db
def test_anonymous_web_import_is_rate_limited_and_the_refused_ones_write_nothing(list_document, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "web_import_anon": "3/minute"}
    client = Client()
    body = json.dumps(list_document)
    answers = [client.post("/import/", {"text": body}).status_code for _ in range(5)]
    assert answers == [302, 302, 302, 429, 429]
    assert ArmyList.objects.filter(owner__isnull=True).count() == 3
    refused = client.post("/import/", {"text": body})
    assert "Too many imports from your address" in page_text(refused) and int(refused["Retry-After"]) >= 1
    # another address is counted on its own
    assert Client(REMOTE_ADDR="10.9.8.7").post("/import/", {"text": body}).status_code == 302


@pytest.mark.django_db
def test_anonymous_copies_are_rate_limited(list_document, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "web_copy_anon": "2/minute"}
    client = Client()
    client.post("/import/", {"text": json.dumps(list_document)})
    army_list = ArmyList.objects.get(owner__isnull=True)
    answers = [client.post(f"/lists/{army_list.public_id}/copy/").status_code for _ in range(3)]
    assert answers == [302, 302, 429]
    assert ListUnit.objects.filter(army_list__owner__isnull=True).count() == 0  # the list has no units
    assert ArmyList.objects.filter(owner__isnull=True).count() == 3


@pytest.mark.django_db
def test_a_5000_digit_number_in_a_ros_is_a_clear_refusal_not_an_overflow_500(mini_battlescribe, player_client):
    from armybuilder.lists import services as list_services
    from armybuilder.services.rosters import roster_export

    army_list = list_services.army_list_import(doc=mini_battlescribe)
    ros = roster_export(army_list).decode("utf-8")
    huge = ros.replace('number="1"', 'number="' + "9" * 5000 + '"', 1)
    assert huge != ros
    before = ArmyList.objects.count()
    response = player_client.post("/api/v1/lists/import.ros", huge.encode(), content_type="application/xml")
    assert response.status_code == 400
    problem = response.json()["problems"][0]["message"]
    assert "/number: '99999999999999999999… (5000 characters)' is not a count from 0 to 10000" in problem
    assert ArmyList.objects.count() == before


@pytest.mark.django_db
def test_a_form_with_too_many_fields_gets_a_page_saying_so(player_client, owned_list, settings):
    body = "&".join(f"f{i}=1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))
    response = player_client.post(f"/lists/{owned_list.public_id}/rename/", body,
                                  content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert f"more than {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS} fields" in page_text(response)
