"""The builder for Operation WW2, Hail of Fire and War Ain't Fair: points only where a system has them,
per-system figures, the year, option pools and formations bought with options, set-up letters."""
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from armybuilder.lists import services as s
from armybuilder.lists.listjson import parse_list_json
from armybuilder.lists.models import ArmyList, ListFormation, ListUnit
from handbooks.models import Handbook
from tests.factories import ArmyListFactory, ListFormationFactory

from .conftest import action

EXAMPLES = Path(settings.BASE_DIR) / "docs" / "examples"


def imported(name: str, **owner) -> ArmyList:
    return s.army_list_import(doc=parse_list_json((EXAMPLES / name).read_bytes()), **owner)


@pytest.fixture
def oww2(sample_data, player):
    return imported("oww2-grenadier-platoon.json", owner=player)


@pytest.fixture
def hof(sample_data, player):
    return imported("hof-kampfgruppe.json", owner=player)


@pytest.fixture
def waf(sample_data, player):
    return imported("waf-grenadier-company.json", owner=player)


def page(client, army) -> str:
    response = client.get(reverse("web:builder", args=[army.public_id]))
    assert response.status_code == 200
    return response.content.decode()


# -- points only where the system has them ----------------------------------------------------------------------

@pytest.mark.parametrize("fixture", ["hof", "waf"])
def test_systems_without_points_show_no_points_and_no_points_limit(request, player_client, fixture):
    army = request.getfixturevalue(fixture)
    html = page(player_client, army)
    assert 'name="points_limit"' not in html
    assert " pts" not in html and " pt<" not in html and "points</span>" not in html
    assert 'class="total-points"' not in html
    assert "Legal" in html


def test_operation_ww2_shows_points_and_the_limit(oww2, player_client):
    html = page(player_client, oww2)
    assert 'name="points_limit"' in html
    assert "1230" in html and "/ 3500 points" in html


def test_the_start_page_marks_books_without_points_and_ignores_a_points_limit_for_them(sample_data, player,
                                                                                      player_client):
    html = player_client.get(reverse("web:start")).content.decode()
    hof_book = Handbook.objects.get(code="sample-hof-germany", is_current=True)
    oww2_book = Handbook.objects.get(code="sample-oww2-germany", is_current=True)
    assert f'value="{hof_book.pk}" data-uses-points="false"' in html
    assert f'value="{oww2_book.pk}" data-uses-points="true"' in html
    response = player_client.post(reverse("web:start"), {"handbook": hof_book.pk, "points_limit": "100", "name": "KG"})
    assert response.status_code == 302
    assert ArmyList.objects.get(name="KG").points_limit is None


def test_saving_settings_of_a_list_without_points_keeps_no_limit(hof, player_client):
    response = action(player_client, hof, "settings", name="Kampfgruppe Krause", points_limit="150", variant="")
    assert response.status_code == 200
    hof.refresh_from_db()
    assert hof.name == "Kampfgruppe Krause" and hof.points_limit is None


def test_the_shared_page_of_a_hail_of_fire_list_shows_no_points(hof, player_client, client):
    s.army_list_update(army_list=hof, visibility="shared")
    html = client.get(reverse("web:shared", args=[hof.share_token])).content.decode()
    assert " pts" not in html and "Break limit" in html


# -- figures panels -------------------------------------------------------------------------------------------------

def test_hail_of_fire_figures_are_labelled(hof, player_client):
    html = page(player_client, hof)
    for text in ("Break limit", "5 + 2 per unit (5)", "Order dice", "Expected Order Points", "3.5",
                 "from 1 to 6", "Objectives if defending", "Artillery fire missions", "10.5cm Artillery Battery",
                 "3 fire missions", "medium artillery; 2 RFPs per barrage hit", "Hero Points"):
        assert text in html, text


def test_war_aint_fair_figures_are_labelled(waf, player_client):
    html = page(player_client, waf)
    for text in ("Dummy cards", "Outflanking", "0 of at most 3", "Nation modifier", "+1", "Coherency",
                 "Company HQ", "12&quot;", "Battalion or Force HQ", "30&quot;", "Morale", "9 or less", "Elite",
                 "8 or less"):
        assert text in html, text


