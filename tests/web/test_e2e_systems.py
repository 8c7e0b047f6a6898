"""End to end in headless Chromium for Operation WW2, Hail of Fire and War Ain't Fair, and the
Hail of Fire parity wizard.

Each player starts from the sample book on the start page, builds a legal force by clicking,
sees it legal, downloads the roster PDF and the JSON. Screenshots of every builder and match-up
page go to $BUILDER_SCREENSHOTS when it is set (for looking at them), else to a temporary folder.
"""
import json
import os
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from armybuilder.lists import services as s
from armybuilder.lists.matchups import matchup_create
from armybuilder.lists.models import ListUnit

from .browser import PYTESTMARK, choose, expect, pick
from .conftest import PASSWORD, fresh_caches
from .test_systems_builder import imported

pytestmark = PYTESTMARK


@pytest.fixture
def live(live_server):
    """Every bundled system and sample book in the live server's database."""
    fresh_caches()
    call_command("load_handbooks", verbosity=0)
    yield live_server
    fresh_caches()


@pytest.fixture
def shots(tmp_path) -> Path:
    out = Path(os.environ.get("BUILDER_SCREENSHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    return out


def start_list(page, base, book_label, name, points=None):
    page.goto(base + "/")
    page.get_by_label("Game system and book").select_option(label=book_label)
    points_field = page.locator("#points-field")
    if points is None:
        expect(points_field).to_be_hidden()  # systems without points have no points limit
    else:
        expect(points_field).to_be_visible()
        page.get_by_label("Points limit").fill(str(points))
    page.get_by_label("Name of the list").fill(name)
    page.get_by_role("button", name="Start building").click()
    expect(page.locator("h1")).to_have_text(name)


def download_roster_and_json(page, tmp_path, slug):
    with page.expect_download() as info:
        page.get_by_role("link", name="Print roster (PDF)").click()
    pdf = tmp_path / "roster.pdf"
    info.value.save_as(pdf)
    assert pdf.read_bytes().startswith(b"%PDF-")
    assert info.value.suggested_filename.endswith(".pdf")
    with page.expect_download() as info:
        page.get_by_role("link", name="Download JSON").click()
    assert info.value.suggested_filename == f"{slug}.json"
    target = tmp_path / info.value.suggested_filename
    info.value.save_as(target)
    return json.loads(target.read_text(encoding="utf-8"))


def test_operation_ww2_a_player_grows_the_pyramid_to_a_legal_army(live, page, tmp_path, shots):
    start_list(page, live.url, "Sample German Grenadiers (illustrative) — Germany, 1942-1945", "Normandy 44",
               points=3500)
    expect(page.locator(".add-formation h3")).to_have_text(
        "Add a formation: the Standard formation your army starts from")
    page.locator(".add-formation button.choice", has_text="Grenadier Platoon").click()
    expect(page.locator("#f0")).to_be_visible()
    expect(page.locator(".add-formation")).to_have_count(0)  # further formations come from options

    for index in (0, 1):
        pick(page, "f0-box-og100-squads", "Grenadier Squad")
        choose(page, f"f0-u{index}", "8 men")
        page.locator(f"#f0-u{index} button.toggle", has_text="MG42 light machine gun").click()
        expect(page.locator(f"#f0-u{index} button.toggle", has_text="MG42")).to_have_attribute("aria-pressed", "true")

    options = page.locator("#f0-box-og100-options")
    expect(options.locator(".pool")).to_contain_text("3 options left")
    expect(options.locator("button.choice", has_text="Panzer Section")).to_contain_text("2 options")
    options.locator("button.choice", has_text="Panzer Section").click()
    child = page.locator("#f1")
    expect(child).to_contain_text("bought with Grenadier Platoon options")
    expect(page.locator("#f0-box-og100-options .pool")).to_contain_text("1 option left")
    pick(page, "f1-box-og150-tanks", "Panzer IV Ausf. H")
    expect(page.locator("#f1-u0")).to_contain_text("1 tank")

    # The year: a Panzer IV H in 1941 is a warning (dates), not an error.
    page.get_by_label("Year").fill("1941")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator("#issues .issue--warning").first).to_be_visible()
    expect(page.locator("#summary .badge")).to_have_text("Legal")
    page.get_by_label("Year").fill("1944")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator("#builder-alert")).to_contain_text("Saved.")

    expect(page.locator("#summary .badge")).to_have_text("Legal")
    expect(page.locator("#summary .big")).to_have_text("850")  # 2 × (180 + MG42 20) + 450
    figures = page.locator("#figures")
    expect(figures).to_contain_text("3 / 8 units")
    expect(figures).to_contain_text("10 cards")  # German base 7 + 3 units
    expect(figures).to_contain_text("2 of 3 options spent")
    page.screenshot(path=str(shots / "builder-oww2.png"), full_page=True)

    document = download_roster_and_json(page, tmp_path, "normandy-44")
    assert document["system"] == "oww2" and document["year"] == 1944
    assert document["formations"][1]["parent"] == "/formations/0"
    assert document["formations"][1]["via_box"] == "OG100/options"


