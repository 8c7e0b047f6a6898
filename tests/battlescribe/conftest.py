"""Fixtures for the BattleScribe importer tests.

Hand-written XML here is our own invention (no BSData text). The real BSData
Flames of War library is read at run time from ../shared/data and never copied
into the project; tests that need it skip when it is absent, and fail instead
when ARMYBUILDER_REQUIRE_BSDATA=1 (CI sets it).
"""
import os
from pathlib import Path

import pytest
from django.conf import settings

BSDATA_DIR = Path(settings.BASE_DIR).parent / "shared" / "data" / "bsdata-flamesofwar"
PHALANX_DIR = Path(settings.BASE_DIR).parent / "shared" / "data" / "bsdata-phalanx"

GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="gs-1" name="Mini FoW" revision="3" battleScribeVersion="2.03"
            xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="-1.0" hidden="false"/></costTypes>
  <profileTypes>
    <profileType id="pt-tank" name="Tank Unit"><characteristicTypes>
      <characteristicType id="ch-mot" name="Motivation"/><characteristicType id="ch-skill" name="Skill"/>
    </characteristicTypes></profileType>
    <profileType id="pt-card" name="Command Card"><characteristicTypes>
      <characteristicType id="ch-info" name="Info"/></characteristicTypes></profileType>
  </profileTypes>
  <categoryEntries>
    <categoryEntry id="cat-form" name="Formations" hidden="false"/>
    <categoryEntry id="cat-sup" name="Support Units" hidden="false"/>
    <categoryEntry id="cat-fs" name="Formation Support" hidden="false"/>
    <categoryEntry id="cat-cc" name="Command Cards" hidden="false"/>
  </categoryEntries>
  <forceEntries><forceEntry id="force-std" name="Standard" hidden="false"/></forceEntries>
  <sharedRules>
    <rule id="rule-pa" name="Protected Ammo"
      hidden="false"><description>INVENTED RULE TEXT THAT MUST NOT BE COPIED</description></rule>
  </sharedRules>
