"""load_handbooks: good files, idempotency, revisions, and every kind of bad file."""
import copy

import pytest
import yaml
from django.apps import apps
from django.core.management import CommandError, call_command

from handbooks import models as m
from handbooks.services import handbooks_load_paths

BOOK = {
    "kind": "handbook",
    "format": 1,
    "system": "fow4",
    "code": "test-book",
    "name": "Test Book",
    "nation": "germany",
    "illustrative": True,
    "allied_nations": ["italy"],
    "special_rules": [{"code": "stormtroopers", "name": "Stormtroopers",
                       "summary": "May move again after a good order."}],
    "variants": [{"code": "v15", "name": "15th Division"}, {"code": "v21", "name": "21st Division"}],
    "units": [
        {"code": "TG101", "name": "Tank Company HQ", "type": "tank",
         "sizes": [{"code": "2x", "label": "2x Panzer III", "teams": 2, "points": 8}]},
        {"code": "TG102", "name": "Panzer III Tank Platoon", "type": "tank", "rules": ["stormtroopers"],
         "sizes": [{"code": "3x", "label": "3x Panzer III", "teams": 3, "points": 12},
                   {"code": "4x", "label": "4x Panzer III", "teams": 4, "points": 16, "variants": ["v21"]}],
         "upgrades": [{"code": "skirts", "name": "Skirts", "max": 1,
                       "options": [{"code": "schurzen", "name": "Schürzen", "points": 1, "per": "team"}]}],
         "profiles": [{"type": "tank-unit", "name": "Panzer III",
                       "values": {"motivation": "Confident", "skill": "Trained"}},
                      {"type": "weapon", "name": "5cm gun", "values": {"range": "24\"/60cm", "anti_tank": 9}}]},
        {"code": "TG103", "name": "Artillery Battery", "type": "gun",
         "sizes": [{"code": "4x", "label": "4x 10.5cm", "teams": 4, "points": 10}]},
        {"code": "TG104", "name": "Artillery Observer", "type": "infantry", "observer": True,
         "observer_source": "TG103", "independent": True,
         "sizes": [{"code": "1x", "label": "1x Observer", "teams": 1, "points": 0}]},
    ],
    "formations": [
        {"code": "TG100", "name": "Panzer III Tank Company", "allied_nations": ["italy"], "boxes": [
            {"code": "hq", "name": "Company HQ", "kind": "hq", "column": "HQ", "choices": ["TG101"]},
            {"code": "p1", "name": "Panzer III Platoon", "kind": "black", "column": "Combat", "choices": ["TG102"]},
            {"code": "p2", "name": "Panzer III Platoon", "kind": "grey", "column": "Combat", "choices": ["TG102"]},
            {"code": "art", "name": "Artillery", "kind": "grey", "column": "Support",
             "choices": ["TG103", {"unit": "TG104", "variants": ["v15"]}]},
        ]},
    ],
    "support": [{"code": "obs", "name": "Observer", "kind": "grey", "column": "Support", "choices": ["TG104"]}],
    "cards": [{"code": "c1", "name": "Veteran Crews", "scope": "unit", "points": 1, "per": "team",
               "changes_rating": True, "targets": {"units": ["TG102"]}}],
    "constraints": [{"code": "one-artillery", "description": "At most one artillery battery",
                     "target": {"kind": "unit", "codes": ["TG103"]}, "max": 1}],
}


def write(tmp_path, doc, name="book.yaml"):
    path = tmp_path / name
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def row_counts():
    return {model._meta.label: model.objects.count() for model in apps.get_app_config("handbooks").get_models()}


def load(path):
    return handbooks_load_paths([path])


def problems_of(results):
    return [str(p) for r in results for p in r.problems]


