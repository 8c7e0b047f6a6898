"""Print options chosen in the builder are remembered with the list and used by every roster download of it
(the owner's and the share page's); the PDF read back shows them. War Ain't Fair rosters keep lettered
platoons apart."""
import io
import json
import re
from pathlib import Path

import pytest
from django.test import Client
from pypdf import PdfReader

from armybuilder.lists import services as s
from armybuilder.lists.models import ArmyList

EXAMPLES = Path("docs/examples")
ALL_ON = {"event": "Spring Cup 1943", "player": "Anna Schmidt", "paper": "letter", "cards": "on",
          "formation_pages": "on", "casualties": "on", "pick_list": "on", "chart": "on"}


def pages_of(pdf: bytes) -> list[str]:
    return [" ".join((page.extract_text() or "").split()) for page in PdfReader(io.BytesIO(pdf)).pages]


@pytest.fixture
def owner(db):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("printer", password="pw-not-secret-123")


@pytest.fixture
def client(owner):
    c = Client()
    c.force_login(owner)
    return c


def imported(owner, name: str) -> ArmyList:
    return s.army_list_import(doc=json.loads((EXAMPLES / name).read_text(encoding="utf-8")), owner=owner)


def test_options_are_remembered_and_the_pdf_shows_them(sample_data, owner, client):
    army_list = imported(owner, "fow-afrika-korps-panzer-company.json")
    version = army_list.version
    answer = client.post(f"/lists/{army_list.public_id}/print-options/", ALL_ON, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and b"Print options saved" in answer.content
    army_list.refresh_from_db()
    assert army_list.version == version  # printing is not a change to the list
    assert army_list.print_options["event"] == "Spring Cup 1943" and army_list.print_options["casualties"] is True
    builder = client.get(f"/lists/{army_list.public_id}/").content.decode()
    assert 'value="Spring Cup 1943"' in builder and 'id="print-casualties" checked' in builder

    pdf = client.get(f"/lists/{army_list.public_id}/roster.pdf")
    assert pdf.status_code == 200
    pages = pages_of(pdf.content)
    reader = PdfReader(io.BytesIO(pdf.content))
    assert round(float(reader.pages[0].mediabox.width)) == 612  # Letter: 8.5 in
    assert "Spring Cup 1943" in pages[0] and "Anna Schmidt" in pages[0]
    # one formation per page: each formation's heading starts a page of its own
    doc = json.loads((EXAMPLES / "fow-afrika-korps-panzer-company.json").read_text(encoding="utf-8"))
    assert len(doc["formations"]) == 2
    first = next(i for i, p in enumerate(pages) if "Panzer Company SG100" in p)
    second = next(i for i, p in enumerate(pages) if "Bersaglieri Company SI300" in p)
    assert first != second
    assert "Composition" in pages[0] and "By kind of unit" in pages[0]
    assert any("Pick list: models to bring" in p for p in pages)
    # casualty boxes on the unit cards: one "Casualties" line per card, with the card's team count
    card_pages = [p for p in pages if "Casualties" in p]
    assert card_pages
    assert len(re.findall(r"Casualties \(\d+ teams?", " ".join(card_pages))) >= 5


def test_without_the_options_there_is_none_of_it(sample_data, owner, client):
    army_list = imported(owner, "fow-afrika-korps-panzer-company.json")
    client.post(f"/lists/{army_list.public_id}/print-options/", {"paper": "a4"}, HTTP_HX_REQUEST="true")
    text = " ".join(pages_of(client.get(f"/lists/{army_list.public_id}/roster.pdf").content))
    assert "Casualties" not in text and "Pick list" not in text and "By kind of unit" not in text
    assert "Event —" in text  # no event name chosen


def test_the_share_page_download_uses_the_remembered_options(sample_data, owner, client):
    army_list = imported(owner, "fow-afrika-korps-panzer-company.json")
    client.post(f"/lists/{army_list.public_id}/print-options/", ALL_ON, HTTP_HX_REQUEST="true")
    s.army_list_update(army_list=army_list, expected_version=army_list.version, visibility="shared")
    text = " ".join(pages_of(Client().get(f"/s/{army_list.share_token}/roster.pdf").content))
    assert "Spring Cup 1943" in text and "Casualties" in text
    # the URL still wins when it names options
    text = " ".join(pages_of(Client().get(f"/s/{army_list.share_token}/roster.pdf?cards=0").content))
    assert "Spring Cup 1943" not in text and "Casualties" not in text


def test_bad_print_options_are_refused_and_nothing_is_kept(sample_data, owner, client):
    army_list = imported(owner, "fow-afrika-korps-panzer-company.json")
    answer = client.post(f"/lists/{army_list.public_id}/print-options/", {"paper": "a3", "event": "x" * 500},
                         HTTP_HX_REQUEST="true")
    assert answer.status_code == 400 and b"paper" in answer.content
    army_list.refresh_from_db()
    assert army_list.print_options == {}
    assert Client().post(f"/lists/{army_list.public_id}/print-options/", ALL_ON).status_code == 404


def test_war_aint_fair_roster_shows_letters_and_keeps_platoons_apart(sample_data, owner, client):
    army_list = imported(owner, "waf-grenadier-company.json")
    doc = json.loads((EXAMPLES / "waf-grenadier-company.json").read_text(encoding="utf-8"))
    platoons = [u for u in doc["formations"][0]["units"] if u["unit"] == "WG103"]
    assert [u["letter"] for u in platoons] == ["B", "C"]  # two alike platoons, two letters
    text = " ".join(pages_of(client.get(f"/lists/{army_list.public_id}/roster.pdf").content))
    assert "B: Grenadier Platoon" in text and "C: Grenadier Platoon" in text
    assert "×2" not in text
    letters = [u["letter"] for f in doc["formations"] for u in f["units"]] + [u["letter"] for u in doc["support"]]
    for letter in letters:
        assert f"{letter}:" in text
