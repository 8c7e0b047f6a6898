"""Read-only game data, addressed by codes and handbook revision."""
import shutil

import pytest

from handbooks.services import handbooks_load_paths

from .conftest import BOOKS

pytestmark = pytest.mark.django_db
BOOK = "/api/v1/handbooks/fow4/tb-germany/1/"


def test_systems_are_listed_by_name_with_pagination(anon, germany):
    body = anon.get("/api/v1/systems/").json()
    assert body["count"] == 4
    assert [s["code"] for s in body["results"]] == ["fow4", "hof", "oww2", "waf"]
    assert set(body["results"][0]) == {"code", "name", "uses_points", "description"}


def test_a_system_shows_its_nations(anon, germany):
    body = anon.get("/api/v1/systems/fow4/").json()
    assert {"code": "germany", "name": "Germany", "side": "Axis", "order_card_base": None,
            "activation_modifier": None} in body["nations"]


def codes_of(response) -> set[str]:
    assert response.status_code == 200
    return {b["code"] for b in response.json()["results"]}


def test_handbooks_filter_by_system_nation_and_current(anon, germany):
    everything = codes_of(anon.get("/api/v1/handbooks/"))
    german = codes_of(anon.get("/api/v1/handbooks/?system=fow4&nation=germany"))
    italian = codes_of(anon.get("/api/v1/handbooks/?nation=italy"))
    assert {"tb-britain", "tb-germany", "tb-germany-other", "tb-italy"} <= everything
    assert {"tb-germany", "tb-germany-other"} <= german and not german & {"tb-italy", "tb-britain"}
    assert "tb-italy" in italian and not italian & {"tb-germany", "tb-britain"}
    assert codes_of(anon.get("/api/v1/handbooks/?current=false")) == set()
    assert codes_of(anon.get("/api/v1/handbooks/?current=true")) == everything


@pytest.mark.parametrize("query,pointer,message", [
    ("?system=chess", "/system", "No game system 'chess'."),
    ("?nation=atlantis", "/nation", "No nation 'atlantis'."),
    ("?current=maybe", "/current", '"maybe" is not a valid choice.'),
])
def test_handbook_filters_with_unknown_values_are_a_400(anon, germany, query, pointer, message):
    response = anon.get("/api/v1/handbooks/" + query)
    assert response.status_code == 400
    assert response.json()["problems"] == [{"pointer": pointer, "message": message}]


def test_a_changed_book_is_a_new_revision_and_both_are_listed(anon, germany, tmp_path):
    changed = tmp_path / "tb-germany.yaml"
    shutil.copy(BOOKS / "tb-germany.yaml", changed)
    changed.write_text(changed.read_text().replace("name: Test Book Germany", "name: Test Book Germany II"))
    assert all(r.ok for r in handbooks_load_paths([changed]))

    body = anon.get("/api/v1/handbooks/fow4/tb-germany/").json()
    assert body["current_revision"] == 2 and body["name"] == "Test Book Germany II"
    assert [(r["revision"], r["is_current"]) for r in body["revisions"]] == [(2, True), (1, False)]
    assert [b["revision"] for b in anon.get("/api/v1/handbooks/?current=false").json()["results"]] == [1]
    assert anon.get("/api/v1/handbooks/fow4/tb-germany/1/").json()["is_current"] is False


def test_a_handbook_revision_shows_variants_rules_and_support_boxes(anon, germany):
    body = anon.get(BOOK).json()
    assert [v["code"] for v in body["variants"]] == ["v1", "v2"]
    assert body["special_rules"] == [{"code": "r1", "name": "Test Rule", "summary": "Does nothing; it is for tests."}]
    recce = next(b for b in body["support_boxes"] if b["code"] == "force/recce")
    assert recce["choices"] == [{"unit": "RECCE", "formation": None, "option_cost": 0, "max_count": None,
                                 "variants": []}]


def test_formations_come_with_their_boxes_and_choices(anon, germany):
    body = anon.get(BOOK + "formations/").json()
    assert [f["code"] for f in body["results"]] == ["F1", "F2", "F3", "F4", "F5"]
    f1 = body["results"][0]
    assert f1["allied_nations"] == ["italy"]
    b1 = next(b for b in f1["boxes"] if b["code"] == "F1/b1")
    assert (b1["kind"], b1["min_picks"], [c["unit"] for c in b1["choices"]]) == ("black", 1, ["TNK", "TNK2"])


def test_formations_filter_by_name_and_paginate(anon, germany):
    assert [f["code"] for f in anon.get(BOOK + "formations/?q=infantry").json()["results"]] == ["F2"]
    page = anon.get(BOOK + "formations/?page_size=2&page=3").json()
    assert page["count"] == 5 and [f["code"] for f in page["results"]] == ["F5"]


def test_a_formation_by_code(anon, germany):
    assert anon.get(BOOK + "formations/F4/").json()["variants"] == ["v1"]


def test_units_come_with_sizes_upgrades_and_rules(anon, germany):
    tnk = anon.get(BOOK + "units/TNK/").json()
    assert [(s["code"], s["points"], s["variants"]) for s in tnk["sizes"]] == \
        [("3x", 9, []), ("4x", 12, []), ("5x", 15, ["v2"])]
    mg = next(g for g in tnk["upgrade_groups"] if g["code"] == "mg")
    assert mg["max_choices"] == 2 and [u["code"] for u in mg["upgrades"]] == ["aa", "hull", "extra", "special"]
    assert tnk["special_rules"] == ["r1"]
    assert anon.get(BOOK + "units/OBS/").json()["observer_source"] == "ART"


def test_units_filter_by_type(anon, germany):
    codes = [u["code"] for u in anon.get(BOOK + "units/?type=gun").json()["results"]]
    assert sorted(codes) == ["AA", "ART"]


def test_cards_filter_by_scope(anon, germany):
    body = anon.get(BOOK + "cards/?scope=unit").json()
    assert {"CUNIT", "CUNIT2"} <= {c["code"] for c in body["results"]}
    assert {c["scope"] for c in body["results"]} == {"unit"}
    assert next(c for c in body["results"] if c["code"] == "CUNIT")["target_units"] == ["TNK"]
    assert anon.get(BOOK + "cards/?scope=army").status_code == 400


# Queries per request, whatever the number of items: handbook, count, rows, then one per prefetched relation.
@pytest.mark.parametrize("path,queries", [
    (BOOK + "formations/", 3 + 6),   # variants, allied nations, boxes, box variants, choices, choice variants
    (BOOK + "units/", 3 + 10),       # variants, rules, sizes, size variants, groups, upgrades, upgrade variants,
                                     # profiles, teams, team profiles
    (BOOK + "cards/", 3 + 2),        # target units, target formations
    ("/api/v1/handbooks/", 2),       # count, rows (system and nation joined)
])
def test_game_data_lists_run_a_fixed_number_of_queries(anon, germany, django_assert_max_num_queries, path,
                                                       queries):
    with django_assert_max_num_queries(queries):
        response = anon.get(path + "?page_size=200")
    assert response.status_code == 200 and response.json()["count"] > 3
