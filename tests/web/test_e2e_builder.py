"""End to end in real headless Chromium against a live server.

A new visitor signs up, builds a legal Flames of War force from the sample Afrika Korps book,
breaks it by removing a black-box unit, follows the fix, saves, reloads, opens the share link
logged out and downloads the JSON. Another test saves desktop and phone screenshots of the builder.
"""
import json
import os
from pathlib import Path

from django.contrib.auth import get_user_model

from armybuilder.lists import services as s
from handbooks.models import Handbook

from .browser import PYTESTMARK, choose, expect, pick
from .conftest import PASSWORD

pytestmark = PYTESTMARK


def toggle(page, unit_id, option):
    page.locator(f"#{unit_id} button.toggle", has_text=option).click()
    expect(page.locator(f"#{unit_id} button.toggle", has_text=option)).to_have_attribute("aria-pressed", "true")


def test_a_new_player_builds_breaks_fixes_saves_and_shares_a_legal_force(live_books, browser, page, tmp_path):
    base = live_books.url
    # Sign up.
    page.goto(base + "/")
    nav = page.get_by_role("navigation", name="Main")
    nav.get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("desertfox")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator(".whoami")).to_contain_text("desertfox")

    # Start a list.
    page.get_by_label("Game system and book").select_option(
        label="Sample Afrika Korps (illustrative) — Germany, Mid-War")
    page.get_by_label("Points limit").fill("100")
    page.get_by_label("Name of the list").fill("Desert Fox")
    page.get_by_role("button", name="Start building").click()
    expect(page.locator("h1")).to_have_text("Desert Fox")
    expect(page.locator("#issues")).to_contain_text("The force has no formation.")

    # Build: a Panzer Company with its HQ and both black boxes filled.
    page.locator(".add-formation button.choice", has_text="Panzer Company").first.click()
    expect(page.locator("#f0")).to_be_visible()
    pick(page, "f0-box-sg100-hq", "Panzer Company HQ")
    choose(page, "f0-u0", "2 Panzer III")
    toggle(page, "f0-u0", "Short 5cm gun")
    pick(page, "f0-box-sg100-panzer-1", "Panzer III Tank Platoon")
    choose(page, "f0-u1", "3 Panzer III")
    toggle(page, "f0-u1", "Long 5cm gun")
    pick(page, "f0-box-sg100-panzer-2", "Panzer IV Tank Platoon")
    choose(page, "f0-u2", "2 Panzer IV F2")
    expect(page.locator("#summary .badge")).to_have_text("Legal")
    expect(page.locator("#summary .big")).to_have_text("35")  # 8 + (12 + 3) + 12

    # Break it: remove the Panzer IV from its black box; the error names the box and the fix.
    page.get_by_role("button", name="Remove Panzer IV Tank Platoon").click()
    expect(page.locator("#summary .badge")).to_have_text("Not legal")
    issue = page.locator("#issues .issue[data-code='fow.black_box.missing']")
    expect(issue).to_contain_text("Fix: Add one unit from: Panzer III Tank Platoon, Panzer IV Tank Platoon.")
    expect(issue).to_contain_text("Black boxes are compulsory")
    issue.locator("a.issue-where").click()
    assert page.url.endswith("#f0-box-sg100-panzer-2")
    expect(page.locator("#f0-box-sg100-panzer-2")).to_contain_text("Compulsory: pick one")

    # Apply the fix.
    pick(page, "f0-box-sg100-panzer-2", "Panzer IV Tank Platoon")
    choose(page, "f0-u2", "3 Panzer IV F2")
    expect(page.locator("#summary .badge")).to_have_text("Legal")
    expect(page.locator("#issues")).not_to_contain_text("fow.black_box.missing")

    # Save under a new name, then reload: everything is still there.
    page.get_by_label("List name").fill("Desert Fox, final")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator("#builder-alert")).to_contain_text("Saved.")
    page.reload()
    expect(page.locator("h1")).to_have_text("Desert Fox, final")
    expect(page.locator("#summary .big")).to_have_text("41")
    expect(page.locator("#f0-u2")).to_contain_text("Panzer IV Tank Platoon")
    expect(page.locator("#summary .badge")).to_have_text("Legal")

    # Share, log out, and open the link as a stranger.
    page.get_by_role("button", name="Share a read-only link").click()
    share_url = page.locator("#share-url").input_value()
    assert "/s/" in share_url
    nav.get_by_role("button", name="Log out").click()
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()

    stranger = browser.new_context(accept_downloads=True)
    shared = stranger.new_page()
    shared.goto(share_url)
    expect(shared.locator("h1")).to_have_text("Desert Fox, final")
    expect(shared.locator("#summary .big")).to_have_text("41")
    expect(shared.locator("#summary .badge")).to_have_text("Legal")
    assert shared.locator("form[hx-post]").count() == 0
    with shared.expect_download() as info:
        shared.get_by_role("link", name="Download JSON").click()
    download = info.value
    assert download.suggested_filename == "desert-fox-final.json"
    target = tmp_path / download.suggested_filename
    download.save_as(target)
    document = json.loads(target.read_text(encoding="utf-8"))
    assert document["format"] == "armybuilder-list" and document["name"] == "Desert Fox, final"
    assert [u["unit"] for u in document["formations"][0]["units"]] == ["SG101", "SG102", "SG103"]
    stranger.close()


