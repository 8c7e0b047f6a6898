"""Match-up pages: creating one (own lists, an opponent's share link), the figures per system,
Hail of Fire's parity wizard, and privacy (a match-up is its owner's alone)."""
import re

import pytest
from django.test import Client
from django.urls import reverse

from armybuilder.lists import services as s
from armybuilder.lists.matchups import matchup_create
from armybuilder.lists.models import ListUnit, Matchup
from handbooks.models import Handbook

from .test_systems_builder import imported

PAGE = "web:matchup"


@pytest.fixture
def hof_a(sample_data, player):
    return imported("hof-kampfgruppe.json", owner=player)


@pytest.fixture
def hof_b(sample_data, player):
    """The same Kampfgruppe without its Panzergrenadiers and PaK 40s: 3 units (7, 3 and 4 teams)."""
    army = imported("hof-kampfgruppe.json", owner=player)
    s.army_list_update(army_list=army, name="Kampfgruppe Klein")
    for unit in ListUnit.objects.filter(army_list=army, unit__code__in=["HG102", "HG105"]):
        s.army_list_remove_unit(army_list=army, list_unit=unit)
    return army


@pytest.fixture
def hof_matchup(hof_a, hof_b, player):
    return matchup_create(list_a=hof_a, list_b=hof_b, owner=player)


def url(matchup, name=PAGE):
    return reverse(name, args=[matchup.public_id])


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())).replace("&#x27;", "'")


# -- the index and creating a match-up --------------------------------------------------------------------------

def test_the_nav_and_start_page_link_to_match_ups(sample_data, client):
    html = client.get(reverse("web:start")).content.decode()
    assert html.count(f'href="{reverse("web:matchups")}"') >= 2


def test_the_index_offers_only_the_visitors_own_lists(hof_a, other_player, player_client):
    foreign = imported("hof-kampfgruppe.json", owner=other_player)
    s.army_list_update(army_list=foreign, name="Someone else's")
    html = player_client.get(reverse("web:matchups")).content.decode()
    assert str(hof_a.public_id) in html and "Someone else" not in html
    assert '<optgroup label="Hail of Fire">' in html


def test_two_own_lists_make_a_match_up(hof_a, hof_b, player, player_client):
    response = player_client.post(reverse("web:matchups"), {"list_a": hof_a.public_id, "list_b": hof_b.public_id})
    matchup = Matchup.objects.get()
    assert response.status_code == 302 and response["Location"] == url(matchup)
    assert matchup.owner == player and matchup.list_a == hof_a and matchup.list_b == hof_b
    page = text(player_client.get(url(matchup)))
    assert "Kampfgruppe Weber vs Kampfgruppe Klein" in page
    assert "My match-ups" in player_client.get(reverse("web:matchups")).content.decode()


def test_an_opponents_share_link_makes_a_match_up(hof_a, other_player, player_client):
    theirs = imported("hof-kampfgruppe.json", owner=other_player)
    s.army_list_update(army_list=theirs, name="Their Kampfgruppe", visibility="shared")
    link = "  http://testserver" + reverse("web:shared", args=[theirs.share_token]) + "  "
    response = player_client.post(reverse("web:matchups"), {"list_a": hof_a.public_id, "opponent_link": link})
    matchup = Matchup.objects.get()
    assert response.status_code == 302 and matchup.list_b == theirs
    page = player_client.get(url(matchup)).content.decode()
    assert "Their Kampfgruppe" in page
    assert reverse("web:shared", args=[theirs.share_token]) in page  # linked read-only, not to their builder
    assert reverse("web:builder", args=[theirs.public_id]) not in page


@pytest.mark.parametrize("link", ["not a link", "http://testserver/s/00000000-0000-0000-0000-000000000000/", "x" * 600])
def test_a_bad_share_link_is_refused(hof_a, player_client, link):
    response = player_client.post(reverse("web:matchups"), {"list_a": hof_a.public_id, "opponent_link": link})
    assert response.status_code == 400
    assert Matchup.objects.count() == 0
    assert "opponent" in text(response).lower() or "No shared list at that link" in text(response)