</gameSystem>
"""

PTS_MODEL = ('<condition field="selections" scope="tank-plt" value="{n}.0" percentValue="false" shared="true" '
             'includeChildSelections="true" includeChildForces="false" childId="model" type="equalTo"/>')


def _models_set(n: int, pts: int) -> str:
    return (f'<modifier type="set" field="pts" value="{pts}.0"><conditions>{PTS_MODEL.format(n=n)}</conditions>'
            '</modifier>')


CAT = f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Mid-War - Test German" revision="4" battleScribeVersion="2.03" library="false"
           gameSystemId="gs-1" gameSystemRevision="3" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <entryLinks>
    <entryLink id="l-form" name="Test Tank Company" hidden="false" targetId="form-1" type="selectionEntry">
      <constraints><constraint field="selections" scope="force" value="1.0" percentValue="false" shared="true"
        includeChildSelections="false" includeChildForces="false" id="c-form-max" type="max"/></constraints>
      <categoryLinks><categoryLink id="cl-1" name="x" hidden="false" targetId="cat-form"
        primary="true"/></categoryLinks>
    </entryLink>
    <entryLink id="l-sup" name="Heavy Platoon" hidden="false" targetId="sup-1" type="selectionEntry"/>
    <entryLink id="l-lost" name="Lost" hidden="false" targetId="nowhere" type="selectionEntry"/>
  </entryLinks>
  <sharedSelectionEntries>
    <selectionEntry id="tank-plt" name="Panzer Test Platoon (LG999)" hidden="false" type="unit">
      <modifiers>{_models_set(3, 13)}{_models_set(4, 17)}{_models_set(5, 21)}</modifiers>
      <infoLinks>
        <infoLink id="il-1" name="Protected Ammo" hidden="false" targetId="rule-pa" type="rule"/>
        <infoLink id="il-2" name="Tank" hidden="false" targetId="prof-tank" type="profile"/>
      </infoLinks>
      <selectionEntryGroups>
        <selectionEntryGroup id="grp-size" name="Unit Size" hidden="false" defaultSelectionEntryId="m-short">
          <constraints>
            <constraint field="selections" scope="parent" value="3.0" percentValue="false" shared="true"
              includeChildSelections="false" includeChildForces="false" id="c-s-min" type="min"/>
            <constraint field="selections" scope="parent" value="5.0" percentValue="false" shared="true"
              includeChildSelections="false" includeChildForces="false" id="c-s-max" type="max"/>
          </constraints>
          <selectionEntries>
            <selectionEntry id="m-short" name="Tank (short)" hidden="false" type="model">
              <constraints><constraint field="selections" scope="parent" value="5.0" percentValue="false"
                shared="true" includeChildSelections="false" includeChildForces="false" id="c-m1"
                  type="max"/></constraints>
              <costs><cost name="pts" typeId="pts" value="0.0"/></costs>
            </selectionEntry>
            <selectionEntry id="m-long" name="Tank (long)" hidden="false" type="model">
              <constraints><constraint field="selections" scope="parent" value="5.0" percentValue="false"
                shared="true" includeChildSelections="false" includeChildForces="false" id="c-m2"
                  type="max"/></constraints>
              <costs><cost name="pts" typeId="pts" value="1.0"/></costs>
            </selectionEntry>
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
      <costs><cost name="pts" typeId="pts" value="14.0"/></costs>
    </selectionEntry>
    <selectionEntry id="inf-plt" name="Rifle Platoon" hidden="false" type="unit">
      <modifiers>
        <modifier type="increment" field="pts" value="2">
          <conditions><condition field="selections" scope="inf-plt" value="1.0" percentValue="false" shared="true"
            includeChildSelections="false" includeChildForces="false" childId="up-baz" type="equalTo"/></conditions>
        </modifier>
      </modifiers>
      <modifierGroups>
        <modifierGroup><conditionGroups><conditionGroup type="and"><conditions>
            <condition field="selections" scope="roster" value="1.0" percentValue="false" shared="true"
              includeChildSelections="true" includeChildForces="false" childId="card-f1" type="atLeast"/>
            <condition field="selections" scope="ancestor" value="1.0" percentValue="false" shared="true"
              includeChildSelections="false" includeChildForces="false" childId="form-1" type="instanceOf"/>
          </conditions></conditionGroup></conditionGroups>
          <modifiers><modifier type="decrement" field="pts" value="1"/></modifiers>
        </modifierGroup>
      </modifierGroups>
      <selectionEntryGroups>
        <selectionEntryGroup id="inf-size" name="Unit Size" hidden="false">
          <constraints>
            <constraint field="selections" scope="parent" value="1.0" percentValue="false" shared="true"
              includeChildSelections="false" includeChildForces="false" id="c-i-min" type="min"/>
            <constraint field="selections" scope="parent" value="1.0" percentValue="false" shared="true"
              includeChildSelections="false" includeChildForces="false" id="c-i-max" type="max"/>
          </constraints>
          <selectionEntries>
            <selectionEntry id="sz-4" name="4x Rifle team" hidden="false" type="upgrade">
              <costs><cost name="pts" typeId="pts" value="5.0"/></costs></selectionEntry>
            <selectionEntry id="sz-6" name="6x Rifle team, 1x Bazooka team" hidden="false" type="upgrade">
              <costs><cost name="pts" typeId="pts" value="7.0"/></costs></selectionEntry>
          </selectionEntries>
        </selectionEntryGroup>
        <selectionEntryGroup id="inf-opt" name="Options" hidden="false">
          <constraints><constraint field="selections" scope="parent" value="1.0" percentValue="false" shared="true"
            includeChildSelections="false" includeChildForces="false" id="c-o-max" type="max"/></constraints>
          <selectionEntries>
            <selectionEntry id="up-baz" name="Bazooka" hidden="false" type="upgrade">
              <costs><cost name="pts" typeId="pts" value="1.0"/></costs></selectionEntry>
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
      <entryLinks>
        <entryLink id="l-ccu" name="Command Cards [Unit]" hidden="false" targetId="cc-unit" type="selectionEntryGroup"/>
      </entryLinks>
      <costs><cost name="pts" typeId="pts" value="0.0"/></costs>
    </selectionEntry>
    <selectionEntry id="form-1" name="Test Tank Company" hidden="false" type="upgrade">
      <selectionEntryGroups>
        <selectionEntryGroup id="b-p1" name="1) Tank Platoon" hidden="false">
          <constraints>
            <constraint field="selections" scope="parent" value="1.0" percentValue="false" shared="true"
              includeChildSelections="false" includeChildForces="false" id="c-b1-min" type="min"/>
            <constraint field="selections" scope="parent" value="1.0" percentValue="false" shared="true"
              includeChildSelections="false" includeChildForces="false" id="c-b1-max" type="max"/>
          </constraints>
          <entryLinks><entryLink id="l-p1" name="Tank" hidden="false" targetId="tank-plt"
            type="selectionEntry"/></entryLinks>
        </selectionEntryGroup>
        <selectionEntryGroup id="b-hq" name="0) Tank Company HQ" hidden="false">
          <constraints>
            <constraint field="selections" scope="parent" value="1.0" percentValue="false" shared="true"
              includeChildSelections="false" includeChildForces="false" id="c-hq-min" type="min"/>
            <constraint field="selections" scope="parent" value="1.0" percentValue="false" shared="true"
              includeChildSelections="false" includeChildForces="false" id="c-hq-max" type="max"/>
          </constraints>
          <entryLinks><entryLink id="l-hq" name="Tank" hidden="false" targetId="tank-plt"
            type="selectionEntry"/></entryLinks>
        </selectionEntryGroup>
        <selectionEntryGroup id="b-p2" name="2) Optional Platoon" hidden="false">
          <constraints><constraint field="selections" scope="parent" value="1.0" percentValue="false" shared="true"
            includeChildSelections="false" includeChildForces="false" id="c-b2-max" type="max"/></constraints>
          <entryLinks>
            <entryLink id="l-p2a" name="Tank" hidden="false" targetId="tank-plt" type="selectionEntry"/>
            <entryLink id="l-p2b" name="Rifle" hidden="false" targetId="inf-plt" type="selectionEntry"/>
          </entryLinks>
        </selectionEntryGroup>
      </selectionEntryGroups>
      <entryLinks>
        <entryLink id="l-rifle" name="Rifle" hidden="false" targetId="inf-plt" type="selectionEntry">
          <constraints><constraint field="selections" scope="parent" value="2.0" percentValue="false" shared="true"
            includeChildSelections="false" includeChildForces="false" id="c-r-max" type="max"/></constraints>
        </entryLink>
        <entryLink id="l-ccf" name="Command Cards [Formation]" hidden="false" targetId="cc-form"
          type="selectionEntryGroup"/>
      </entryLinks>
      <costs><cost name="pts" typeId="pts" value="0.0"/></costs>
    </selectionEntry>
    <selectionEntry id="sup-1" name="Heavy Platoon" hidden="false" type="unit">
      <modifiers>
        <modifier type="increment" field="pts" value="1">
          <conditions><condition field="limit::pts" scope="roster" value="100.0" percentValue="false" shared="true"
            includeChildSelections="false" includeChildForces="false" childId="any" type="atLeast"/></conditions>
        </modifier>
      </modifiers>
      <constraints><constraint field="selections" scope="force" value="2.0" percentValue="false" shared="true"
        includeChildSelections="true" includeChildForces="false" id="c-sup-max" type="max"/></constraints>
      <categoryLinks><categoryLink id="cl-2" name="x" hidden="false" targetId="cat-sup" primary="true"/></categoryLinks>
      <fooBar/>
      <costs><cost name="pts" typeId="pts" value="10.0"/></costs>
    </selectionEntry>
  </sharedSelectionEntries>
  <sharedSelectionEntryGroups>
    <selectionEntryGroup id="cc-unit" name="Command Cards [Unit]" hidden="false">
      <selectionEntries>
        <selectionEntry id="card-u1" name="Test Unit Card" hidden="false" type="upgrade">
          <profiles><profile id="p-card" name="Test Unit Card" hidden="false" typeId="pt-card" typeName="Command Card">
            <characteristics><characteristic name="Info"
              typeId="ch-info">INVENTED CARD TEXT</characteristic></characteristics>
          </profile></profiles>
          <categoryLinks><categoryLink id="cl-3" name="x" hidden="false" targetId="cat-cc"
            primary="false"/></categoryLinks>
          <costs><cost name="pts" typeId="pts" value="2.0"/></costs>
        </selectionEntry>
      </selectionEntries>
    </selectionEntryGroup>
    <selectionEntryGroup id="cc-form" name="Command Cards [Formation]" hidden="false">
      <selectionEntries>
        <selectionEntry id="card-f1" name="Test Formation Card" hidden="false" type="upgrade">
          <costs><cost name="pts" typeId="pts" value="-1.0"/></costs>
        </selectionEntry>
      </selectionEntries>
    </selectionEntryGroup>
  </sharedSelectionEntryGroups>
  <sharedProfiles>
    <profile id="prof-tank" name="Test Tank" hidden="false" typeId="pt-tank" typeName="Tank Unit">
      <characteristics>
        <characteristic name="Motivation" typeId="ch-mot">Confident</characteristic>
        <characteristic name="Skill" typeId="ch-skill">3+</characteristic>
      </characteristics>
    </profile>
  </sharedProfiles>
</catalogue>
"""


