"""Match-up services and selectors on the four systems: the tools each system offers (one table), and
their figures for lists built here by hand. Every expected number is worked out in the comments from the
sample books (handbooks/data) and the rules digests (/work/shared/rules), not read back from the code."""
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction

from armybuilder.lists import catalog as gamedata
from armybuilder.lists import services as s
from armybuilder.lists.matchups import (
    MatchupError,
    matchup_create,
    matchup_delete,
    matchup_figures,
    matchup_parity_judge,
    matchup_parity_rank,
    matchup_parity_spend,
    matchup_parity_start,
    matchup_read,
    matchup_tools_for,
)
from armybuilder.lists.matchups.selectors import matchup_wizard_state
from armybuilder.lists.matchups.tools import matchup_tool_for, matchup_wizard_for
from armybuilder.lists.models import ArmyList, ListFormation, ListUnit, Matchup
from armybuilder.lists.selectors import army_list_force
from armybuilder.systems import systems_all
from handbooks.models import GameSystem, Handbook

# The tools of every registered system, by system code.
MATCHUP_TOOLS = {system.code: system.matchup_tools for system in systems_all()}


@pytest.fixture(scope="module")
def bundled_books(django_db_setup, django_db_blocker):
    """Every bundled system and sample book, loaded once for this module (rolled back after it)."""
    with django_db_blocker.unblock(), transaction.atomic():
        gamedata.clear_cache()
        call_command("load_handbooks", verbosity=0)
        yield
        transaction.set_rollback(True)
    gamedata.clear_cache()


@pytest.fixture
def books(bundled_books, db):
    pass


@pytest.fixture
def other_player(db):
    return get_user_model().objects.create_user("opponent", password="pw-not-secret-123")


def build(player, book, formations=(), support=(), name=None, points_limit=None) -> ArmyList:
    """formations: [(formation code, [(box, unit, size)])]; support: [(box, unit, size)]."""
    army = s.army_list_create(owner=player, handbook=Handbook.objects.get(code=book, is_current=True),
                              name=name or book, points_limit=points_limit)
    for code, picks in formations:
        formation = s.army_list_add_formation(army_list=army, formation_code=code)
        for box, unit, size in picks:
            s.army_list_pick_unit(army_list=army, list_formation=formation, box_code=box, unit_code=unit,
                                  size_code=size)
    for box, unit, size in support:
        s.army_list_pick_unit(army_list=army, box_code=box, unit_code=unit, size_code=size)
    army.refresh_from_db()
    return army


def pointer_of(army, unit_code, nth=0) -> str:
    return [u.pointer for u in army_list_force(army).all_units() if u.unit.code == unit_code][nth]


def unit_row(army, unit_code, nth=0) -> ListUnit:
    return ListUnit.objects.filter(army_list=army, unit__code=unit_code).order_by("pk")[nth]


# -- the table ----------------------------------------------------------------------------------------------------

def test_every_bundled_system_has_its_tools_in_the_one_table(books):
    assert set(GameSystem.objects.values_list("code", flat=True)) == set(MATCHUP_TOOLS)
    assert [t.slug for t in matchup_tools_for("fow4")] == ["fow-comparison"]
    assert [t.slug for t in matchup_tools_for("waf")] == ["activation-dice", "setup"]
    assert [t.slug for t in matchup_tools_for("oww2")] == ["order-cards"]
    assert [t.slug for t in matchup_tools_for("hof")] == ["parity"]
    assert matchup_wizard_for("hof").slug == "parity" and matchup_wizard_for("fow4") is None
    assert matchup_tools_for("no-such-system") == () and matchup_tool_for("fow4", "parity") is None
    for tools in MATCHUP_TOOLS.values():
        assert all(t.name and t.description and t.needs for t in tools)


# -- making one ---------------------------------------------------------------------------------------------------

def test_a_match_up_needs_two_different_lists_of_one_system(books, player):
    hof = build(player, "sample-hof-germany", [("HG100", [("HG100/grenadiers", "HG101", "four")])])
    fow = build(player, "sample-afrika-korps")
    with pytest.raises(MatchupError, match="two different lists"):
        matchup_create(list_a=hof, list_b=hof, owner=player)
    with pytest.raises(MatchupError, match="needs two lists of the same system"):
        matchup_create(list_a=hof, list_b=fow, owner=player)
    assert not Matchup.objects.exists()
    matchup = matchup_create(list_a=hof, list_b=build(player, "sample-hof-usa"), owner=player)
    matchup_delete(matchup=matchup)
    assert not Matchup.objects.exists() and ArmyList.objects.filter(pk=hof.pk).exists()


