"""Names exactly as the data writes them: only a real list number ("1) …") is dropped.

The library's names are read straight from the XML files with a regular expression (not through the
importer), so the expected names do not come from the code under test.
"""
import html
import re

import pytest

from armybuilder.rules.battlescribe.names import display_name, order_number

NAME_ATTR = re.compile(r'\bname="([^"]*)"')
CALIBRE = re.compile(r"\d\.\d")
LIST_NUMBER = re.compile(r"^\d{1,2}\) ")


def library_names(bsdata_dir) -> set[str]:
    names = set()
    for path in sorted(bsdata_dir.glob("*.cat")) + sorted(bsdata_dir.glob("*.gst")):
        names |= {" ".join(html.unescape(n).split()) for n in NAME_ATTR.findall(path.read_text(encoding="utf-8"))}
    return names


def imported_names(real_library) -> set[str]:
    """Every name the importer gives to a formation, box, unit, size, option group, option or card."""
    out = set()
    for _, doc in real_library.documents:
        for formation in doc["formations"]:
            out.add(formation["name"])
            out |= {box["name"] for box in formation.get("boxes", [])}
        out |= {box["name"] for box in doc.get("support", [])}
        for unit in doc["units"]:
            out.add(unit["name"])
            out |= {size["label"] for size in unit.get("sizes", [])}
            for group in unit.get("upgrade_groups", []):
                out.add(group["name"])
                out |= {option["name"] for option in group.get("options", [])}
        out |= {card["name"] for card in doc.get("cards", [])}
    return out


@pytest.mark.parametrize("name, shown", [
    ("1) Tank Platoon", "Tank Platoon"),
    ("0) Command Cards [Unit]", "Command Cards [Unit]"),
    ("7.62cm Tank-hunter Platoon", "7.62cm Tank-hunter Platoon"),
    ("10.5cm Gun or 15cm Armoured Artillery Battery", "10.5cm Gun or 15cm Armoured Artillery Battery"),
    ("8.8cm Heavy AA Gun Platoon", "8.8cm Heavy AA Gun Platoon"),
    ("12. Volksgrenadierdivision Veteran Scouts", "12. Volksgrenadierdivision Veteran Scouts"),
    ("106. Panzer Brigade Feldherrnhalle Experienced SP Guns",
     "106. Panzer Brigade Feldherrnhalle Experienced SP Guns"),
    ("1) 2x Sd Kfz 222, 1x Sd Kfz 221 (2.8cm)", "2x Sd Kfz 222, 1x Sd Kfz 221 (2.8cm)"),
    ("123) Not a list number", "123) Not a list number"),
    ("1)", "1)"),
])
def test_only_a_list_number_is_dropped_from_a_name(name, shown):
    assert display_name(name) == shown


def test_boxes_are_ordered_by_their_number_but_a_calibre_is_no_number():
    assert order_number("02. Combat Unit (Compulsory)") == 2
    assert order_number("3) Panzer IV Platoon") == 3
    assert order_number("7.5cm Infantry Gun Platoon") is None
    assert order_number("10.5cm Artillery Battery") is None


@pytest.mark.bsdata
def test_every_name_with_a_calibre_in_the_library_is_shown_as_the_data_writes_it(bsdata_dir):
    with_calibre = {n for n in library_names(bsdata_dir) if CALIBRE.search(n)}
    assert len(with_calibre) > 500  # the library is full of them: 7.5cm, 8.8cm, 10.5cm, .50 cal, …
    for name in with_calibre:
        expected = LIST_NUMBER.sub("", name) if LIST_NUMBER.match(name) else name
        assert display_name(name) == expected.strip(), name


@pytest.mark.bsdata
def test_the_importer_keeps_every_calibre_in_boxes_units_options_and_cards(bsdata_dir, real_library):
    raw = library_names(bsdata_dir)
    imported = imported_names(real_library)
    # What the old importer made of "7.62cm …": "62cm …". No imported name may be such a stump of a data name.
    stumps = {re.sub(r"^\d+\.\s*", "", n) for n in raw if re.match(r"^\d+\.\d", n)}
    mangled = sorted((stumps - raw) & imported)
    assert mangled == []
    assert "7.62cm Tank-hunter Platoon" in imported
    assert "10.5cm Gun or 15cm Armoured Artillery Battery" in imported
    calibres = [n for n in imported if re.match(r"^\d+\.\d", n)]
    assert len(calibres) > 30
