"""One import page for every list format, told apart by content: our JSON, a .ros, a .rosz and a New Recruit
JSON roster; every refusal says what is wrong and where, and writes nothing."""
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

from armybuilder.interchange.battlescribe import import_library
from armybuilder.interchange.battlescribe.roster_write import zip_roster
from armybuilder.lists import services as s
from armybuilder.lists.models import ArmyList
from armybuilder.lists.selectors import army_list_document
from armybuilder.services.list_files import LIST, ROSTER, list_file_kind
from armybuilder.services.rosters import roster_export
from tests.battlescribe.conftest import CAT, GST
from tests.battlescribe.test_roster import MINI_LIST, xml_to_new_recruit_json
from tests.factories import UserFactory

EXAMPLE = Path("docs/examples/fow-afrika-korps-panzer-company.json")


@pytest.fixture
def books(db, tmp_path):
    call_command("load_handbooks", verbosity=0)
    (tmp_path / "mini.gst").write_text(GST, encoding="utf-8")
    (tmp_path / "mini.cat").write_text(CAT, encoding="utf-8")
    assert import_library([tmp_path / "mini.gst", tmp_path / "mini.cat"]).written


@pytest.fixture
def client(db):
    user = UserFactory(username="importer")
    c = Client()
    c.force_login(user)
    c.user = user
    return c


def upload(client, name: str, data: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post("/import/", {"file": SimpleUploadedFile(name, data)})


def test_every_format_is_recognised_by_content_whatever_its_name(books, client):
    ros = roster_export(s.army_list_import(doc=MINI_LIST))
    files = {"json list": EXAMPLE.read_bytes(), "ros": ros, "rosz": zip_roster(ros, "roster.ros"),
             "new recruit": xml_to_new_recruit_json(ros)}
    assert [list_file_kind(d) for d in files.values()] == [LIST, ROSTER, ROSTER, ROSTER]
    for kind, data in files.items():
        before = ArmyList.objects.filter(owner=client.user).count()
        answer = upload(client, "upload.bin", data)  # one misleading name for all
        assert answer.status_code == 302, (kind, answer.content[:500])
        new = ArmyList.objects.filter(owner=client.user).order_by("-pk").first()
        assert ArmyList.objects.filter(owner=client.user).count() == before + 1
        assert answer["Location"] == f"/lists/{new.public_id}/"
    docs = [army_list_document(a) for a in ArmyList.objects.filter(owner=client.user).order_by("pk")]
    assert docs[1]["formations"] == docs[2]["formations"] == docs[3]["formations"]  # the three rosters agree


@pytest.mark.parametrize("kind, data, where", [
    ("json", b'{"format": "armybuilder-list", "version": 1, "name": "x", "system": "fow4", "handbook": '
             b'{"code": "sample-afrika-korps", "revision": 1}, "formations": [{"formation": "NOPE", "units": []}]}',
     "/formations/0"),
    ("json syntax", b'{"format": "armybuilder-list",\n "name": }', "line 2"),
    ("xml", b'<?xml version="1.0"?>\n<roster xmlns="http://www.battlescribe.net/schema/rosterSchema">\n<forces>',
     "line"),
    ("zip", b"PK\x03\x04 not really a zip", "upload.bin"),
    ("new recruit", b'{"roster": {"forces": [{"catalogueId": "no-such-catalogue", "selections": []}]}}',
     "upload.bin"),
])
def test_refusals_say_what_and_where_and_save_nothing(books, client, kind, data, where):
    answer = upload(client, "upload.bin", data)
    assert answer.status_code == 400
    problems = answer.content.decode()
    problems = problems[problems.index('id="import-problems"'):]
    assert "The list was not imported" in problems and where in problems, (kind, problems[:800])
    assert not ArmyList.objects.filter(owner=client.user).exists()


def test_pasted_text_of_any_format_imports_too(books, client):
    ros = roster_export(s.army_list_import(doc=MINI_LIST)).decode("utf-8")
    assert client.post("/import/", {"text": ros}).status_code == 302
    assert client.post("/import/", {"text": json.dumps(json.loads(EXAMPLE.read_text()))}).status_code == 302
    assert ArmyList.objects.filter(owner=client.user).count() == 2
