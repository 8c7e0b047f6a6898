"""End to end in real Chromium on the real BSData library, imported the way a data author does it.

A player, with no help from the test (only what the page shows), builds three forces:

* Mid-War Afrika Korps: a Panzer III Tank Company, an artillery battery from a container support entry,
  an Italian Allied Formation from the real Avanti book, and Erwin Rommel;
* a D-Day British force with three command cards found with the search box;
* a D-Day German Tiger Tank Company with Kurt Knispel, a character the data allows once per force.

Each is judged legal, and its points equal what the independent BattleScribe oracle
(tests/battlescribe/oracle) makes of the list exported as a .ros roster. The roster PDF is read back
and its first pages are rendered (pdftoppm) beside the builder screenshots at desktop and phone width
(to $BUILDER_SCREENSHOTS if set). axe-core finds no serious problem on any builder page.
The clicks the player needs for the Afrika Korps force are counted and printed.
"""
import io
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from armybuilder.lists.models import ArmyList
from armybuilder.services.rosters import roster_export
from tests.battlescribe import oracle
from tests.battlescribe.conftest import BSDATA_DIR, shared_data_missing

from .browser import PYTESTMARK, axe_violations, expect
from .conftest import fresh_caches

pytestmark = [*PYTESTMARK, pytest.mark.bsdata]
PTS = "995a-4d67-6920-bfe4"  # the library's points cost type


@pytest.fixture
def real_books(live_server):
    if not BSDATA_DIR.is_dir():
        shared_data_missing(f"BSData library not found at {BSDATA_DIR}")
    fresh_caches()
    call_command("load_handbooks", str(Path(settings.HANDBOOK_DATA_DIR) / "systems"), verbosity=0)
    call_command("import_battlescribe", str(BSDATA_DIR), verbosity=0, stdout=io.StringIO())
    yield live_server
    fresh_caches()


@pytest.fixture
def shots(tmp_path):
    out = Path(os.environ.get("BUILDER_SCREENSHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    return out


class Player:
    """Drives the page by what it shows, and counts the clicks (a chosen <option> counts as one)."""

    def __init__(self, page):
        self.page = page
        self.clicks = 0
        self.pages_checked = 0

    def version(self):
        return self.page.evaluate("(document.getElementById('list-version') || {}).dataset?.version || null")

    def click(self, locator):
        """One click; when it is a builder action, wait until the page shows the list's next version."""
        before = self.version()
        locator.click()
        self.clicks += 1
        if before is not None:
            # The version is swapped in out of band, before the part the action changed: wait for both.
            self.page.wait_for_function("v => { const e = document.getElementById('list-version');"
                                        " return (!e || e.dataset.version !== v) &&"
                                        " !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling'); }",
                                        arg=before)

    def select(self, locator, **option):
        locator.select_option(**option)
        self.clicks += 1

    def settle(self):
        self.page.wait_for_load_state("load")

    def start(self, base, book_label, points):
        self.page.goto(base + "/")
        self.select(self.page.get_by_label("Game system and book"), label=book_label)
        self.page.get_by_label("Points limit").fill(str(points))
        self.click(self.page.get_by_role("button", name="Start building"))
        expect(self.page.locator("#summary")).to_be_visible()

    def add_formation(self, name):
        self.click(self.page.locator(".add-formation button.choice",
                                     has=self.page.locator(".choice-name",
                                                           has_text=re.compile(f"^{re.escape(name)}$"))))
        self.settle()

    def pick(self, box, name):
        """Pick a unit (or an alternative) by its shown name in a box found by its name."""
        target = box.locator("button.choice",
                             has=self.page.locator(".choice-name", has_text=re.compile(f"^{re.escape(name)}$"))).first
        self.click(target)
        self.settle()

    def box(self, scope, name):
        return scope.locator("section.box",
                             has=self.page.locator(".box-name", has_text=re.compile(f"^{re.escape(name)}$"))).first

    def fill_black_boxes(self, formation):
        """Pick the first offer in every compulsory box of a formation that is still empty (HQ included)."""
        for _ in range(8):
            empty = formation.locator("section.box.is-empty.box--hq, section.box.is-empty.box--black")
            if not empty.count():
                return
            self.click(empty.first.locator("button.choice").first)
            self.settle()

    def check_accessibility(self):
        found = axe_violations(self.page)
        assert found == [], found
        self.pages_checked += 1

    def legal_points(self) -> int:
        expect(self.page.locator("#summary .badge")).to_have_text("Legal")
        return int(self.page.locator("#summary .big").inner_text())


def oracle_judges(army_list) -> tuple[bool, float, list]:
    lib = oracle.load(BSDATA_DIR)
    verdict = lib.evaluate(oracle.read_ros(roster_export(army_list)))
    return verdict.legal, verdict.totals.get(PTS, 0), [v.key() for v in verdict.violations]


def pdf_pages(base, page, army_list, out: Path, stem: str) -> str:
    """Download the roster PDF, read its text back and render its first pages at A4 and Letter."""
    from pypdf import PdfReader

    texts = []
    for paper in ("a4", "letter"):
        response = page.request.get(f"{base}/lists/{army_list.public_id}/roster.pdf?paper={paper}")
        assert response.status == 200 and response.headers["content-type"] == "application/pdf"
        path = out / f"{stem}-{paper}.pdf"
        path.write_bytes(response.body())
        reader = PdfReader(str(path))
        assert len(reader.pages) >= 2
        texts.append("\n".join(p.extract_text() for p in reader.pages))
        if shutil.which("pdftoppm"):
            subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "3", str(path),
                            str(out / f"{stem}-{paper}")],
                           check=True, timeout=120)
    return texts[0]


