"""A real BSData list as text: every selection of its JSON document (units, what is chosen under them, formation
and force choices, command cards) appears with its quantity. The expected names are read from the catalogue XML
by entry id, without the engine (only a list number such as "1) " is dropped, as the builder shows names)."""
import re
import xml.etree.ElementTree as ET

import pytest

from armybuilder.interchange.battlescribe.cheapest import cheapest_list
from armybuilder.lists import services as s
from armybuilder.lists.catalog import handbook_data, handbook_id
from armybuilder.lists.selectors import army_list_document, army_list_report
from armybuilder.services.printing.text import army_list_text
from handbooks.models import Handbook

pytestmark = [pytest.mark.bsdata, pytest.mark.django_db]
AFRIKA = "1db5-94f0-8315-42a2"
LIST_NUMBER = re.compile(r"^\s*\d{1,2}\s*\)\s*")


def catalogue_names(bsdata_dir) -> dict[str, set[str]]:
    """entry id -> the names the XML gives it (its own, and those of links to it), in every file of the library
    (a catalogue links entries of the libraries it imports and of the game system)."""
    names: dict[str, set[str]] = {}
    for path in list(bsdata_dir.glob("*.cat")) + list(bsdata_dir.glob("*.gst")):
        root = ET.parse(path).getroot()
        for el in root.iter():
            if el.get("id") and el.get("name"):
                names.setdefault(el.get("id"), set()).add(LIST_NUMBER.sub("", el.get("name")).strip())
                if el.get("targetId"):
                    names.setdefault(el.get("targetId"), set()).add(LIST_NUMBER.sub("", el.get("name")).strip())
    return names


def walk(selections):
    for selection in selections:
        yield selection
        yield from walk(selection.get("selections", []))


def test_every_selection_of_real_lists_is_in_the_text(library_in_db, bsdata_dir):
    from django.contrib.auth import get_user_model

    owner = get_user_model().objects.create_user("texter", password="pw-not-secret-123")
    hb = Handbook.objects.get(code=AFRIKA, is_current=True)
    data = handbook_data(handbook_id("fow4", AFRIKA, hb.revision))
    names = catalogue_names(bsdata_dir)
    checked_lists = checked_selections = 0
    for code in sorted(data.formations)[:6]:
        result = cheapest_list(data, code)
        if result.document is None or not result.document["formations"]:
            continue
        army_list = s.army_list_import(doc=result.document, owner=owner)
        doc = army_list_document(army_list)
        text = army_list_text(army_list=army_list, flavour="text")
        report = army_list_report(army_list)
        chosen = []
        for formation in doc["formations"]:
            chosen += list(walk(formation.get("selections", [])))
            for unit in formation["units"]:
                chosen.append({"entry": unit["entry"]})
                chosen += list(walk(unit.get("selections", [])))
        for unit in doc.get("support", []):
            chosen.append({"entry": unit["entry"]})
            chosen += list(walk(unit.get("selections", [])))
        for card in doc.get("cards", []):
            chosen.append({"entry": card["entry"]})
            chosen += list(walk(card.get("selections", [])))
        chosen += list(walk(doc.get("selections", [])))
        for selection in chosen:
            entry_id = selection["entry"].split("::")[-1]
            options = names.get(entry_id, set())
            assert options, f"{entry_id} not in the catalogue XML"
            assert any(name in text for name in options), (selection, options, text)
            number = selection.get("number", 1)
            if number > 1:
                assert any(f"{number}× {name}" in text or f"{name} ×{number}" in text or
                           re.search(rf"{number}× .*{re.escape(name)}", text) for name in options), (selection, text)
            checked_selections += 1
        assert f"Total: {report.total_points:g}" in text
        for pointer, points in report.unit_points.items():
            assert f"— {points:g} pts" in text, (pointer, points)
        checked_lists += 1
    assert checked_lists >= 3 and checked_selections >= 20, (checked_lists, checked_selections)
