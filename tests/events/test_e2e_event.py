"""A whole event end to end in real headless Chromium against a live server.

An organiser creates an event with a rules pack (100 points, one formation) and a deadline; three players
register and submit (one list fields two formations and is shown the error with its fix); the organiser
rejects it with a comment, the player removes the formation in the builder and submits again, the organiser
sees what changed, approves every list and locks them; a fourth registered player sees no list before the
reveal and every list after it. Screenshots of the dashboard and the event page at desktop and phone width go
to $EVENT_SCREENSHOTS (or the test's folder).
(The printed pack's steps are added by the pack's branch.)
"""
import os
from datetime import timedelta
from pathlib import Path

from django.utils import timezone

from armybuilder.services.events.models import Event, Submission
from handbooks.models import Handbook
from tests.web.browser import PYTESTMARK, axe_violations, expect
from tests.web.conftest import PASSWORD

from .conftest import make_user, panzer_company

pytestmark = PYTESTMARK
EVENT_NAME = "Gazala Cup 1942"


def signed_in(browser, base, username, width=1280):
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.set_default_timeout(15000)
    page = context.new_page()
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".whoami")).to_contain_text(username)
    return page


def register_and_submit(page, base, event, list_name):
    page.goto(f"{base}/events/{event.public_id}/")
    page.get_by_role("button", name="Register for this event").click()
    expect(page.locator("h1")).to_have_text(f"Submit a list to {EVENT_NAME}")
    page.get_by_label("Your Flames of War").select_option(label=f"{list_name} — Sample Afrika Korps (illustrative)")
    expect(page.locator("#pack-check .verdict")).to_be_visible()  # htmx drew the pack's check of the chosen list
    return page.locator("#pack-check")


