"""Mapping hand-written BattleScribe catalogues onto handbook documents."""
import io
import json

import pytest
from django.core.management import call_command

from armybuilder.interchange.battlescribe import import_library, map_library
from handbooks import models as m
from handbooks.loader.check import check_schema


@pytest.fixture
def mapped(mini_dir):
    lib = map_library([mini_dir])
    assert not lib.report.read_errors
    (rep, doc), = lib.documents
    return lib, rep, doc


def by_code(items, code):
    return next(i for i in items if i["code"] == code)


def test_header(mapped):
    lib, rep, doc = mapped
    assert not check_schema(doc, "mini")
    assert (doc["code"], doc["nation"], doc["period"]) == ("cat-1", "germany", "Mid-War")
    # No handbook revision of its own: a changed catalogue (or a newer importer) makes the next revision.
    assert "revision" not in doc and doc["extra"]["battlescribe"]["revision"] == 4
    assert doc["extra"]["battlescribe"]["game_system_id"] == "gs-1"


def test_formation_boxes_in_diagram_order(mapped):
    _, _, doc = mapped
    (formation,) = doc["formations"]
    assert formation["code"] == "l-form::form-1"
    boxes = [(b["code"], b["kind"], b["min"], b["max"]) for b in formation["boxes"]]
    assert boxes == [
        ("b-hq", "hq", 1, 1),  # "0) … HQ", min 1 max 1
        ("b-p1", "black", 1, 1),  # min 1 + max 1
        ("b-p2", "grey", 0, 1),  # max 1 only
        ("l-rifle::inf-plt", "grey", 0, 2),  # a lone link (roster path code): its own max 2
    ]
    assert by_code(formation["boxes"], "b-p2")["choices"] == ["tank-plt", "inf-plt"]
    assert by_code(formation["boxes"], "b-hq")["name"] == "Tank Company HQ"
    # max 1 per force on the root link becomes a handbook constraint
    (constraint,) = [c for c in doc["constraints"] if c["code"] == "c-form-max"]
    assert constraint["target"] == {"kind": "formation", "codes": ["l-form::form-1"]} and constraint["max"] == 1


def test_model_count_pricing_gives_sizes(mapped):
    _, _, doc = mapped
    tank = by_code(doc["units"], "tank-plt")
    assert [(s["teams"], s["points"]) for s in tank["sizes"]] == [(3, 13), (4, 17), (5, 21)]
    assert tank["card_code"] == "LG999" and tank["type"] == "tank"
    (group,) = tank["upgrades"]
    assert group["code"] == "grp-size"
    long = by_code(group["options"], "m-long")
    assert (long["points"], long["per"], long["max_quantity"]) == (1, "team", 5)
    assert tank["rules"] == ["rule-pa"]
    assert tank["profiles"] == [{"type": "pt-tank", "name": "Test Tank",
                                 "values": {"ch-mot": "Confident", "ch-skill": "3+"}}]


def test_unit_size_group_and_upgrades(mapped):
    _, _, doc = mapped
    rifle = by_code(doc["units"], "inf-plt")
    assert [(s["code"], s["teams"], s["points"]) for s in rifle["sizes"]] == [("sz-4", 4, 5), ("sz-6", 7, 7)]
    (options,) = rifle["upgrades"]
    assert options["max"] == 1 and options["options"][0]["points"] == 1
    kinds = sorted(m["type"] for m in rifle["extra"]["cost_modifiers"])
    assert kinds == ["decrement", "increment"]
    decrement = next(m for m in rifle["extra"]["cost_modifiers"] if m["type"] == "decrement")
    assert [c["type"] for c in decrement["when"]["and"]] == ["atLeast", "instanceOf"]  # group conditions kept


def test_support_and_cards(mapped):
    _, rep, doc = mapped
    (support,) = doc["support"]
    assert (support["code"], support["column"], support["max"], support["choices"]) == (
        "l-sup::sup-1", "Support", 2, ["sup-1"])
    assert support["part_of_formation"] is False
    cards = {c["code"]: c for c in doc["cards"]}
    assert cards["card-u1"]["scope"] == "unit" and cards["card-u1"]["targets"] == {"units": ["inf-plt"]}
    assert cards["card-u1"]["points"] == 2
    assert cards["card-f1"]["scope"] == "formation" and cards["card-f1"]["points"] == -1
    assert cards["card-f1"]["targets"] == {"formations": ["l-form::form-1"]}


