"""The check of a list a pick just saved takes the evaluation the pick's completion made of the same force
(rules/battlescribe/kept.py) rather than evaluating it again: only for a force equal to it on the same book
objects, once, and with the report a fresh evaluation gives."""
import dataclasses

import pytest

from armybuilder.lists import services as s
from armybuilder.lists.selectors import army_list_force
from armybuilder.rules import check
from armybuilder.rules.battlescribe import kept

from .test_builder_queries import GREY, army_of, player  # noqa: F401 - the player fixture

pytestmark = [pytest.mark.bsdata]


@pytest.fixture
def taken(monkeypatch):
    """What each check took from kept.take: (built, evaluation) or None."""
    seen = []
    real = kept.take

    def spy(force):
        got = real(force)
        seen.append(got)
        return got

    monkeypatch.setattr(kept, "take", spy)
    kept.forget()
    yield seen
    kept.forget()


def _picked_force(owner):
    """A list with one unit picked (the pick keeps its evaluation), read back from the database: a force of its
    own, equal to the one the pick evaluated."""
    army = army_of(owner, 1)
    kept.forget()
    company = army.formations.get()
    s.army_list_pick_unit(army_list=army, list_formation=company, box_code=GREY[0], unit_code=GREY[1])
    army.refresh_from_db()
    return army_list_force(army)


def test_the_saved_list_s_check_reuses_the_pick_s_evaluation(library_in_db, db, player, taken):  # noqa: F811
    force = _picked_force(player)
    report = check(force)
    assert taken and taken[-1] is not None
    assert report.context.evaluation is taken[-1][1]
    assert any(u.unit.code == GREY[1] for u in force.all_units())

    again = check(force)  # taken once: the next check evaluates
    assert taken[-1] is None
    assert again.context.evaluation is not report.context.evaluation
    assert again == report  # the same report as the reused evaluation gave
    assert again.as_dict() == report.as_dict()


def test_a_changed_force_is_not_reused(library_in_db, db, player, taken):  # noqa: F811
    force = _picked_force(player)
    # One unit fewer than the pick evaluated: not the same force, so evaluated afresh.
    formation = force.formations[0]
    fewer = dataclasses.replace(force, formations=(dataclasses.replace(formation, units=formation.units[:-1]),))
    report = check(fewer)
    assert taken[-1] is None
    assert not any(u.unit.code == GREY[1] for u in fewer.all_units())
    assert report.context.evaluation is not None
    # And what was kept is let go: the equal force checked next is evaluated afresh too.
    check(force)
    assert taken[-1] is None


def test_take_wants_the_same_book_objects(library_in_db, db, player):  # noqa: F811
    army = army_of(player, 1)
    force = army_list_force(army)
    kept.keep(force, "built", "evaluation")
    other_book = dataclasses.replace(force.handbook)  # equal data, another object
    assert other_book == force.handbook
    assert kept.take(dataclasses.replace(force, handbook=other_book)) is None
    kept.keep(force, "built", "evaluation")
    assert kept.take(dataclasses.replace(force, name=force.name + " renamed")) is None
    kept.keep(force, "built", "evaluation")
    assert kept.take(force) == ("built", "evaluation")
    assert kept.take(force) is None
