"""Each builder action, posted as htmx posts it, changes the list and answers with the re-drawn builder."""
import pytest
from django.urls import reverse

from armybuilder.lists.models import ListCard, ListFormation, ListUnit, ListUpgrade
from armybuilder.lists.selectors import army_list_report

from .conftest import action

pytestmark = pytest.mark.django_db


def test_picking_a_unit_redraws_only_its_formation_and_the_points_and_problems_out_of_band(player_client, army):
    page = player_client.get(reverse("web:builder", args=[army.public_id])).content.decode()
    response = action(player_client, army, "pick", formation="/formations/0", box="SG100/panzer-2", unit="SG103")
    assert response.status_code == 200
    html = response.content.decode()
    assert response["HX-Retarget"] == "#f0" and response["HX-Reswap"] == "outerHTML"
    assert html.lstrip().startswith('<section class="formation" id="f0"')  # the formation, not the builder
    assert 'id="f0-u2"' in html and "Panzer IV Tank Platoon" in html
    army.refresh_from_db()
    for oob in ('id="summary"', 'id="issues"', 'id="side-totals"', 'id="cards"',
                f'id="list-version" data-version="{army.version}"'):
        assert oob in html and html.index("hx-swap-oob", html.index(oob)) - html.index(oob) < 300, oob
    assert 'id="support"' not in html and 'id="builder"' not in html and 'id="list-settings"' not in html
    assert 'id="support"' in page
    assert ListUnit.objects.filter(army_list=army, box__code="SG100/panzer-2", unit__code="SG103").exists()


def test_choosing_a_size_updates_the_unit_and_the_points(player_client, army):
    response = action(player_client, army, "size", unit="/formations/0/units/1", size="four-tanks")
    assert response.status_code == 200
    assert ListUnit.objects.get(army_list=army, unit__code="SG102").size.code == "four-tanks"
    report = army_list_report(army)
    assert f'<span class="big">{report.total_points}</span>' in response.content.decode()


def test_a_one_pick_option_swaps_the_previous_choice_out(player_client, army):
    response = action(player_client, army, "upgrade", unit="/formations/0/units/1", upgrade="gun/long-5cm",
                      quantity=1, swap="on")
    assert response.status_code == 200
    chosen = set(ListUpgrade.objects.filter(list_unit__army_list=army, list_unit__unit__code="SG102")
                 .values_list("upgrade__code", flat=True))
    assert chosen == {"long-5cm"}


def test_an_option_can_be_taken_and_dropped_again(player_client, army):
    action(player_client, army, "upgrade", unit="/formations/0/units/1", upgrade="field-kit/schurzen", quantity=1)
    assert ListUpgrade.objects.filter(upgrade__code="schurzen").count() == 1
    action(player_client, army, "upgrade", unit="/formations/0/units/1", upgrade="field-kit/schurzen", quantity=0)
    assert ListUpgrade.objects.filter(upgrade__code="schurzen").count() == 0


def test_removing_a_black_box_unit_shows_the_error_with_its_fix_linked_to_the_box(player_client, army):
    response = action(player_client, army, "remove-unit", unit="/formations/0/units/1")
    html = response.content.decode()
    assert not ListUnit.objects.filter(army_list=army, unit__code="SG102").exists()
    assert 'href="#f0-box-sg100-panzer-1"' in html
    assert "Fix:</strong> Add one unit from: Panzer III Tank Platoon, Panzer IV Tank Platoon." in html
    assert 'id="f0-box-sg100-panzer-1"' in html


def test_force_support_is_picked_without_a_formation(player_client, army):
    action(player_client, army, "pick", formation="", box="force/artillery", unit="SG110")
    unit = ListUnit.objects.get(army_list=army, unit__code="SG110")
    assert unit.list_formation is None


def test_a_command_card_is_added_to_its_target_and_removed_again(player_client, army):
    response = action(player_client, army, "add-card", card="veteran-panzer-crews", target="/formations/0/units/1")
    assert response.status_code == 200
    card = ListCard.objects.get(army_list=army)
    assert card.target_unit.unit.code == "SG102"
    assert 'id="c0"' in response.content.decode()
    action(player_client, army, "remove-card", card="/cards/0")
    assert not ListCard.objects.filter(army_list=army).exists()


def test_a_formation_card_targets_a_formation(player_client, army):
    action(player_client, army, "add-formation", formation="SG150")
    action(player_client, army, "add-card", card="mixed-battlegroup", target="/formations/1")
    assert ListCard.objects.get(army_list=army).target_formation.formation.code == "SG150"


def test_settings_rename_and_set_the_limit_and_variant(player_client, army):
    response = action(player_client, army, "settings", name="Ghost Division", points_limit=120, variant="pz21")
    assert "Saved." in response.content.decode()
    army.refresh_from_db()
    assert (army.name, army.points_limit, army.variant) == ("Ghost Division", 120, "pz21")


