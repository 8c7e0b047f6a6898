"""Rosters of large lists render in a worker: the download link starts a job, the API can ask for one."""
import pytest
from rest_framework.test import APIClient

from armybuilder.api.services import api_token_rotate
from armybuilder.jobs.models import Job
from armybuilder.lists import services
from armybuilder.services.printing.services import roster_pdf_for_list, roster_qr_path

from .test_views import roster_url


@pytest.fixture
def army_list(legal_doc, player):
    return services.army_list_import(doc=legal_doc, owner=player)


@pytest.fixture
def api(player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token_rotate(user=player)[1]}")
    return client


def test_the_api_renders_a_roster_as_a_job_whose_file_is_the_pdf(api, army_list, read_pdf):
    response = api.post(f"/api/v1/lists/{army_list.public_id}/roster-jobs", {"paper": "letter", "cards": False},
                        format="json")
    assert response.status_code == 202
    job = response.json()
    assert job["kind"] == "roster_pdf" and job["status"] == "succeeded"
    assert job["result"] == {"list": str(army_list.public_id), "version": army_list.version, "paper": "letter",
                             "bytes": job["result"]["bytes"]}
    pdf = api.get(job["result_url"])
    assert pdf["Content-Type"] == "application/pdf" and len(pdf.content) == job["result"]["bytes"]
    assert "Desert Fox" in read_pdf(pdf.content).pages[0]


def test_asking_again_for_the_same_version_reuses_the_job_and_a_change_starts_a_new_one(api, army_list):
    url = f"/api/v1/lists/{army_list.public_id}/roster-jobs"
    first = api.post(url, {}, format="json").json()["id"]
    assert api.post(url, {}, format="json").json()["id"] == first
    services.army_list_update(army_list=army_list, name="Desert Fox II")
    assert api.post(url, {}, format="json").json()["id"] != first
    assert Job.objects.count() == 2


def test_bad_roster_job_options_are_refused_with_where(api, army_list):
    response = api.post(f"/api/v1/lists/{army_list.public_id}/roster-jobs", {"paper": "a3"}, format="json")
    assert response.status_code == 400 and response.json()["problems"][0]["pointer"] == "/paper"


def test_with_a_worker_a_large_lists_roster_link_starts_a_job_and_shows_its_status(client, player, army_list,
                                                                                   settings):
    settings.JOBS_IN_PROCESS = False  # a worker would take it; in this test the job stays queued
    settings.ROSTER_SYNC_MAX_UNITS = 5  # Desert Fox has nine units
    client.force_login(player)
    response = client.get(roster_url(army_list, paper="letter"))
    job = Job.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/jobs/{job.pk}/"
    assert (job.kind, job.status, job.owner, job.params["paper"]) == ("roster_pdf", "queued", player, "letter")
    page = client.get(response["Location"]).content.decode()
    assert "Roster PDF" in page and "waiting for a worker" in page


def test_a_roster_already_rendered_by_any_process_is_served_at_once_even_for_a_large_list(
        client, player, army_list, settings):
    settings.JOBS_IN_PROCESS = False
    settings.ROSTER_SYNC_MAX_UNITS = 5
    client.force_login(player)
    list_url = "http://testserver" + roster_qr_path(army_list)  # where the QR code of a private list leads
    rendered = roster_pdf_for_list(army_list=army_list, player=player.get_full_name(), list_url=list_url)
    response = client.get(roster_url(army_list))
    assert response.status_code == 200 and response.content == rendered and not Job.objects.exists()


def test_a_small_list_renders_in_the_request_even_with_a_worker(client, player, army_list, settings):
    settings.JOBS_IN_PROCESS = False
    settings.ROSTER_SYNC_MAX_UNITS = 9
    client.force_login(player)
    response = client.get(roster_url(army_list))
    assert response.status_code == 200 and response.content.startswith(b"%PDF-") and not Job.objects.exists()