def test_a_good_book_loads_with_all_its_parts(systems, tmp_path):
    [result] = load(write(tmp_path, BOOK))
    assert (result.status, result.revision) == ("created", 1)
    book = m.Handbook.objects.get(code="test-book")
    assert book.is_current and book.illustrative
    assert list(book.allied_nations.values_list("code", flat=True)) == ["italy"]
    assert book.units.count() == 4
    platoon = book.units.get(code="TG102")
    assert [s.points for s in platoon.sizes.all()] == [12, 16]
    assert list(platoon.sizes.get(code="4x").variants.values_list("code", flat=True)) == ["v21"]
    assert platoon.upgrade_groups.get().upgrades.get().cost_basis == "team"
    assert platoon.special_rules.get().code == "stormtroopers"
    assert platoon.profiles.get(profile_type__code="weapon").values["anti_tank"] == 9
    observer = book.units.get(code="TG104")
    assert observer.is_observer and observer.observer_source.code == "TG103"
    boxes = {b.code: b for b in book.boxes.all()}
    assert set(boxes) == {"TG100/hq", "TG100/p1", "TG100/p2", "TG100/art", "force/obs"}
    assert (boxes["TG100/p1"].kind, boxes["TG100/p1"].min_picks, boxes["TG100/p1"].max_picks) == ("black", 1, 1)
    assert (boxes["TG100/p2"].min_picks, boxes["TG100/p2"].max_picks) == (0, 1)
    assert boxes["TG100/art"].part_of_formation is False and boxes["TG100/p1"].part_of_formation is True
    assert boxes["force/obs"].formation is None
    restricted = boxes["TG100/art"].choices.get(unit__code="TG104")
    assert list(restricted.variants.values_list("code", flat=True)) == ["v15"]
    card = book.cards.get()
    assert (card.scope, card.cost_basis, list(card.target_units.values_list("code", flat=True))) == (
        "unit", "team", ["TG102"])
    assert book.constraints.get().max_count == 1


def test_loading_the_same_files_twice_changes_nothing(sample_data):
    before = row_counts()
    hashes = dict(m.Handbook.objects.values_list("pk", "content_hash"))
    from django.conf import settings
    results = handbooks_load_paths([settings.HANDBOOK_DATA_DIR])
    assert results and {r.status for r in results} == {"unchanged"}
    assert row_counts() == before
    assert dict(m.Handbook.objects.values_list("pk", "content_hash")) == hashes


def test_every_sample_book_loads_and_is_marked_illustrative(sample_data):
    books = m.Handbook.objects.all()
    assert {b.system.code for b in books} == {"fow4", "oww2", "hof", "waf"}
    assert all(b.illustrative for b in books)


def test_a_changed_file_becomes_a_new_revision_and_keeps_the_old_one(systems, tmp_path):
    load(write(tmp_path, BOOK))
    old_unit = m.UnitEntry.objects.get(handbook__code="test-book", code="TG102")
    changed = copy.deepcopy(BOOK)
    changed["units"][1]["sizes"][0]["points"] = 13
    [result] = load(write(tmp_path, changed))
    assert (result.status, result.revision) == ("revised", 2)
    revisions = m.Handbook.objects.filter(code="test-book").order_by("revision")
    assert [(h.revision, h.is_current) for h in revisions] == [(1, False), (2, True)]
    old_unit.refresh_from_db()  # what referred to revision 1 still resolves, with its old points
    assert old_unit.handbook.revision == 1 and old_unit.sizes.get(code="3x").points == 12
    assert m.SizeOption.objects.get(unit__handbook__revision=2, unit__code="TG102", code="3x").points == 13


def test_an_explicit_revision_already_loaded_with_other_content_is_refused(systems, tmp_path):
    load(write(tmp_path, {**BOOK, "revision": 3}))
    before = row_counts()
    changed = copy.deepcopy(BOOK)
    changed["name"] = "Another name"
    results = load(write(tmp_path, {**changed, "revision": 3}))
    assert results[0].status == "failed"
    assert "revision 3 of 'test-book' is already loaded with different content" in problems_of(results)[0]
    assert row_counts() == before