# -- Flames of War --------------------------------------------------------------------------------------------------

def test_flames_of_war_side_by_side_and_reserves(books, player):
    # A (limit 100): Panzer Company HQ, 1 Panzer III (4 pts); 3 Panzer III (12); 2 Panzer IV (12);
    # support: 10.5cm Artillery Battalion, 6 guns (13 pts, counts as 2 game units).
    a = build(player, "sample-afrika-korps", [("SG100", [("SG100/hq", "SG101", "one-tank"),
                                                         ("SG100/panzer-1", "SG102", "three-tanks"),
                                                         ("SG100/panzer-2", "SG103", "two-tanks")])],
              support=[("force/artillery", "SG111", "six-guns")], name="A", points_limit=100)
    # B (limit 75): HQ of 2 Panzer III with long guns (8 + 1 per tank = 10); 4 Panzer III with Schürzen (16 + 4).
    b = build(player, "sample-afrika-korps", [("SG100", [("SG100/hq", "SG101", "two-tanks"),
                                                         ("SG100/panzer-1", "SG102", "four-tanks")])],
              name="B", points_limit=75)
    s.army_list_set_upgrade(army_list=b, list_unit=unit_row(b, "SG101"), upgrade_code="gun/long-5cm", quantity=1)
    s.army_list_set_upgrade(army_list=b, list_unit=unit_row(b, "SG102"), upgrade_code="field-kit/schurzen",
                            quantity=1)
    fow = matchup_figures(matchup=matchup_create(list_a=a, list_b=b, owner=player))["fow-comparison"]
    side_a, side_b = fow["sides"]["a"], fow["sides"]["b"]
    assert (side_a["points"], side_a["points_limit"], side_b["points"], side_b["points_limit"]) == (41, 100, 30, 75)
    assert (side_a["units_bought"], side_a["game_units"], side_a["teams"]) == (4, 5, 12)
    assert (side_b["units_bought"], side_b["game_units"], side_b["teams"]) == (2, 2, 6)
    assert (side_a["support_points"], side_b["support_points"], side_a["card_points"]) == (13, 0, 0)
    # 60% of the agreed points may start on the table: 60 of 100, 45 of 75.
    assert (side_a["reserves_on_table_max"], side_b["reserves_on_table_max"]) == (60, 45)
    assert fow["more_on_table_in_reserves"] == "a"
    assert fow["difference"] == {"points": 11, "formations": 0, "units_bought": 2, "game_units": 3, "teams": 6,
                                 "reserves_on_table_max": 15, "support_points": 13, "card_points": 0}
    assert [(f["name"], f["points"], len(f["units"])) for f in side_a["forces"]] == [("Panzer Company", 28, 3),
                                                                                    ("Support", 13, 1)]
    assert [(u["name"], u["teams"], u["points"]) for u in side_b["forces"][0]["units"]] == [
        ("Panzer Company HQ", 2, 10), ("Panzer III Tank Platoon", 4, 20)]


# -- War Ain't Fair ------------------------------------------------------------------------------------------------

@pytest.fixture
def waf_lists(books, player):
    # Germans, all elite: Pioneer Platoon, Battalion HQ, Tiger Platoon (3 units).
    german = build(player, "sample-waf-germany", [("WG100", [("WG100/platoon-3", "WG110", "three")])],
                   support=[("force/battalion-hq", "WG101", "two"), ("force/armour", "WG112", "one")],
                   name="Elite Germans")
    # British: Company HQ, three Rifle Platoons and a Vickers section (5 units), all regular.
    british = build(player, "sample-waf-britain", [("WB200", [("WB200/hq", "WB202", "one"),
                                                              ("WB200/platoon-1", "WB203", "three"),
                                                              ("WB200/platoon-2", "WB203", "three"),
                                                              ("WB200/platoon-3", "WB203", "three"),
                                                              ("WB200/hmg", "WB204", "one")])], name="Tommies")
    return german, british


