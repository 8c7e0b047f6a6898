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
