"""The player's own names and notes go out to BattleScribe as customName/customNotes and come back in."""
import copy
import xml.etree.ElementTree as ET

import pytest

from armybuilder.lists.selectors import army_list_document
from armybuilder.lists.services import army_list_import
from armybuilder.services.rosters import roster_export, roster_import

from .test_roster import MINI_LIST, NS, mini  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db


def test_custom_names_and_notes_round_trip_through_a_roster(mini):  # noqa: F811
    doc = copy.deepcopy(MINI_LIST)
    doc["formations"][0]["custom_name"] = "Kampfgruppe Hahn"
    doc["formations"][0]["notes"] = "Holds the ridge\nuntil turn 3."
    doc["formations"][0]["units"][1]["custom_name"] = "Hahn's Grenadiers"
    army_list = army_list_import(doc=doc)
    ros = roster_export(army_list)
    root = ET.fromstring(ros)
    formation = root.find("r:forces/r:force/r:selections/r:selection", NS)
    assert formation.get("customName") == "Kampfgruppe Hahn"
    assert formation.get("customNotes") == "Holds the ridge\nuntil turn 3."
    units = formation.findall("r:selections/r:selection", NS)
    named = [u for u in units if u.get("customName")]
    assert [u.get("customName") for u in named] == ["Hahn's Grenadiers"]
    assert all(u.get("customNotes") is None for u in units)
    again = roster_import(data=ros, source="named.ros")
    back = army_list_document(again.army_list)
    assert back["formations"][0]["custom_name"] == "Kampfgruppe Hahn"
    assert back["formations"][0]["notes"] == "Holds the ridge\nuntil turn 3."
    assert back["formations"][0]["units"][1]["custom_name"] == "Hahn's Grenadiers"
    assert "custom_name" not in back["formations"][0]["units"][0]


def test_a_list_without_names_writes_no_custom_attributes(mini):  # noqa: F811
    ros = roster_export(army_list_import(doc=copy.deepcopy(MINI_LIST)))
    assert b"customName" not in ros and b"customNotes" not in ros
