"""BattleScribe rosters in and out: the real Phalanx roster (MIT, ../shared/data), the mini catalogue,
New Recruit's JSON form, and hostile files."""
import io
import json
import xml.etree.ElementTree as ET
import zipfile

import pytest
from django.core.management import CommandError, call_command

from armybuilder.interchange.battlescribe import import_library
from armybuilder.interchange.battlescribe.roster import BattleScribeRosterError, read_roster_bytes
from armybuilder.interchange.battlescribe.roster_map import roster_to_document
from armybuilder.interchange.battlescribe.roster_write import zip_roster
from armybuilder.lists.models import ArmyList
from armybuilder.lists.selectors import DbCatalog, army_list_document
from armybuilder.services.rosters import roster_export, roster_import

from .helpers import same_list

pytestmark = pytest.mark.django_db
NS = {"r": "http://www.battlescribe.net/schema/rosterSchema"}


def xml_to_new_recruit_json(data: bytes) -> bytes:
    """New Recruit's JSON form of a roster: attributes as keys, containers as lists."""
    def convert(el):
        out = dict(el.attrib)
        for child in el:
            tag = child.tag.rsplit("}", 1)[-1]
            if len(child) or tag in ("selections", "costs", "forces", "categories", "costLimits"):
                out[tag] = [convert(x) for x in child]
        return out

    return json.dumps({"roster": convert(ET.fromstring(data))}).encode()


# -- the Phalanx sample: a generic (non Flames of War) game system ---------------------------------------
@pytest.fixture
def phalanx(phalanx_dir):
    files = [phalanx_dir / "Spec Kata Wars 9000.gst", phalanx_dir / "Grannies.cat", phalanx_dir / "Babies.cat"]
    report = import_library(files)
    assert report.written and not report.errors, "\n".join(report.lines())
    return phalanx_dir


def test_the_phalanx_roster_imports_with_the_totals_the_file_states(phalanx):
    out = io.StringIO()
    call_command("import_roster", str(phalanx / "Test Roster 1.ros"), stdout=out)
    text = out.getvalue()
    assert "costs: 114 Points, 32 Fuel" in text and "warning:" not in text
    army_list = ArmyList.objects.get()
    assert army_list.system.code == "bs-bc3d-3e2a-b2b3-fef7" and army_list.points_limit == 200
    doc = army_list_document(army_list)
    assert [u["unit"] for u in doc["support"]] == [
        "a23f-f979-d5f7-34d5", "b5e5-01c4-aec9-6aa9::1f97-e558-f7c2-a9e6",
        "013c-0969-52c7-a739::5251-ba58-8494-67e5", "ee62-e229-cb4b-9256::3fea-0fc5-75d5-08ce",
        "b5e5-01c4-aec9-6aa9::1f97-e558-f7c2-a9e6"]


def test_the_phalanx_roster_report_keeps_fuel_beside_points(phalanx):
    result = roster_import(data=(phalanx / "Test Roster 1.ros").read_bytes(), source="Test Roster 1.ros")
    assert result.report.total_points == 114
    assert result.figures["costs"] == {"Points": 114, "Fuel": 32}
    assert result.report.legal and result.warnings == []


def test_the_phalanx_roster_round_trips_byte_for_byte(phalanx):
    first = roster_import(data=(phalanx / "Test Roster 1.ros").read_bytes(), source="Test Roster 1.ros")
    exported = roster_export(first.army_list)
    again = roster_import(data=exported, source="again.ros")
    assert roster_export(again.army_list) == exported
    root = ET.fromstring(exported)
    assert root.get("gameSystemId") == "bc3d-3e2a-b2b3-fef7" and root.get("battleScribeVersion") == "2.03"
    assert [c.get("value") for c in root.findall("r:costs/r:cost", NS)] == ["114.0", "32.0"]
    assert [el.tag.rsplit("}", 1)[-1] for el in root] == ["costs", "costLimits", "forces"]
    # Each selection's costs, as in BattleScribe: the Big Rig (link 013c-0969-52c7-a739) 50 points, 30 fuel.
    rig = next(s for s in root.iter(f"{{{NS['r']}}}selection") if s.get("entryId", "").startswith("013c") and
               s.get("type") == "unit")
    assert [c.get("value") for c in rig.find("r:costs", NS)] == ["50.0", "30.0"]


def test_new_recruit_json_and_rosz_give_the_same_list(phalanx):
    ros = (phalanx / "Test Roster 1.ros").read_bytes()
    from_xml = roster_import(data=ros, source="Test Roster 1.ros")
    from_json = roster_import(data=xml_to_new_recruit_json(ros), source="Test Roster 1.json")
    from_zip = roster_import(data=zip_roster(ros, "Test Roster 1.ros"), source="Test Roster 1.rosz")
    docs = [army_list_document(r.army_list) for r in (from_xml, from_json, from_zip)]
    assert docs[0] == docs[1] == docs[2]
    assert from_json.figures["costs"] == {"Points": 114, "Fuel": 32}


