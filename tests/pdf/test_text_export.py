"""The list as text (plain, Markdown, BBCode): every selection of the list document appears, in order, with
its size, options (and quantities), set-up letter and points. Expected values come from the JSON document and
the game data rows (names, size labels), and points from the rules engine's report, never from the text code."""
import io
import json
import re
import uuid
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from armybuilder.lists import services as s
from armybuilder.lists.selectors import army_list_document, army_list_report
from armybuilder.services.printing.text import army_list_text
from handbooks.models import CommandCard, Handbook, SizeOption, UnitEntry, Upgrade

EXAMPLES = sorted(Path("docs/examples").glob("*.json"))


def expected_entries(doc: dict, report) -> list[dict]:
    """What each unit and card of the document must show, read off the document and the handbook rows."""
    book = doc["handbook"]
    out = []

    def unit_expect(unit, pointer, handbook):
        hb = Handbook.objects.get(code=handbook["code"], revision=handbook["revision"])
        entry = UnitEntry.objects.get(handbook=hb, code=unit["unit"])
        size = SizeOption.objects.get(unit=entry, code=unit["size"]).label if unit.get("size") else ""
        upgrades = []
        for chosen in unit.get("upgrades", []):
            group, code = chosen["upgrade"].rsplit("/", 1) if "/" in chosen["upgrade"] else ("", chosen["upgrade"])
            name = Upgrade.objects.filter(group__unit=entry, code__in=[chosen["upgrade"], code]).first().name
            upgrades.append(f"{chosen['quantity']}× {name}" if chosen.get("quantity", 1) > 1 else name)
        points = report.unit_points.get(pointer) if doc.get("points_limit") is not None or report.total_points else None
        return {"name": entry.name, "size": size, "upgrades": upgrades, "letter": unit.get("letter", ""),
                "points": points}

    for i, formation in enumerate(doc["formations"]):
        for j, unit in enumerate(formation["units"]):
            out.append(unit_expect(unit, f"/formations/{i}/units/{j}", formation.get("handbook", book)))
    for j, unit in enumerate(doc.get("support", [])):
        out.append(unit_expect(unit, f"/support/{j}", book))
    hb = Handbook.objects.get(code=book["code"], revision=book["revision"])
    for card in doc.get("cards", []):
        out.append({"name": CommandCard.objects.get(handbook=hb, code=card["card"]).name, "size": "",
                    "upgrades": [], "letter": "", "points": None})
    return out


def bullet_blocks(text: str) -> list[tuple[str, list[str]]]:
    """The plain text's "* …" lines, each with the "+ …" option lines under it."""
    blocks = []
    for line in text.splitlines():
        if line.startswith("* "):
            blocks.append((line[2:], []))
        elif line.startswith("    + ") and blocks:
            blocks[-1][1].append(line[6:])
    return blocks


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_selection_of_a_sample_list_is_in_the_text(sample_data, path):
    doc = json.loads(path.read_text(encoding="utf-8"))
    army_list = s.army_list_import(doc=doc, session_key="text-test")
    report = army_list_report(army_list)
    uses_points = army_list.system.uses_points
    expected = expected_entries(army_list_document(army_list), report)
    text = army_list_text(army_list=army_list, flavour="text")
    blocks = bullet_blocks(text)
    assert len(blocks) == len(expected), text
    for (line, options), want in zip(blocks, expected, strict=False):
        assert want["name"] in line, (line, want)
        if want["size"]:
            assert want["size"] in line, (line, want)
        if want["letter"]:
            assert line.startswith(f"{want['letter']}: "), line
        assert options == want["upgrades"], (line, options, want)
        if uses_points and want["points"] is not None:
            assert line.endswith(f"— {want['points']:g} pts"), (line, want)
    if uses_points:
        assert f"Total: {report.total_points:g}" in text
        assert f"Points: {report.total_points:g}" in text
    for flavour in ("markdown", "bbcode"):
        other = army_list_text(army_list=army_list, flavour=flavour)
        for want in expected:
            assert want["name"] in other.replace("\\", ""), (flavour, want)
            for option in want["upgrades"]:
                assert option in other.replace("\\", ""), (flavour, option)