def test_the_builder_works_from_the_keyboard(live_books, page):
    page.goto(live_books.url + "/")
    page.get_by_label("Game system and book").select_option(
        label="Sample Afrika Korps (illustrative) — Germany, Mid-War")
    page.get_by_role("button", name="Start building").click()
    add = page.locator(".add-formation button.choice", has_text="Panzer Company").first
    add.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#f0")).to_be_visible()
    choice = page.locator("#f0-box-sg100-hq button.choice")
    choice.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#f0-u0")).to_be_visible()
    # Focus is not lost to the page after the redraw: it stays in the box that was used
    # (waited for, since the redraw settles a moment after the new unit appears; fails after 5 s).
    page.wait_for_function("document.activeElement && document.activeElement.closest('#f0-box-sg100-hq') !== null",
                           timeout=5000)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.tagName") == "BUTTON"
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    # The redraw keeps the page where the player is looking, further down too.
    tanks = page.locator("#f0-box-sg100-panzer-1 button.choice", has_text="Panzer III")
    tanks.scroll_into_view_if_needed()
    page.mouse.wheel(0, 300)
    page.wait_for_timeout(200)
    before = page.evaluate("window.scrollY")
    assert before > 0
    tanks.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#f0-u1")).to_be_visible()
    page.wait_for_timeout(300)  # let the swap settle before measuring where the page is
    assert abs(page.evaluate("window.scrollY") - before) < 5


def test_screenshots_of_the_builder_at_desktop_and_phone_width(live_books, page, tmp_path):
    """Saves builder-1280.png and builder-390.png (to $BUILDER_SCREENSHOTS if set) and checks the phone
    layout never scrolls sideways."""
    out = Path(os.environ.get("BUILDER_SCREENSHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    user = get_user_model().objects.create_user("shots", password=PASSWORD)
    book = Handbook.objects.get(code="sample-afrika-korps", is_current=True)
    army = s.army_list_create(owner=user, handbook=book, name="Screenshot force", points_limit=100)
    company = s.army_list_add_formation(army_list=army, formation_code="SG100")
    s.army_list_pick_unit(army_list=army, list_formation=company, box_code="SG100/hq", unit_code="SG101",
                          size_code="two-tanks")
    tanks = s.army_list_pick_unit(army_list=army, list_formation=company, box_code="SG100/panzer-1",
                                  unit_code="SG102", size_code="three-tanks")
    s.army_list_set_upgrade(army_list=army, list_unit=tanks, upgrade_code="gun/long-5cm", quantity=1)
    s.army_list_pick_unit(army_list=army, box_code="force/artillery", unit_code="SG110", size_code="four-guns")
    s.army_list_add_card(army_list=army, card_code="veteran-panzer-crews", target_unit=tanks)

    page.goto(live_books.url + "/accounts/login/")
    page.get_by_label("Username").fill("shots")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_books.url}/lists/{army.public_id}/")
    expect(page.locator("#summary")).to_be_visible()
    desktop = out / "builder-1280.png"
    page.screenshot(path=str(desktop), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    phone = out / "builder-390.png"
    page.screenshot(path=str(phone), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for shot in (desktop, phone):
        assert shot.stat().st_size > 20000
