"""The match-up API: making a match-up of two lists, reading it, every match-up tool of the four systems, Hail
of Fire's parity procedure as a sequence of calls, who may see what, and bad input. Expected figures are
worked out in the comments from the sample books (handbooks/data) and the rules digests."""
import uuid

import pytest
from django.core.management import call_command
from django.db import transaction
from django.urls import reverse

from armybuilder.lists import catalog as gamedata
from armybuilder.lists import services as s
from armybuilder.lists.models import ArmyList, ListUnit, Matchup
from armybuilder.lists.selectors import army_list_force
from armybuilder.systems import systems_all
from handbooks.models import Handbook

# The tools of every registered system, by system code.
MATCHUP_TOOLS = {system.code: system.matchup_tools for system in systems_all()}


API = "/api/v1/matchups/"


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


def build(user, book, formations=(), support=(), name=None, points_limit=None) -> ArmyList:
    army = s.army_list_create(owner=user, handbook=Handbook.objects.get(code=book, is_current=True),
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


def pointer_of(army, unit_code) -> str:
    return next(u.pointer for u in army_list_force(army).all_units() if u.unit.code == unit_code)


def made(client, list_a, **force_b):
    body = {"list_a": str(list_a.public_id), **{k: str(v) for k, v in force_b.items()}}
    response = client.post(API, body, format="json")
    assert response.status_code == 201, response.json()
    return response


def tool_url(matchup_id, slug):
    return f"{API}{matchup_id}/{slug}"


@pytest.fixture
def hof(books, owner):
    # Germans: Grenadiers (5 teams), Panzer IV (3), 10.5cm artillery (4). Americans: Riflemen (5), Shermans (3),
    # 60mm mortars (3), 155mm howitzers (3).
    german = build(owner, "sample-hof-germany", [("HG100", [("HG100/grenadiers", "HG101", "four"),
                                                            ("HG100/panzer-iv", "HG103", "three"),
                                                            ("HG100/artillery", "HG106", "three")])], name="Weber")
    american = build(owner, "sample-hof-usa", [("HU200", [("HU200/riflemen", "HU201", "four"),
                                                          ("HU200/shermans", "HU203", "three"),
                                                          ("HU200/mortars", "HU207", "two"),
                                                          ("HU200/artillery", "HU206", "two")])], name="Combat B")
    return german, american


@pytest.fixture
def fow(books, owner):
    # A (limit 100): HQ 1 Panzer III (4 pts), 3 Panzer III (12), support 10.5cm battalion of 6 guns (13): 29.
    a = build(owner, "sample-afrika-korps", [("SG100", [("SG100/hq", "SG101", "one-tank"),
                                                        ("SG100/panzer-1", "SG102", "three-tanks")])],
              support=[("force/artillery", "SG111", "six-guns")], name="Afrika A", points_limit=100)
    # B (limit 120): HQ 2 Panzer III (8), 2 Panzer IV (12): 20.
    b = build(owner, "sample-afrika-korps", [("SG100", [("SG100/hq", "SG101", "two-tanks"),
                                                        ("SG100/panzer-1", "SG103", "two-tanks")])],
              name="Afrika B", points_limit=120)
    return a, b


# -- making and reading ------------------------------------------------------------------------------------------

def test_two_of_your_lists_make_a_match_up_that_names_its_tools(hof, owner, owner_client):
    german, american = hof
    response = made(owner_client, german, list_b=american.public_id)
    matchup = Matchup.objects.get()
    assert response["Location"] == f"{API}{matchup.public_id}/"
    data = response.json()
    assert data["id"] == str(matchup.public_id) and data["system"] == "hof" and matchup.owner == owner
    assert (data["a"]["name"], data["a"]["letter"], data["a"]["list_id"]) == ("Weber", "A", str(german.public_id))
    assert data["b"]["share_token"] is None and data["b"]["readable"] is True
    assert [u["teams"] for u in data["b"]["units"]] == [5, 3, 3, 3]
    assert data["a"]["figures"]["break_limit"] == 5 + 2 * 3  # the Hail of Fire break limit, 5 + 2 per unit
    assert [(t["slug"], t["steps"], t["url"]) for t in data["tools"]] == [
        ("parity", True, f"{API}{matchup.public_id}/parity")]
    assert owner_client.get(f"{API}{matchup.public_id}/").json() == data
    listing = owner_client.get(API).json()
    assert listing["count"] == 1 and listing["results"][0]["a"]["name"] == "Weber"


def test_an_opponents_shared_list_joins_by_its_link_or_token(hof, owner_client, other):
    german, _ = hof
    theirs = build(other, "sample-hof-usa", [("HU200", [("HU200/riflemen", "HU201", "four")])], name="Theirs")
    s.army_list_update(army_list=theirs, visibility="shared")
    theirs.refresh_from_db()
    for opponent in (f"https://example.org/s/{theirs.share_token}/", str(theirs.share_token)):
        data = made(owner_client, german, opponent=opponent).json()
        assert data["b"]["name"] == "Theirs" and data["b"]["list_id"] is None
        assert data["b"]["share_token"] == str(theirs.share_token)


def test_every_tool_of_the_table_answers_at_its_own_endpoint():
    for tools in MATCHUP_TOOLS.values():
        for tool in tools:
            assert reverse(f"api:matchup-{tool.slug}", kwargs={"matchup_id": uuid.uuid4()}).endswith(tool.slug)


# -- the tools, one system at a time ---------------------------------------------------------------------------------

def test_flames_of_war_comparison_and_reserves(fow, owner_client):
    a, b = fow
    matchup_id = made(owner_client, a, list_b=b.public_id).json()["id"]
    data = owner_client.get(tool_url(matchup_id, "fow-comparison")).json()
    assert (data["sides"]["a"]["points"], data["sides"]["b"]["points"]) == (29, 20)
    # 60% of the agreed points: 60 of 100 against 72 of 120.
    assert (data["sides"]["a"]["reserves_on_table_max"], data["sides"]["b"]["reserves_on_table_max"]) == (60, 72)
    assert data["more_on_table_in_reserves"] == "b"
    assert data["difference"]["points"] == 9 and data["difference"]["reserves_on_table_max"] == -12
    assert data["difference"]["game_units"] == (1 + 1 + 2) - (1 + 1)  # the battalion counts as 2 game units
    assert [f["name"] for f in data["sides"]["a"]["forces"]] == ["Panzer Company", "Support"]
    wrong = owner_client.get(tool_url(matchup_id, "activation-dice"))
    assert wrong.status_code == 404 and "fow-comparison" in wrong.json()["detail"]
    assert owner_client.get(tool_url(matchup_id, "parity")).status_code == 404


def test_war_aint_fair_activation_dice_and_set_up(books, owner, owner_client):
    # Germans (+1): Company HQ and two Grenadier Platoons: 3 units. British (0): Company HQ: 1 unit.
    german = build(owner, "sample-waf-germany", [("WG100", [("WG100/hq", "WG102", "one"),
                                                            ("WG100/platoon-1", "WG103", "three"),
                                                            ("WG100/platoon-2", "WG103", "three")])])
    british = build(owner, "sample-waf-britain", [("WB200", [("WB200/hq", "WB202", "one")])])
    for letter, row in zip("CAB", ListUnit.objects.filter(army_list=german).order_by("pk"), strict=False):
        s.army_list_set_setup(army_list=german, list_unit=row, letter=letter)
    matchup_id = made(owner_client, german, list_b=british.public_id).json()["id"]
    dice = owner_client.get(tool_url(matchup_id, "activation-dice")).json()
    # 3 units in the larger force − 2 = 1: Germans 1 + 1 = 2, British 1 + 0 = 1.
    assert dice["base"] == 1 and dice["sides"]["a"]["dice"] == 2 and dice["sides"]["b"]["dice"] == 1
    assert dice["fewer_dice"] == "b"
    setup = owner_client.get(tool_url(matchup_id, "setup")).json()
    assert [c["letter"] for c in setup["sides"]["a"]["cards"]] == ["A", "B", "C"]
    assert setup["sides"]["a"]["face_down_on_table"] == 3 + 2  # three lettered cards and the two dummies
    assert setup["sides"]["b"]["face_down_on_table"] == 0 + 2
    assert [u["name"] for u in setup["sides"]["b"]["without_letter"]] == ["Company Headquarters"]
    assert setup["more_cards_on_table"] == "a"


def test_operation_ww2_order_card_hands(books, owner, owner_client):
    # Germans: base 7 + 3 units (command, two squads) = 10. Americans: base 5 + 2 units = 7.
    german = build(owner, "sample-oww2-germany", [("OG100", [("OG100/command", "OG101", "small"),
                                                             ("OG100/squads", "OG102", "eight"),
                                                             ("OG100/squads", "OG102", "eight")])],
                   points_limit=3500)
    american = build(owner, "sample-oww2-usa", [("OU200", [("OU200/command", "OU201", "small"),
                                                           ("OU200/squads", "OU202", "ten")])], points_limit=3500)
    matchup_id = made(owner_client, german, list_b=american.public_id).json()["id"]
    hand = owner_client.get(tool_url(matchup_id, "order-cards")).json()
    assert (hand["sides"]["a"]["first_hand"], hand["sides"]["b"]["first_hand"]) == (10, 7)
    assert (hand["sides"]["a"]["base"], hand["sides"]["b"]["base"]) == (7, 5)
    assert hand["more_cards"] == "a" and hand["difference"] == 3


def test_the_parity_procedure_as_a_sequence_of_calls(hof, owner_client):
    german, american = hof
    matchup_id = made(owner_client, german, list_b=american.public_id).json()["id"]
    parity = f"{API}{matchup_id}/parity"
    started = owner_client.post(parity).json()
    assert started["next_step"] == "ranking" and started["result"] is None
    assert [u["pointer"] for u in started["units"]["a"]] == [u.pointer for u in army_list_force(german).all_units()]
    ranking_a = [pointer_of(german, c) for c in ("HG103", "HG106", "HG101")]
    ranking_b = [pointer_of(american, c) for c in ("HU203", "HU206", "HU201", "HU207")]
    ranked = owner_client.put(parity + "/ranking", {"ranking_a": ranking_a, "ranking_b": ranking_b}, format="json")
    assert ranked.status_code == 200 and ranked.json()["next_step"] == "judgements"
    # Pre-filled sizes: 3 v 3 none, 4 v 3 A, 5 v 5 none; the unpartnered mortars give B 2. A 1, B 2.
    result = ranked.json()["result"]
    assert [p["size"] for p in result["pairs"]] == [None, "a", None]
    assert (result["total_a"], result["total_b"]) == (1, 2)
    judged = owner_client.put(parity + "/judgements", {"judgements": [
        {"threat": "a", "heavy_hitter": "a"}, {"threat": "b", "heavy_hitter": "b", "size": "a"},
        {"threat": "a", "size": "b"}]}, format="json").json()
    # A 2 + 1 + 1 = 4; B 0 + 2 + 1 + 2 = 5: B takes 1 Penalty Point.
    assert (judged["result"]["total_a"], judged["result"]["total_b"], judged["result"]["stronger"]) == (4, 5, "b")
    assert judged["next_step"] == "spending"
    refused = owner_client.put(parity + "/spending", {"break_points": 2}, format="json")
    assert refused.status_code == 400 and "must add up to 1" in refused.json()["detail"]
    spent = owner_client.put(parity + "/spending", {"hero_points": 1}, format="json").json()
    assert spent["next_step"] == "done"
    assert spent["result"]["spending"] == {"break_points": 0, "hero_points": 1, "reductions": 0}
    again = owner_client.get(parity).json()
    assert again == spent and again["ranking_b"] == ranking_b
    assert owner_client.post(parity).json()["next_step"] == "ranking"  # starting again drops every answer


@pytest.mark.parametrize("path, body, says", [
    ("ranking", {"ranking_a": "/formations/0/units/0", "ranking_b": []}, "/ranking_a"),
    ("ranking", {"ranking_a": [7], "ranking_b": []}, "Expected a string"),
    ("ranking", {"ranking_a": ["/x"] * 201, "ranking_b": []}, "/ranking_a"),
    ("ranking", {"ranking_a": ["/formations/0/units/0"], "ranking_b": ["/formations/0/units/0"]},
     "ranking of force A's units must list each of its 3 units once"),
    ("ranking", {"ranking_a": [], "ranking_b": [], "extra": 1}, "/extra: Unknown field"),
    ("judgements", {"judgements": [{"threat": "c"}]}, "/judgements/0/threat"),
    ("judgements", {"judgements": [{"luck": "a"}]}, "/judgements/0/luck: Unknown field"),
    ("judgements", {"judgements": [{}]}, "rank both forces' units first"),
    ("spending", {"hero_points": -1}, "/hero_points"),
    ("spending", {"hero_points": "1"}, "Expected an integer"),
    ("spending", [1, 2], "Expected a JSON object"),
])
def test_bad_parity_answers_are_refused_with_a_clear_400(hof, owner_client, path, body, says):
    german, american = hof
    matchup_id = made(owner_client, german, list_b=american.public_id).json()["id"]
    response = owner_client.put(f"{API}{matchup_id}/parity/{path}", body, format="json")
    assert response.status_code == 400 and says in response.json()["detail"]
    assert Matchup.objects.get().answers == {}


def test_the_parity_procedure_is_hail_of_fires_alone(fow, owner_client):
    a, b = fow
    matchup_id = made(owner_client, a, list_b=b.public_id).json()["id"]
    for method, path in (("get", ""), ("post", ""), ("put", "/ranking")):
        response = getattr(owner_client, method)(f"{API}{matchup_id}/parity{path}", {}, format="json")
        assert response.status_code == 404 and "Force Parity Procedure" in response.json()["detail"]


# -- bad requests to make one ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", ["no force B", "both force Bs", "not a uuid", "someone else's list", "a number",
                                  "same list twice", "two systems", "a private opponent", "unknown field",
                                  "not an object", "no such link"])