def test_export_roster_command_writes_ros_and_rosz(phalanx, tmp_path):
    result = roster_import(data=(phalanx / "Test Roster 1.ros").read_bytes(), source="Test Roster 1.ros")
    call_command("export_roster", str(result.army_list.public_id), "-o", str(tmp_path / "out.ros"),
                 stdout=io.StringIO())
    call_command("export_roster", str(result.army_list.public_id), "-o", str(tmp_path / "out.rosz"),
                 stdout=io.StringIO())
    with zipfile.ZipFile(tmp_path / "out.rosz") as archive:
        assert archive.read("roster.ros") == (tmp_path / "out.ros").read_bytes()
    out = io.StringIO()
    call_command("import_roster", str(tmp_path / "out.rosz"), stdout=out)
    assert "costs: 114 Points, 32 Fuel" in out.getvalue()


# -- the mini Flames of War catalogue ------------------------------------------------------------------
@pytest.fixture
def mini(systems, mini_dir):
    report = import_library([mini_dir])
    assert report.written
    return mini_dir


MINI_LIST = {
    "format": "armybuilder-list", "version": 2, "name": "Mini roster", "system": "fow4",
    "handbook": {"code": "cat-1", "revision": 1}, "points_limit": 50, "variant": None, "year": None, "notes": "",
    "formations": [{"formation": "l-form::form-1", "allied": False, "units": [
        {"box": "l-form::form-1/b-hq", "unit": "tank-plt", "entry": "l-hq::tank-plt",
         "selections": [{"entry": "m-short", "number": 2}, {"entry": "m-long", "number": 2}]},
        {"box": "l-form::form-1/b-p2", "unit": "inf-plt", "entry": "l-p2b::inf-plt",
         "selections": [{"entry": "sz-6"}, {"entry": "up-baz"}]}]}],
    "support": [],
    "cards": [{"card": "card-f1", "target": "/formations/0", "entry": "l-ccf::card-f1"},
              {"card": "card-u1", "target": "/formations/0/units/1", "entry": "l-ccu::card-u1"}],
}


def test_a_flames_of_war_list_exports_as_a_roster_and_imports_back(mini):
    from armybuilder.lists.services import army_list_import

    army_list = army_list_import(doc=MINI_LIST)
    ros = roster_export(army_list)
    root = ET.fromstring(ros)
    force = root.find("r:forces/r:force", NS)
    assert force.get("entryId") == "force-std" and force.get("catalogueId") == "cat-1"
    formation = force.find("r:selections/r:selection", NS)
    assert formation.get("entryId") == "l-form::form-1" and formation.get("type") == "upgrade"
    tank = formation.find("r:selections/r:selection", NS)
    # Paths carry the links they were reached through, as BattleScribe writes them.
    assert tank.get("entryGroupId") == "l-form::b-hq" and tank.get("type") == "unit"
    assert tank.get("entryId") == "l-form::l-hq::tank-plt"
    models = {m.get("entryId"): m.get("number") for m in tank.findall("r:selections/r:selection", NS)}
    # four tanks: two long guns, two of the default model
    assert models == {"l-form::l-hq::m-long": "2", "l-form::l-hq::m-short": "2"}
    # 17 (four tanks) + 2 long guns; rifles 7 + bazooka 1 + 2, less 1 for the card in the formation; cards -1 + 2.
    assert root.find("r:costs/r:cost", NS).get("value") == str(float(19 + 9 - 1 + 2))
    again = roster_import(data=ros, source="mini.ros")
    assert again.warnings == []
    assert same_list(army_list_document(again.army_list), army_list_document(army_list))
    assert roster_export(again.army_list) == ros


def test_selections_outside_our_model_are_reported_with_their_cost(mini):
    roster = {"name": "R", "costs": [{"name": "pts", "typeId": "pts", "value": 20.0}], "costLimits": [],
              "forces": [{"catalogueId": "cat-1", "catalogueRevision": "4", "selections": [
                  {"entryId": "l-form::form-1", "number": "1", "type": "upgrade", "costs": [], "selections": [
                      {"entryId": "l-hq::tank-plt", "entryGroupId": "b-hq", "number": "1", "type": "unit",
                       "costs": [], "selections": [{"entryId": "m-short", "number": "3", "type": "model",
                                                    "costs": [], "selections": []}]}]},
                  {"entryId": "nowhere-1", "name": "Mystery", "number": "1", "type": "upgrade",
                   "costs": [{"name": "pts", "typeId": "pts", "value": 7.0}], "selections": []}]}]}
    mapped = roster_to_document(roster, DbCatalog())
    assert mapped.document["formations"][0]["units"] == [
        {"box": "l-form::form-1/b-hq", "unit": "tank-plt", "entry": "l-hq::tank-plt",
         "selections": [{"entry": "m-short", "number": 3}]}]
    assert len(mapped.warnings) == 1
    assert "/roster/forces/0/selections/1" in mapped.warnings[0] and "7 pts" in mapped.warnings[0]
    assert mapped.skipped_costs == {"pts": 7.0}