def test_operation_ww2_figures_are_labelled(oww2, player_client):
    html = page(player_client, oww2)
    for text in ("6 / 8 units", "First hand", "13 cards", "Germany base 7 + 1 per unit (6)", "WAIT actions",
                 "Option pools", "3 of 3 options spent", "1 of 2 options spent"):
        assert text in html, text


# -- Operation WW2: year, option pools, formations bought with options ---------------------------------------------

def test_the_year_is_saved_and_dates_become_warnings_not_errors(oww2, player_client):
    response = action(player_client, oww2, "settings", name=oww2.name, points_limit="3500", variant="", year="1941")
    assert response.status_code == 200
    oww2.refresh_from_db()
    assert oww2.year == 1941
    html = response.content.decode()
    assert 'id="list-year"' in html and 'value="1941"' in html
    assert "issue--warning" in html and "Panzer IV Ausf. H" in html
    assert 'class="badge badge--ok">Legal' in html  # dates warn, they do not make the list illegal


@pytest.mark.parametrize("year", ["1800", "nineteen", "99999"])
def test_a_bad_year_is_refused_with_a_message(oww2, player_client, year):
    response = action(player_client, oww2, "settings", name=oww2.name, points_limit="3500", variant="", year=year)
    assert response.status_code == 200  # htmx swaps the builder with the message in it
    assert 'class="alert alert--error"' in response.content.decode()
    assert "year:" in response.content.decode()
    oww2.refresh_from_db()
    assert oww2.year == 1944


def test_options_boxes_show_option_costs_and_the_pool_left(oww2, player_client):
    html = page(player_client, oww2)
    assert "0 options left" in html and "1 option left" in html
    assert "2 options · not enough left" in html  # Panzer Section in the spent-out Grenadier Platoon pool
    assert '<span class="option-cost">1 option</span>' in html  # an affordable choice in the Panzer Section


def test_a_standard_formation_is_bought_with_options_and_drawn_under_its_parent(sample_data, player, player_client):
    army = ArmyListFactory(owner=player, book="sample-oww2-germany", name="Pyramid", points_limit=3500)
    html = page(player_client, army)
    assert "Add a formation: the Standard formation your army starts from" in html
    response = action(player_client, army, "add-formation", formation="OG100")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Add a formation" not in html and "The army grows from its Standard choice" in html
    response = action(player_client, army, "add-formation", formation="OG150", parent="/formations/0",
                      via_box="OG100/options")
    assert response.status_code == 200
    child = ListFormation.objects.get(army_list=army, formation__code="OG150")
    assert child.parent.formation.code == "OG100" and child.via_box.code == "OG100/options"
    html = response.content.decode()
    assert "bought with Grenadier Platoon options" in html
    assert 'formation--child' in html
    assert html.index('id="f0"') < html.index('id="f1"')
    assert "2 of 3 options spent" in html


def test_a_formation_not_offered_by_the_options_box_is_refused(sample_data, player, player_client):
    army = ArmyListFactory(owner=player, book="sample-oww2-germany", name="Pyramid", points_limit=3500)
    ListFormationFactory(army_list=army, formation_code="OG150")
    response = action(player_client, army, "add-formation", formation="OG100", parent="/formations/0",
                      via_box="OG150/options")
    assert 'class="alert alert--error"' in response.content.decode()
    assert "offers no option" in response.content.decode()
    assert ListFormation.objects.filter(army_list=army).count() == 1


def test_children_are_drawn_right_after_their_parent(sample_data, player, player_client):
    army = ArmyListFactory(owner=player, book="sample-oww2-germany", name="Two roots", points_limit=3500)
    root = ListFormationFactory(army_list=army, formation_code="OG100")
    ListFormationFactory(army_list=army, formation_code="OG150")  # a second root: an error, still drawn
    ListFormationFactory(army_list=army, formation_code="OG150", parent=root, via_box_code="OG100/options")
    html = page(player_client, army)
    assert html.index('id="f0"') < html.index('id="f2"') < html.index('id="f1"')


# -- War Ain't Fair: set-up letters and outflanking ------------------------------------------------------------------