def test_bad_match_up_requests_are_refused_and_make_nothing(hof, fow, owner_client, other, case):
    german, american = hof
    foreign = build(other, "sample-hof-usa", name="Foreign")
    ids = {"a": str(german.public_id), "b": str(american.public_id)}
    body, says = {
        "no force B": ({"list_a": ids["a"]}, "one of the two"),
        "both force Bs": ({"list_a": ids["a"], "list_b": ids["b"], "opponent": "x"}, "one of the two"),
        "not a uuid": ({"list_a": "12", "list_b": ids["b"]}, "/list_a: not a list id"),
        "someone else's list": ({"list_a": str(foreign.public_id), "list_b": ids["b"]},
                                "/list_a: None of your lists has this id"),
        "a number": ({"list_a": 12, "list_b": ids["b"]}, "Expected a string"),
        "same list twice": ({"list_a": ids["a"], "list_b": ids["a"]}, "choose two different lists"),
        "two systems": ({"list_a": ids["a"], "list_b": str(fow[0].public_id)}, "same system"),
        "a private opponent": ({"list_a": ids["a"], "opponent": str(foreign.share_token)}, "No shared list"),
        "unknown field": ({"list_a": ids["a"], "list_b": ids["b"], "owner": "me"}, "/owner: Unknown field"),
        "not an object": (["list_a"], "Expected a JSON object"),
        "no such link": ({"list_a": ids["a"], "opponent": "https://example.org/s/nothing/"}, "No shared list"),
    }[case]
    response = owner_client.post(API, body, format="json")
    assert response.status_code == 400 and says in response.json()["detail"], response.json()
    assert not Matchup.objects.exists()