@pytest.fixture
def mini_dir(tmp_path):
    """A folder with the hand-written mini game system and catalogue."""
    (tmp_path / "mini.gst").write_text(GST, encoding="utf-8")
    (tmp_path / "mini.cat").write_text(CAT, encoding="utf-8")
    return tmp_path


def shared_data_missing(reason: str):
    """Skip, or fail when ARMYBUILDER_REQUIRE_BSDATA=1 (CI): there the shared data must be present."""
    if os.environ.get("ARMYBUILDER_REQUIRE_BSDATA") == "1":
        pytest.fail(f"{reason}; ARMYBUILDER_REQUIRE_BSDATA=1 requires it", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def bsdata_dir():
    if not BSDATA_DIR.is_dir() or not any(BSDATA_DIR.glob("*.gst")):
        shared_data_missing(f"BSData Flames of War library not found at {BSDATA_DIR} (it is not part of the project)")
    return BSDATA_DIR


@pytest.fixture(scope="session")
def phalanx_dir():
    if not (PHALANX_DIR / "Test Roster 1.ros").is_file() or not any(PHALANX_DIR.glob("*.gst")):
        shared_data_missing(f"BSData Phalanx sample data not found at {PHALANX_DIR}")
    return PHALANX_DIR


@pytest.fixture(scope="module")
def library_in_db(django_db_setup, django_db_blocker, bsdata_dir):
    """The whole real library imported once for a test module, rolled back after it.

    Tests that use it also need ``db`` (each runs in a savepoint inside this transaction).
    """
    from django.core.management import call_command
    from django.db import transaction

    from armybuilder.interchange.battlescribe import import_library
    from armybuilder.lists import catalog

    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            call_command("load_handbooks", str(Path(settings.HANDBOOK_DATA_DIR) / "systems"), verbosity=0)
            report = import_library([bsdata_dir])
            assert report.written, "\n".join(report.lines())
            yield report
        finally:
            catalog.clear_cache()
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


@pytest.fixture(scope="session")
def real_library(bsdata_dir):
    """The whole real library, read and mapped once (no database)."""
    from armybuilder.interchange.battlescribe import map_library

    return map_library([bsdata_dir])
