"""Unit cards of imported books show what was bought: only the chosen teams' and weapons' lines, the special
rules with the data's own descriptions, and the command cards given to the unit with their text."""
import io
import re

import pytest
from pypdf import PdfReader

from armybuilder.lists import services as s
from armybuilder.services.printing.services import roster_pdf_for_list
from handbooks.models import CommandCard, Handbook

pytestmark = [pytest.mark.bsdata]
AFRIKA = "1db5-94f0-8315-42a2"
COMPANY = "55c7-84f0-094e-4c6f::912e-3dba-2ff4-ab44"
HQ_BOX = f"{COMPANY}/7cac-18a1-c4df-6c72"
HQ = "178f-6fdb-f53a-ba95"  # Panzer III Company HQ: sizes with the short, the long or the 7.5cm gun


@pytest.fixture
def player(db):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("rommel", password="pw-not-secret-123")


def text_of(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def test_a_card_shows_only_the_gun_bought_the_rules_described_and_the_command_card_given(library_in_db, db, player):
    book = Handbook.objects.get(code=AFRIKA, is_current=True)
    army = s.army_list_create(owner=player, handbook=book, name="Cards", points_limit=100)
    company = s.army_list_add_formation(army_list=army, formation_code=COMPANY)
    hq = s.army_list_pick_unit(army_list=army, list_formation=company, box_code=HQ_BOX, unit_code=HQ)
    card = CommandCard.objects.filter(handbook=book, name="Every Shot Counts").first()
    s.army_list_add_card(army_list=army, card_code=card.code, target_unit=hq)
    army.refresh_from_db()
    text = " ".join(text_of(roster_pdf_for_list(army_list=army, paper="a4")).split())
    cards = text[text.index("Panzer III Company HQ Tank"):]  # the unit card, after the roster's table
    assert "Panzer III (short 5cm)" in cards  # the data's default size: one tank with the short gun
    assert "long 5cm" not in cards and "7.5cm" not in cards  # guns of sizes not bought
    assert "(no summary in the game data)" not in text
    assert re.search(r"Protected Ammo: \S+", cards)  # the rule with a description of its own
    assert "Command Card Every Shot Counts:" in cards
