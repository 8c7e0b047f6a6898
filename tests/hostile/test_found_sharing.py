"""Regression tests: share tokens never changed, so sharing again revived every old link (issue 15)."""
import pytest
from django.test import Client

from armybuilder.lists import services as list_services


def _share_page(token):
    return Client().get(f"/s/{token}/")


@pytest.mark.django_db
def test_sharing_again_after_stop_sharing_gives_a_new_link_and_the_old_one_stays_dead(owned_list, player_client):
    action = f"/lists/{owned_list.public_id}/do/visibility/"
    assert player_client.post(action, {"version": 1, "visibility": "shared"}).status_code == 302
    owned_list.refresh_from_db()
    first = owned_list.share_token
    assert _share_page(first).status_code == 200
    player_client.post(action, {"version": owned_list.version, "visibility": "private"})
    assert _share_page(first).status_code == 404
    owned_list.refresh_from_db()
    player_client.post(action, {"version": owned_list.version, "visibility": "shared"})
    owned_list.refresh_from_db()
    assert owned_list.share_token != first
    assert _share_page(first).status_code == 404
    assert _share_page(owned_list.share_token).status_code == 200


@pytest.mark.django_db
def test_new_link_in_the_builder_kills_the_old_link_and_keeps_the_list_shared(owned_list, player_client):
    list_services.army_list_update(army_list=owned_list, expected_version=1, visibility="shared")
    old = owned_list.share_token
    response = player_client.post(f"/lists/{owned_list.public_id}/do/new-link/", {"version": 2})
    assert response.status_code == 302
    owned_list.refresh_from_db()
    assert owned_list.visibility == "shared" and owned_list.share_token != old
    assert _share_page(old).status_code == 404 and _share_page(owned_list.share_token).status_code == 200


@pytest.mark.django_db
def test_the_api_rotates_the_share_link_with_if_match(owned_list, player_client):
    list_services.army_list_update(army_list=owned_list, expected_version=1, visibility="shared")
    old = str(owned_list.share_token)
    url = f"/api/v1/lists/{owned_list.public_id}/share-link"
    assert player_client.post(url).status_code == 428
    response = player_client.post(url, HTTP_IF_MATCH='"2"')
    assert response.status_code == 200
    new = response.json()["share_token"]
    assert new != old and Client().get(f"/api/v1/shared/{old}/").status_code == 404
    assert Client().get(f"/api/v1/shared/{new}/").status_code == 200


@pytest.mark.django_db
def test_a_new_link_for_a_private_list_is_refused(owned_list, player_client):
    response = player_client.post(f"/api/v1/lists/{owned_list.public_id}/share-link", HTTP_IF_MATCH='"1"')
    assert response.status_code == 400 and "not shared" in response.json()["detail"]
