"""The engine's frozen view of a handbook: variant tags, look-ups by code, and immutability.

Variants (Flames of War digest §1.8, L673-674): options carry a variant tag; untagged means every variant.
"""
import dataclasses

import pytest

from armybuilder.rules.data import ChoiceData, in_variant

from .build import a_book, a_box, a_formation, a_group, a_size, a_unit, an_upgrade


def test_an_untagged_item_belongs_to_every_variant_and_to_a_force_with_none_chosen():
    assert in_variant(frozenset(), "fbb")
    assert in_variant(frozenset(), None)


def test_a_tagged_item_belongs_only_to_its_variants():
    tags = frozenset({"fbb", "fgb"})
    assert in_variant(tags, "fgb")
    assert not in_variant(tags, "heer")
    assert not in_variant(tags, None)  # no variant chosen: a tagged option is not yet available


def tanks():
    return a_unit("TNK", "Tank Platoon", sizes=[a_size("3x", 3, 9), a_size("2x", 2, 6)],
                  groups=[a_group("skirts", an_upgrade("skirts/schurzen", 1)),
                          a_group("mg", an_upgrade("mg/aa", 1), an_upgrade("mg/pintle", 2))])


def test_a_unit_finds_its_sizes_and_upgrades_by_code():
    unit = tanks()
    assert unit.size("2x").points == 6
    assert unit.size("5x") is None
    assert unit.upgrade("mg/pintle").points == 2
    assert unit.upgrade("mg/missing") is None


def test_an_upgrade_code_names_its_group_before_the_slash():
    unit = tanks()
    assert unit.group_of("mg/aa").code == "mg"
    assert unit.group_of("skirts/schurzen").name == "skirts"
    assert unit.group_of("wheels/anything") is None


def test_a_box_finds_the_choice_for_a_unit_or_a_formation():
    box = a_box("F1/opt", "TNK", ChoiceData(formation="F2", option_cost=2), kind="options")
    assert box.unit_choice("TNK") == ChoiceData(unit="TNK")
    assert box.unit_choice("INF") is None
    assert box.formation_choice("F2").option_cost == 2
    assert box.formation_choice("F3") is None


def test_a_book_is_keyed_by_system_code_and_revision():
    book = a_book("tb", system="oww2", revision=3)
    assert book.key == ("oww2", "tb", 3)


def test_a_book_indexes_formation_and_support_boxes_by_code():
    hq = a_box("F1/hq", "TNK", kind="hq")
    support = a_box("force/art", "ART")
    book = a_book(units=[tanks()], formations=[a_formation("F1", hq)], support=[support])
    assert book.boxes == {"F1/hq": hq, "force/art": support}
    assert book.support_boxes == (support,)
    assert support.formation is None and hq.formation == "F1"


def test_game_data_cannot_be_changed_once_built():
    unit = tanks()
    with pytest.raises(dataclasses.FrozenInstanceError):
        unit.name = "Changed"  # cached per handbook revision for the life of the process, shared by every request


def test_raw_extras_do_not_take_part_in_equality():
    assert a_size("3x", 3, 9, extra={"raw": 1}) == a_size("3x", 3, 9, extra={"raw": 2})