def test_hail_of_fire_a_player_builds_a_kampfgruppe_without_points(live, page, tmp_path, shots):
    start_list(page, live.url, "Sample German Kampfgruppe (illustrative) — Germany, 1944", "KG Peiper")
    page.locator(".add-formation button.choice", has_text="Kampfgruppe").click()
    pick(page, "f0-box-hg100-grenadiers", "Grenadier Platoon")
    choose(page, "f0-u0", "Platoon Leader and 6 teams")
    pick(page, "f0-box-hg100-panzer-iv", "Panzer IV Platoon")
    choose(page, "f0-u1", "4 Panzer IV H")
    pick(page, "f0-box-hg100-artillery", "10.5cm Artillery Battery")
    choose(page, "f0-u2", "Observer and 3 howitzers")
    expect(page.locator("#summary .badge")).to_have_text("Legal")
    expect(page.locator("#summary .total-points")).to_have_count(0)
    expect(page.locator("#list-points")).to_have_count(0)
    assert " pts" not in page.locator("#builder").inner_text()
    figures = page.locator("#figures")
    expect(figures).to_contain_text("Break limit")
    expect(figures.locator(".figure-row", has_text="Break limit")).to_contain_text("11")
    expect(figures.locator(".figure-row", has_text="Order dice")).to_contain_text("3")
    expect(figures.locator(".figure-row", has_text="Expected Order Points")).to_contain_text("2.5")
    expect(figures.locator(".figure-row", has_text="10.5cm Artillery Battery")).to_contain_text("3 fire missions")
    page.screenshot(path=str(shots / "builder-hof.png"), full_page=True)

    document = download_roster_and_json(page, tmp_path, "kg-peiper")
    assert document["system"] == "hof" and document["points_limit"] is None
    assert [u["unit"] for u in document["formations"][0]["units"]] == ["HG101", "HG103", "HG106"]


