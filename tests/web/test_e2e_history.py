"""End to end in real Chromium: undo of a formation removal, Redo with the keyboard and a restore from the
History panel; a book update shown, moved and undone; names and notes; a variant applied at once; the
stale-tab notice in view; and screenshots of the builder with the History panel and the update notice."""
import os
from pathlib import Path

import pytest

from armybuilder.lists import services as s
from armybuilder.lists.models import ArmyList
from armybuilder.lists.selectors import army_list_report
from tests.factories import ArmyListFactory, ListCardFactory, ListFormationFactory, ListUnitFactory

from ..lists.history.revision_books import afrika_revision_2
from .browser import PYTESTMARK, axe_violations, expect
from .conftest import PASSWORD

pytestmark = PYTESTMARK


@pytest.fixture
def built(live_books):
    """A logged-in player's Panzer Company: HQ, a Panzer III and a Panzer IV platoon, and a card."""
    army = ArmyListFactory(owner__username="hahn", book="sample-afrika-korps", name="Kampfgruppe", points_limit=100)
    company = ListFormationFactory(army_list=army, formation_code="SG100")
    ListUnitFactory(list_formation=company, box_code="SG100/hq", unit_code="SG101", size_code="two-tanks")
    ListUnitFactory(list_formation=company, box_code="SG100/panzer-1", unit_code="SG102", size_code="three-tanks",
                    upgrades={"gun/short-5cm": 1})
    ListUnitFactory(list_formation=company, box_code="SG100/panzer-2", unit_code="SG103", size_code="two-tanks")
    ListCardFactory(army_list=army, card_code="forward-command-post")
    army.refresh_from_db()
    return army


def log_in(page, base, next_path):
    page.goto(base + next_path)  # logged out: the log-in prompt, which brings the player back
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    page.get_by_label("Username").fill("hahn")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#summary")).to_be_visible()


def version_shown(page) -> int:
    return int(page.locator("#list-version").get_attribute("data-version"))


def test_undo_a_formation_removal_redo_with_the_keyboard_and_restore_from_history(live_books, built, page):
    army = built
    log_in(page, live_books.url, f"/lists/{army.public_id}/")
    total = str(army_list_report(army).total_points)
    expect(page.locator("#summary .big")).to_have_text(total)
    expect(page.locator("#undo-button")).to_be_enabled()
    expect(page.locator("#redo-button")).to_be_disabled()

    # Remove the formation: no question asked, an Undo notice at the foot of the window instead.
    page.get_by_role("button", name="Remove formation Panzer Company").click()
    expect(page.locator("#f0")).to_have_count(0)
    toast = page.locator("#undo-notice")
    expect(toast).to_contain_text("Removed Panzer Company")
    box = toast.bounding_box()
    assert box and box["y"] + box["height"] <= 900 and box["y"] > 450  # in the window, near its foot
    toast.get_by_role("button", name="Undo").click()
    expect(page.locator("#f0")).to_be_visible()
    expect(page.locator("#summary .big")).to_have_text(total)
    expect(page.locator("#f0 .unit-name", has_text="Panzer IV Tank Platoon")).to_have_count(1)
    restored_version = version_shown(page)

    # Redo with the keyboard (focus outside any text field): the formation goes again; Ctrl+Z brings it back.
    page.locator("#summary").focus()
    page.keyboard.press("Control+Shift+Z")
    expect(page.locator("#f0")).to_have_count(0)
    page.keyboard.press("Control+Z")
    expect(page.locator("#f0")).to_be_visible()
    assert version_shown(page) == restored_version + 2

    # The History panel restores any version as a new one: version 3 held the company with only its HQ.
    page.locator("#history summary").click()
    entry = page.locator("#history .history-entry", has_text="Added Panzer Company HQ").first
    expect(entry).to_contain_text("v3")
    entry.get_by_role("button", name="Restore version 3").click()
    expect(page.locator("#f0 .unit")).to_have_count(1)
    expect(page.locator("#history")).to_contain_text("Restored version 3")
    expect(page.locator("#history .history-details")).to_have_attribute("open", "")
    army.refresh_from_db()
    assert army.version == version_shown(page) and army.units.count() == 1
    assert axe_violations(page) == []


def test_a_closed_history_panel_fetches_its_entries_when_opened_and_restores_from_them(live_books, built, page):
    """An action's answer leaves a closed panel's entries out; opening the panel fetches them, and while it is
    open every answer carries them."""
    army = built
    fetched = []
    page.on("request", lambda request: fetched.append(request.url) if "/history/" in request.url else None)
    log_in(page, live_books.url, f"/lists/{army.public_id}/")
    page.get_by_role("button", name="Remove Panzer IV Tank Platoon").click()
    expect(page.locator("#f0 .unit-name", has_text="Panzer IV Tank Platoon")).to_have_count(0)
    after_removal = version_shown(page)
    expect(page.locator("#history-title")).to_contain_text(f"version {after_removal}")
    expect(page.locator("#history-entries[data-src]")).to_have_count(1)  # drawn without its entries
    page.locator("#history summary").click()
    current = page.locator("#history .history-entry.is-current")
    expect(current).to_contain_text("Removed Panzer IV Tank Platoon")
    expect(current).to_contain_text(f"v{after_removal}")
    expect(page.locator("#history-entries[data-src]")).to_have_count(0)
    assert len(fetched) == 1
    # Restore the version before the removal from the fetched entries: the platoon is back, the panel open.
    page.get_by_role("button", name=f"Restore version {after_removal - 1}").click()
    expect(page.locator("#f0 .unit-name", has_text="Panzer IV Tank Platoon")).to_have_count(1)
    expect(page.locator("#history .history-details")).to_have_attribute("open", "")
    expect(page.locator("#history .history-entry.is-current")).to_contain_text(f"Restored version {after_removal - 1}")
    # Undo with the panel open: the answer itself carries the entries (nothing left to fetch).
    page.locator("#summary").focus()
    page.keyboard.press("Control+Z")
    expect(page.locator("#f0 .unit-name", has_text="Panzer IV Tank Platoon")).to_have_count(0)
    expect(page.locator("#history .history-entry.is-current")).to_contain_text(f"v{version_shown(page)}")
    expect(page.locator("#history-entries[data-src]")).to_have_count(0)
    army.refresh_from_db()
    assert army.version == version_shown(page) == after_removal + 2
    assert len(fetched) == 1  # the restore's and the undo's answers carried the entries themselves


