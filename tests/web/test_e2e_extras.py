"""Issue 17 end to end in real headless Chromium against a live server: a .ros chosen and a .rosz dropped on the
import page; the list's text copied with the builder's button and compared; print options changed in the page
and the roster PDF read back; My lists showing cost and legality; light and dark themes at desktop and phone
width (screenshots to $BUILDER_SCREENSHOTS if set), both passing axe-core's checks (colour contrast included)."""
import base64
import io
import json
import os
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from pypdf import PdfReader

from armybuilder.interchange.battlescribe import import_library
from armybuilder.interchange.battlescribe.roster_write import zip_roster
from armybuilder.lists import services as s
from armybuilder.lists.models import ArmyList
from armybuilder.lists.selectors import army_list_report
from armybuilder.services.printing.text import army_list_text
from armybuilder.services.rosters import roster_export
from tests.battlescribe.conftest import CAT, GST

from .browser import PYTESTMARK, axe_violations, expect
from .conftest import PASSWORD, fresh_caches

pytestmark = PYTESTMARK
EXAMPLES = Path(settings.BASE_DIR) / "docs" / "examples"
MINI_LIST = {
    "format": "armybuilder-list", "version": 2, "name": "Mini roster", "system": "fow4",
    "handbook": {"code": "cat-1", "revision": 1}, "points_limit": 50, "variant": None, "year": None, "notes": "",
    "formations": [{"formation": "l-form::form-1", "allied": False, "units": [
        {"box": "l-form::form-1/b-hq", "unit": "tank-plt", "entry": "l-hq::tank-plt",
         "selections": [{"entry": "m-short", "number": 2}, {"entry": "m-long", "number": 2}]},
        {"box": "l-form::form-1/b-p2", "unit": "inf-plt", "entry": "l-p2b::inf-plt",
         "selections": [{"entry": "sz-6"}, {"entry": "up-baz"}]}]}],
    "support": [],
    "cards": [{"card": "card-f1", "target": "/formations/0", "entry": "l-ccf::card-f1"}],
}


@pytest.fixture
def live(live_server, tmp_path):
    """Every bundled sample book and the hand-written mini BattleScribe catalogue in the live server's database."""
    fresh_caches()
    call_command("load_handbooks", verbosity=0)
    (tmp_path / "mini.gst").write_text(GST, encoding="utf-8")
    (tmp_path / "mini.cat").write_text(CAT, encoding="utf-8")
    assert import_library([tmp_path / "mini.gst", tmp_path / "mini.cat"]).written
    yield live_server
    fresh_caches()


@pytest.fixture
def player(live):
    return get_user_model().objects.create_user("anna", password=PASSWORD)


def log_in(page, base):
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill("anna")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".whoami")).to_contain_text("anna")


def example(player, name: str) -> ArmyList:
    return s.army_list_import(doc=json.loads((EXAMPLES / name).read_text(encoding="utf-8")), owner=player)


