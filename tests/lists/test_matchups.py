"""Match-up service: two lists side by side, answers checked and recorded."""
import pytest

from armybuilder.lists import services as s
from armybuilder.lists.matchups import MatchupError, matchup_create, matchup_figures, matchup_record_answers
from armybuilder.lists.models import Matchup
from handbooks.models import Handbook


def hof_list(player, book, formation, picks):
    army = s.army_list_create(owner=player, handbook=Handbook.objects.get(code=book), name=book)
    company = s.army_list_add_formation(army_list=army, formation_code=formation)
    for box, code, size in picks:
        s.army_list_pick_unit(army_list=army, list_formation=company, box_code=box, unit_code=code, size_code=size)
    return army


@pytest.fixture
def lists(sample_data, player):
    german = hof_list(player, "sample-hof-germany", "HG100", [("HG100/grenadiers", "HG101", "four"),
                                                              ("HG100/panzer-iv", "HG103", "three")])
    american = hof_list(player, "sample-hof-usa", "HU200", [("HU200/riflemen", "HU201", "four"),
                                                            ("HU200/shermans", "HU203", "three"),
                                                            ("HU200/mortars", "HU207", "two")])
    return german, american


def test_parity_answers_are_checked_and_recorded(lists, player):
    german, american = lists
    matchup = matchup_create(list_a=german, list_b=american, owner=player)
    u = lambda i: f"/formations/0/units/{i}"  # noqa: E731
    answers = {"ranking_a": [u(1), u(0)], "ranking_b": [u(1), u(0), u(2)],
               "judgements": [{"threat": "a", "heavy_hitter": "a"}, {"size": "b"}], "spending": {"break_points": 1}}
    figures = matchup_record_answers(matchup=matchup, answers=answers)
    assert (figures["parity"]["total_a"], figures["parity"]["total_b"]) == (2, 3)
    assert figures["parity"]["stronger"] == "b" and figures["parity"]["penalty_points"] == 1
    assert Matchup.objects.get(pk=matchup.pk).answers == answers
    assert matchup_figures(matchup=Matchup.objects.get(pk=matchup.pk))["parity"]["spending"]["break_points"] == 1


def test_wrong_answers_are_refused_and_not_recorded(lists, player):
    german, american = lists
    matchup = matchup_create(list_a=german, list_b=american, owner=player)
    with pytest.raises(MatchupError, match="ranking of force A"):
        matchup_record_answers(matchup=matchup, answers={"ranking_a": ["/formations/0/units/0"],
                                                         "ranking_b": ["/formations/0/units/0"]})
    assert Matchup.objects.get(pk=matchup.pk).answers == {}


def test_lists_of_different_systems_cannot_be_matched(sample_data, player, lists):
    fow = s.army_list_create(owner=player, handbook=Handbook.objects.get(code="sample-afrika-korps"), name="FoW")
    with pytest.raises(MatchupError, match="needs two lists of the same system"):
        matchup_create(list_a=lists[0], list_b=fow, owner=player)
