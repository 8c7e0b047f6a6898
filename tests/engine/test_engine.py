"""The engine's entry point (armybuilder/rules/engine.py): each system's force goes to its own rules module."""
from armybuilder.rules import engine, fow, hof, oww2, waf
from armybuilder.rules.report import Report

from .build import a_book, a_force, sole_error


def test_each_game_system_has_its_rules_module():
    assert {"fow4": fow, "oww2": oww2, "hof": hof, "waf": waf} == engine.MODULES


def test_a_force_of_a_system_with_no_rules_is_refused_with_a_clear_message():
    report = engine.check(a_force(a_book(system="chess")))
    found = sole_error(report, "force.system.unsupported")
    assert (found.message, found.pointer) == ("No rules are known for the system 'chess'.", "/system")
    assert report.system == "chess"


def test_the_report_carries_the_forces_system_and_points_limit():
    report = engine.check(a_force(a_book(system="hof"), points_limit=None))
    assert (report.system, report.points_limit) == ("hof", None)
    assert engine.check(a_force(a_book(), points_limit=1500)).points_limit == 1500


class Marker:
    SYSTEM = "dice"

    def check(self, force, report: Report):
        report.figures["checked_by"] = "marker"


def test_a_registered_module_checks_the_forces_of_its_system(monkeypatch):
    monkeypatch.setattr(engine, "MODULES", dict(engine.MODULES))
    engine.register(Marker())
    assert engine.check(a_force(a_book(system="dice"))).figures == {"checked_by": "marker"}


def test_books_imported_from_battlescribe_of_an_unknown_system_use_the_data_driven_rules(monkeypatch):
    made = []

    class Imported(Marker):
        def __init__(self, system):
            made.append(system)

    monkeypatch.setattr(engine, "BattleScribeRules", Imported)
    report = engine.check(a_force(a_book(system="phalanx", catalogue=object())))
    assert made == ["phalanx"] and report.figures == {"checked_by": "marker"}
    # A system with its own module keeps it, imported or not.
    assert engine.check(a_force(a_book(system="hof", catalogue=object()))).figures["units"] == 0
