"""The composition chart: points by formation and by kind of unit, drawn by the server as SVG. The expected
sums come from the rules engine's report and the unit types in the game data rows."""
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.test import Client

from armybuilder.lists import services as s
from armybuilder.lists.selectors import army_list_force, army_list_report
from armybuilder.services.printing.extras import chart_svg, composition
from handbooks.models import UnitEntry

EXAMPLES = Path("docs/examples")
# the data's unit types (handbooks/data) and the chart's kinds: headquarters count as infantry, vehicles as tanks
KIND_OF = {"tank": "Tanks", "vehicle": "Tanks", "infantry": "Infantry", "hq": "Infantry", "gun": "Guns",
           "artillery": "Guns", "aircraft": "Aircraft"}


@pytest.mark.parametrize("name", ["fow-afrika-korps-panzer-company.json", "waf-grenadier-company.json"])
def test_the_chart_adds_up_to_the_list(sample_data, name):
    army_list = s.army_list_import(doc=json.loads((EXAMPLES / name).read_text(encoding="utf-8")), session_key="c")
    force, report = army_list_force(army_list), army_list_report(army_list)
    data = composition(force, report)
    uses_points = army_list.system.uses_points
    if uses_points:
        assert data.total == report.total_points
        # a formation's points and the support units bought inside it
        want = {f.formation.name: report.formation_points[f.pointer] + sum(
            report.unit_points[u.pointer] for u in f.units if not u.box.part_of_formation) for f in force.formations}
        want["Command cards"] = report.card_points
        if force.support:
            want["Support"] = sum(report.unit_points[u.pointer] for u in force.support)
    else:
        want = {f"{f.letter}: {f.formation.name}" if f.letter else f.formation.name: sum(u.teams for u in f.units)
                for f in force.formations}
        if force.support:
            want["Support"] = sum(u.teams for u in force.support)
    assert {b.label: b.value for b in data.by_formation} == want
    # by kind, from the unit types in the database rows
    kinds: dict[str, float] = {}
    for unit in force.all_units():
        row = UnitEntry.objects.filter(code=unit.unit.code).first()
        label = next((v for k, v in KIND_OF.items() if k in row.unit_type.lower()), None)
        if label is None:
            continue
        kinds[label] = kinds.get(label, 0) + (report.unit_points[unit.pointer] if uses_points else unit.teams)
    got = {b.label: b.value for b in data.by_kind}
    for label, value in kinds.items():
        assert got[label] == value, (label, got)
    assert sum(got.values()) == data.total
    svg = chart_svg(data)
    root = ET.fromstring(svg)  # well-formed SVG
    assert root.tag.endswith("svg") and root.find("{http://www.w3.org/2000/svg}title") is not None
    texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    for bar in data.by_formation + data.by_kind:
        assert f"{bar.value:g} {'pts' if uses_points else 'teams'}" in texts


def test_the_chart_escapes_names_and_is_served_to_the_owner_only(sample_data):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("charts", password="pw-not-secret-123")
    doc = json.loads((EXAMPLES / "fow-afrika-korps-panzer-company.json").read_text(encoding="utf-8"))
    army_list = s.army_list_import(doc=doc, owner=user)
    client = Client()
    client.force_login(user)
    answer = client.get(f"/lists/{army_list.public_id}/chart/")
    assert answer.status_code == 200 and answer.content.startswith(b"<svg")
    assert not re.search(rb"<script", answer.content)
    assert Client().get(f"/lists/{army_list.public_id}/chart/").status_code == 404