def test_the_link_of_a_private_list_is_refused(hof_a, other_player, player_client):
    theirs = imported("hof-kampfgruppe.json", owner=other_player)
    link = reverse("web:shared", args=[theirs.share_token])
    response = player_client.post(reverse("web:matchups"), {"list_a": hof_a.public_id, "opponent_link": link})
    assert response.status_code == 400 and "No shared list at that link" in text(response)
    assert Matchup.objects.count() == 0


def test_lists_of_two_systems_are_refused_with_the_reason(hof_a, player, player_client):
    waf = imported("waf-grenadier-company.json", owner=player)
    response = player_client.post(reverse("web:matchups"), {"list_a": hof_a.public_id, "list_b": waf.public_id})
    assert response.status_code == 400
    assert "a match-up needs two lists of the same system" in text(response)
    assert Matchup.objects.count() == 0


@pytest.mark.parametrize("which", ["both", "neither", "same", "foreign"])
def test_a_half_filled_form_is_refused(hof_a, hof_b, other_player, player_client, which):
    foreign = imported("hof-kampfgruppe.json", owner=other_player)
    data = {"both": {"list_a": hof_a.public_id, "list_b": hof_b.public_id, "opponent_link": "x"},
            "neither": {"list_a": hof_a.public_id},
            "same": {"list_a": hof_a.public_id, "list_b": hof_a.public_id},
            "foreign": {"list_a": foreign.public_id, "list_b": hof_b.public_id}}[which]
    response = player_client.post(reverse("web:matchups"), data)
    assert response.status_code == 400
    assert 'class="alert alert--error"' in response.content.decode() or "field-error" in response.content.decode()
    assert Matchup.objects.count() == 0


def test_a_visitor_without_an_account_gets_a_session_match_up_that_goes_with_them_on_sign_up(sample_data, client):
    book = Handbook.objects.get(code="sample-hof-germany", is_current=True)
    client.post(reverse("web:start"), {"handbook": book.pk, "name": "One"})
    client.post(reverse("web:start"), {"handbook": book.pk, "name": "Two"})
    one, two = (s_list for s_list in sorted(book.army_lists.all(), key=lambda a: a.name))
    response = client.post(reverse("web:matchups"), {"list_a": one.public_id, "list_b": two.public_id})
    matchup = Matchup.objects.get()
    assert response.status_code == 302 and matchup.owner is None and matchup.session_key
    assert client.get(url(matchup)).status_code == 200
    assert Client().get(url(matchup)).status_code == 404  # another visitor
    client.post(reverse("web:signup"), {"username": "newbie", "password1": "pw-not-secret-123",
                                        "password2": "pw-not-secret-123"})
    matchup.refresh_from_db()
    assert matchup.owner.username == "newbie" and matchup.session_key == ""
    assert client.get(url(matchup)).status_code == 200


# -- privacy ------------------------------------------------------------------------------------------------------

def test_a_match_up_is_private_to_its_owner(hof_matchup, player_client, other_client, client):
    assert player_client.get(url(hof_matchup)).status_code == 200
    assert other_client.get(url(hof_matchup)).status_code == 404
    assert client.get(url(hof_matchup)).status_code == 404
    data = {"step": "rank"}
    assert other_client.post(url(hof_matchup, "web:matchup-answers"), data).status_code == 404
    assert client.post(url(hof_matchup, "web:matchup-answers"), data).status_code == 404
    assert other_client.post(url(hof_matchup, "web:matchup-delete")).status_code == 404
    assert client.post(url(hof_matchup, "web:matchup-delete")).status_code == 404
    assert Matchup.objects.filter(pk=hof_matchup.pk).exists()
    assert hof_matchup.list_a.name not in other_client.get(reverse("web:matchups")).content.decode()


def test_a_missing_match_up_is_404(sample_data, player_client):
    missing = "00000000-0000-0000-0000-000000000000"
    assert player_client.get(reverse(PAGE, args=[missing])).status_code == 404