def test_malformed_yaml_is_reported_with_its_line_and_writes_nothing(systems, tmp_path):
    before = row_counts()
    path = tmp_path / "broken.yaml"
    path.write_text("kind: handbook\nformat: 1\nunits: [\n  {code: A, name: B\n", encoding="utf-8")
    [message] = problems_of(load(path))
    assert message.startswith(f"{path}: line ") and "not valid YAML" in message
    assert row_counts() == before


def test_malformed_json_is_reported_with_its_line_and_column(systems, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"kind": "handbook",\n "format": 1,,}', encoding="utf-8")
    [message] = problems_of(load(path))
    assert message.startswith(f"{path}: line 2, column") and "not valid JSON" in message


def test_a_duplicated_yaml_key_is_an_error_not_a_silent_overwrite(systems, tmp_path):
    path = tmp_path / "dup.yaml"
    path.write_text("kind: handbook\nformat: 1\nname: A\nname: B\n", encoding="utf-8")
    [message] = problems_of(load(path))
    assert "duplicate key 'name'" in message


@pytest.mark.parametrize("value", [".nan", ".inf", "-.Inf", "1.0e+999"])
def test_a_number_that_is_not_finite_in_yaml_is_reported_with_its_line_and_writes_nothing(systems, tmp_path,
                                                                                          value):
    before = row_counts()
    path = tmp_path / "nan.yaml"
    path.write_text(f"kind: handbook\nformat: 1\nunits:\n  - code: A\n    points: {value}\n", encoding="utf-8")
    [message] = problems_of(load(path))
    assert message.startswith(f"{path}: line 5, column 13") and "not a finite number" in message
    assert row_counts() == before


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_number_that_is_not_finite_in_json_is_reported_and_writes_nothing(systems, tmp_path, value):
    before = row_counts()
    path = tmp_path / "nan.json"
    path.write_text(f'{{"kind": "handbook", "format": 1, "units": [{{"code": "A", "points": {value}}}]}}',
                    encoding="utf-8")
    [message] = problems_of(load(path))
    assert "not valid JSON" in message and ("not a JSON number" in message or "too large" in message)
    assert row_counts() == before


def test_schema_violations_are_all_reported_with_their_paths(systems, tmp_path):
    doc = copy.deepcopy(BOOK)
    doc["units"][1]["sizes"][0]["points"] = "twelve"
    doc["formations"][0]["boxes"][1]["kind"] = "purple"
    doc["units"][0]["colour"] = "red"
    before = row_counts()
    messages = problems_of(load(write(tmp_path, doc)))
    assert any(": units[1].sizes[0].points: 'twelve' is not of type 'integer'" in s for s in messages)
    assert any(": formations[0].boxes[1].kind: 'purple' is not one of" in s for s in messages)
    assert any(": units[0]: unknown field(s) ('colour' was unexpected)" in s for s in messages)
    assert row_counts() == before


def test_unknown_references_are_reported_with_their_paths(systems, tmp_path):
    doc = copy.deepcopy(BOOK)
    doc["formations"][0]["boxes"][2]["choices"].append("LG999")
    doc["units"][1]["rules"].append("no-such-rule")
    doc["units"][3]["observer_source"] = "TG999"
    doc["cards"][0]["targets"]["units"] = ["TG404"]
    doc["nation"] = "atlantis"
    doc["units"][1]["profiles"][0]["values"]["charisma"] = 5
    before = row_counts()
    messages = problems_of(load(write(tmp_path, doc)))
    tail = [s.split(": ", 1)[1] for s in messages]
    assert "formations[0].boxes[2].choices[1]: unknown unit 'LG999'" in tail
    assert "units[1].rules[1]: unknown special rule 'no-such-rule'" in tail
    assert "units[3].observer_source: unknown unit 'TG999'" in tail
    assert "cards[0].targets.units[0]: unknown unit 'TG404'" in tail
    assert "nation: unknown nation 'atlantis' in system 'fow4'" in tail
    assert "units[1].profiles[0].values.charisma: 'tank-unit' has no characteristic 'charisma'" in tail
    assert row_counts() == before


