"""JSON list format v1: schema, references, limits, and a stable round trip."""
import json

import pytest

from armybuilder.lists import services as s
from armybuilder.lists.listjson import parse_list_json, validate_list_document
from armybuilder.lists.listjson.document import MAX_BYTES, ListDocumentError
from armybuilder.lists.models import ArmyList
from armybuilder.lists.selectors import army_list_document

from ..rules.listdocs import card, formation, listdoc, tank_company, unit


def full_list():
    ally = formation("IF1", unit("IF1/hq", "IHQ", "1x"), unit("IF1/b1", "IINF", "4x"), allied=True, handbook="tb-italy")
    return listdoc(
        tank_company(unit("F1/g1", "INF", "4x", "weapons/rifles", "transport/halftracks", ("items/mines", 2)),
                     unit("F1/s1", "ART", "4x"), unit("F1/s2", "OBS", "1x")),
        ally, cards=[card("CF"), card("CUNIT", "/formations/0/units/1"), card("CFORM", "/formations/0")],
        variant="v2", year=1943)


def test_the_schema_file_is_valid_json_schema_and_the_example_shape_passes():
    assert validate_list_document(full_list()) == []


def test_schema_problems_come_back_all_at_once_with_json_pointers():
    doc = full_list()
    doc["points_limit"] = "lots"
    doc["formations"][0]["units"][1]["upgrades"] = [{"upgrade": 5}]
    doc["cards"][1]["target"] = "formations/0"
    doc["colour"] = "grey"
    problems = {p.pointer: p.message for p in validate_list_document(doc)}
    assert problems["/points_limit"].startswith("'lots' is not of type")
    assert problems["/formations/0/units/1/upgrades/0/upgrade"] == "5 is not of type 'string'"
    assert "/cards/1/target" in problems
    assert problems[""] == "unknown field(s) ('colour' was unexpected)"


def test_a_newer_format_version_is_refused_clearly():
    doc = full_list()
    doc["version"] = 3
    [problem] = validate_list_document(doc)
    assert (problem.pointer, problem.message) == ("/version",
                                                  "version 3 is not supported; this tool reads versions 1 and 2")


def test_import_refuses_unknown_references_with_every_pointer_and_writes_nothing(test_books, player):
    doc = full_list()
    doc["formations"][0]["units"][0]["unit"] = "LG999"
    doc["formations"][0]["units"][1]["size"] = "9x"
    doc["formations"][0]["units"][3]["upgrades"][0]["upgrade"] = "weapons/lasers"
    doc["formations"][1]["handbook"]["revision"] = 7
    doc["cards"][1]["target"] = "/formations/5"
    with pytest.raises(ListDocumentError) as raised:
        s.army_list_import(doc=doc, owner=player)
    problems = {p.pointer: p.message for p in raised.value.problems}
    assert problems["/formations/0/units/0/unit"] == "unknown unit 'LG999' in Test Book Germany"
    assert problems["/formations/0/units/1/size"] == "Tank Platoon has no size '9x' (sizes: 3x, 4x, 5x)"
    assert problems["/formations/0/units/3/upgrades/0/upgrade"] == "Infantry Platoon has no option 'weapons/lasers'"
    assert problems["/formations/1/handbook"] == "unknown handbook 'tb-italy' revision 7 (known revisions: 1)"
    assert problems["/cards/1/target"] == "'/formations/5' is not a formation or unit of this list"
    assert ArmyList.objects.count() == 0


def test_export_import_export_gives_identical_json(test_books, player):
    first = s.army_list_import(doc=full_list(), owner=player)
    exported = army_list_document(first)
    second = s.army_list_import(doc=json.loads(json.dumps(exported)), owner=player)
    assert json.dumps(army_list_document(second), sort_keys=True) == json.dumps(exported, sort_keys=True)
    # The export is the canonical form of what was imported: same content, options in the book's order.
    def canonical(doc):
        for f in doc["formations"]:
            for u in f["units"]:
                u["upgrades"].sort(key=lambda x: x["upgrade"])
        return doc
    assert canonical(exported) == canonical(full_list())


def test_oversized_and_deeply_nested_input_is_refused_before_parsing():
    with pytest.raises(ListDocumentError, match=f"at most {MAX_BYTES}"):
        parse_list_json(b" " * (MAX_BYTES + 1))
    with pytest.raises(ListDocumentError, match="nested more than"):
        parse_list_json("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ListDocumentError, match="nested more than"):
        parse_list_json(json.dumps({"a": [1]}).replace("[1]", "[" * 25 + "1" + "]" * 25))
    with pytest.raises(ListDocumentError, match="not valid JSON: Expecting value at line 1, column 1"):
        parse_list_json(b"nonsense")
    with pytest.raises(ListDocumentError, match="not UTF-8"):
        parse_list_json(b"\xff\xfe{}")
