"""Regression tests for access (issue 15): a match-up leaked a private list's name to a visitor who had
joined it through a share link, renames included."""
import pytest

from armybuilder.lists import services as list_services

from .conftest import logged_in, page_text


@pytest.fixture
def visitor_matchup(owned_list, other_player, afrika):
    """The owner shares their list; another player makes a match-up against it through the link."""
    list_services.army_list_update(army_list=owned_list, visibility="shared")
    mine = list_services.army_list_create(owner=other_player, handbook=afrika, name="Desert Foxes")
    client = logged_in(other_player)
    response = client.post("/matchups/", {"list_a": str(mine.public_id),
                                          "opponent_link": f"http://testserver/s/{owned_list.share_token}/"})
    assert response.status_code == 302, page_text(response)
    return client, response["Location"]


@pytest.mark.django_db
def test_a_match_up_no_longer_shows_a_list_made_private_not_even_its_renamed_name(visitor_matchup, owned_list):
    client, url = visitor_matchup
    assert "Panzer Company" in page_text(client.get(url))  # shared: shown
    owned_list.refresh_from_db()
    list_services.army_list_update(army_list=owned_list, name="Secret Plan Zulu", visibility="private")
    for page in (url, "/matchups/"):
        response = client.get(page)
        text = page_text(response)
        assert response.status_code == 200
        assert "Secret Plan Zulu" not in text and "Panzer Company" not in text
        assert "A private list" in text
        assert "Desert Foxes" in text  # the visitor's own list is still named


@pytest.mark.django_db
def test_the_owner_still_sees_both_names_of_their_own_match_up(owned_list, player_client, afrika):
    second = list_services.army_list_create(owner=owned_list.owner, handbook=afrika, name="Second Force")
    response = player_client.post("/matchups/", {"list_a": str(owned_list.public_id),
                                                 "list_b": str(second.public_id)})
    text = page_text(player_client.get(response["Location"]))
    assert "Panzer Company" in text and "Second Force" in text