def test_unknown_references_in_nested_lists_are_reported_with_their_paths(systems, tmp_path):
    doc = copy.deepcopy(BOOK)
    doc["units"][1]["sizes"][0]["variants"] = ["v99"]
    doc["units"][1]["upgrades"][0]["options"][0]["rules"] = ["stormtroopers", "no-rule"]
    doc["units"][1]["profiles"][1]["rules"] = ["no-rule-2"]
    doc["formations"][0]["boxes"][3]["choices"][1]["variants"] = ["v15", "v98"]
    doc["formations"][0]["boxes"][0]["variants"] = ["v97"]
    doc["units"][2]["sizes"].append({"code": "4x", "label": "again", "teams": 4, "points": 1})
    doc["units"][1]["upgrades"][0]["options"].append(copy.deepcopy(doc["units"][1]["upgrades"][0]["options"][0]))
    doc["units"][0]["teams"] = [{"code": "t", "name": "T", "rules": ["no-rule-3"]}]
    doc["cards"][0]["targets"]["formations"] = ["TG100", "TG404"]
    tail = [s.split(": ", 1)[1] for s in problems_of(load(write(tmp_path, doc)))]
    assert sorted(tail) == sorted([
        "units[1].sizes[0].variants[0]: unknown variant 'v99'",
        "units[1].upgrades[0].options[0].rules[1]: unknown special rule 'no-rule'",
        "units[1].profiles[1].rules[0]: unknown special rule 'no-rule-2'",
        "formations[0].boxes[3].choices[1].variants[1]: unknown variant 'v98'",
        "formations[0].boxes[0].variants[0]: unknown variant 'v97'",
        "units[2].sizes[0].code: duplicate size code '4x'",
        "units[2].sizes[1].code: duplicate size code '4x'",
        "units[1].upgrades[0].options[0].code: duplicate upgrade code 'schurzen'",
        "units[1].upgrades[0].options[1].code: duplicate upgrade code 'schurzen'",
        "units[1].upgrades[0].options[1].rules[1]: unknown special rule 'no-rule'",
        "units[0].teams[0].rules[0]: unknown special rule 'no-rule-3'",
        "cards[0].targets.formations[1]: unknown formation 'TG404'",
    ])


def test_duplicate_codes_are_reported_and_nothing_is_written(systems, tmp_path):
    doc = copy.deepcopy(BOOK)
    doc["units"].append(copy.deepcopy(doc["units"][0]))
    doc["units"][1]["sizes"].append({"code": "3x", "label": "again", "teams": 3, "points": 1})
    before = row_counts()
    tail = [s.split(": ", 1)[1] for s in problems_of(load(write(tmp_path, doc)))]
    assert "units[0].code: duplicate unit code 'TG101'" in tail
    assert "units[4].code: duplicate unit code 'TG101'" in tail
    assert "units[1].sizes[2].code: duplicate size code '3x'" in tail
    assert row_counts() == before


def test_a_book_of_an_unknown_system_is_refused(db, tmp_path):
    [message] = problems_of(load(write(tmp_path, BOOK)))
    assert message.endswith("system: unknown game system 'fow4'; load its system file first")


def test_one_bad_file_does_not_stop_the_good_ones(systems, tmp_path):
    write(tmp_path, BOOK, "a-good.yaml")
    (tmp_path / "b-bad.yaml").write_text("kind: [", encoding="utf-8")
    with pytest.raises(CommandError, match="1 of 2 file"):
        call_command("load_handbooks", str(tmp_path), verbosity=0)
    assert m.Handbook.objects.filter(code="test-book").exists()


def test_the_command_refuses_a_missing_path(db):
    with pytest.raises(CommandError, match="no such file or folder"):
        call_command("load_handbooks", "/nonexistent/place")