# -- who sees what ---------------------------------------------------------------------------------------------------

def test_a_match_up_is_its_makers_alone(hof, owner_client, other_client, anon):
    german, american = hof
    matchup_id = made(owner_client, german, list_b=american.public_id).json()["id"]
    paths = ["/", "/parity", "/fow-comparison", "/activation-dice", "/setup", "/order-cards"]
    for path in paths:
        assert other_client.get(f"{API}{matchup_id}{path}").status_code == 404
        assert anon.get(f"{API}{matchup_id}{path}").status_code == 401
    missing = other_client.get(f"{API}{uuid.uuid4()}/")
    theirs = other_client.get(f"{API}{matchup_id}/")
    assert missing.json() == theirs.json()  # someone else's looks exactly like a missing one
    for method, path, body in (("post", "/parity", None),
                               ("put", "/parity/ranking", {"ranking_a": [], "ranking_b": []}),
                               ("put", "/parity/spending", {}), ("delete", "/", None)):
        assert getattr(other_client, method)(f"{API}{matchup_id}{path}", body, format="json").status_code == 404
    assert other_client.get(API).json()["count"] == 0 and anon.get(API).status_code == 401
    assert Matchup.objects.filter(public_id=matchup_id).exists()
    assert owner_client.delete(f"{API}{matchup_id}/").status_code == 204
    assert not Matchup.objects.exists() and ArmyList.objects.filter(pk=german.pk).exists()


