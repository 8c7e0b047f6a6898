"""Shared set-up for the end-to-end tests: Debian's Chromium driven by Playwright.

Playwright cannot download browsers here, so it launches the system's chromium by path.
"""
import os
import shutil

import pytest

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make are safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

PYTESTMARK = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Chromium is not installed (make test installs it)"),
]


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    context.set_default_timeout(15000)
    page = context.new_page()
    yield page
    context.close()


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


def pick(page, box_id, unit_name):
    """Click a unit choice in a diagram box."""
    page.locator(f"#{box_id} button.choice", has_text=unit_name).click()


def choose(page, unit_id, label):
    """Choose a size (a segmented button) and wait until the redrawn page shows it chosen."""
    page.locator(f"#{unit_id} button.seg", has_text=label).click()
    expect(page.locator(f"#{unit_id} button.seg", has_text=label)).to_have_attribute("aria-pressed", "true")


AXE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                   "node_modules", "axe-core", "axe.min.js")
SERIOUS = ("serious", "critical")


def axe_violations(page) -> list:
    """axe-core's serious and critical findings on the page as it is now: [(rule, help, first targets)].
    axe-core comes from npm (package.json; `make test` installs it)."""
    if not os.path.exists(AXE):
        pytest.fail(f"axe-core is not installed at {AXE}: run scripts/install-test-tools", pytrace=False)
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # Evaluated through the DevTools protocol: the page's Content-Security-Policy (no inline scripts)
        # stays in force for everything the page itself runs.
        with open(AXE, encoding="utf-8") as source:
            page.evaluate(source.read())
    found = page.evaluate("""async () => {
        const result = await axe.run(document, {resultTypes: ['violations']});
        return result.violations.map(v => [v.id, v.impact, v.help, v.nodes.slice(0, 3).map(n => n.target.join(' '))]);
    }""")
    return [(rule, text, targets) for rule, impact, text, targets in found if impact in SERIOUS]
