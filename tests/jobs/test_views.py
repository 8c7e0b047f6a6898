"""A job's status in the API (/api/v1/jobs/{id}) and in pages (the htmx partial), and its file."""
import pytest
from django.test import Client
from rest_framework.test import APIClient

from armybuilder.jobs.models import Job
from armybuilder.jobs.services import job_enqueue

from .conftest import token_client

pytestmark = pytest.mark.django_db


def test_the_owner_reads_a_finished_jobs_status_and_downloads_its_file(alice):
    job = job_enqueue(kind="test_work", owner=alice, input_file=b"xyz")
    client = token_client(alice)
    response = client.get(f"/api/v1/jobs/{job.pk}")
    assert response.status_code == 200 and "Retry-After" not in response
    body = response.json()
    assert {k: body[k] for k in ("id", "kind", "title", "status", "progress", "message", "attempts")} == {
        "id": str(job.pk), "kind": "test_work", "title": "Test work", "status": "succeeded", "progress": 100,
        "message": "All done", "attempts": 1}
    assert body["result"]["input"] == "xyz" and body["result_url"] == f"/api/v1/jobs/{job.pk}/result"
    download = client.get(body["result_url"])
    assert download.status_code == 200 and download.content == b"file of xyz"
    assert download["Content-Type"] == "text/plain" and 'filename="out.txt"' in download["Content-Disposition"]


def test_an_unfinished_job_says_when_to_ask_again_and_has_no_file_yet(alice):
    job = Job.objects.create(kind="test_work", owner=alice, message="Waiting for a worker")
    client = token_client(alice)
    response = client.get(f"/api/v1/jobs/{job.pk}")
    assert response.json()["status"] == "queued" and response["Retry-After"] == "1"
    assert response.json()["result_url"] is None
    missing = client.get(f"/api/v1/jobs/{job.pk}/result")
    assert missing.status_code == 404 and "no file" in missing.json()["detail"]


def test_someone_elses_job_looks_missing_and_anonymous_callers_must_sign_in(alice, bob):
    job = job_enqueue(kind="test_work", owner=alice)
    for path in (f"/api/v1/jobs/{job.pk}", f"/api/v1/jobs/{job.pk}/result"):
        assert token_client(bob).get(path).status_code == 404
        assert APIClient().get(path).status_code == 401
    assert Client().get(f"/jobs/{job.pk}/").status_code == 404
    assert Client().get(f"/jobs/{job.pk}/result").status_code == 404


def _visitor() -> tuple[Client, str]:
    client = Client()
    session = client.session
    session["seen"] = True
    session.save()
    return client, session.session_key


def test_the_partial_polls_while_the_job_waits_and_stops_when_it_is_done(alice):
    client, key = _visitor()
    waiting = Job.objects.create(kind="test_work", session_key=key, message="Waiting for a worker")
    partial = client.get(f"/jobs/{waiting.pk}/", HTTP_HX_REQUEST="true")
    html = partial.content.decode()
    assert partial.status_code == 200 and "<html" not in html
    assert f'hx-get="/jobs/{waiting.pk}/"' in html and 'hx-trigger="load delay:1s"' in html
    assert "waiting for a worker" in html.lower() and 'data-status="queued"' in html
    assert "HX-Request" in partial["Vary"] and "no-store" in partial["Cache-Control"]

    done = job_enqueue(kind="test_work", session_key=key, input_file=b"q")
    html = client.get(f"/jobs/{done.pk}/", HTTP_HX_REQUEST="true").content.decode()
    assert "hx-get" not in html and f'href="/jobs/{done.pk}/result"' in html and "Download out.txt" in html
    assert client.get(f"/jobs/{done.pk}/result").content == b"file of q"
    page = client.get(f"/jobs/{done.pk}/").content.decode()
    assert "<html" in page and "<h1>Test work</h1>" in page


def test_the_partial_shows_why_a_job_failed(alice):
    client, key = _visitor()
    job = job_enqueue(kind="test_work", session_key=key, params={"mode": "refuse"})
    html = client.get(f"/jobs/{job.pk}/", HTTP_HX_REQUEST="true").content.decode()
    assert "failed" in html and "the input makes no sense" in html and "hx-get" not in html


def test_any_page_can_show_a_job_with_the_template_tag(alice):
    from django.template import Context, Template

    job = Job.objects.create(kind="test_work", owner=alice, status="running", progress=30, message="Busy")
    html = Template("{% load jobs_tags %}<main>{% job_status job %}</main>").render(Context({"job": job}))
    assert f'id="job-{job.pk}"' in html and f'hx-get="/jobs/{job.pk}/"' in html
    assert 'value="30"' in html and "Busy" in html