def test_a_letter_and_an_outflank_are_set_and_shown_on_the_diagram(waf, player_client):
    response = action(player_client, waf, "setup", target="/formations/0/units/3", letter=" x ", outflank="left")
    assert response.status_code == 200
    unit = ListUnit.objects.filter(list_formation__army_list=waf).order_by("order", "pk")[3]
    assert unit.letter == "X" and unit.outflank == "left"
    html = response.content.decode()
    assert '<span class="setup-letter" title="Set-up letter">X</span> HMG Section' in html
    assert "Outflank left" in html and "1 of at most 3" in html and "Set-up saved." in html


def test_a_duplicate_letter_is_an_error_tied_to_the_unit(waf, player_client):
    response = action(player_client, waf, "setup", target="/formations/0/units/3", letter="A", outflank="")
    html = response.content.decode()
    assert 'data-code="waf.letter.duplicate"' in html
    assert 'href="#f0-u3"' in html
    assert "Not legal" in html


@pytest.mark.parametrize("data, problem", [
    ({"target": "/formations/0/units/3", "letter": "ABCDE", "outflank": ""}, "letter"),
    ({"target": "/formations/0/units/3", "letter": "A!", "outflank": ""}, "letter"),
    ({"target": "/formations/0/units/3", "letter": "Q", "outflank": "centre"}, "outflank"),
    ({"target": "/formations/0/units/99", "letter": "Q", "outflank": ""}, "no longer there"),
    ({"target": "nonsense", "letter": "Q", "outflank": ""}, "target"),
    ({"target": "/formations/0", "letter": "Q", "outflank": "left"}, "only a unit"),
])
def test_bad_set_up_input_is_refused_without_changes(waf, player_client, data, problem):
    before = waf.version
    response = action(player_client, waf, "setup", **data)
    assert 'class="alert alert--error"' in response.content.decode()
    assert problem.lower() in response.content.decode().lower()
    waf.refresh_from_db()
    assert waf.version == before


def test_a_formation_letter_can_be_set(waf, player_client):
    response = action(player_client, waf, "setup", target="/formations/0", letter="K")
    assert response.status_code == 200
    assert ListFormation.objects.get(army_list=waf).letter == "K"
    assert '<span class="setup-letter" title="Set-up letter">K</span> Grenadier Company' in response.content.decode()


def test_without_htmx_a_refused_set_up_answers_400(waf, player_client):
    url = reverse("web:action", args=[waf.public_id, "setup"])
    response = player_client.post(url, {"version": waf.version, "target": "/formations/0/units/0", "letter": "??"})
    assert response.status_code == 400
    assert "one to four letters or digits" in response.content.decode()


def test_set_up_of_someone_elses_list_is_404(waf, other_client, client):
    url = reverse("web:action", args=[waf.public_id, "setup"])
    data = {"version": waf.version, "target": "/formations/0/units/0", "letter": "Z", "outflank": ""}
    assert other_client.post(url, data).status_code == 404
    assert client.post(url, data).status_code == 404
    assert ListUnit.objects.filter(list_formation__army_list=waf, letter="Z").count() == 0


# -- half-built lists and pasted links --------------------------------------------------------------------------------

@pytest.mark.parametrize("code", ["sample-oww2-germany", "sample-hof-germany", "sample-waf-germany",
                                  "sample-oww2-usa", "sample-hof-usa", "sample-waf-britain"])
def test_an_empty_list_of_every_system_draws_its_figures(sample_data, player, player_client, code):
    army = ArmyListFactory(owner=player, book=code, name="Empty")
    html = page(player_client, army)
    assert 'id="figures"' in html and "Not legal" in html


@pytest.mark.parametrize("text, token", [
    ("https://example.org/s/0F8FAD5B-D9CB-469F-A165-70867728950E/", "0f8fad5b-d9cb-469f-a165-70867728950e"),
    ("http://testserver/s/0f8fad5b-d9cb-469f-a165-70867728950e/export.json", "0f8fad5b-d9cb-469f-a165-70867728950e"),
    ("  0f8fad5b-d9cb-469f-a165-70867728950e  ", "0f8fad5b-d9cb-469f-a165-70867728950e"),
    ("https://example.org/lists/0f8fad5b-d9cb-469f-a165-70867728950e/", None),  # a private builder URL
    ("https://example.org/s/not-a-token/", None),
    ("", None),
])
def test_share_tokens_are_read_from_pasted_links(text, token):
    from armybuilder.lists.matchups.selectors import share_token_from_link

    assert share_token_from_link(text) == token