def test_the_owner_deletes_a_match_up_and_keeps_the_lists(hof_matchup, player_client):
    response = player_client.post(url(hof_matchup, "web:matchup-delete"))
    assert response.status_code == 302
    assert not Matchup.objects.exists()
    assert hof_matchup.list_a.__class__.objects.filter(pk=hof_matchup.list_a.pk).exists()
    assert player_client.get(url(hof_matchup, "web:matchup-delete")).status_code in (404, 405)


def test_an_opponents_list_made_private_again_is_no_longer_shown(hof_a, other_player, player, player_client):
    theirs = imported("hof-kampfgruppe.json", owner=other_player)
    s.army_list_update(army_list=theirs, name="Secret Kampfgruppe", visibility="shared")
    matchup = matchup_create(list_a=hof_a, list_b=theirs, owner=player)
    assert "Secret Kampfgruppe" in player_client.get(url(matchup)).content.decode()
    s.army_list_update(army_list=theirs, visibility="private")
    response = player_client.get(url(matchup))
    assert response.status_code == 200
    page = text(response)
    assert "Force B's list is no longer shared with you" in page
    assert "PaK 40" not in page and "Force Parity Procedure" not in page


# -- figures per system ---------------------------------------------------------------------------------------------

def test_flames_of_war_reserves_on_table(sample_data, player, player_client):
    a = imported("fow-afrika-korps-panzer-company.json", owner=player)
    b = imported("fow-afrika-korps-panzer-company.json", owner=player)
    s.army_list_update(army_list=b, points_limit=120)
    page = text(player_client.get(url(matchup_create(list_a=a, list_b=b, owner=player))))
    assert "Most points on table in Reserves missions" in page
    assert "60 pts 72 pts" in page
    assert "force B may have more on the table: 72 points against 60" in page
    assert "90 / 100 points" in page and "90 / 120 points" in page


def test_war_aint_fair_activation_dice_with_their_working(sample_data, player, player_client):
    german = imported("waf-grenadier-company.json", owner=player)
    britain = Handbook.objects.get(code="sample-waf-britain", is_current=True)
    british = s.army_list_create(owner=player, handbook=britain, name="Tommies")
    company = s.army_list_add_formation(army_list=british, formation_code="WB200")
    for box, unit in (("WB200/hq", "WB202"), ("WB200/platoon-1", "WB203"), ("WB200/platoon-2", "WB203")):
        s.army_list_pick_unit(army_list=british, list_formation=company, box_code=box, unit_code=unit)
    response = player_client.get(url(matchup_create(list_a=german, list_b=british, owner=player)))
    page = text(response)
    assert "Activation dice" in page
    assert "6 units in the larger force − 2 = 4; nation +1 → 5" in page
    assert "6 units in the larger force − 2 = 4; nation +0 → 4" in page
    assert "Force B has fewer activation dice, so its player rolls on the Tactical Advantages table" in page
    assert 'class="pts"' not in response.content.decode()  # no points in War Ain't Fair


def test_operation_ww2_order_card_hands_side_by_side(sample_data, player, player_client):
    german = imported("oww2-grenadier-platoon.json", owner=player)
    usa = Handbook.objects.get(code="sample-oww2-usa", is_current=True)
    american = s.army_list_create(owner=player, handbook=usa, name="GIs", points_limit=3500)
    standard = next(f for f in usa.formations.all() if f.is_standard)
    s.army_list_add_formation(army_list=american, formation_code=standard.code)
    page = text(player_client.get(url(matchup_create(list_a=german, list_b=american, owner=player))))
    assert "Order cards" in page and "Germany United States" in page
    assert "Base hand by nation 7 cards 5 cards" in page
    assert "First hand base + 1 per unit 13 cards 5 cards" in page
    assert "Force A draws 8 more order cards in the first turn." in page


# -- Hail of Fire: the parity wizard ---------------------------------------------------------------------------------

def pointers(army):
    return [u["pointer"] for u in _units(army)]


def _units(army):
    from armybuilder.lists.selectors import army_list_force
    return [{"pointer": u.pointer, "name": u.unit.name} for u in army_list_force(army).all_units()]