def test_war_aint_fair_a_player_letters_the_cards_and_sends_one_round_the_flank(live, page, tmp_path, shots):
    start_list(page, live.url, "Sample German Grenadier Company (illustrative) — Germany, 1944", "Grenadiers")
    page.locator(".add-formation button.choice", has_text="Grenadier Company").click()
    pick(page, "f0-box-wg100-hq", "Company Headquarters")
    choose(page, "f0-u0", re.compile(r"Command base and runner base"))
    pick(page, "f0-box-wg100-platoon-1", "Grenadier Platoon")
    choose(page, "f0-u1", "Platoon HQ and 4 rifle bases")
    pick(page, "f0-box-wg100-platoon-2", "Grenadier Platoon")
    choose(page, "f0-u2", "Platoon HQ and 3 rifle bases")
    pick(page, "support-box-force-battalion-hq", "Battalion Headquarters")
    choose(page, "s0", "Command base and half-track")
    for unit, letter in (("f0-u0", "A"), ("f0-u1", "B"), ("f0-u2", "C"), ("s0", "D")):
        page.locator(f"#{unit} input[name=letter]").fill(letter.lower())
        if unit == "f0-u2":
            page.locator(f"#{unit} select[name=outflank]").select_option("left")
        page.locator(f"#{unit} .setup-form button").click()
        expect(page.locator(f"#{unit} .setup-letter")).to_have_text(letter)
    expect(page.locator("#f0-u2 .tag--flank")).to_have_text("Outflank left")
    expect(page.locator("#summary .badge")).to_have_text("Legal")
    assert " pts" not in page.locator("#builder").inner_text()
    figures = page.locator("#figures")
    expect(figures.locator(".figure-row", has_text="Outflanking")).to_contain_text("1 of at most 3")
    expect(figures.locator(".figure-row", has_text="Dummy cards")).to_contain_text("2")
    expect(figures.locator(".figure-row", has_text="Battalion Headquarters")).to_contain_text("9 or less")

    # A letter used twice is an error on the unit, and the fix puts it right.
    page.locator("#f0-u1 input[name=letter]").fill("A")
    page.locator("#f0-u1 .setup-form button").click()
    expect(page.locator("#summary .badge")).to_have_text("Not legal")
    expect(page.locator("#f0-u1 .inline-issue--error")).to_contain_text("'A' is used more than once")
    page.locator("#f0-u1 input[name=letter]").fill("B")
    page.locator("#f0-u1 input[name=letter]").press("Enter")
    expect(page.locator("#summary .badge")).to_have_text("Legal")
    page.screenshot(path=str(shots / "builder-waf.png"), full_page=True)

    document = download_roster_and_json(page, tmp_path, "grenadiers")
    units = document["formations"][0]["units"]
    assert [u.get("letter") for u in units] == ["A", "B", "C"]
    assert units[2]["outflank"] == "left" and document["support"][0]["letter"] == "D"


def login(page, base, username):
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".whoami")).to_contain_text(username)