def test_a_unit_selected_twice_in_one_selection_becomes_two_units_the_checks_count(mini):
    # BattleScribe may write "number 2" on a unit instead of two selections; both must be counted, or a
    # second copy over the box's limit would pass unseen.
    roster = {"name": "R", "costs": [], "costLimits": [],
              "forces": [{"catalogueId": "cat-1", "catalogueRevision": "4", "selections": [
                  {"entryId": "l-form::form-1", "number": "1", "type": "upgrade", "costs": [], "selections": [
                      {"entryId": "l-hq::tank-plt", "entryGroupId": "b-hq", "number": "2", "type": "unit",
                       "costs": [], "selections": [{"entryId": "m-short", "number": "3", "type": "model",
                                                    "costs": [], "selections": []}]}]}]}]}
    mapped = roster_to_document(roster, DbCatalog())
    units = mapped.document["formations"][0]["units"]
    assert [u["unit"] for u in units] == ["tank-plt", "tank-plt"]
    assert mapped.warnings == []


def test_a_roster_for_a_catalogue_not_imported_is_refused_with_the_reason(mini):
    roster = {"forces": [{"catalogueId": "cat-unknown", "catalogueName": "Elsewhere", "selections": []}]}
    with pytest.raises(BattleScribeRosterError, match="catalogue 'cat-unknown' .*Elsewhere.* is not imported"):
        roster_to_document(roster, DbCatalog())
    with pytest.raises(BattleScribeRosterError, match="no forces"):
        roster_to_document({"forces": []}, DbCatalog())


# -- hostile files ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("data, message", [
    (b"<roster", "not well-formed XML"),
    (b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "x">]><roster/>', "forbidden XML construct"),
    (b'<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema" id="a" name="b"/>',
     "is not a BattleScribe roster"),
    (b'{"roster": []}', "a 'roster' object"),
    (b'{"roster": {"forces": "many"}}', "/roster/forces: expected a list"),
    (b'{"roster": {"forces": [{"selections": [1]}]}}', "/roster/forces/0/selections/0: a selection is an object"),
    (b"{not json", "not valid JSON"),
])
def test_bad_roster_files_are_refused_with_what_and_where(data, message):
    with pytest.raises(BattleScribeRosterError, match=message) as caught:
        read_roster_bytes(data, "bad.ros")
    assert "bad.ros" in str(caught.value)


def test_zips_must_hold_one_small_roster():
    two = io.BytesIO()
    with zipfile.ZipFile(two, "w") as archive:
        archive.writestr("a.ros", "<roster/>")
        archive.writestr("b.ros", "<roster/>")
    with pytest.raises(BattleScribeRosterError, match="exactly one XML file"):
        read_roster_bytes(two.getvalue(), "two.rosz")
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.ros", b"<roster>" + b" " * 1_000_000 + b"</roster>")
    with pytest.raises(BattleScribeRosterError, match="compression ratio"):
        read_roster_bytes(bomb.getvalue(), "bomb.rosz")


def test_deeply_nested_selections_are_refused():
    sel = {"entryId": "x", "selections": []}
    root = sel
    for _ in range(60):
        child = {"entryId": "x", "selections": []}
        root["selections"].append(child)
        root = child
    data = json.dumps({"roster": {"forces": [{"catalogueId": "c", "selections": [sel]}]}}).encode()
    with pytest.raises(BattleScribeRosterError, match="nested deeper"):
        read_roster_bytes(data, "deep.json")


def test_import_roster_command_says_what_is_wrong(tmp_path):
    bad = tmp_path / "bad.ros"
    bad.write_bytes(b"<roster")
    with pytest.raises(CommandError, match="bad.ros.*not well-formed"):
        call_command("import_roster", str(bad))
    with pytest.raises(CommandError, match="no user 'ghost'"):
        call_command("import_roster", str(bad), "--owner", "ghost")
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_roster", str(tmp_path / "missing.ros"))
    with pytest.raises(CommandError, match="not a list id"):
        call_command("export_roster", "nope", "-o", str(tmp_path / "x.ros"))


def test_lists_not_built_on_battlescribe_data_do_not_export(sample_data):
    from armybuilder.lists.services import army_list_create
    from handbooks.models import Handbook

    army_list = army_list_create(handbook=Handbook.objects.filter(system__code="fow4").first(), name="Sample")
    with pytest.raises(BattleScribeRosterError, match="not imported from BattleScribe"):
        roster_export(army_list)


def test_missing_shared_data_fails_instead_of_skipping_when_ci_requires_it(monkeypatch):
    from .conftest import shared_data_missing

    monkeypatch.setenv("ARMYBUILDER_REQUIRE_BSDATA", "1")
    with pytest.raises(pytest.fail.Exception, match="ARMYBUILDER_REQUIRE_BSDATA=1 requires it"):
        shared_data_missing("library not found")
    monkeypatch.delenv("ARMYBUILDER_REQUIRE_BSDATA")
    with pytest.raises(pytest.skip.Exception, match="library not found"):
        shared_data_missing("library not found")