def rank_data(a_order, b_order, **extra):
    data = {"step": "rank", "a_unit": a_order, "a_rank": [str(i + 1) for i in range(len(a_order))],
            "b_unit": b_order, "b_rank": [str(i + 1) for i in range(len(b_order))]}
    data.update(extra)
    return data


def test_before_ranking_the_wizard_shows_both_forces_units_in_list_order(hof_matchup, player_client):
    page = text(player_client.get(url(hof_matchup)))
    assert "Force A's units as player B ranks them" in page and "Force B's units as player A ranks them" in page
    assert "Judge each pair" not in page
    assert "Break limit 5 + 2 per unit 15 11" in page


def test_the_full_procedure_gives_the_penalty_points_and_is_shown_again(hof_matchup, hof_a, hof_b, player_client):
    answers = url(hof_matchup, "web:matchup-answers")
    a, b = pointers(hof_a), pointers(hof_b)
    response = player_client.post(answers, rank_data(a, b))
    assert response.status_code == 302 and response["Location"].endswith("#judge")
    hof_matchup.refresh_from_db()
    assert hof_matchup.answers["ranking_a"] == a and hof_matchup.answers["ranking_b"] == b
    # Size is pre-selected from team counts: 7 v 7 none, 7 v 3 A, 3 v 4 B.
    assert [j["size"] for j in hof_matchup.answers["judgements"]] == [None, "a", "b"]
    page = player_client.get(url(hof_matchup)).content.decode()
    assert 'name="size_2" value="a" checked' in page and 'name="size_3" value="b" checked' in page

    judge = {"step": "judge", "threat_1": "a", "heavy_hitter_1": "", "size_1": "",
             "threat_2": "b", "heavy_hitter_2": "b", "size_2": "a",
             "threat_3": "a", "heavy_hitter_3": "a", "size_3": "b"}
    response = player_client.post(answers, judge)
    assert response.status_code == 302 and response["Location"].endswith("#result")
    page = text(player_client.get(url(hof_matchup)))
    # A: 1 + 1 + 2 + two unpaired units × 2 = 8; B: 2 + 1 = 3.
    assert "Force A 8 Force B 3 Penalty Points 5" in page
    assert "Force A scores more and takes 5 Penalty Points" in page
    assert "PaK 40 Anti-tank Platoon 2 points" in page

    response = player_client.post(answers, {"step": "spend", "break_points": "2", "hero_points": "2",
                                            "reductions": "1"})
    assert response.status_code == 302
    hof_matchup.refresh_from_db()
    assert hof_matchup.answers["spending"] == {"break_points": 2, "hero_points": 2, "reductions": 1}
    html = player_client.get(url(hof_matchup)).content.decode()
    assert 'name="hero_points" min="0" max="999" value="2"' in html
    assert "Saved: Starting Break Points 2, Hero Points 2, Reductions 1." in html
    assert 'name="threat_2" value="b" checked' in html


def test_a_split_that_does_not_add_up_is_refused_with_the_engines_reason(hof_matchup, hof_a, hof_b, player_client):
    answers = url(hof_matchup, "web:matchup-answers")
    player_client.post(answers, rank_data(pointers(hof_a), pointers(hof_b)))
    response = player_client.post(answers, {"step": "spend", "break_points": "1", "hero_points": "0",
                                            "reductions": "0"})
    assert response.status_code == 400
    assert "The Penalty Points spent must add up to 4." in text(response)  # 2 unpaired A units; size 1–1
    hof_matchup.refresh_from_db()
    assert "spending" not in hof_matchup.answers
    bad = player_client.post(answers, {"step": "spend", "break_points": "-1"})
    assert bad.status_code == 400 and "whole numbers" in text(bad)


