"""Sensible defaults: a new list's points limit from its system's data, variants by name, the figures explained."""
import re

import pytest
from django.test import Client
from django.urls import reverse

from armybuilder.lists import services as s
from armybuilder.lists.models import ArmyList
from handbooks.models import GameSystem, Handbook, SizeOption

from .conftest import action

pytestmark = pytest.mark.django_db


def test_a_new_operation_ww2_list_starts_with_a_limit_a_squad_fits_in(sample_data):
    book = Handbook.objects.filter(system__code="oww2", is_current=True).first()
    client = Client()
    response = client.post(reverse("web:start"), {"handbook": book.pk, "points_limit": "", "name": "Platoon"})
    assert response.status_code == 302
    army = ArmyList.objects.get(name="Platoon")
    limit = GameSystem.objects.get(code="oww2").default_points_limit
    assert army.points_limit == limit
    # the dearest rifle squad of the sample books fits, where the old fixed 100 did not
    squad = SizeOption.objects.filter(unit__handbook=book, label__contains="men").order_by("-points").first()
    assert 100 < squad.points <= limit


def test_the_start_page_offers_each_books_default_limit(sample_data):
    html = Client().get(reverse("web:start")).content.decode()
    defaults = dict(re.findall(r'<option value="(\d+)" data-uses-points="\w+" data-default-points="(\d*)"', html))
    for book in Handbook.objects.filter(is_current=True).select_related("system"):
        expected = book.system.default_points_limit
        assert defaults[str(book.pk)] == (str(expected) if expected else ""), book.code
    assert 'id="id_points_limit"' in html and 'value=""' in html.split('id="id_points_limit"')[1].split(">")[0]


def test_a_variant_is_shown_by_its_name_and_applies_with_the_settings_change(player_client, army):
    response = action(player_client, army, "settings", name=army.name, points_limit=100, variant="pz21")
    assert response.status_code == 200
    html = player_client.get(reverse("web:builder", args=[army.public_id])).content.decode()
    meta = html.split('<p class="meta">', 1)[1].split("</p>", 1)[0]
    assert "21. Panzer-Division" in meta and "pz21" not in meta
    # the variant picker redraws the builder as soon as it changes (no Save needed)
    form = html.split('class="settings-form"', 1)[1].split(">", 1)[0]
    assert 'hx-trigger="submit, change from:#list-variant"' in form


def test_the_flames_of_war_figures_carry_their_explanation(player_client, army):
    html = player_client.get(reverse("web:builder", args=[army.public_id])).content.decode()
    for label in ("Units bought", "Game units"):
        assert re.search(rf'{label}<button type="button" class="figure-help" data-help="[^"]{{20,}}"', html), label


def test_names_and_notes_through_the_builder_action(player_client, army):
    response = action(player_client, army, "name-notes", target="/formations/0/units/1",
                      custom_name="Hahn's Panzers", notes="Left flank.")
    assert response.status_code == 200
    unit = army.units.get(unit__code="SG102")
    assert (unit.custom_name, unit.notes) == ("Hahn's Panzers", "Left flank.")
    html = player_client.get(reverse("web:builder", args=[army.public_id])).content.decode()
    assert "Hahn&#x27;s Panzers <span class=\"book-name\">Panzer III Tank Platoon</span>" in html
    too_long = action(player_client, army, "name-notes", target="/formations/0/units/1", custom_name="x" * 121,
                      notes="")
    assert "alert--error" in too_long.content.decode() and "at most 120" in too_long.content.decode()
    unit.refresh_from_db()
    assert unit.custom_name == "Hahn's Panzers"  # nothing changed
    army.refresh_from_db()
    s.army_list_undo(army_list=army, expected_version=army.version)
    assert army.units.get(unit__code="SG102").custom_name == ""  # undo rewrites the rows: read them afresh
