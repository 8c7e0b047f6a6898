"""War Ain't Fair: unique set-up letters, outflanking, unit records, HQ chain."""
import pytest

from armybuilder.lists.selectors import list_document_report

from .listdocs import formation, listdoc, unit

pytestmark = pytest.mark.usefixtures("sample_data")


def company(*extra, letters="ABC"):
    units = [unit("WG100/hq", "WG102", "one", letter=letters[0]),
             unit("WG100/platoon-1", "WG103", "three", letter=letters[1]),
             unit("WG100/platoon-2", "WG103", "three", letter=letters[2])]
    return formation("WG100", *units, *extra)


def report_of(*formations, support=()):
    doc = listdoc(*formations, support=support, book="sample-waf-germany", system="waf", points_limit=None)
    return list_document_report(doc)[1]


def issue(report, code):
    found = [i for i in report.issues if i.code == code]
    assert found, f"expected {code}, got {report.codes()}"
    return found[0]


def test_a_company_with_its_battalion_hq_and_unique_letters_is_legal():
    report = report_of(company(), support=[unit("force/battalion-hq", "WG101", "two", letter="D")])
    assert report.legal and not report.warnings, report.codes()
    assert report.figures["dummy_cards"] == 2
    assert report.figures["nation_activation_modifier"] == 1


def test_a_letter_used_twice_is_refused():
    found = issue(report_of(company(letters="ABA")), "waf.letter.duplicate")
    assert found.pointer == "/formations/0/units/2/letter"


def test_a_unit_without_a_letter_gets_a_warning():
    doc = company()
    del doc["units"][1]["letter"]
    found = issue(report_of(doc), "waf.letter.missing")
    assert (found.severity, found.pointer) == ("warning", "/formations/0/units/1/letter")


def test_up_to_three_cards_may_outflank_and_more_than_one_needs_a_roll():
    doc = company()
    doc["units"][1]["outflank"] = "left"
    assert "waf.outflank.needs_roll" not in report_of(doc).codes()
    doc["units"][2]["outflank"] = "right"
    assert issue(report_of(doc), "waf.outflank.needs_roll").severity == "warning"
    doc["units"][0]["outflank"] = "left"
    extra = unit("WG100/platoon-3", "WG110", "three", letter="E")
    extra["outflank"] = "right"
    doc["units"].append(extra)
    found = issue(report_of(doc), "waf.outflank.too_many")
    assert found.pointer == "/formations/0/units/3/outflank"


def test_a_force_without_a_battalion_hq_is_warned():
    found = issue(report_of(company()), "waf.hq.missing_bhq")
    assert found.severity == "warning"


def test_morale_targets_and_casualty_thresholds_are_shown_per_unit():
    morale = report_of(company()).figures["morale"]
    assert morale["/formations/0/units/1"]["target"] == 8  # regular
    assert morale["/formations/0/units/1"]["casualties_for_test"] >= 1