def test_typing_a_rank_moves_the_unit_and_changed_rankings_reset_the_judgements(hof_matchup, hof_a, hof_b,
                                                                                player_client):
    answers = url(hof_matchup, "web:matchup-answers")
    a, b = pointers(hof_a), pointers(hof_b)
    player_client.post(answers, rank_data(a, b))
    player_client.post(answers, {"step": "judge", "threat_1": "a", "threat_2": "a", "threat_3": "a"})
    data = rank_data(a, b)
    data["a_rank"] = ["1", "2", "1", "4", "5"]  # the Panzer IVs (third) typed to rank 1
    response = player_client.post(answers, data)
    assert response.status_code == 302
    hof_matchup.refresh_from_db()
    assert hof_matchup.answers["ranking_a"] == [a[2], a[0], a[1], a[3], a[4]]
    assert all(j["threat"] is None for j in hof_matchup.answers["judgements"])
    # Saving the same rankings again keeps the judgements.
    player_client.post(answers, {"step": "judge", "threat_1": "b", "size_1": "b"})
    player_client.post(answers, rank_data(hof_matchup.answers["ranking_a"], b))
    hof_matchup.refresh_from_db()
    assert hof_matchup.answers["judgements"][0]["threat"] == "b"


def test_the_move_buttons_work_without_javascript(hof_matchup, hof_a, hof_b, player_client):
    answers = url(hof_matchup, "web:matchup-answers")
    a, b = pointers(hof_a), pointers(hof_b)
    response = player_client.post(answers, rank_data(a, b, move="b:2:up"))
    assert response.status_code == 302 and response["Location"].endswith("#rank")
    hof_matchup.refresh_from_db()
    assert hof_matchup.answers["ranking_b"] == [b[0], b[2], b[1]]
    assert hof_matchup.answers["ranking_a"] == a


@pytest.mark.parametrize("change", ["missing unit", "foreign unit", "rank zero", "rank word", "bad move", "bad step"])
def test_bad_ranking_input_is_refused_with_a_message(hof_matchup, hof_a, hof_b, player_client, change):
    a, b = pointers(hof_a), pointers(hof_b)
    data = rank_data(a, b)
    if change == "missing unit":
        data = rank_data(a[:-1], b)
    elif change == "foreign unit":
        data = rank_data(a[:-1] + ["/formations/9/units/9"], b)
    elif change == "rank zero":
        data["a_rank"][0] = "0"
    elif change == "rank word":
        data["b_rank"][0] = "first"
    elif change == "bad move":
        data["move"] = "a:x:sideways"
    elif change == "bad step":
        data["step"] = "launch"
    response = player_client.post(url(hof_matchup, "web:matchup-answers"), data)
    assert response.status_code == 400
    assert 'class="alert alert--error"' in response.content.decode()
    hof_matchup.refresh_from_db()
    assert hof_matchup.answers == {}


def test_judging_before_ranking_and_bad_judgements_are_refused(hof_matchup, hof_a, hof_b, player_client):
    answers = url(hof_matchup, "web:matchup-answers")
    response = player_client.post(answers, {"step": "judge", "threat_1": "a"})
    assert response.status_code == 400 and "Rank both forces' units first." in text(response)
    player_client.post(answers, rank_data(pointers(hof_a), pointers(hof_b)))
    response = player_client.post(answers, {"step": "judge", "threat_1": "c"})
    assert response.status_code == 400 and "Pair 1: choose A, B or neither." in text(response)


def test_answers_that_no_longer_fit_changed_lists_are_explained(hof_matchup, hof_a, hof_b, player_client):
    player_client.post(url(hof_matchup, "web:matchup-answers"), rank_data(pointers(hof_a), pointers(hof_b)))
    s.army_list_remove_unit(army_list=hof_b, list_unit=ListUnit.objects.filter(army_list=hof_b).first())
    response = player_client.get(url(hof_matchup))
    assert response.status_code == 200
    assert "The saved parity answers no longer fit these lists" in text(response)
    assert "Judge each pair" not in text(response)


def test_parity_answers_for_another_system_are_404(sample_data, player, player_client):
    a = imported("waf-grenadier-company.json", owner=player)
    b = imported("waf-grenadier-company.json", owner=player)
    matchup = matchup_create(list_a=a, list_b=b, owner=player)
    assert player_client.post(url(matchup, "web:matchup-answers"), {"step": "rank"}).status_code == 404
