"""The start page, my lists, import, export and the share page."""
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from armybuilder.lists.listjson import MAX_BYTES
from armybuilder.lists.models import ArmyList
from armybuilder.lists.selectors import army_list_document

from .conftest import action

pytestmark = pytest.mark.django_db


def test_the_start_page_offers_current_books_grouped_by_system(afrika, client):
    html = client.get(reverse("web:start")).content.decode()
    assert '<optgroup label="Flames of War (4th edition)">' in html
    assert "Sample Afrika Korps (illustrative)" in html
    assert "No lists yet" in html


def test_starting_a_list_opens_the_builder_with_an_empty_state(afrika, client):
    response = client.post(reverse("web:start"), {"handbook": afrika.pk, "points_limit": 75, "name": ""})
    army = ArmyList.objects.get()
    assert response["Location"] == reverse("web:builder", args=[army.public_id])
    html = client.get(response["Location"]).content.decode()
    assert army.points_limit == 75
    assert "No formation yet" in html and "Add a formation" in html
    assert "The force has no formation." in html


def test_starting_without_a_book_says_what_is_missing(afrika, client):
    response = client.post(reverse("web:start"), {"handbook": "", "points_limit": 100})
    assert response.status_code == 400
    assert "field-error" in response.content.decode()
    assert not ArmyList.objects.exists()


def test_a_diagram_shows_hq_black_and_grey_boxes_with_hints(player_client, army):
    html = player_client.get(reverse("web:builder", args=[army.public_id])).content.decode()
    assert 'class="box box--hq' in html and 'class="box box--black' in html and 'class="box box--grey' in html
    assert "Compulsory: pick one" in html and "Optional: pick up to one" in html
    for column in ("HQ", "Combat", "Weapons", "Support"):
        assert f'<h4 class="column-name">{column}' in html
    assert "Support: not part of the formation" in html
    assert 'id="support-box-force-artillery"' in html  # the book's force-level support


def test_the_builder_has_labelled_live_totals_and_issue_panel(player_client, army):
    html = player_client.get(reverse("web:builder", args=[army.public_id])).content.decode()
    assert 'id="summary"' in html and 'aria-live="polite"' in html
    assert 'id="issues"' in html
    assert 'hx-headers=\'{"X-CSRFToken": "' in html
    assert "django_htmx/htmx-2.min.js" in html


def test_my_lists_show_the_players_lists_only(player_client, other_client, army):
    link = f'href="{reverse("web:builder", args=[army.public_id])}"'
    assert link in player_client.get(reverse("web:start")).content.decode()
    assert link not in other_client.get(reverse("web:start")).content.decode()


def test_rename_copy_and_delete_from_my_lists(player_client, army):
    player_client.post(reverse("web:rename", args=[army.public_id]), {"version": army.version, "name": "Afrika"})
    army.refresh_from_db()
    assert army.name == "Afrika"
    response = player_client.post(reverse("web:copy", args=[army.public_id]))
    copy = ArmyList.objects.exclude(pk=army.pk).get()
    assert response["Location"] == reverse("web:builder", args=[copy.public_id])
    assert copy.name == "Copy of Afrika" and copy.owner == army.owner
    assert army_list_document(copy)["formations"] == army_list_document(army)["formations"]
    assert "Delete “Afrika”?" in player_client.get(reverse("web:delete", args=[army.public_id])).content.decode()
    army.refresh_from_db()
    player_client.post(reverse("web:delete", args=[army.public_id]), {"version": army.version})
    assert not ArmyList.objects.filter(pk=army.pk).exists()


def test_export_downloads_the_json_document_with_a_server_chosen_name(player_client, army):
    response = player_client.get(reverse("web:export", args=[army.public_id]))
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == 'attachment; filename="desert-fox.json"'
    assert json.loads(response.content) == army_list_document(army)


def test_importing_a_pasted_list_creates_it_for_the_visitor(army, client):
    text = json.dumps(army_list_document(army))
    response = client.post(reverse("web:import"), {"text": text})
    imported = ArmyList.objects.exclude(pk=army.pk).get()
    assert response["Location"] == reverse("web:builder", args=[imported.public_id])
    assert imported.owner is None and imported.session_key == client.session.session_key
    assert client.get(response["Location"]).status_code == 200


def test_importing_an_uploaded_file_works_too(army, player_client):
    upload = SimpleUploadedFile("list.json", json.dumps(army_list_document(army)).encode(), "application/json")
    response = player_client.post(reverse("web:import"), {"file": upload})
    assert response.status_code == 302
    assert ArmyList.objects.filter(owner=army.owner).count() == 2


def test_import_errors_are_shown_with_their_pointers_and_nothing_is_saved(army, client):
    doc = army_list_document(army)
    doc["formations"][0]["units"][1]["size"] = "99x"
    doc["points_limit"] = "lots"
    response = client.post(reverse("web:import"), {"text": json.dumps(doc)})
    html = response.content.decode()
    assert response.status_code == 400
    assert '<code class="pointer">/points_limit</code>' in html
    assert ArmyList.objects.count() == 1


@pytest.mark.parametrize("text, words", [
    ("{not json", "not valid JSON"),
    ("[]", "must be a JSON object"),
    ("x" * (MAX_BYTES + 10), "at most"),
    ("", "Choose a file or paste a list"),
])
def test_unreadable_imports_say_why(books, client, text, words):
    response = client.post(reverse("web:import"), {"text": text})
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not ArmyList.objects.exists()


def test_a_semantically_wrong_import_lists_every_problem(army, client):
    doc = army_list_document(army)
    doc["formations"][0]["units"][1]["size"] = "99x"
    doc["cards"] = [{"card": "no-such-card"}]
    html = client.post(reverse("web:import"), {"text": json.dumps(doc)}).content.decode()
    assert "/formations/0/units/1/size" in html and "/cards/0" in html


def test_the_share_page_shows_points_and_issues_read_only(player_client, army):
    action(player_client, army, "visibility", visibility="shared")
    army.refresh_from_db()
    html = Client().get(reverse("web:shared", args=[army.public_id and army.share_token])).content.decode()
    assert "Panzer III Tank Platoon" in html and "Problems" in html and "Not legal" in html
    assert "<form" not in html.split('<main', 1)[1].split('</main>', 1)[0]


def test_the_print_roster_link_appears_only_when_the_pdf_view_exists(player_client, army):
    from django.urls import NoReverseMatch
    from django.urls import reverse as rev

    html = player_client.get(reverse("web:builder", args=[army.public_id])).content.decode()
    try:
        url = rev("pdf:roster", args=[army.public_id])
    except NoReverseMatch:
        assert "Print roster (PDF)" not in html
    else:
        assert f'href="{url}"' in html and "Print roster (PDF)" in html


def test_a_list_built_on_a_system_without_rules_still_opens(books, client, sample_data):
    from handbooks.models import Handbook

    book = Handbook.objects.get(code="sample-oww2-germany", is_current=True)
    response = client.post(reverse("web:start"), {"handbook": book.pk, "name": "Pyramid"})
    html = client.get(response["Location"]).content.decode()
    assert "Pyramid" in html and "Add a formation" in html