def test_an_event_from_creation_to_reveal(live_books, browser, tmp_path):
    base = live_books.url
    shots = Path(os.environ.get("EVENT_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    make_user("marshal")  # the organiser
    players = {name: make_user(name) for name in ("anna", "bert", "carl", "dora")}
    afrika = Handbook.objects.get(code="sample-afrika-korps", is_current=True)
    lists = {"anna": panzer_company(players["anna"], afrika, name="Anna's Panzers"),
             "bert": panzer_company(players["bert"], afrika, name="Bert's Two Companies", companies=2),
             "carl": panzer_company(players["carl"], afrika, name="Carl's Desert Tanks")}

    # The organiser creates the event with its rules pack and a deadline.
    org = signed_in(browser, base, "marshal")
    org.get_by_role("navigation", name="Main").get_by_role("link", name="Events").click()
    org.get_by_role("link", name="Create an event").click()
    org.get_by_label("Name").fill(EVENT_NAME)
    org.get_by_label("Date").fill((timezone.now() + timedelta(days=14)).date().isoformat())
    org.get_by_label("Place").fill("Club hall, Tobruk Road")
    org.get_by_label("System").select_option(label="Flames of War (4th edition)")
    org.get_by_label("Points limit").fill("100")
    org.get_by_label("Command-card pool").fill("10")
    org.get_by_label("Formation limit").fill("1")
    org.get_by_label("Allowed books").select_option(["sample-afrika-korps", "sample-desert-rats"])
    now = timezone.now()
    org.get_by_label("List deadline (UTC)").fill((now + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"))
    org.get_by_label("Reveal lists at (UTC)").fill((now + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M"))
    org.get_by_label("Organisers may reopen a submission after the deadline").check()
    org.screenshot(path=str(shots / "event-form-1280.png"), full_page=True)
    org.get_by_role("button", name="Create the event").click()
    expect(org.locator("h1")).to_have_text(EVENT_NAME)
    expect(org.locator(".pack")).to_contain_text("100 points plus up to 10 points of command cards")
    expect(org.locator(".pack")).to_contain_text("at most 1")
    event = Event.objects.get(name=EVENT_NAME)

    # Three players register and submit; Bert's list breaks the formation limit and is told how to fix it.
    pages = {}
    for name in ("anna", "bert", "carl"):
        pages[name] = page = signed_in(browser, base, name)
        check = register_and_submit(page, base, event, lists[name].name)
        if name == "bert":
            expect(check).to_contain_text("Not legal at Gazala Cup 1942: 1 error")
            issue = check.locator(".issue[data-code='event.formations.too_many']")
            expect(issue).to_contain_text("The force fields 2 formations; the event allows at most 1.")
            expect(issue).to_contain_text("Fix: Remove 1 formation, e.g. Panzer Company.")
            expect(issue).to_contain_text("Formation limit")
            page.screenshot(path=str(shots / "submit-1280.png"), full_page=True)
        else:
            expect(check.locator(".verdict")).to_have_text(f"Legal at {EVENT_NAME}")
        page.get_by_role("button", name="Submit this list").click()
        expect(page.locator("h1")).to_have_text(lists[name].name)
        expect(page.locator(".alert--ok")).to_contain_text("is submitted")
    expect(pages["bert"].locator(".issue[data-code='event.formations.too_many'] .issue-fix")).to_contain_text(
        "Remove 1 formation")

    # Dora registers but submits nothing; before the reveal she sees names, never a list.
    dora = signed_in(browser, base, "dora")
    dora.goto(f"{base}/events/{event.public_id}/")
    dora.get_by_role("button", name="Register for this event").click()
    dora.goto(f"{base}/events/{event.public_id}/")
    players_panel = dora.locator("section[aria-labelledby='players-title']")
    expect(players_panel).to_contain_text("anna")
    for army in lists.values():
        expect(players_panel).not_to_contain_text(army.name)
    for name, army in lists.items():
        submission = Submission.objects.get(registration__player__username=name)
        response = dora.goto(f"{base}/events/submissions/{submission.public_id}/")
        assert response.status == 404
        assert army.name not in dora.content()

    # The organiser's dashboard: every player, their status and problems; Bert's list is rejected with a word.
    org.goto(f"{base}/events/{event.public_id}/dashboard/")
    bert_card = org.locator(".player-card", has=org.locator(".player-name", has_text="bert"))
    expect(bert_card.locator(".badge--bad")).to_have_text("1 error")
    expect(bert_card).to_contain_text("Remove 1 formation")
    expect(org.locator(".player-card")).to_have_count(4)
    assert axe_violations(org) == []
    org.screenshot(path=str(shots / "dashboard-review-1280.png"), full_page=True)
    bert_card.get_by_label("Comment to bert").fill("One formation only at this event, please.")
    bert_card.get_by_role("button", name="Reject").click()
    expect(org.locator(".alert--ok")).to_have_text("bert's list is rejected.")
    bert_card = org.locator(".player-card", has=org.locator(".player-name", has_text="bert"))
    expect(bert_card.locator(".status")).to_have_text("Rejected")

    # Bert reads the comment, removes the second company in the builder and submits again.
    bert = pages["bert"]
    bert.goto(f"{base}/events/{event.public_id}/")
    expect(bert.locator(".comment")).to_have_text("One formation only at this event, please.")
    bert.get_by_role("link", name="Your submission #1").click()
    bert.get_by_role("link", name="Open the list").click()
    bert.get_by_role("button", name="Remove formation Panzer Company").last.click()
    expect(bert.locator(".formation")).to_have_count(1)
    bert.goto(f"{base}/events/{event.public_id}/")
    bert.get_by_role("link", name="Submit again").click()
    bert.get_by_label("Your Flames of War").select_option(label="Bert's Two Companies — Sample Afrika Korps "
                                                               "(illustrative)")
    expect(bert.locator("#pack-check .verdict")).to_have_text(f"Legal at {EVENT_NAME}")
    bert.get_by_role("button", name="Submit this list").click()
    expect(bert.locator(".meta").first).to_contain_text("Submission #2")

    # The organiser sees what changed, approves every list and locks them.
    org.goto(f"{base}/events/{event.public_id}/dashboard/")
    bert_card = org.locator(".player-card", has=org.locator(".player-name", has_text="bert"))
    expect(bert_card.locator(".diff-title")).to_have_text("Since #1: 64 → 32 pts (-32)")
    expect(bert_card.locator(".diff-out")).to_have_count(3)
    expect(bert_card.locator(".badge--ok")).to_have_text("legal")
    for name in ("anna", "bert", "carl"):
        card = org.locator(".player-card", has=org.locator(".player-name", has_text=name))
        card.get_by_role("button", name="Approve").click()
        expect(org.locator(".alert--ok")).to_have_text(f"{name}'s list is approved.")
    org.get_by_role("button", name="Lock all").click()
    expect(org.locator(".alert--ok")).to_contain_text("3 approved lists locked")
    expect(org.locator(".player-card .status--locked")).to_have_count(4)
    assert axe_violations(org) == []
    org.screenshot(path=str(shots / "dashboard-1280.png"), full_page=True)
    org.set_viewport_size({"width": 390, "height": 844})
    org.reload()
    org.screenshot(path=str(shots / "dashboard-390.png"), full_page=True)
    assert org.evaluate("document.documentElement.scrollWidth") <= 390

    # A locked player cannot submit again.
    anna = pages["anna"]
    anna.goto(f"{base}/events/{event.public_id}/")
    expect(anna.locator(".status")).to_have_text("Locked")
    expect(anna.get_by_role("link", name="Submit again")).to_have_count(0)

    # After the reveal Dora sees every list, and opens one.
    Event.objects.filter(pk=event.pk).update(deadline=timezone.now() - timedelta(hours=2),
                                             reveal_at=timezone.now() - timedelta(minutes=1))
    dora.goto(f"{base}/events/{event.public_id}/")
    players_panel = dora.locator("section[aria-labelledby='players-title']")
    for name, army in lists.items():
        expect(players_panel).to_contain_text(f"{name}: {army.name}")
    players_panel.get_by_role("link", name="carl: Carl's Desert Tanks").click()
    expect(dora.locator("h1")).to_have_text("Carl's Desert Tanks")
    expect(dora.locator(".event-units")).to_contain_text("Panzer III Tank Platoon")
    dora.screenshot(path=str(shots / "submission-1280.png"), full_page=True)
    dora.goto(f"{base}/events/{event.public_id}/")
    assert axe_violations(dora) == []
    dora.screenshot(path=str(shots / "event-1280.png"), full_page=True)
    dora.set_viewport_size({"width": 390, "height": 844})
    dora.reload()
    dora.screenshot(path=str(shots / "event-390.png"), full_page=True)
    assert dora.evaluate("document.documentElement.scrollWidth") <= 390
    for shot in ("dashboard-1280", "dashboard-390", "event-1280", "event-390"):
        assert (shots / f"{shot}.png").stat().st_size > 20000
