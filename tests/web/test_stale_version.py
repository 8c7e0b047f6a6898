"""No lost work: an action from a stale page changes nothing and says so."""
import pytest
from django.urls import reverse

from armybuilder.lists.models import ListUnit
from armybuilder.web.views import STALE_MESSAGE

from .conftest import action

pytestmark = pytest.mark.django_db


def test_every_builder_form_carries_the_lists_version(player_client, army):
    html = player_client.get(reverse("web:builder", args=[army.public_id])).content.decode()
    forms = html.count('hx-post="')
    assert forms > 10
    assert html.count(f'name="version" value="{army.version}"') == forms


def test_an_action_from_an_older_tab_is_refused_and_the_newer_data_stays(player_client, army):
    seen = army.version
    action(player_client, army, "size", unit="/formations/0/units/1", size="four-tanks")  # the other tab
    response = action(player_client, army, "size", unit="/formations/0/units/1", size="two-tanks", version=seen)
    assert response.status_code == 200
    assert STALE_MESSAGE in response.content.decode()
    assert response["HX-Retarget"] == "#builder-alert"  # only the alert is swapped in; the page stays
    assert ListUnit.objects.get(army_list=army, unit__code="SG102").size.code == "four-tanks"


def test_without_htmx_a_stale_action_shows_the_current_list_with_the_message(player_client, army):
    seen = army.version
    action(player_client, army, "remove-unit", unit="/formations/0/units/1")
    url = reverse("web:action", args=[army.public_id, "pick"])
    response = player_client.post(url, {"version": seen, "formation": "/formations/0", "box": "SG100/panzer-2",
                                        "unit": "SG103"})
    assert response.status_code == 409
    assert STALE_MESSAGE in response.content.decode()
    assert not ListUnit.objects.filter(army_list=army, unit__code="SG103").exists()


def test_renaming_from_my_lists_with_a_stale_version_is_refused(player_client, army):
    seen = army.version
    action(player_client, army, "settings", name="Newer", points_limit=100)
    response = player_client.post(reverse("web:rename", args=[army.public_id]), {"version": seen, "name": "Older"})
    assert response.status_code == 409
    army.refresh_from_db()
    assert army.name == "Newer"