def test_an_allied_formation_comes_from_a_book_of_an_allowed_nation(player_client, army):
    page = player_client.get(reverse("web:builder", args=[army.public_id])).content.decode()
    assert 'value="sample-italy|' in page and "sample-desert-rats|" not in page
    ally = page.split('value="sample-italy|', 1)[1].split('"', 1)[0]
    response = action(player_client, army, "add-formation", ally=f"sample-italy|{ally}")
    assert response.status_code == 200
    formation = ListFormation.objects.get(army_list=army, allied=True)
    assert formation.formation.handbook.code == "sample-italy"
    assert "Allied Formation" in response.content.decode()


def test_an_allied_formation_from_a_book_not_allowed_is_refused_with_a_message(player_client, army):
    response = action(player_client, army, "add-formation", ally="sample-desert-rats|SB100")
    assert response.status_code == 200  # htmx swaps the builder with the message in it
    assert "not a book your force may take allies from" in response.content.decode()
    assert not ListFormation.objects.filter(army_list=army, allied=True).exists()


def test_removing_a_formation_removes_its_units(player_client, army):
    action(player_client, army, "remove-formation", formation="/formations/0")
    assert not ListFormation.objects.filter(army_list=army).exists()
    assert not ListUnit.objects.filter(army_list=army).exists()


def test_sharing_shows_a_read_only_link_and_can_be_turned_off(player_client, army):
    html = action(player_client, army, "visibility", visibility="shared").content.decode()
    army.refresh_from_db()
    assert army.visibility == "shared"
    assert f"/s/{army.share_token}/" in html
    action(player_client, army, "visibility", visibility="private")
    army.refresh_from_db()
    assert army.visibility == "private"


@pytest.mark.parametrize("name, data, words", [
    ("pick", {"formation": "/formations/0", "box": "SG100/panzer-2", "unit": "NOPE"}, "does not offer"),
    ("pick", {"formation": "/formations/7", "box": "SG100/panzer-2", "unit": "SG103"}, "no longer there"),
    ("pick", {"formation": "/etc/passwd", "box": "x", "unit": "y"}, "formation"),
    ("size", {"unit": "/formations/0/units/1", "size": "99x"}, "has no size"),
    ("size", {"unit": "/formations/0/units/9", "size": "two-tanks"}, "no longer there"),
    ("upgrade", {"unit": "/formations/0/units/1", "upgrade": "gun/laser", "quantity": 1}, "has no option"),
    ("upgrade", {"unit": "/formations/0/units/1", "upgrade": "gun/long-5cm", "quantity": 999}, "quantity"),
    ("add-card", {"card": "no-such-card"}, "has no command card"),
    ("add-card", {"card": "veteran-panzer-crews", "target": "/support/3"}, "no longer there"),
    ("remove-card", {"card": "/cards/0"}, "no longer there"),
    ("settings", {"name": "", "points_limit": 100}, "name"),
    ("settings", {"name": "X", "variant": "pz99"}, "not a variant"),
    ("visibility", {"visibility": "public"}, "visibility"),
    ("add-formation", {"formation": "NOPE"}, "has no formation"),
    ("add-formation", {}, "Choose a formation"),
])
def test_nonsense_is_answered_with_a_clear_message_and_changes_nothing(player_client, army, name, data, words):
    before = army.version
    response = action(player_client, army, name, **data)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="alert alert--error"' in html
    assert words.lower() in html.lower()
    army.refresh_from_db()
    assert army.version == before


def test_without_htmx_a_problem_renders_the_whole_page_with_the_message(player_client, army):
    url = reverse("web:action", args=[army.public_id, "size"])
    response = player_client.post(url, {"version": army.version, "unit": "/formations/0/units/1", "size": "99x"})
    assert response.status_code == 400
    assert "<html" in response.content.decode() and "has no size" in response.content.decode()


def test_without_htmx_an_action_redirects_back_to_the_builder(player_client, army):
    url = reverse("web:action", args=[army.public_id, "size"])
    response = player_client.post(url, {"version": army.version, "unit": "/formations/0/units/1",
                                        "size": "two-tanks"})
    assert response.status_code == 302
    assert response["Location"] == reverse("web:builder", args=[army.public_id])


def test_an_unknown_action_is_not_found(player_client, army):
    assert action(player_client, army, "launch-missiles").status_code == 404


def test_an_action_by_get_is_not_allowed(player_client, army):
    assert player_client.get(reverse("web:action", args=[army.public_id, "pick"])).status_code == 405


def test_the_command_cards_section_is_sent_only_when_it_would_show_something_else(player_client, army):
    page = player_client.get(reverse("web:builder", args=[army.public_id])).content.decode()
    digest = page.split('id="cards"', 1)[1].split('data-digest="', 1)[1].split('"', 1)[0]
    # A size change alters no card offer: the page's digest still holds, so the section stays out.
    same = action(player_client, army, "size", unit="/formations/0/units/1", size="four-tanks",
                  HTTP_X_CARDS_DIGEST=digest)
    assert 'id="cards"' not in same.content.decode() and 'id="summary"' in same.content.decode()
    # A new unit is a new target for unit cards: the section goes along, with its new digest.
    picked = action(player_client, army, "pick", formation="/formations/0", box="SG100/panzer-2", unit="SG103",
                    HTTP_X_CARDS_DIGEST=digest)
    html = picked.content.decode()
    assert 'id="cards"' in html and f'data-digest="{digest}"' not in html
