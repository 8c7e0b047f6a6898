"""A fifth game system added as docs/systems.md says (tests/systems/toy.py: a GameSystem, a rules module,
two templates, a system file and a book) works in the builder page, the API and the printed roster,
and nothing outside armybuilder/systems needed a change for it."""
import json
from io import BytesIO

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader
from rest_framework.test import APIClient

from armybuilder.lists import catalog as gamedata
from armybuilder.lists import services as list_services
from armybuilder.rules import engine
from armybuilder.systems import system_for, system_get, system_registered
from handbooks.models import Handbook
from handbooks.services import handbooks_load_paths

from . import toy_rules
from .toy import TEMPLATES, TOY, write_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def toy_book(tmp_path, settings):
    settings.TEMPLATES = [{**engine_, "DIRS": [*engine_.get("DIRS", []), TEMPLATES]} for engine_ in settings.TEMPLATES]
    results = handbooks_load_paths([write_data(tmp_path)])
    assert all(r.ok for r in results), [str(p) for r in results for p in r.problems]
    gamedata.clear_cache()
    with system_registered(TOY):
        yield Handbook.objects.get(system__code="toy", code="toy-guard", is_current=True)
    gamedata.clear_cache()


@pytest.fixture
def player(db):
    return get_user_model().objects.create_user("rassendyll", password="pw-not-secret-123")


@pytest.fixture
def api(player):
    client = APIClient()
    client.force_authenticate(player)
    return client


def document(*, squads: int = 0, guns: int = 0, points_limit: int = 20) -> dict:
    """A toy list: the Guard Company's captain, ``squads`` Guard Squads, and ``guns`` Field Guns as support."""
    units = [{"box": "TCOY/hq", "unit": "TCAPT", "size": "one", "upgrades": []}]
    units += [{"box": "TCOY/line", "unit": "TSQUAD", "size": "three", "upgrades": []} for _ in range(squads)]
    return {"format": "armybuilder-list", "version": 1, "name": "Zenda Guard", "system": "toy",
            "handbook": {"code": "toy-guard", "revision": 1}, "points_limit": points_limit, "variant": None,
            "year": 1938, "notes": "", "formations": [{"formation": "TCOY", "allied": False, "units": units}],
            "support": [{"box": "force/guns", "unit": "TGUN", "size": "one", "upgrades": []} for _ in range(guns)],
            "cards": []}


def test_the_toy_system_is_registered_only_while_the_test_needs_it(toy_book):
    assert system_get("toy") is TOY and engine.MODULES["toy"] is toy_rules


def test_unregistering_the_toy_system_takes_its_rules_back_from_the_engine():
    with system_registered(TOY):
        assert engine.MODULES["toy"] is toy_rules
    assert "toy" not in engine.MODULES
    assert system_for("toy").rules is None and system_for("toy").figures is not TOY.figures


def test_the_builder_page_draws_a_toy_list_with_the_toy_figures_flags_and_sections(toy_book, player):
    army = list_services.army_list_create(owner=player, handbook=toy_book, name="Zenda Guard", points_limit=20)
    browser = Client()
    browser.force_login(player)
    response = browser.get(reverse("web:builder", args=[army.public_id]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Guard Company" in html  # the formation offered from the toy book
    assert "Toy figures" in html and "Units on the table" in html and "0 of at most 2" in html
    assert 'id="list-year"' in html  # uses_year
    assert "Toy support comes from the Guns box only." in html  # support_hint, in the support section
    assert 'id="support"' in html
    assert 'id="cards"' not in html and "Lucky Charm" not in html  # "cards" is not among its builder sections


def test_the_api_creates_checks_and_exports_a_toy_list(toy_book, api):
    created = api.post("/api/v1/lists/", {"system": "toy", "handbook": "toy-guard", "name": "Zenda Guard",
                                          "points_limit": 20}, format="json")
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["system"] == "toy" and body["report"]["system"] == "toy"

    too_many = api.post("/api/v1/check", document(squads=2, guns=1), format="json")
    assert too_many.status_code == 200, too_many.content
    too_many = too_many.json()
    assert [i["code"] for i in too_many["issues"] if i["severity"] == "error"] == ["toy.force.too_many_units"]
    assert too_many["issues"][0]["rule"]["system"] == "Toy Skirmish"
    legal = api.post("/api/v1/check", document(squads=1), format="json").json()
    assert legal["legal"] is True and legal["total_points"] == 2 + 5 and legal["figures"]["toy_units"] == 2

    imported = api.post("/api/v1/lists/import", json.dumps(document(squads=1, guns=1, points_limit=30)),
                        content_type="application/json")
    assert imported.status_code == 201, imported.content
    assert imported.json()["report"]["issues"][0]["code"] == "toy.force.too_many_units"
    public_id = imported.json()["id"]
    exported = api.get(f"/api/v1/lists/{public_id}/export.json")
    assert exported.status_code == 200
    doc = json.loads(exported.content)
    assert doc["system"] == "toy" and doc["year"] == 1938
    assert [u["unit"] for u in doc["formations"][0]["units"]] == ["TCAPT", "TSQUAD"]
    assert [u["unit"] for u in doc["support"]] == ["TGUN"]


def test_the_api_describes_the_toy_systems_list_extras(toy_book, api):
    body = api.get("/api/v1/systems/toy/").json()
    assert body["list_extras"] == [{"pointer": e.pointer, "meaning": e.meaning} for e in TOY.list_extras]


def test_the_printed_roster_of_a_toy_list_uses_the_toy_templates(toy_book, api):
    imported = api.post("/api/v1/lists/import", json.dumps(document(squads=1, guns=1, points_limit=30)),
                        content_type="application/json")
    public_id = imported.json()["id"]
    response = api.get(f"/api/v1/lists/{public_id}/roster.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pdf = b"".join(response.streaming_content) if response.streaming else response.content
    text = "\n".join(page.extract_text() for page in PdfReader(BytesIO(pdf)).pages)
    assert "Toy roster of Toy Skirmish" in text  # toy/roster.html's figures block
    assert "toy units 3" in text.lower()  # the engine's figure, printed by the toy roster
    cards = text.split("Toy card")
    assert len(cards) == 1 + 3  # toy/card.html once per distinct unit: captain, squad, gun
    assert "Stubborn 3+" in text and "Unflinching 2+" in text  # the generic card layout of its stat lines
    assert "Guard Squad" in text and "Field Gun" in text