def test_hail_of_fire_parity_wizard_from_two_lists_to_penalty_points(live, page, shots):
    user = get_user_model().objects.create_user("umpire", password=PASSWORD)
    imported("hof-kampfgruppe.json", owner=user)  # Kampfgruppe Weber: 7, 7, 3, 5, 4 teams
    klein = imported("hof-kampfgruppe.json", owner=user)
    s.army_list_update(army_list=klein, name="Kampfgruppe Klein")
    for unit in ListUnit.objects.filter(army_list=klein, unit__code__in=["HG102", "HG105"]):
        s.army_list_remove_unit(army_list=klein, list_unit=unit)  # 7, 3, 4 teams left

    login(page, live.url, "umpire")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Match-ups").click()
    page.get_by_label("Your list (force A)").select_option(
        label="Kampfgruppe Weber — Sample German Kampfgruppe (illustrative)")
    page.get_by_label("Opponent: another of your lists").select_option(
        label="Kampfgruppe Klein — Sample German Kampfgruppe (illustrative)")
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("h1")).to_contain_text("Kampfgruppe Weber")
    page.screenshot(path=str(shots / "matchup-hof-rank.png"), full_page=True)

    # Player B ranks A's Panzer IVs strongest: two presses of "up", from the keyboard.
    up = page.get_by_role("button", name="Move Panzer IV Platoon up").first
    up.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")  # focus stays on the moved row's button
    ranks = page.locator("[data-rank-list=a] .rank-name")
    expect(ranks.first).to_contain_text("Panzer IV Platoon")
    expect(page.locator("[data-rank-list=a] .rank-input").first).to_have_value("1")
    page.get_by_role("button", name="Save rankings and pair the units").click()

    # Pairs: (Pz IV 3 v Grenadiers 7) size B; (Grenadiers 7 v Pz IV 3) size A;
    # (Panzergrenadiers 7 v Artillery 4) size A.
    expect(page.locator("#pair-1")).to_contain_text("Panzer IV Platoon")
    expect(page.locator("#pair-1 input[name=size_1][value=b]")).to_be_checked()
    expect(page.locator("#pair-2 input[name=size_2][value=a]")).to_be_checked()
    expect(page.locator("#pair-3 input[name=size_3][value=a]")).to_be_checked()
    page.locator("#pair-1 label.pill", has=page.locator("input[name=threat_1][value=b]")).click()
    page.locator("#pair-1 label.pill", has=page.locator("input[name=heavy_hitter_1][value=b]")).click()
    page.locator("#pair-2 label.pill", has=page.locator("input[name=threat_2][value=a]")).click()
    expect(page.locator("#judge .unpaired")).to_contain_text("PaK 40 Anti-tank Platoon")
    page.get_by_role("button", name="Save judgements").click()

    # A: 2 (pair 2) + 1 (pair 3) + 2 unpaired × 2 = 7; B: 3 (pair 1). Penalty Points: 4 for A.
    expect(page.locator("#total-a")).to_have_text("7")
    expect(page.locator("#total-b")).to_have_text("3")
    expect(page.locator("#penalty-points")).to_have_text("4")
    expect(page.locator("#result")).to_contain_text("Force A scores more and takes 4 Penalty Points")

    # A split that does not add up: the engine's reason is shown.
    page.get_by_label("Starting Break Points").fill("1")
    page.get_by_label("Hero Points").fill("1")
    page.get_by_label("Reductions").fill("1")
    page.get_by_role("button", name="Save the split").click()
    expect(page.locator("#matchup-message")).to_have_text("The Penalty Points spent must add up to 4.")
    page.get_by_label("Starting Break Points").fill("1")
    page.get_by_label("Hero Points").fill("2")
    page.get_by_label("Reductions").fill("1")
    page.get_by_role("button", name="Save the split").click()
    expect(page.locator("#spending-saved")).to_contain_text("Starting Break Points 1, Hero Points 2, Reductions 1")
    page.screenshot(path=str(shots / "matchup-hof-result.png"), full_page=True)

    # Reopened later: the answers are all still there.
    page.goto(page.url.split("#")[0])
    expect(page.locator("[data-rank-list=a] .rank-name").first).to_contain_text("Panzer IV Platoon")
    expect(page.locator("#pair-1 input[name=threat_1][value=b]")).to_be_checked()
    expect(page.locator("#penalty-points")).to_have_text("4")
    expect(page.get_by_label("Hero Points")).to_have_value("2")

    # On a phone the wizard never scrolls sideways.
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(shots / "matchup-hof-390.png"), full_page=True)


def test_screenshots_of_the_other_match_up_pages(live, page, shots):
    user = get_user_model().objects.create_user("shots", password=PASSWORD)
    pairs = {
        "waf": (imported("waf-grenadier-company.json", owner=user), imported("waf-grenadier-company.json", owner=user)),
        "oww2": (imported("oww2-grenadier-platoon.json", owner=user),
                 imported("oww2-grenadier-platoon.json", owner=user)),
        "fow": (imported("fow-afrika-korps-panzer-company.json", owner=user),
                imported("fow-afrika-korps-panzer-company.json", owner=user)),
    }
    login(page, live.url, "shots")
    for system, (a, b) in pairs.items():
        matchup = matchup_create(list_a=a, list_b=b, owner=user)
        page.goto(f"{live.url}/matchups/{matchup.public_id}/")
        expect(page.locator("#verdict")).to_be_visible()
        page.screenshot(path=str(shots / f"matchup-{system}.png"), full_page=True)
    page.goto(f"{live.url}/matchups/")
    page.screenshot(path=str(shots / "matchups.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live.url}/matchups/{matchup.public_id}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