def test_war_aint_fair_activation_dice_from_both_forces_and_the_nation_table(waf_lists, player):
    german, british = waf_lists
    dice = matchup_figures(matchup=matchup_create(list_a=german, list_b=british, owner=player))["activation-dice"]
    # The larger force has 5 units: 5 − 2 = 3. Germany +1, and +1 for an entirely elite force: 5. Britain +0: 3.
    assert dice["units"] == {"a": 3, "b": 5} and dice["base"] == 3
    assert [dice["sides"][k]["dice"] for k in ("a", "b")] == [5, 3]
    assert dice["sides"]["a"]["all_elite_bonus"] == 1 and dice["sides"]["b"]["all_elite_bonus"] == 0
    assert dice["sides"]["a"]["working"] == "5 units in the larger force − 2 = 3; nation +1; all elite +1 → 5"
    assert dice["fewer_dice"] == "b"


def test_war_aint_fair_set_up_cards_by_letter_with_the_dummies_and_outflanking_kept_secret(waf_lists, player):
    german, british = waf_lists
    s.army_list_set_setup(army_list=german, list_formation=ListFormation.objects.get(army_list=german), letter="k")
    s.army_list_set_setup(army_list=german, list_unit=unit_row(german, "WG101"), letter="A")
    s.army_list_set_setup(army_list=german, list_unit=unit_row(german, "WG112"), letter="B", outflank="left")
    for nth, letter in ((0, "X"), (1, "x")):
        s.army_list_set_setup(army_list=british, list_unit=unit_row(british, "WB203", nth), letter=letter)
    setup = matchup_figures(matchup=matchup_create(list_a=german, list_b=british, owner=player))["setup"]
    a, b = setup["sides"]["a"], setup["sides"]["b"]
    # Germans: the company's card K covers its Pioneers; A and B are their own cards. B outflanks, so 2 real
    # cards and the 2 dummies go face down.
    assert [(c["letter"], c["name"]) for c in a["cards"]] == [("A", "Battalion Headquarters"),
                                                             ("B", "Tiger Platoon"), ("K", "Grenadier Company")]
    assert (a["real_cards"], a["dummy_cards"], a["outflanking"], a["face_down_on_table"]) == (3, 2, 1, 4)
    assert a["without_letter"] == [] and a["repeated_letters"] == []
    # British: two platoons both lettered X, three units on no card; 2 real cards + 2 dummies.
    assert [c["letter"] for c in b["cards"]] == ["X", "X"] and b["repeated_letters"] == ["X"]
    assert [u["name"] for u in b["without_letter"]] == ["Company Headquarters", "Rifle Platoon", "Vickers HMG Section"]
    assert b["face_down_on_table"] == 4
    assert setup["more_cards_on_table"] is None  # 4 and 4
    assert setup["card_spacing_inches"] == 4 and setup["max_outflanking"] == 3
    assert "left" not in json.dumps(setup)  # which flank is the owner's secret


# -- Operation WW2 -------------------------------------------------------------------------------------------------

def test_operation_ww2_first_hands_with_off_table_units_held_back(books, player):
    # Germans: base hand 7. Command, two squads, an Observation Post and an off-table howitzer: 5 units.
    german = build(player, "sample-oww2-germany", [("OG100", [("OG100/command", "OG101", "small"),
                                                              ("OG100/squads", "OG102", "eight"),
                                                              ("OG100/squads", "OG102", "eight"),
                                                              ("OG100/options", "OG106", "two"),
                                                              ("OG100/options", "OG107", "one")])],
                   points_limit=3500)
    # Americans: base hand 5. Command and three squads: 4 units.
    american = build(player, "sample-oww2-usa", [("OU200", [("OU200/command", "OU201", "small"),
                                                            ("OU200/squads", "OU202", "ten"),
                                                            ("OU200/squads", "OU202", "ten"),
                                                            ("OU200/squads", "OU202", "ten")])], points_limit=3500)
    hand = matchup_figures(matchup=matchup_create(list_a=german, list_b=american, owner=player))["order-cards"]
    a, b = hand["sides"]["a"], hand["sides"]["b"]
    assert (a["nation"], a["base"], a["units"], a["unit_limit"]) == ("Germany", 7, 5, 8)
    assert (a["first_hand"], a["first_hand_off_table"], a["off_table_units"]) == (12, 11, 1)
    assert a["wait_actions"] == 2  # an Observation Post and off-table artillery
    assert (b["nation"], b["base"], b["first_hand"], b["first_hand_off_table"], b["wait_actions"]) == (
        "United States", 5, 9, 9, 0)
    assert hand["more_cards"] == "a" and hand["difference"] == 3


