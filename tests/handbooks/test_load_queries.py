"""Loading a handbook runs a fixed number of queries, whatever its size: every table is written with one
insert (keys reserved up front), never a query per row. A real BattleScribe library is ~50,000 rows."""
import copy

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from handbooks import models as m
from handbooks.services import handbook_document_load

from .test_loader import BOOK

pytestmark = pytest.mark.django_db


def scaled(n: int, code: str) -> dict:
    """The test book with every part ``n`` times over (each copy its own codes, linked only to its own copy),
    plus teams with profiles and rules so that every table the writer fills gets rows."""
    doc = copy.deepcopy(BOOK)
    doc.update(code=code, name=f"Book x{n}", special_rules=[], variants=[], units=[], formations=[], support=[],
               cards=[], constraints=[])
    for i in range(n):
        book = copy.deepcopy(BOOK)
        unit_code = {u["code"]: f"{u['code']}-{i}" for u in book["units"]}
        rule_code = {r["code"]: f"{r['code']}-{i}" for r in book["special_rules"]}
        variant_code = {v["code"]: f"{v['code']}-{i}" for v in book["variants"]}

        def recode(item, variant_code=variant_code, rule_code=rule_code):
            if "variants" in item:
                item["variants"] = [variant_code[v] for v in item["variants"]]
            if "rules" in item:
                item["rules"] = [rule_code[r] for r in item["rules"]]
            return item

        doc["special_rules"] += [{**r, "code": rule_code[r["code"]]} for r in book["special_rules"]]
        doc["variants"] += [{**v, "code": variant_code[v["code"]]} for v in book["variants"]]
        for u in book["units"]:
            recode(u)
            u["code"] = unit_code[u["code"]]
            if "observer_source" in u:
                u["observer_source"] = unit_code[u["observer_source"]]
            for part in u["sizes"]:
                recode(part)
            for group in u.get("upgrades", []):
                for option in group["options"]:
                    recode(option)
                    option.update(variants=[variant_code["v15"]], rules=[rule_code["stormtroopers"]])
            u["variants"] = [variant_code["v21"]]
            u["teams"] = [{"code": "t", "name": "Team", "count": 3, "rules": [rule_code["stormtroopers"]],
                           "profiles": [{"type": "weapon", "name": "MG", "values": {"range": "16\"/40cm"},
                                         "rules": [rule_code["stormtroopers"]]}]}]
            doc["units"].append(u)
        for f in book["formations"]:
            recode(f)
            f["code"] = f"{f['code']}-{i}"
            f["variants"] = [variant_code["v15"]]
            for box in f["boxes"]:
                box["variants"] = [variant_code["v21"]]
                box["choices"] = [recode({**c, "unit": unit_code[c["unit"]]}) if isinstance(c, dict)
                                  else unit_code[c] for c in box["choices"]]
            doc["formations"].append(f)
        for box in book["support"]:
            box["code"] = f"{box['code']}-{i}"
            box["choices"] = [unit_code[c] for c in box["choices"]]
            doc["support"].append(box)
        for card in book["cards"]:
            card["code"] = f"{card['code']}-{i}"
            card["targets"] = {"units": [unit_code[c] for c in card["targets"]["units"]],
                               "formations": [f"TG100-{i}"]}
            doc["cards"].append(card)
        for rule in book["constraints"]:
            rule["code"] = f"{rule['code']}-{i}"
            rule["target"]["codes"] = [unit_code[c] for c in rule["target"]["codes"]]
            doc["constraints"].append(rule)
    return doc


def rows_of(handbook_code: str) -> dict[str, int]:
    """Rows each handbooks table (many-to-many link tables included) holds for one book, counted through
    the relations that tie them to it."""
    book = m.Handbook.objects.get(code=handbook_code)
    rows = {
        m.SpecialRule: m.SpecialRule.objects.filter(handbook=book),
        m.Variant: m.Variant.objects.filter(handbook=book),
        m.UnitEntry: m.UnitEntry.objects.filter(handbook=book),
        m.SizeOption: m.SizeOption.objects.filter(unit__handbook=book),
        m.UpgradeGroup: m.UpgradeGroup.objects.filter(unit__handbook=book),
        m.Upgrade: m.Upgrade.objects.filter(group__unit__handbook=book),
        m.Team: m.Team.objects.filter(unit__handbook=book),
        m.Profile: m.Profile.objects.filter(Q(unit__handbook=book) | Q(team__unit__handbook=book)),
        m.Formation: m.Formation.objects.filter(handbook=book),
        m.Box: m.Box.objects.filter(handbook=book),
        m.BoxChoice: m.BoxChoice.objects.filter(box__handbook=book),
        m.CommandCard: m.CommandCard.objects.filter(handbook=book),
        m.Constraint: m.Constraint.objects.filter(handbook=book),
    }
    out = {model.__name__: queryset.count() for model, queryset in rows.items()}
    for model, queryset in rows.items():
        for field in model._meta.local_many_to_many:
            through = field.remote_field.through
            out[f"{model.__name__}.{field.name}"] = through.objects.filter(
                **{f"{field.m2m_field_name()}__in": queryset}).count()
    return out


def load_counting(doc) -> int:
    with CaptureQueriesContext(connection) as captured:
        result = handbook_document_load(doc, f"{doc['code']}.yaml")
    assert result.status == "created", result.problems
    return len(captured.captured_queries)


def test_a_book_ten_times_larger_loads_with_the_same_number_of_queries(systems):
    small, large = scaled(1, "small-book"), scaled(10, "large-book")
    small_queries, large_queries = load_counting(small), load_counting(large)

    small_rows, large_rows = rows_of("small-book"), rows_of("large-book")
    # The large book really is ten times the small one in every table (counted from the database) ...
    assert all(small_rows.values()), small_rows
    assert large_rows == {name: 10 * count for name, count in small_rows.items()}
    # ... with the counts the test book implies: 4 units, 1 formation of 4 boxes and 1 support box.
    assert (small_rows["UnitEntry"], small_rows["Box"], small_rows["Team"]) == (4, 5, 4)
    # ... and it took exactly as many queries.
    assert large_queries == small_queries


def test_links_between_rows_point_at_their_own_copy(systems):
    handbook_document_load(scaled(3, "three-copies"), "three-copies.yaml")
    book = m.Handbook.objects.get(code="three-copies")
    for i in range(3):
        observer = book.units.get(code=f"TG104-{i}")
        assert observer.observer_source.code == f"TG103-{i}"
        platoon = book.units.get(code=f"TG102-{i}")
        assert [r.code for r in platoon.special_rules.all()] == [f"stormtroopers-{i}"]
        assert [v.code for v in platoon.sizes.get(code="4x").variants.all()] == [f"v21-{i}"]
        assert list(platoon.teams.get().profiles.values_list("name", flat=True)) == ["MG"]
        card = book.cards.get(code=f"c1-{i}")
        assert [u.code for u in card.target_units.all()] == [f"TG102-{i}"]
        formation = book.formations.get(code=f"TG100-{i}")
        art = formation.boxes.get(code=f"TG100-{i}/art")
        assert [(c.unit.code, [v.code for v in c.variants.all()]) for c in art.choices.order_by("order")] == [
            (f"TG103-{i}", []), (f"TG104-{i}", [f"v15-{i}"])]
    assert list(book.allied_nations.values_list("code", flat=True)) == ["italy"]