def test_an_opponents_list_made_private_again_shows_only_that_it_is_private(hof, owner_client, other):
    german, _ = hof
    theirs = build(other, "sample-hof-usa", [("HU200", [("HU200/riflemen", "HU201", "four")])],
                   name="Secret Combat Command")
    s.army_list_update(army_list=theirs, visibility="shared")
    theirs.refresh_from_db()
    matchup_id = made(owner_client, german, opponent=theirs.share_token).json()["id"]
    s.army_list_update(army_list=theirs, visibility="private")
    detail = owner_client.get(f"{API}{matchup_id}/")
    assert detail.status_code == 200 and "Secret" not in detail.content.decode()
    side = detail.json()["b"]
    assert (side["readable"], side["name"], side["units"], side["share_token"]) == (False, "A private list", None, None)
    assert "Secret" not in owner_client.get(API).content.decode()
    for method, path in (("get", "/parity"), ("post", "/parity")):
        response = getattr(owner_client, method)(f"{API}{matchup_id}{path}")
        assert response.status_code == 404
        assert "Force B's list is no longer shared with you" in response.json()["detail"]
        assert "Rifle Platoon" not in response.content.decode()


def test_the_list_of_match_ups_costs_the_same_queries_for_few_and_many(hof, owner, owner_client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from armybuilder.lists.matchups import matchup_create

    german, american = hof
    counts = []
    for more in (1, 5):
        for _ in range(more):
            matchup_create(list_a=german, list_b=american, owner=owner)
        with CaptureQueriesContext(connection) as captured:
            assert owner_client.get(API).status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1], counts