# -- Hail of Fire: the parity procedure step by step ---------------------------------------------------------------

@pytest.fixture
def hof(books, player):
    # Germans: Grenadiers (5 teams), Panzer IV (3), 10.5cm artillery (4). Americans: Riflemen (5), Shermans (3),
    # 60mm mortars (3), 155mm howitzers (3).
    german = build(player, "sample-hof-germany", [("HG100", [("HG100/grenadiers", "HG101", "four"),
                                                             ("HG100/panzer-iv", "HG103", "three"),
                                                             ("HG100/artillery", "HG106", "three")])])
    american = build(player, "sample-hof-usa", [("HU200", [("HU200/riflemen", "HU201", "four"),
                                                           ("HU200/shermans", "HU203", "three"),
                                                           ("HU200/mortars", "HU207", "two"),
                                                           ("HU200/artillery", "HU206", "two")])])
    matchup = matchup_create(list_a=german, list_b=american, owner=player)
    ranking_a = [pointer_of(german, code) for code in ("HG103", "HG106", "HG101")]
    ranking_b = [pointer_of(american, code) for code in ("HU203", "HU206", "HU201", "HU207")]
    return matchup, ranking_a, ranking_b


def state(matchup):
    matchup = Matchup.objects.get(pk=matchup.pk)
    tool = matchup_wizard_for("hof")
    return matchup_wizard_state(figures=matchup_figures(matchup=matchup), answers=matchup.answers, tool=tool)


def test_the_parity_procedure_from_start_to_the_split_of_penalty_points(hof):
    matchup, ranking_a, ranking_b = hof
    assert state(matchup)["next_step"] == "ranking" and state(matchup)["result"] is None
    parity = matchup_parity_rank(matchup=matchup, ranking_a=ranking_a, ranking_b=ranking_b)["parity"]
    # Pairs: Panzer IV v Shermans (3 v 3 teams: no size), artillery v howitzers (4 v 3: size A),
    # grenadiers v riflemen (5 v 5). The mortars have no partner: 2 points to B. So far A 1, B 2.
    assert [p["size"] for p in parity["pairs"]] == [None, "a", None]
    assert parity["unpaired_b"] == [ranking_b[3]] and (parity["total_a"], parity["total_b"]) == (1, 2)
    assert state(matchup)["next_step"] == "judgements"
    judgements = [{"threat": "a", "heavy_hitter": "a"},                # A 2
                  {"threat": "b", "heavy_hitter": "b", "size": "a"},   # A 1, B 2
                  {"threat": "a", "size": "b"}]                        # A 1, B 1
    parity = matchup_parity_judge(matchup=matchup, judgements=judgements)["parity"]
    assert (parity["total_a"], parity["total_b"]) == (4, 5)  # B: 2 + 1 + 2 for the mortars
    assert parity["stronger"] == "b" and parity["penalty_points"] == 1
    assert state(matchup)["next_step"] == "spending"
    parity = matchup_parity_spend(matchup=matchup, spending={"hero_points": 1})["parity"]
    assert parity["spending"] == {"break_points": 0, "hero_points": 1, "reductions": 0}
    assert state(matchup)["next_step"] == "done"
    # Judging again so that the totals change drops the split, which no longer adds up (B 6, A 3: 3 points).
    judgements[2]["threat"] = "b"
    parity = matchup_parity_judge(matchup=matchup, judgements=judgements)["parity"]
    assert parity["penalty_points"] == 3 and parity["spending"] is None
    assert state(matchup)["next_step"] == "spending"


def test_the_same_rankings_keep_the_judgements_and_new_ones_start_them_again(hof):
    matchup, ranking_a, ranking_b = hof
    matchup_parity_rank(matchup=matchup, ranking_a=ranking_a, ranking_b=ranking_b)
    matchup_parity_judge(matchup=matchup, judgements=[{"threat": "b"}, {}, {}])
    matchup_parity_rank(matchup=matchup, ranking_a=ranking_a, ranking_b=ranking_b)
    assert Matchup.objects.get(pk=matchup.pk).answers["judgements"][0]["threat"] == "b"
    matchup_parity_rank(matchup=matchup, ranking_a=list(reversed(ranking_a)), ranking_b=ranking_b)
    answers = Matchup.objects.get(pk=matchup.pk).answers
    assert all(j["threat"] is None for j in answers["judgements"]) and "judged" not in answers
    matchup_parity_start(matchup=matchup)
    assert Matchup.objects.get(pk=matchup.pk).answers == {}


