"""The Content-Security-Policy (no inline script or style, nothing from other sites) and the pages that must
work under it, in real Chromium: the builder with its htmx swaps, and the self-hosted API docs."""
import pytest

from .browser import PYTESTMARK, choose, expect, pick

pytestmark = PYTESTMARK

# Every violation the browser reports, and every request to another site, ends up in these lists.
WATCH = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  e => window.__csp.push(
    `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`));
"""


@pytest.fixture
def watched(page, live_books):
    page.add_init_script(WATCH)
    foreign, errors = [], []
    page.on("request", lambda r: foreign.append(r.url) if not r.url.startswith((live_books.url, "data:", "blob:"))
            else None)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield page, foreign, errors


def violations(page) -> list[str]:
    return page.evaluate("window.__csp")


def test_the_builder_works_under_the_policy_without_a_single_violation(watched, live_books):
    page, foreign, errors = watched
    response = page.goto(live_books.url + "/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy and "unsafe" not in policy
    page.get_by_label("Game system and book").select_option(
        label="Sample Afrika Korps (illustrative) — Germany, Mid-War")
    page.get_by_label("Points limit").fill("100")
    page.get_by_label("Name of the list").fill("Under the policy")
    page.get_by_role("button", name="Start building").click()
    page.locator(".add-formation button.choice", has_text="Panzer Company").first.click()
    pick(page, "f0-box-sg100-hq", "Panzer Company HQ")  # an htmx swap of the whole builder
    choose(page, "f0-u0", "2 Panzer III")
    expect(page.locator("#summary .big")).to_have_text("8")
    # The points meter is drawn by a class, not a style attribute: 8 of 100 points is 5 % rounded.
    fill = page.locator(".meter span")
    assert fill.get_attribute("class") == "meter__fill--2" and fill.evaluate("e => e.offsetWidth") > 0
    assert violations(page) == [] and foreign == [] and errors == []


def test_swagger_ui_and_redoc_come_from_this_site_and_run_under_the_policy(watched, live_books):
    page, foreign, errors = watched
    page.goto(live_books.url + "/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Army Builder API")
    expect(page.locator(".opblock-tag-section").first).to_be_visible()
    assert violations(page) == []
    page.goto(live_books.url + "/api/redoc/")
    # Redoc lays out the whole schema before drawing anything: on a loaded 2-core machine that takes seconds.
    expect(page.locator("h1").first).to_contain_text("Army Builder API", timeout=30_000)
    # Redoc always draws its maker's logo from their site; the policy blocks it (the image hides itself).
    assert violations(page) in ([], ["img-src blocked https://cdn.redoc.ly/redoc/logo-mini.svg at :0"])
    assert [url for url in foreign if "cdn.redoc.ly/redoc/logo-mini.svg" not in url] == []
