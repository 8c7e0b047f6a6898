"""Figures that need two forces (armybuilder/rules/matchups.py): Hail of Fire's Force Parity Procedure, War Ain't
Fair's activation dice and Flames of War's side-by-side figures, each worked by hand. Rule lines are those of the
digests in /work/shared/rules/.
"""
import pytest

from armybuilder.rules import engine
from armybuilder.rules.matchups import MatchupError, fow_matchup, hof_parity, waf_activation_dice

from .build import a_book, a_box, a_force, a_formation, a_size, a_unit, field, take


def many(system, code, units, **kw):
    """A book whose one formation takes any number of each unit; each unit has one size ``s``."""
    box = a_box(f"{code}/any", *[u.code for u in units], max_picks=99)
    return a_book(code, system=system, uses_points=False, units=units, formations=[a_formation(code, box)], **kw)


def force_of(book, *codes):
    return a_force(book, field(book.code, *[take(f"{book.code}/any", c, "s") for c in codes]))


def u(i):
    return f"/formations/0/units/{i}"


# --- Hail of Fire: Force Parity Procedure (003:L35) ----------------------------------------------------------------

HOF_UNITS = [a_unit(code, sizes=[a_size("s", teams)]) for code, teams in (("T4", 4), ("T3", 3), ("T6", 6), ("T5", 5))]


def hof_forces():
    book = many("hof", "hof", HOF_UNITS)
    return force_of(book, "T4", "T3", "T6"), force_of(book, "T5", "T3")


def test_parity_pairs_by_rank_scores_each_pair_and_two_for_each_unit_without_a_partner():
    """003:L35: 1 for the more threatening unit, +1 heavy hitters, +1 size; 2 per unpaired unit; the side with
    more takes the difference as Penalty Points."""
    a, b = hof_forces()
    result = hof_parity(a, b, ranking_a=[u(1), u(2), u(0)], ranking_b=[u(1), u(0)], judgements=[
        {"threat": "a", "heavy_hitter": "a", "size": None},  # A 2, B 0
        {"threat": "b", "heavy_hitter": None, "size": "b"},  # A 0, B 2
    ], spending={"break_points": 1, "hero_points": 1})
    assert [(p.rank, p.unit_a, p.unit_b, p.points_a, p.points_b) for p in result.pairs] == [
        (1, u(1), u(1), 2, 0), (2, u(2), u(0), 0, 2)]
    assert result.unpaired_a == [u(0)] and result.unpaired_b == []
    assert (result.total_a, result.total_b) == (2 + 0 + 2, 0 + 2)
    assert (result.stronger, result.penalty_points) == ("a", 2)
    assert result.spending == {"break_points": 1, "hero_points": 1, "reductions": 0}


def test_parity_suggests_the_size_advantage_by_team_count():
    a, b = hof_forces()
    result = hof_parity(a, b, ranking_a=[u(0), u(1), u(2)], ranking_b=[u(0), u(1)], judgements=[{}, {}])
    # 4 teams v 5: B; 3 v 3: nobody
    assert result.suggestions == [{"size": "b"}, {"size": None}]


def test_equal_totals_give_no_penalty_points():
    a, b = hof_forces()
    result = hof_parity(a, b, ranking_a=[u(0), u(1), u(2)], ranking_b=[u(0), u(1)],
                        judgements=[{"threat": "b"}, {"heavy_hitter": "b"}])
    assert (result.total_a, result.total_b, result.stronger, result.penalty_points) == (2, 2, None, 0)


@pytest.mark.parametrize("ranking_a", [[u(0), u(1)], [u(0), u(1), u(1)], [u(0), u(1), u(5)]])
def test_a_ranking_lists_each_of_the_forces_units_once(ranking_a):
    a, b = hof_forces()
    with pytest.raises(MatchupError, match="each of its 3 units once"):
        hof_parity(a, b, ranking_a=ranking_a, ranking_b=[u(0), u(1)], judgements=[{}, {}])


def test_each_pair_needs_a_judgement_of_a_b_or_nobody():
    a, b = hof_forces()
    rankings = {"ranking_a": [u(0), u(1), u(2)], "ranking_b": [u(0), u(1)]}
    with pytest.raises(MatchupError, match="2 pair"):
        hof_parity(a, b, judgements=[{}], **rankings)
    with pytest.raises(MatchupError, match="'size' must be"):
        hof_parity(a, b, judgements=[{"size": "c"}, {}], **rankings)


@pytest.mark.parametrize("spending", [{"hero_points": 1}, {"reductions": -2, "break_points": 4},
                                      {"break_points": 1.0, "hero_points": 1}, {"bribes": 2}])
def test_the_penalty_points_spent_are_whole_and_add_up_to_the_difference(spending):
    """003:L35: each Penalty Point is a starting Break Point, a Hero Point for the opponent, or a reduction."""
    a, b = hof_forces()
    with pytest.raises(MatchupError):
        hof_parity(a, b, ranking_a=[u(0), u(1), u(2)], ranking_b=[u(0), u(1)], judgements=[{}, {}], spending=spending)


