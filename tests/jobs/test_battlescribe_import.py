"""BattleScribe imports from the API and the staff page, as jobs (in-process here; tests/stack runs a worker)."""
import io
import os
import re
import zipfile
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from armybuilder.jobs.models import Job
from handbooks.models import Handbook

from .conftest import token_client

pytestmark = [pytest.mark.django_db, pytest.mark.bsdata]

BSDATA_DIR = Path(settings.BASE_DIR).parent / "shared" / "data" / "bsdata-flamesofwar"
CATALOGUES = ["MW - Afrika Korps.cat", "Fortifications.cat"]


@pytest.fixture
def library_files() -> dict[str, bytes]:
    if not (BSDATA_DIR / "Flames_of_War_v4.gst").is_file():
        if os.environ.get("ARMYBUILDER_REQUIRE_BSDATA") == "1":
            pytest.fail(f"BSData library missing at {BSDATA_DIR}")
        pytest.skip(f"BSData library not found at {BSDATA_DIR} (it is not part of the project)")
    return {name: (BSDATA_DIR / name).read_bytes() for name in ["Flames_of_War_v4.gst", *CATALOGUES]}


def zipped(files: dict[str, bytes], folder: str = "bsdata-flamesofwar/") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(folder + name, data)
        archive.writestr(folder + "README.md", b"not a catalogue")
    return buffer.getvalue()


def handbook_catalogues(files: dict[str, bytes]) -> int:
    """Catalogues that become handbooks: those not marked library="true" in their root element."""
    return sum(1 for name, data in files.items() if name.endswith(".cat")
               and not re.search(rb'<catalogue\b[^>]*\blibrary="true"', data[:4000]))


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user("staff", password="pw-staff-1234", is_staff=True)


def bs_handbooks() -> int:
    return Handbook.objects.filter(source="battlescribe").count()


def test_staff_import_a_zipped_library_through_the_api_and_get_the_report(systems, staff, library_files):
    client = token_client(staff)
    upload = SimpleUploadedFile("bsdata.zip", zipped(library_files), content_type="application/zip")
    response = client.post("/api/v1/imports/battlescribe", {"files": [upload]}, format="multipart")
    assert response.status_code == 202, response.content
    job = response.json()
    assert response["Location"] == f"/api/v1/jobs/{job['id']}"
    assert job["status"] == "succeeded", job  # in-process: done before the answer
    expected = handbook_catalogues(library_files)
    assert expected == 2 and bs_handbooks() == expected
    assert job["result"]["written"] is True
    assert job["message"] == f"Imported {expected} catalogues ({expected} new or changed)"
    report = client.get(job["result_url"]).content.decode()
    assert "MW - Afrika Korps.cat" in report and report.rstrip().splitlines()[-1].startswith("total:")


def test_loose_library_files_can_be_uploaded_from_the_staff_page(systems, staff, library_files):
    client = Client()
    client.force_login(staff)
    uploads = [SimpleUploadedFile(name, data) for name, data in library_files.items()]
    response = client.post("/import/battlescribe/", {"files": uploads})
    job = Job.objects.get(kind="battlescribe_import")
    assert response.status_code == 302 and response["Location"] == f"/jobs/{job.pk}/"
    assert job.status == "succeeded" and bs_handbooks() == handbook_catalogues(library_files)
    page = client.get(response["Location"]).content.decode()
    assert "BattleScribe import" in page and "Download battlescribe-import-report.txt" in page


def test_a_library_with_a_broken_catalogue_writes_nothing(systems, staff, library_files):
    broken = dict(library_files)
    broken["MW - Afrika Korps.cat"] = library_files["MW - Afrika Korps.cat"][:5000]  # cut off mid-element
    job = token_client(staff).post("/api/v1/imports/battlescribe", {"files": [
        SimpleUploadedFile("lib.zip", zipped(broken))]}, format="multipart").json()
    assert job["status"] == "failed" and "could not be read, so nothing was imported" in job["error"]
    assert "MW - Afrika Korps.cat" in job["error"]
    assert bs_handbooks() == 0 and Handbook.objects.filter(system__code="fow4").count() == 0


@pytest.mark.parametrize("name, content, message", [
    ("notes.zip", b"this is not a zip", "notes.zip: not a readable zip file"),
    ("army.json", b"{}", "'army.json' is not a BattleScribe file"),
    ("only.cat", b"<catalogue/>", "no game system file (.gst or .gstz)"),
])
def test_an_upload_that_is_not_a_library_is_refused_before_any_job(staff, name, content, message):
    response = token_client(staff).post("/api/v1/imports/battlescribe", {
        "files": [SimpleUploadedFile(name, content)]}, format="multipart")
    assert response.status_code == 400
    assert message in response.json()["detail"] and response.json()["problems"][0]["pointer"] == "/files"
    assert not Job.objects.exists()


def test_a_zip_bomb_is_refused(staff):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("Flames.gst", b"\0" * (20 * 1024 * 1024))
    response = token_client(staff).post("/api/v1/imports/battlescribe", {
        "files": [SimpleUploadedFile("bomb.zip", buffer.getvalue())]}, format="multipart")
    assert response.status_code == 400 and "refused as a zip bomb" in response.json()["detail"]


def test_only_staff_may_import_game_data(db):
    player = get_user_model().objects.create_user("player", password="pw-player-1234")
    upload = SimpleUploadedFile("x.gst", b"<gameSystem/>")
    assert token_client(player).post("/api/v1/imports/battlescribe", {"files": [upload]},
                                     format="multipart").status_code == 403
    client = Client()
    client.force_login(player)
    assert client.get("/import/battlescribe/").status_code == 403
    assert not Job.objects.exists()
