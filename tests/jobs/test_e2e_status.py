"""In real Chromium: the status partial polls by itself (htmx, under the CSP) and shows the download when done."""
from django.contrib.auth import get_user_model
from django.utils import timezone

from armybuilder.jobs.models import Job
from tests.web.browser import PYTESTMARK, browser, expect, page  # noqa: F401 (fixtures)

pytestmark = PYTESTMARK


def test_the_status_page_follows_the_job_to_its_end_without_a_reload(live_server, page):  # noqa: F811
    user = get_user_model().objects.create_user("waiter", password="pw-waiter-12345")
    job = Job.objects.create(kind="roster_pdf", owner=user, message="Waiting for a worker")
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("waiter")
    page.get_by_label("Password").fill("pw-waiter-12345")
    page.get_by_role("button", name="Log in").click()
    violations = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(f"{live_server.url}/jobs/{job.pk}/")
    status = page.locator(f"#job-{job.pk}")
    expect(status).to_have_attribute("data-status", "queued")
    Job.objects.filter(pk=job.pk).update(status="running", progress=60, message="Printing", started_at=timezone.now())
    expect(status).to_have_attribute("data-status", "running")
    expect(status.locator("progress")).to_have_attribute("value", "60")
    Job.objects.filter(pk=job.pk).update(status="succeeded", progress=100, message="Ready",
                                         result_file=b"%PDF-1.7 test", result_name="Roster-a4.pdf",
                                         result_content_type="application/pdf", finished_at=timezone.now())
    link = page.get_by_role("link", name="Download Roster-a4.pdf")
    expect(link).to_be_visible()
    with page.expect_download() as info:
        link.click()
    assert info.value.suggested_filename == "Roster-a4.pdf"
    assert page.url.endswith(f"/jobs/{job.pk}/") and violations == []
