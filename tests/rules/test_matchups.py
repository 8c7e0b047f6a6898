"""Match-ups: worked examples checked by hand."""
import pytest

from armybuilder.lists.selectors import list_document_report
from armybuilder.rules.matchups import MatchupError, fow_matchup, hof_parity, waf_activation_dice

from .listdocs import formation, listdoc, tank_company, unit

pytestmark = pytest.mark.usefixtures("sample_data")


def force(doc):
    return list_document_report(doc)[0]


def hof_forces():
    german = listdoc(formation("HG100", unit("HG100/grenadiers", "HG101", "four"),
                               unit("HG100/panzer-iv", "HG103", "three"), unit("HG100/artillery", "HG106", "three")),
                     book="sample-hof-germany", system="hof", points_limit=None)
    american = listdoc(formation("HU200", unit("HU200/riflemen", "HU201", "four"),
                                 unit("HU200/shermans", "HU203", "three"), unit("HU200/artillery", "HU206", "two"),
                                 unit("HU200/mortars", "HU207", "two")),
                       book="sample-hof-usa", system="hof", points_limit=None)
    return force(german), force(american)


def u(i):
    return f"/formations/0/units/{i}"


def test_force_parity_worked_example():
    a, b = hof_forces()
    # B's player ranks A's units: Panzer IV, artillery, grenadiers.
    # A's player ranks B's: Shermans, 155s, rifles, mortars.
    judgements = [
        {"threat": "a", "heavy_hitter": "a", "size": None},  # Panzer IV v Shermans: A 2, B 0
        {"threat": "b", "heavy_hitter": "b", "size": "a"},   # 10.5cm v 155mm: A 1, B 2
        {"threat": "a", "heavy_hitter": None, "size": "b"},  # grenadiers v riflemen: A 1, B 1
    ]
    result = hof_parity(a, b, ranking_a=[u(1), u(2), u(0)], ranking_b=[u(1), u(2), u(0), u(3)],
                        judgements=judgements, spending={"hero_points": 1})
    assert [(p.unit_a, p.unit_b, p.points_a, p.points_b) for p in result.pairs] == [
        (u(1), u(1), 2, 0), (u(2), u(2), 1, 2), (u(0), u(0), 1, 1)]
    assert result.unpaired_b == [u(3)]  # the mortars have no partner: 2 points to B
    assert (result.total_a, result.total_b) == (4, 5)
    assert (result.stronger, result.penalty_points) == ("b", 1)
    assert result.spending == {"break_points": 0, "hero_points": 1, "reductions": 0}


def test_parity_suggests_size_from_team_counts():
    a, b = hof_forces()
    result = hof_parity(a, b, ranking_a=[u(0), u(1), u(2)], ranking_b=[u(0), u(1), u(2), u(3)],
                        judgements=[{}, {}, {}])
    assert result.suggestions[0]["size"] is None  # 5 teams each
    assert (result.total_a, result.total_b, result.stronger, result.penalty_points) == (0, 2, "b", 2)


def test_parity_refuses_rankings_and_spending_that_do_not_fit():
    a, b = hof_forces()
    with pytest.raises(MatchupError, match="must list each of its 3 units once"):
        hof_parity(a, b, ranking_a=[u(0), u(0), u(1)], ranking_b=[u(0), u(1), u(2), u(3)], judgements=[{}, {}, {}])
    with pytest.raises(MatchupError, match="3 pair\\(s\\) need a judgement each"):
        hof_parity(a, b, ranking_a=[u(0), u(1), u(2)], ranking_b=[u(0), u(1), u(2), u(3)], judgements=[{}])
    with pytest.raises(MatchupError, match="must add up to 2"):
        hof_parity(a, b, ranking_a=[u(0), u(1), u(2)], ranking_b=[u(0), u(1), u(2), u(3)], judgements=[{}, {}, {}],
                   spending={"break_points": 1})



def test_activation_dice_worked_example():
    german = force(listdoc(formation("WG100", unit("WG100/hq", "WG102", "one"),
                                     unit("WG100/platoon-1", "WG103", "three"),
                                     unit("WG100/platoon-2", "WG103", "three")),
                           support=[unit("force/battalion-hq", "WG101", "two"), unit("force/armour", "WG108", "three")],
                           book="sample-waf-germany", system="waf", points_limit=None))
    british = force(listdoc(formation("WB200", unit("WB200/hq", "WB202", "one"),
                                      unit("WB200/platoon-1", "WB203", "three"),
                                      unit("WB200/platoon-2", "WB203", "three")),
                            support=[unit("force/battalion-hq", "WB201", "two")],
                            book="sample-waf-britain", system="waf", points_limit=None))
    dice = waf_activation_dice(german, british)
    # 5 v 4 units: base 5 - 2 = 3; Germany +1 = 4; Britain +0 = 3.
    assert dice["units"] == {"a": 5, "b": 4} and dice["base"] == 3
    assert (dice["sides"]["a"]["dice"], dice["sides"]["b"]["dice"]) == (4, 3)
    assert dice["fewer_dice"] == "b"
    assert dice["sides"]["a"]["working"] == "5 units in the larger force − 2 = 3; nation +1 → 4"


def test_an_all_elite_force_gets_one_more_die():
    elite = force(listdoc(formation("WG100", unit("WG100/platoon-3", "WG110", "three")),
                          support=[unit("force/battalion-hq", "WG101", "two"), unit("force/armour", "WG112", "one")],
                          book="sample-waf-germany", system="waf", points_limit=None))
    british = force(listdoc(formation("WB200", unit("WB200/hq", "WB202", "one"),
                                      unit("WB200/platoon-1", "WB203", "three"),
                                      unit("WB200/platoon-2", "WB203", "three"),
                                      unit("WB200/platoon-3", "WB203", "three")),
                            book="sample-waf-britain", system="waf", points_limit=None))
    dice = waf_activation_dice(elite, british)
    # 3 v 4 units: base 2; Germany +1 nation +1 all elite = 4; Britain 2.
    assert dice["base"] == 2 and dice["sides"]["a"]["dice"] == 4 and dice["sides"]["b"]["dice"] == 2


def test_flames_of_war_matchup_shows_who_may_start_more_on_the_table(test_books):
    big = listdoc(tank_company(), points_limit=120)
    small = listdoc(tank_company(), points_limit=100)
    (fa, ra), (fb, rb) = list_document_report(big), list_document_report(small)
    result = fow_matchup(fa, fb, ra, rb)
    assert result["sides"]["a"]["reserves_on_table_max"] == 72
    assert result["sides"]["b"]["reserves_on_table_max"] == 60
    assert result["more_on_table_in_reserves"] == "a"
