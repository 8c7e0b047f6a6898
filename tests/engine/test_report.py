"""The engine's report: a list is legal when no issue is an error; warnings never make it illegal."""
from armybuilder.rules.report import Report, RuleRef

from .codes import X_BROKEN, X_NOTE


def test_a_report_without_errors_is_legal_even_with_warnings():
    report = Report(system="fow4")
    report.add(X_NOTE, "/formations/0")
    assert report.legal
    assert [i.code for i in report.warnings] == ["x.report.note"] and report.errors == []


def test_one_error_makes_the_list_illegal():
    report = Report(system="fow4")
    report.add(X_NOTE, "")
    report.add(X_BROKEN, "/cards/0", fix="Remove it.", box="F1/hq")
    assert not report.legal
    assert report.codes() == ["x.report.note", "x.report.broken"]
    assert report.errors[0].fix == "Remove it." and report.errors[0].box == "F1/hq"


def test_the_report_serialises_its_totals_and_issues_with_their_rule():
    report = Report(system="oww2", points_limit=100, total_points=90)
    report.add(X_BROKEN, "/formations", rule=RuleRef("Operation WW2", "A rule", "a book"))
    report.add(X_NOTE, "")
    data = report.as_dict()
    assert (data["system"], data["legal"], data["points_limit"], data["total_points"]) == ("oww2", False, 100, 90)
    assert data["issues"][0]["rule"] == {"system": "Operation WW2", "name": "A rule", "where": "a book"}
    assert data["issues"][1]["rule"] is None
    assert "context" not in data  # what a system's check worked out for callers is never serialised