def test_a_player_builds_three_legal_real_forces_with_battlescribe_points(real_books, page, shots):
    base = real_books.url
    player = Player(page)

    # -- Mid-War Afrika Korps ------------------------------------------------------------------------------
    player.start(base, "Mid-War - Afrika Korps — Germany, Mid-War", 100)
    player.check_accessibility()
    player.add_formation("Panzer III Tank Company")
    company = page.locator("#f0")
    expect(company).to_be_focused()  # focus moves into the formation just added
    player.pick(player.box(company, "Panzer III Command HQ"), "Panzer III Company HQ")
    player.pick(player.box(company, "Panzer III Platoon"), "Panzer III Tank Platoon (5cm)")
    player.pick(player.box(company, "Panzer III or IV Platoon"), "Panzer IV Tank Platoon")
    # The data's default size is preselected: three tanks, no count to set.
    expect(company.locator("#f0-u1 .sizes--models .seg.is-on")).to_contain_text("3")
    # A container support entry is offered as the batteries inside it, each with a real price.
    artillery = player.box(page.locator("#support"), "10.5cm Gun or 15cm Armoured Artillery Battery")
    expect(artillery.locator("button.choice", has_text="10.5cm Artillery Battery")).to_contain_text("from 7 pts")
    player.pick(artillery, "10.5cm Artillery Battery")
    expect(page.locator("#s0 .unit-name")).to_have_text("10.5cm Artillery Battery")
    # An Italian Allied Formation from the real Avanti book.
    player.select(page.get_by_label(re.compile("Allied Formation")), label="Bersaglieri Rifle Company")
    player.click(page.get_by_role("button", name="Add Allied Formation"))
    player.settle()
    allied = page.locator("section.formation--allied")
    expect(allied).to_contain_text("from Mid-War - Avanti")
    player.fill_black_boxes(allied)
    # Erwin Rommel, a force card, found by his name.
    page.locator("#card-offers summary").scroll_into_view_if_needed()
    if not page.locator("#card-offers").evaluate("d => d.open"):
        player.click(page.locator("#card-offers summary"))
    page.get_by_label("Find a card").fill("rommel")
    player.click(page.locator(".card-offer:visible", has_text="Erwin Rommel")
                 .get_by_role("button", name=re.compile("^Add")))
    player.settle()
    expect(page.locator(".chosen-card")).to_contain_text("Erwin Rommel")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=str(shots / "real-afrika-korps-1280.png"), full_page=True)
    points = player.legal_points()
    player.check_accessibility()
    clicks = player.clicks
    print(f"\nAfrika Korps force ({points} pts): {clicks} clicks")
    army = ArmyList.objects.get(name__startswith="Mid-War - Afrika Korps")
    legal, oracle_points, violations = oracle_judges(army)
    assert legal, violations
    assert points == oracle_points
    text = pdf_pages(base, page, army, shots, "real-afrika-korps")
    assert "Panzer III Tank Company" in text and "10.5cm Artillery Battery" in text and "Erwin Rommel" in text
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    page.screenshot(path=str(shots / "real-afrika-korps-390.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # -- D-Day British, three command cards found by search ------------------------------------------------
    page.set_viewport_size({"width": 1280, "height": 900})
    player.start(base, "Late-War - D-Day: British — Britain, Late-War", 100)
    player.add_formation("Rifle Company")
    player.fill_black_boxes(page.locator("#f0"))
    if not page.locator("#card-offers").evaluate("d => d.open"):
        player.click(page.locator("#card-offers summary"))
    for search, name in (("lucky", "Lucky"), ("air sup", "Total Air Superiority"), ("kangaroo", "Kangaroo Transport")):
        page.get_by_label("Find a card").fill(search)
        offer = page.locator(".card-offer:visible", has_text=name).first
        expect(offer).to_be_visible()
        player.click(offer.get_by_role("button", name=re.compile("^Add")))
        player.settle()
        # The panel stays open and keeps the search while cards are added.
        expect(page.locator("#card-offers")).to_have_attribute("open", "")
    expect(page.locator(".chosen-card")).to_have_count(3)
    british_points = player.legal_points()
    player.check_accessibility()
    page.screenshot(path=str(shots / "real-dday-british-1280.png"), full_page=True)
    british = ArmyList.objects.get(name__startswith="Late-War - D-Day: British")
    legal, oracle_points, violations = oracle_judges(british)
    assert legal, violations
    assert british_points == oracle_points
    text = pdf_pages(base, page, british, shots, "real-dday-british")
    assert "Rifle Company" in text and "Kangaroo Transport" in text

    # -- D-Day German: a character the data allows once per force ------------------------------------------
    player.start(base, "Late-War - D-Day: German — Germany, Late-War", 100)
    player.add_formation("Tiger Tank Company")
    player.fill_black_boxes(page.locator("#f0"))
    if not page.locator("#card-offers").evaluate("d => d.open"):
        player.click(page.locator("#card-offers summary"))
    page.get_by_label("Find a card").fill("knispel")
    offer = page.locator(".card-offer:visible", has_text="Kurt Knispel").first
    player.click(offer.get_by_role("button", name=re.compile("^Add")))
    player.settle()
    expect(page.locator(".chosen-card")).to_contain_text("Kurt Knispel")
    german_points = player.legal_points()
    player.check_accessibility()
    german = ArmyList.objects.get(name__startswith="Late-War - D-Day: German")
    legal, oracle_points, violations = oracle_judges(german)
    assert legal, violations
    assert german_points == oracle_points
    # A second Knispel breaks the data's once-per-force limit: the builder says so, and so does the oracle.
    page.get_by_label("Find a card").fill("knispel")
    player.click(page.locator(".card-offer:visible", has_text="Kurt Knispel").first
                 .get_by_role("button", name=re.compile("^Add")))
    expect(page.locator("#summary .badge")).to_have_text("Not legal")
    expect(page.locator("#issues")).to_contain_text("at most 1 from Warrior (has 2)")
    assert not oracle_judges(german)[0]
    player.check_accessibility()
    assert player.pages_checked == 5