def test_a_ros_chosen_and_a_rosz_dropped_are_imported_through_the_page(live, player, page, tmp_path):
    source = s.army_list_import(doc=MINI_LIST)
    ros = roster_export(source)
    ros_file = tmp_path / "exported roster.json.txt"  # a misleading name: the content decides
    ros_file.write_bytes(ros)
    log_in(page, live.url)
    page.goto(live.url + "/import/")
    page.set_input_files("#id_file", str(ros_file))  # choosing the file is enough: no button pressed
    expect(page.locator("h1")).to_have_text("Mini roster")
    first = ArmyList.objects.filter(owner=player).get()
    assert army_list_report(first).total_points == army_list_report(source).total_points

    rosz = zip_roster(ros, "roster.ros")
    page.goto(live.url + "/import/")
    transfer = page.evaluate_handle("""(b64) => {
        const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], 'army.rosz', {type: 'application/zip'}));
        return dt; }""", base64.b64encode(rosz).decode())
    page.dispatch_event("#drop-zone", "drop", {"dataTransfer": transfer})
    expect(page.locator("h1")).to_have_text("Mini roster")
    assert ArmyList.objects.filter(owner=player).count() == 2

    # a broken roster: nothing saved, the problem and its place in the file shown
    (tmp_path / "broken.ros").write_bytes(ros[: len(ros) // 2])
    page.goto(live.url + "/import/")
    page.set_input_files("#id_file", str(tmp_path / "broken.ros"))
    expect(page.locator("#import-problems")).to_contain_text("The list was not imported")
    assert re.search(r"line \d+", page.locator("#import-problems").inner_text())
    assert ArmyList.objects.filter(owner=player).count() == 2


def test_the_text_is_copied_with_the_builder_button(live, player, browser):
    army_list = example(player, "fow-afrika-korps-panzer-company.json")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live.url)
    page = context.new_page()
    try:
        log_in(page, live.url)
        page.goto(f"{live.url}/lists/{army_list.public_id}/")
        page.locator("#text-style").select_option("markdown")
        page.locator("#copy-text").click()
        expect(page.locator("[data-text-status]")).to_have_text("Copied to the clipboard.")
        pasted = page.evaluate("navigator.clipboard.readText()")
        assert pasted == army_list_text(army_list=army_list, flavour="markdown")
        assert page.locator("#text-preview").input_value() == pasted
        for unit in json.loads((EXAMPLES / "fow-afrika-korps-panzer-company.json").read_text())["cards"]:
            assert unit["card"]  # the document has cards; their names are in the text (checked in tests/pdf)
    finally:
        context.close()


def test_print_options_changed_in_the_page_reach_the_pdf(live, player, page):
    army_list = example(player, "fow-afrika-korps-panzer-company.json")
    log_in(page, live.url)
    page.goto(f"{live.url}/lists/{army_list.public_id}/")
    page.get_by_label("Event name").fill("Kursk Open")
    page.get_by_label("Player name").fill("Anna Bauer")
    page.get_by_label("Paper size").select_option("letter")
    page.get_by_label("One formation per page").check()
    page.get_by_label("Casualty boxes on unit cards").check()
    page.get_by_role("button", name="Save print options").click()
    expect(page.locator("#print-options [role=status]")).to_contain_text("Print options saved")
    page.reload()
    expect(page.get_by_label("Event name")).to_have_value("Kursk Open")
    with page.expect_download() as download:
        page.locator("#print-roster").click()
    pdf = Path(download.value.path()).read_bytes()
    pages = [" ".join((p.extract_text() or "").split()) for p in PdfReader(io.BytesIO(pdf)).pages]
    assert "Kursk Open" in pages[0] and "Anna Bauer" in pages[0]
    assert round(float(PdfReader(io.BytesIO(pdf)).pages[0].mediabox.width)) == 612
    first = next(i for i, p in enumerate(pages) if "Panzer Company SG100" in p)
    second = next(i for i, p in enumerate(pages) if "Bersaglieri Company SI300" in p)
    assert first != second
    assert any("Casualties" in p for p in pages)


def test_my_lists_show_cost_and_legality(live, player, page):
    legal = example(player, "oww2-grenadier-platoon.json")
    broken = example(player, "fow-afrika-korps-panzer-company.json")
    s.army_list_update(army_list=broken, expected_version=broken.version, points_limit=40, name="Too big")
    log_in(page, live.url)
    page.goto(live.url + "/")
    legal_row = page.locator(f'[data-list="{legal.public_id}"]')
    report = army_list_report(legal)
    expect(legal_row).to_contain_text(f"{report.total_points:g} / {legal.points_limit} points")
    expect(legal_row.locator(".tag--legal")).to_have_text("Legal")
    broken_row = page.locator(f'[data-list="{broken.public_id}"]')
    broken.refresh_from_db()
    errors = len(army_list_report(broken).errors)
    expect(broken_row).to_contain_text(f"Not legal: {errors} error")
    page.get_by_label("System", exact=True).select_option("oww2")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator(".list-row")).to_have_count(1)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screens_in_both_themes_at_desktop_and_phone_width_pass_axe(live, player, browser, scheme, tmp_path):
    out = Path(os.environ.get("BUILDER_SCREENSHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    army_list = example(player, "fow-afrika-korps-panzer-company.json")
    example(player, "waf-grenadier-company.json")
    problems = []
    for width, height in ((1280, 900), (390, 844)):
        context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
        try:
            page = context.new_page()
            log_in(page, live.url)
            for name, url in (("builder", f"/lists/{army_list.public_id}/"), ("my-lists", "/"),
                              ("import", "/import/")):
                page.goto(live.url + url)
                if name == "builder":
                    expect(page.locator("#composition-chart svg")).to_be_visible()
                assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
                page.screenshot(path=str(out / f"{name}-{scheme}-{width}.png"), full_page=True)
                page.screenshot(path=str(out / f"{name}-{scheme}-{width}-top.png"))
                if name == "builder":
                    page.locator("#list-extras").screenshot(path=str(out / f"extras-{scheme}-{width}.png"))
                problems += [(name, width, v) for v in axe_violations(page)]
                assert page.evaluate("document.documentElement.scrollWidth") <= width, (name, width)
        finally:
            context.close()
    assert problems == [], "\n".join(map(str, problems))