@pytest.mark.parametrize("step, match", [
    ("judge before ranking", "rank both forces' units first"),
    ("spend before ranking", "rank both forces' units first"),
    ("a unit missing", "ranking of force A's units must list each of its 3 units once"),
    ("a unit twice", "ranking of force B's units must list each of its 4 units once"),
    ("too few judgements", "3 pair\\(s\\) need a judgement each, 2 given"),
    ("a judgement of another shape", "names only threat, heavy_hitter and size"),
    ("a split that does not add up", "must add up to 1"),
])
def test_answers_that_do_not_fit_are_refused_with_the_reason_and_change_nothing(hof, step, match):
    matchup, ranking_a, ranking_b = hof
    if step not in ("judge before ranking", "spend before ranking", "a unit missing", "a unit twice"):
        matchup_parity_rank(matchup=matchup, ranking_a=ranking_a, ranking_b=ranking_b)
    before = Matchup.objects.get(pk=matchup.pk).answers
    calls = {
        "judge before ranking": lambda: matchup_parity_judge(matchup=matchup, judgements=[{}]),
        "spend before ranking": lambda: matchup_parity_spend(matchup=matchup, spending={}),
        "a unit missing": lambda: matchup_parity_rank(matchup=matchup, ranking_a=ranking_a[:2], ranking_b=ranking_b),
        "a unit twice": lambda: matchup_parity_rank(matchup=matchup, ranking_a=ranking_a,
                                                    ranking_b=ranking_b[:3] + ranking_b[:1]),
        "too few judgements": lambda: matchup_parity_judge(matchup=matchup, judgements=[{}, {}]),
        "a judgement of another shape": lambda: matchup_parity_judge(matchup=matchup,
                                                                     judgements=[{"threat": "a", "luck": "b"}]),
        "a split that does not add up": lambda: matchup_parity_spend(matchup=matchup, spending={"reductions": 2}),
    }
    with pytest.raises(MatchupError, match=match):
        calls[step]()
    assert Matchup.objects.get(pk=matchup.pk).answers == before


def test_only_a_system_with_a_step_by_step_tool_takes_answers(books, player):
    a, b = build(player, "sample-afrika-korps", name="A"), build(player, "sample-afrika-korps", name="B")
    matchup = matchup_create(list_a=a, list_b=b, owner=player)
    with pytest.raises(MatchupError, match="no step-by-step procedure"):
        matchup_parity_start(matchup=matchup)
    with pytest.raises(MatchupError, match="no step-by-step procedure"):
        matchup_parity_rank(matchup=matchup, ranking_a=[], ranking_b=[])


# -- reading a match-up as one viewer may see it -----------------------------------------------------------------

def test_a_side_no_longer_readable_shows_nothing_and_stale_answers_are_set_aside(hof, player, other_player):
    matchup, ranking_a, ranking_b = hof
    matchup_parity_rank(matchup=matchup, ranking_a=ranking_a, ranking_b=ranking_b)
    reading = matchup_read(matchup=matchup, user=player)
    assert reading.unreadable == [] and reading.figures["parity"]["total_b"] == 2 and not reading.answers_problem
    # The American list changes hands and is private: its owner's opponent sees nothing of it.
    ArmyList.objects.filter(pk=matchup.list_b.pk).update(owner=other_player)
    matchup = Matchup.objects.select_related("list_a__system", "list_b__handbook").get(pk=matchup.pk)
    reading = matchup_read(matchup=matchup, user=player)
    assert reading.unreadable == ["B"] and reading.figures is None
    assert reading.labels["name_b"] == "A private list" and reading.labels["readable_b"] is False
    # Back with its owner, one unit fewer: the saved rankings no longer fit, so they are set aside.
    ArmyList.objects.filter(pk=matchup.list_b.pk).update(owner=player)
    american = ArmyList.objects.get(pk=matchup.list_b.pk)
    s.army_list_remove_unit(army_list=american, list_unit=unit_row(american, "HU207"))
    reading = matchup_read(matchup=Matchup.objects.get(pk=matchup.pk), user=player)
    assert "ranking of force B's units" in reading.answers_problem
    assert reading.figures["parity"] is None and reading.answers == {}
