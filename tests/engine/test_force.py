"""A resolved force: team counts, what counts as support, and the order units are walked in.

Support Units come from the Support column's grey boxes and are not part of any Formation (Flames of War digest
§1.4, L68, L679).
"""
from armybuilder.rules.force import ForceUnit

from .build import a_book, a_box, a_force, a_formation, a_size, a_unit, field, take


def book():
    return a_book(
        units=[a_unit("HQ", sizes=[a_size("1x", 1, 2)]), a_unit("TNK", sizes=[a_size("3x", 3, 9)]),
               a_unit("ART", sizes=[a_size("4x", 4, 8)])],
        formations=[a_formation("F1", a_box("F1/hq", "HQ", kind="hq"), a_box("F1/b1", "TNK", kind="black"),
                                a_box("F1/s1", "ART", part_of_formation=False, column="Support"))],
        support=[a_box("force/art", "ART")])


def test_a_unit_has_the_teams_of_its_size_and_none_without_one():
    force = a_force(book(), field("F1", take("F1/hq", "HQ", "1x"), take("F1/b1", "TNK")))
    hq, tanks = force.formations[0].units
    assert hq.teams == 1
    assert tanks.teams == 0


def test_force_level_support_and_a_formations_support_column_are_support_but_its_boxes_are_not():
    force = a_force(book(), field("F1", take("F1/hq", "HQ", "1x"), take("F1/s1", "ART", "4x")),
                    support=[take("force/art", "ART", "4x")])
    hq, column = force.formations[0].units
    assert not hq.is_support
    assert column.is_support
    assert force.support[0].is_support and force.support[0].formation_index is None


def test_all_units_walks_the_formations_in_order_then_the_force_support():
    force = a_force(book(), field("F1", take("F1/hq", "HQ", "1x"), take("F1/b1", "TNK", "3x")),
                    field("F1", take("F1/hq", "HQ", "1x")), support=[take("force/art", "ART", "4x")])
    assert [u.pointer for u in force.all_units()] == [
        "/formations/0/units/0", "/formations/0/units/1", "/formations/1/units/0", "/support/0"]
    assert all(isinstance(u, ForceUnit) for u in force.all_units())