# --- War Ain't Fair: activation dice (004:L14) ----------------------------------------------------------------------

WAF_UNITS = [a_unit("PLT", morale_level="regular", sizes=[a_size("s", 4)]),
             a_unit("SS", morale_level="elite", sizes=[a_size("s", 4)])]


def waf(nation, modifier, *codes):
    return force_of(many("waf", f"waf-{nation}", WAF_UNITS, nation=nation, activation_modifier=modifier), *codes)


def test_activation_dice_are_the_larger_forces_units_less_two_then_each_nation_adjusts():
    """004:L14, the digest's example: Germans 10 units v British 8; base 8; German 9, British 8."""
    result = waf_activation_dice(waf("germany", 1, *["PLT"] * 10), waf("britain", 0, *["PLT"] * 8))
    assert result["units"] == {"a": 10, "b": 8} and result["base"] == 8
    assert (result["sides"]["a"]["dice"], result["sides"]["b"]["dice"]) == (9, 8)
    assert result["sides"]["a"]["working"] == "10 units in the larger force − 2 = 8; nation +1 → 9"
    assert result["fewer_dice"] == "b"  # that side may roll on the Tactical Advantages table (004:L24)


def test_an_entirely_elite_force_adds_one_die():
    result = waf_activation_dice(waf("germany", 1, *["SS"] * 10), waf("britain", 0, *["PLT"] * 8))
    assert result["sides"]["a"]["all_elite_bonus"] == 1 and result["sides"]["a"]["dice"] == 10
    mixed = waf_activation_dice(waf("germany", 1, *["SS"] * 9, "PLT"), waf("britain", 0, *["PLT"] * 8))
    assert mixed["sides"]["a"]["dice"] == 9


def test_the_base_is_the_same_for_both_sides_however_far_apart_their_sizes():
    """The digest's reading A: 12 units v 6 gives base 10 for both sides, not 10 v 6."""
    result = waf_activation_dice(waf("britain", 0, *["PLT"] * 12), waf("usa", 0, *["PLT"] * 6))
    assert (result["sides"]["a"]["dice"], result["sides"]["b"]["dice"], result["fewer_dice"]) == (10, 10, None)


def test_a_side_never_has_fewer_than_no_dice():
    result = waf_activation_dice(waf("italy", -2, "PLT", "PLT"), waf("britain", 0, "PLT"))
    assert result["base"] == 0 and result["sides"]["a"]["dice"] == 0


# --- Flames of War: side by side (L733) ---------------------------------------------------------------------------

def fow_book():
    units = [a_unit("HQ", "HQ", sizes=[a_size("1x", 1, 4)]), a_unit("TNK", "Tanks", sizes=[a_size("3x", 3, 9)]),
             a_unit("ART", "Guns", sizes=[a_size("4x", 4, 8)])]
    company = a_formation("C", a_box("C/hq", "HQ", kind="hq"), a_box("C/b1", "TNK", kind="black"),
                          a_box("C/g1", "TNK"), name="Company")
    return a_book("fow", units=units, formations=[company], support=[a_box("force/art", "ART")])


def test_the_flames_of_war_match_up_compares_points_and_the_reserves_share():
    book = fow_book()
    a = a_force(book, field("C", take("C/hq", "HQ", "1x"), take("C/b1", "TNK", "3x"), take("C/g1", "TNK", "3x")),
                support=[take("force/art", "ART", "4x")], points_limit=100)
    b = a_force(book, field("C", take("C/hq", "HQ", "1x"), take("C/b1", "TNK", "3x")), points_limit=80)
    result = fow_matchup(a, b, engine.check(a), engine.check(b))
    side_a, side_b = result["sides"]["a"], result["sides"]["b"]
    assert (side_a["points"], side_b["points"]) == (4 + 9 + 9 + 8, 4 + 9)
    assert (side_a["reserves_on_table_max"], side_b["reserves_on_table_max"]) == (60, 48)  # 60% of each limit
    assert result["more_on_table_in_reserves"] == "a"
    assert (side_a["support_points"], side_a["teams"], side_a["units_bought"]) == (8, 1 + 3 + 3 + 4, 4)
    assert result["difference"]["points"] == 30 - 13
    assert result["difference"]["teams"] == 11 - 4
    assert side_a["forces"] == [
        {"pointer": "/formations/0", "name": "Company", "allied": False, "points": 22,
         "units": [{"pointer": u(0), "name": "HQ", "points": 4, "teams": 1},
                   {"pointer": u(1), "name": "Tanks", "points": 9, "teams": 3},
                   {"pointer": u(2), "name": "Tanks", "points": 9, "teams": 3}]},
        {"pointer": "/support", "name": "Support", "allied": False, "points": 8,
         "units": [{"pointer": "/support/0", "name": "Guns", "points": 8, "teams": 4}]}]