def test_the_war_aint_fair_letters_keep_two_alike_platoons_apart(sample_data):
    doc = json.loads(Path("docs/examples/waf-grenadier-company.json").read_text(encoding="utf-8"))
    army_list = s.army_list_import(doc=doc, session_key="text-test")
    text = army_list_text(army_list=army_list)
    letters = [u["letter"] for f in doc["formations"] for u in f["units"]] + [u["letter"] for u in doc["support"]]
    found = re.findall(r"^\* ([A-Z]): ", text, re.M)
    assert found == letters


def test_the_players_own_names_and_notes_are_in_every_flavour(sample_data):
    doc = json.loads(Path(EXAMPLES[0]).read_text(encoding="utf-8"))
    doc["formations"][0]["custom_name"] = "Kampfgruppe Schmidt"
    doc["formations"][0]["units"][0]["custom_name"] = "Old Faithful"
    doc["formations"][0]["units"][0]["notes"] = "Bring the spare turret"
    army_list = s.army_list_import(doc=doc, session_key="text-test")
    for flavour in ("text", "markdown", "bbcode"):
        text = army_list_text(army_list=army_list, flavour=flavour)
        assert "Kampfgruppe Schmidt" in text and "Old Faithful" in text and "Bring the spare turret" in text, flavour


def test_markdown_escapes_and_bbcode_cannot_open_a_tag(sample_data):
    doc = json.loads(Path(EXAMPLES[0]).read_text(encoding="utf-8"))
    doc["name"] = "My *best* [url=x]list[/url]"
    army_list = s.army_list_import(doc=doc, session_key="text-test")
    assert "# My \\*best\\* \\[url=x\\]list\\[/url\\]" in army_list_text(army_list=army_list, flavour="markdown")
    bb = army_list_text(army_list=army_list, flavour="bbcode")
    assert "[url" not in bb and "(url=x)list(/url)" in bb


@pytest.fixture
def owner(db):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("texter", password="pw-not-secret-123")


def test_the_page_the_api_and_the_command_give_the_same_text(sample_data, owner, tmp_path):
    from armybuilder.api.services import api_token_rotate

    doc = json.loads(EXAMPLES[0].read_text(encoding="utf-8"))
    army_list = s.army_list_import(doc=doc, owner=owner)
    want = army_list_text(army_list=army_list, flavour="markdown")
    client = Client()
    client.force_login(owner)
    page = client.get(f"/lists/{army_list.public_id}/text/?style=markdown")
    assert page.status_code == 200 and page["Content-Type"].startswith("text/plain")
    assert page.content.decode() == want
    assert client.get(f"/lists/{army_list.public_id}/text/?style=html").status_code == 400
    assert Client().get(f"/lists/{army_list.public_id}/text/").status_code == 404  # not the owner's
    token = api_token_rotate(user=owner)[1]
    api = Client(HTTP_AUTHORIZATION=f"Token {token}")
    answer = api.get(f"/api/v1/lists/{army_list.public_id}/export.txt?style=markdown")
    assert answer.status_code == 200, answer.content
    assert answer.content.decode() == want
    bad = api.get(f"/api/v1/lists/{army_list.public_id}/export.txt?style=pdf")
    assert bad.status_code == 400 and "style" in bad.content.decode()
    out = io.StringIO()
    call_command("export_text", str(army_list.public_id), "--format", "markdown", stdout=out)
    assert out.getvalue() == want
    with pytest.raises(CommandError, match="no list"):
        call_command("export_text", str(uuid.uuid4()))


def test_a_shared_list_offers_its_text_and_chart_to_anyone_with_the_link(sample_data, owner):
    doc = json.loads(EXAMPLES[0].read_text(encoding="utf-8"))
    army_list = s.army_list_import(doc=doc, owner=owner)
    assert Client().get(f"/s/{army_list.share_token}/text/").status_code == 404  # private: no link works
    s.army_list_update(army_list=army_list, expected_version=army_list.version, visibility="shared")
    anyone = Client()
    page = anyone.get(f"/s/{army_list.share_token}/").content.decode()
    assert f"/s/{army_list.share_token}/chart/" in page and f"/s/{army_list.share_token}/text/" in page
    text = anyone.get(f"/s/{army_list.share_token}/text/?style=bbcode")
    assert text.content.decode() == army_list_text(army_list=army_list, flavour="bbcode")
    assert anyone.get(f"/s/{army_list.share_token}/chart/").content.startswith(b"<svg")
