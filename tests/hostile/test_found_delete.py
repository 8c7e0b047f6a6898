"""Regression tests: If-Match protects DELETE (issue 15: a PATCH and a DELETE with the same If-Match both
succeeded, and once a DELETE answered 204 while the list stayed; the web delete ignored the version)."""
import pytest

from armybuilder.lists import services as list_services
from armybuilder.lists.models import ArmyList
from armybuilder.lists.services import ListGoneError, StaleListError

from .conftest import page_text


@pytest.mark.django_db
def test_a_delete_with_the_version_before_a_patch_fails_and_deletes_nothing(owned_list):
    list_services.army_list_update(army_list=owned_list, expected_version=1, name="Renamed")  # the PATCH lands
    with pytest.raises(StaleListError):
        list_services.army_list_delete(army_list=owned_list, expected_version=1)
    assert ArmyList.objects.get(pk=owned_list.pk).name == "Renamed"


@pytest.mark.django_db
def test_a_patch_after_the_delete_finds_the_list_gone_and_answers_404(owned_list, player_client):
    url = f"/api/v1/lists/{owned_list.public_id}/"
    assert player_client.delete(url, HTTP_IF_MATCH='"1"').status_code == 204
    with pytest.raises(ListGoneError):
        list_services.army_list_update(army_list=owned_list, expected_version=1, name="Too late")
    assert not ArmyList.objects.filter(pk=owned_list.pk).exists()


@pytest.mark.django_db
def test_the_api_delete_with_a_stale_if_match_is_a_412_and_the_list_stays(owned_list, player_client):
    url = f"/api/v1/lists/{owned_list.public_id}/"
    assert player_client.patch(url, {"name": "New"}, content_type="application/json",
                               HTTP_IF_MATCH='"1"').status_code == 200
    response = player_client.delete(url, HTTP_IF_MATCH='"1"')
    assert response.status_code == 412
    assert ArmyList.objects.get(pk=owned_list.pk).name == "New"


@pytest.mark.django_db
def test_the_web_delete_honours_the_version_the_player_saw(owned_list, player_client):
    url = f"/lists/{owned_list.public_id}/delete/"
    list_services.army_list_update(army_list=owned_list, expected_version=1, name="Changed in another tab")
    response = player_client.post(url, {"version": 1})
    assert response.status_code == 409
    assert "changed in another tab or window since you asked to delete it: nothing was deleted" in \
        page_text(response)
    assert ArmyList.objects.filter(pk=owned_list.pk).exists()
    # the page now carries the current version: deleting from it works
    assert 'name="version" value="2"' in response.content.decode()
    assert player_client.post(url, {"version": 2}).status_code == 302
    assert not ArmyList.objects.filter(pk=owned_list.pk).exists()


@pytest.mark.django_db
def test_the_web_delete_without_a_version_is_a_400_and_deletes_nothing(owned_list, player_client):
    response = player_client.post(f"/lists/{owned_list.public_id}/delete/")
    assert response.status_code == 400 and "version" in page_text(response)
    assert ArmyList.objects.filter(pk=owned_list.pk).exists()


@pytest.mark.django_db
def test_the_confirmation_page_warns_when_the_builder_link_carried_an_old_version(owned_list, player_client):
    list_services.army_list_update(army_list=owned_list, expected_version=1, name="Changed")
    response = player_client.get(f"/lists/{owned_list.public_id}/delete/?version=1")
    assert response.status_code == 200 and "nothing was deleted" in page_text(response)