def test_rule_and_card_texts_live_only_in_the_catalogue_document(mapped):
    # The user's import keeps the data's own texts for unit cards, in the catalogue document only;
    # the handbook's rows hold names.
    _, _, doc = mapped
    flattened = json.dumps({k: v for k, v in doc.items() if k != "catalogue"})
    assert "INVENTED RULE TEXT" not in flattened and "INVENTED CARD TEXT" not in flattened
    assert doc["special_rules"] == [{"code": "rule-pa", "name": "Protected Ammo"}]
    assert doc["catalogue"]["rules"]["rule-pa"]["description"] == "INVENTED RULE TEXT THAT MUST NOT BE COPIED"


def test_report_lists_what_is_not_mapped(mapped):
    _, rep, _ = mapped
    found = {(u.severity, u.id, u.what) for u in rep.unmapped}
    assert ("error", "l-lost", "entryLink") in found  # link to a missing entry
    assert ("warning", "sup-1", "fooBar") in found  # unknown element
    assert not [u for u in rep.unmapped if u.what == "not evaluated"]  # limit::pts conditions are evaluated
    assert rep.counts["units"] == 3 and rep.counts["formations"] == 1 and rep.counts["command cards"] == 2


@pytest.mark.django_db
def test_load_and_reimport_is_idempotent(mini_dir, systems):
    out = io.StringIO()
    call_command("import_battlescribe", str(mini_dir), stdout=out)
    handbook = m.Handbook.objects.get(code="cat-1")
    assert handbook.revision == 1 and handbook.source == "battlescribe" and handbook.nation.code == "germany"
    assert handbook.catalogue.document["catalogue"] == {"id": "cat-1", "name": "Mid-War - Test German", "revision": 4}
    assert m.ProfileType.objects.filter(system__code="fow4", code="pt-tank").exists()
    tank = handbook.units.get(code="tank-plt")
    assert list(tank.sizes.values_list("points", flat=True)) == [13, 17, 21]
    assert handbook.formations.get().boxes.count() == 4
    assert tank.profiles.get().values == {"ch-mot": "Confident", "ch-skill": "3+"}
    assert "created" in out.getvalue()
    out = io.StringIO()
    call_command("import_battlescribe", str(mini_dir), stdout=out)
    assert "unchanged" in out.getvalue()
    assert m.Handbook.objects.filter(code="cat-1").count() == 1


@pytest.mark.django_db
def test_dry_run_writes_nothing(mini_dir, systems):
    report = import_library([mini_dir], dry_run=True)
    assert report.catalogues[0].status == "mapped" and not report.written
    assert not m.Handbook.objects.filter(code="cat-1").exists()


def test_library_catalogue_is_used_through_links(mini_dir):
    from .conftest import CAT
    lib_cat = CAT.replace('id="cat-1"', 'id="cat-lib"').replace('library="false"', 'library="true"')
    (mini_dir / "lib.cat").write_text(lib_cat.replace("Test German", "Library"), encoding="utf-8")
    user = ('<?xml version="1.0"?><catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema" '
            'id="cat-user" name="Late-War - User: British" revision="1" library="false" gameSystemId="gs-1">'
            '<catalogueLinks><catalogueLink id="cl-x" name="lib" targetId="cat-lib" type="catalogue" '
            'importRootEntries="true"/></catalogueLinks></catalogue>')
    (mini_dir / "user.cat").write_text(user, encoding="utf-8")
    lib = map_library([mini_dir])
    reports = {r.catalogue_id: r for r in lib.report.catalogues}
    assert reports["cat-lib"].status == "library"
    doc = next(d for r, d in lib.documents if r.catalogue_id == "cat-user")
    assert doc["nation"] == "britain" and doc["period"] == "Late-War"
    assert [f["code"] for f in doc["formations"]] == ["l-form::form-1"]  # imported root entries


def test_constructs_the_evaluator_does_not_evaluate_are_reported_as_errors(mini_dir):
    from .conftest import CAT

    odd = CAT.replace('<modifier type="increment" field="pts" value="2">',
                      '<modifier type="multiply" field="pts" value="2">', 1)
    (mini_dir / "mini.cat").write_text(odd, encoding="utf-8")
    lib = map_library([mini_dir])
    (rep, _), = lib.documents
    found = [(u.severity, u.id, u.reason) for u in rep.unmapped if u.what == "not evaluated"]
    assert found == [("error", "inf-plt", "modifier type 'multiply' on 'pts'")]
