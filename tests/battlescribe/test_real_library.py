"""The whole real BSData Flames of War library imports with no errors (skips when it is absent)."""
import io
import json

import pytest
from django.core.management import call_command

from handbooks import models as m
from handbooks.loader.check import check_schema

pytestmark = pytest.mark.bsdata


def test_maps_without_errors(real_library):
    report = real_library.report
    assert not report.read_errors
    assert [str(u) for u in report.errors] == []
    assert len(real_library.documents) == 36  # 37 catalogues, one of them a library
    for rep, doc in real_library.documents:
        assert not check_schema(doc, rep.source), rep.source
        assert doc["formations"] and doc["units"], rep.source
    totals = report.totals()
    assert totals["formations"] > 300 and totals["units"] > 2000 and totals["command cards"] > 500


def test_every_cost_modifier_is_kept(real_library):
    kept = 0
    for _, doc in real_library.documents:
        kept += json.dumps(doc).count('"kind": "cost"')
    assert kept >= real_library.report.totals()["cost modifiers"]


def test_the_evaluator_evaluates_every_construct_of_the_library(real_library):
    """Nothing in the library is left unevaluated: the import report would list it (0 at the time of writing)."""
    from armybuilder.rules.battlescribe.audit import unevaluated

    findings = [f for _, doc in real_library.documents for f in unevaluated(doc["catalogue"]) if f.effect]
    assert findings == []
    assert not [u for u in real_library.report.unmapped if u.what == "not evaluated" and u.severity == "error"]


def test_fallschirmjager_library_is_reached_through_links(real_library):
    reports = {r.source: r for r in real_library.report.catalogues}
    assert reports["MW - Fallschirmjager.cat"].status == "library"
    afrika = next(d for r, d in real_library.documents if r.source == "MW - Afrika Korps.cat")
    assert any(u["extra"]["bs"].get("catalogue") == "4e61-1b9e-452b-7fe1" for u in afrika["units"])


@pytest.mark.django_db(transaction=False)
def test_imports_into_the_database_and_again_unchanged(bsdata_dir, systems):
    out = io.StringIO()
    call_command("import_battlescribe", str(bsdata_dir), stdout=out)
    assert m.Handbook.objects.filter(source="battlescribe").count() == 36
    afrika = m.Handbook.objects.get(code="1db5-94f0-8315-42a2")
    assert afrika.nation.code == "germany" and afrika.revision == 1
    assert afrika.extra["battlescribe"]["revision"] == 8  # the catalogue's own revision
    assert afrika.catalogue.document["catalogue"]["revision"] == 8
    # unit 9892-987c-62b9-08c8: sizes from its model-count cost modifiers.
    sizes = afrika.units.get(code="9892-987c-62b9-08c8").sizes.values_list("teams", "points")
    assert list(sizes) == [(3, 13), (4, 17), (5, 21)]
    out = io.StringIO()
    call_command("import_battlescribe", str(bsdata_dir), stdout=out)
    assert out.getvalue().count("unchanged ") >= 36


def test_formations_no_list_can_make_legal_are_reported_as_data_warnings(real_library):
    """The Jeep box of the Airborne Recce Squadron (link 8925-891f-13f9-7d5c asks for 2 of an entry whose own
    max is 1) and two Brave Romania support limits that count the formation's own platoons."""
    warnings = {(u.id, u.what) for u in real_library.report.unmapped if u.severity == "warning"
                and u.what in ("data", "formation")}
    assert ("8925-891f-13f9-7d5c", "data") in warnings
    assert ("4707-0d40-eb06-f74f", "formation") in warnings or any(
        w[0].endswith("4707-0d40-eb06-f74f") for w in warnings)
    assert sum(1 for _, what in warnings if what == "formation") == 3