def test_a_book_update_is_explained_moved_and_undone(live_books, built, page):
    army = built
    afrika_revision_2()
    log_in(page, live_books.url, f"/lists/{army.public_id}/")
    notice = page.locator("#book-update")
    expect(notice).to_contain_text("revision 2")
    # Hand count from the two data files: three Panzer III 12 -> 14; the Panzer IV platoon (12), the short
    # 5cm gun option and the Forward Command Post card are gone from revision 2.
    row = notice.locator("tr", has_text="Panzer III Tank Platoon")
    expect(row).to_contain_text("12")
    expect(row).to_contain_text("14")
    expect(row).to_contain_text("+2")
    expect(notice.locator(".book-update-removed")).to_contain_text("Panzer IV Tank Platoon")
    expect(notice.locator(".book-update-removed")).to_contain_text("Forward Command Post")
    before = army_list_report(army).total_points
    page.get_by_role("button", name="Move to revision 2").click()
    expect(page.locator(".list-title .meta")).to_contain_text("revision 2")
    expect(page.locator("#book-update")).to_have_count(0)
    expect(page.locator("#f0 .unit-name", has_text="Panzer IV Tank Platoon")).to_have_count(0)
    army.refresh_from_db()
    assert army.handbook.revision == 2
    page.locator("#undo-notice").get_by_role("button", name="Undo").click()
    expect(page.locator(".list-title .meta")).to_contain_text("revision 1")
    expect(page.locator("#book-update")).to_be_visible()
    expect(page.locator("#summary .big")).to_have_text(str(before))
    army.refresh_from_db()
    assert army.handbook.revision == 1 and army.units.filter(unit__code="SG103").exists()


def test_names_notes_and_a_variant_apply_in_the_page(live_books, built, page):
    army = built
    log_in(page, live_books.url, f"/lists/{army.public_id}/")
    formation = page.locator("#f0")
    formation.locator("> .formation-names > details.name-notes summary").click()
    formation.locator("> .formation-names > details.name-notes").get_by_label("Your name for it").fill(
        "Kampfgruppe Hahn")
    formation.locator("> .formation-names > details.name-notes").get_by_label("Notes").fill("Holds the ridge.")
    formation.locator("> .formation-names > details.name-notes").get_by_role("button", name="Save").click()
    expect(page.locator("#f0-name")).to_contain_text("Kampfgruppe Hahn")
    expect(page.locator("#f0-name")).to_contain_text("Panzer Company")
    expect(page.locator("#f0 > .formation-names > .item-notes")).to_have_text("Holds the ridge.")
    # A variant applies as soon as it is chosen, and the page names it (not its code).
    page.get_by_label("Variant").select_option(label="21. Panzer-Division")
    expect(page.locator(".list-title .meta")).to_contain_text("21. Panzer-Division")
    expect(page.locator(".list-title .meta")).not_to_contain_text("pz21")
    assert ArmyList.objects.get(pk=army.pk).variant == "pz21"
    assert army.formations.get().custom_name == "Kampfgruppe Hahn"


def test_the_stale_tab_notice_is_in_view_wherever_the_player_is(live_books, built, page):
    army = built
    log_in(page, live_books.url, f"/lists/{army.public_id}/")
    s.army_list_update(army_list=army, name="Changed elsewhere")  # another tab
    remove = page.get_by_role("button", name="Remove Panzer IV Tank Platoon")
    remove.scroll_into_view_if_needed()
    page.mouse.wheel(0, 600)
    remove.click()
    alert = page.locator("#builder-alert .alert--stale")
    expect(alert).to_be_visible()
    box = alert.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= 900
    assert page.evaluate("window.scrollY") > 200  # the player stayed where they were; the notice came to them


def test_screenshots_of_the_builder_with_history_and_update_notice(live_books, built, page, tmp_path):
    """Saves history-1280.png and history-390.png (to $BUILDER_SCREENSHOTS if set)."""
    out = Path(os.environ.get("BUILDER_SCREENSHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    army = built
    afrika_revision_2()
    s.army_list_set_name_notes(army_list=army, target=army.formations.get(), custom_name="Kampfgruppe Hahn",
                               notes="Holds the ridge until the Panzer IVs arrive.")
    log_in(page, live_books.url, f"/lists/{army.public_id}/")
    page.locator("#history summary").click()
    page.get_by_role("button", name="Remove Panzer IV Tank Platoon").click()
    expect(page.locator("#undo-notice")).to_be_visible()
    # The update notice follows the change: it reports on the list as it is now.
    army.refresh_from_db()
    expect(page.locator("#book-update")).to_contain_text(f"instead of {army_list_report(army).total_points} ")
    shots = []
    for width, height in ((1280, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        shot = out / f"history-{width}.png"
        page.screenshot(path=str(shot), full_page=True)
        shots.append(shot)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    for shot in shots:
        assert shot.stat().st_size > 20000
    assert axe_violations(page) == []
