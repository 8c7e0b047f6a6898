"""Writes the browser builder needs beyond armybuilder.lists.services."""
from django.db import IntegrityError, transaction

from armybuilder.lists import services as list_services
from armybuilder.lists.matchups import MatchupError, matchup_figures, matchup_record_answers
from armybuilder.lists.models import ArmyList, ListUnit, ListUpgrade, Matchup

from .models import PlayerProfile


def army_lists_claim_for_user(*, user, session_key: str | None) -> int:
    """Give a visitor's session lists to the account they just signed up or logged in with.

    Returns how many lists were claimed. Lists of other sessions are never touched.
    """
    if not session_key or user is None or not user.is_authenticated:
        return 0
    return ArmyList.objects.filter(owner__isnull=True, session_key=session_key).update(owner=user, session_key="")


@transaction.atomic
def army_list_choose_upgrade(*, army_list: ArmyList, list_unit: ListUnit, upgrade_code: str, quantity: int,
                             replace_in_group: bool = False, expected_version: int | None = None) -> None:
    """Set one option of a unit; with ``replace_in_group`` the other options of its group are dropped first.

    That is how a one-pick group (a choice of main gun, say) behaves like a radio button: picking a
    new option swaps it in, in one transaction and one version step as far as the caller can tell.
    """
    if replace_in_group and quantity > 0:
        group_code = upgrade_code.partition("/")[0]
        others = (ListUpgrade.objects.filter(list_unit=list_unit, upgrade__group__code=group_code)
                  .exclude(upgrade__code=upgrade_code.partition("/")[2])
                  .values_list("upgrade__group__code", "upgrade__code"))
        for group, code in list(others):
            list_services.army_list_set_upgrade(army_list=army_list, list_unit=list_unit,
                                                upgrade_code=f"{group}/{code}", quantity=0,
                                                expected_version=expected_version)
            expected_version = army_list.version
    list_services.army_list_set_upgrade(army_list=army_list, list_unit=list_unit, upgrade_code=upgrade_code,
                                        quantity=quantity, expected_version=expected_version)


# -- match-ups ---------------------------------------------------------------------------------------------------

def matchups_claim_for_user(*, user, session_key: str | None) -> int:
    """Like lists: a visitor's session match-ups go with them to the account they sign up or log in with."""
    if not session_key or user is None or not user.is_authenticated:
        return 0
    return Matchup.objects.filter(owner__isnull=True, session_key=session_key).update(owner=user, session_key="")


def _paired(matchup: Matchup, ranking_a: list, ranking_b: list) -> int:
    return min(len(ranking_a), len(ranking_b))


def matchup_save_rankings(*, matchup: Matchup, ranking_a: list[str], ranking_b: list[str]) -> dict:
    """Hail of Fire, step 1: each player's ranking of the other's units.

    Unchanged rankings keep the judgements and spending already given. New rankings pair the units
    afresh, so the judgements start again: nobody has the threat or the heavy hitters yet, and the
    size advantage is pre-selected from the engine's suggestion (more teams). Raises MatchupError.
    """
    answers = dict(matchup.answers or {})
    if answers.get("ranking_a") == ranking_a and answers.get("ranking_b") == ranking_b and \
            len(answers.get("judgements") or []) == _paired(matchup, ranking_a, ranking_b):
        return matchup_record_answers(matchup=matchup, answers=answers)
    blank = [{"threat": None, "heavy_hitter": None, "size": None}
             for _ in range(_paired(matchup, ranking_a, ranking_b))]
    trial = {"ranking_a": ranking_a, "ranking_b": ranking_b, "judgements": blank}
    parity = matchup_figures(matchup=matchup, answers=trial).get("parity")
    if parity is None:
        raise MatchupError("both forces need units before they can be ranked")
    suggestions = parity["suggestions"]
    judgements = [{"threat": None, "heavy_hitter": None, "size": (s or {}).get("size")} for s in suggestions]
    return matchup_record_answers(matchup=matchup, answers={"ranking_a": ranking_a, "ranking_b": ranking_b,
                                                            "judgements": judgements})


def matchup_save_judgements(*, matchup: Matchup, judgements: list[dict]) -> dict:
    """Hail of Fire, step 2: per pair, which side is more threatening, has the heavy hitters, the size.

    A split of Penalty Points already given is kept when it still adds up, and dropped otherwise
    (the totals changed, so it must be made again). Raises MatchupError.
    """
    answers = dict(matchup.answers or {})
    if not answers.get("ranking_a") or not answers.get("ranking_b"):
        raise MatchupError("rank both forces' units first")
    answers["judgements"] = judgements
    if answers.get("spending") is not None:
        without = {k: v for k, v in answers.items() if k != "spending"}
        penalty = (matchup_figures(matchup=matchup, answers=without).get("parity") or {}).get("penalty_points")
        if sum(answers["spending"].get(k, 0) for k in ("break_points", "hero_points", "reductions")) != penalty:
            answers = without
    return matchup_record_answers(matchup=matchup, answers=answers)


def matchup_save_spending(*, matchup: Matchup, spending: dict) -> dict:
    """Hail of Fire, step 3: how the stronger side spends its Penalty Points. Raises MatchupError."""
    answers = dict(matchup.answers or {})
    if not answers.get("ranking_a") or not answers.get("ranking_b"):
        raise MatchupError("rank both forces' units first")
    answers["spending"] = spending
    return matchup_record_answers(matchup=matchup, answers=answers)


# -- accounts ----------------------------------------------------------------------------------------------------

class UsernameTaken(Exception):
    pass


def user_sign_up(*, form) -> object:
    """Save a valid sign-up form. Two sign-ups with one name at the same moment both pass the form's
    uniqueness check; the database's unique constraint decides, and the loser gets UsernameTaken (not a 500)."""
    try:
        with transaction.atomic():
            return form.save()
    except IntegrityError:
        raise UsernameTaken()


def player_display_name(user) -> str:
    """The name a player chose to show on shared lists; empty (show none) when they chose none."""
    if user is None:
        return ""
    return PlayerProfile.objects.filter(user=user).values_list("display_name", flat=True).first() or ""


def player_set_display_name(*, user, display_name: str) -> None:
    PlayerProfile.objects.update_or_create(user=user, defaults={"display_name": display_name.strip()[:60]})


@transaction.atomic
def user_delete_account(*, user) -> int:
    """Delete the account with everything it owns: lists (and their units, cards, share links), match-ups,
    the API token and the profile. Returns how many lists went with it."""
    lists = ArmyList.objects.filter(owner=user).count()
    ArmyList.objects.filter(owner=user).delete()
    Matchup.objects.filter(owner=user).delete()
    user.delete()
    return lists
