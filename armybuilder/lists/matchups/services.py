"""Writes of match-ups: making one of two lists, deleting it, and the answers of its system's step-by-step
tool (Hail of Fire's Force Parity Procedure: rankings, then judgements, then how the Penalty Points are
spent), each checked against both forces before it is kept. Every refusal is a MatchupError with the reason."""
from django.utils import timezone

from armybuilder.rules.matchups import MatchupError

from ..models import ArmyList, Matchup
from .selectors import MatchupForces, matchup_figures, matchup_forces
from .tools import matchup_wizard_for

JUDGEMENT_KEYS = ("threat", "heavy_hitter", "size")
SPENDING_KEYS = ("break_points", "hero_points", "reductions")


def matchup_create(*, list_a: ArmyList, list_b: ArmyList, owner=None, session_key: str = "") -> Matchup:
    if list_a.pk == list_b.pk:
        raise MatchupError("choose two different lists")
    if list_a.system_id != list_b.system_id:
        raise MatchupError(f"{list_a.name} is a {list_a.system.name} list and {list_b.name} a "
                           f"{list_b.system.name} list; a match-up needs two lists of the same system")
    return Matchup.objects.create(list_a=list_a, list_b=list_b, owner=owner,
                                  session_key=session_key if owner is None else "")


def matchup_delete(*, matchup: Matchup) -> None:
    """The match-up goes; both lists stay."""
    matchup.delete()


def matchups_claim_for_user(*, user, session_key: str | None) -> int:
    """Like lists: a visitor's session match-ups go with them to the account they sign up or log in with."""
    if not session_key or user is None or not user.is_authenticated:
        return 0
    return Matchup.objects.filter(owner__isnull=True, session_key=session_key).update(owner=user, session_key="")


def matchup_record_answers(*, matchup: Matchup, answers: dict, forces: MatchupForces | None = None) -> dict:
    """Check the answers against both forces (raises MatchupError with the reason), then keep them.
    Answers the match-up's figures with them."""
    figures = matchup_figures(matchup=matchup, answers=answers, forces=forces)
    Matchup.objects.filter(pk=matchup.pk).update(answers=answers, updated_at=timezone.now())
    matchup.answers = answers
    return figures


# -- the step-by-step tool: Hail of Fire's Force Parity Procedure -------------------------------------------------

def _wizard(matchup: Matchup):
    tool = matchup_wizard_for(matchup.list_a.system.code)
    if tool is None:
        raise MatchupError(f"a {matchup.list_a.system.name} match-up has no step-by-step procedure")
    return tool


def _paired(ranking_a: list, ranking_b: list) -> int:
    return min(len(ranking_a), len(ranking_b))


def _ranked(answers: dict) -> None:
    if not answers.get("ranking_a") or not answers.get("ranking_b"):
        raise MatchupError("rank both forces' units first")


def matchup_parity_start(*, matchup: Matchup) -> dict:
    """A fresh procedure: every answer given so far is dropped, and the units stand in list order."""
    _wizard(matchup)
    return matchup_record_answers(matchup=matchup, answers={})


def matchup_parity_rank(*, matchup: Matchup, ranking_a: list[str], ranking_b: list[str]) -> dict:
    """Step 1: each player's ranking of the other's units (pointers, strongest first).

    Unchanged rankings keep the judgements and spending already given. New rankings pair the units
    afresh, so the judgements start again: nobody has the threat or the heavy hitters yet, and the
    size advantage is pre-selected from the engine's suggestion (more teams).
    """
    tool = _wizard(matchup)
    forces = matchup_forces(matchup=matchup)
    answers = dict(matchup.answers or {})
    paired = _paired(ranking_a, ranking_b)
    if answers.get("ranking_a") == ranking_a and answers.get("ranking_b") == ranking_b and \
            len(answers.get("judgements") or []) == paired:
        return matchup_record_answers(matchup=matchup, answers=answers, forces=forces)
    blank = [dict.fromkeys(JUDGEMENT_KEYS) for _ in range(paired)]
    trial = {"ranking_a": ranking_a, "ranking_b": ranking_b, "judgements": blank}
    parity = matchup_figures(matchup=matchup, answers=trial, slugs=(tool.slug,), forces=forces).get(tool.slug)
    if parity is None:
        raise MatchupError("both forces need units before they can be ranked")
    judgements = [{"threat": None, "heavy_hitter": None, "size": (s or {}).get("size")}
                  for s in parity["suggestions"]]
    return matchup_record_answers(matchup=matchup, forces=forces,
                                  answers={"ranking_a": ranking_a, "ranking_b": ranking_b, "judgements": judgements})


def matchup_parity_judge(*, matchup: Matchup, judgements: list[dict]) -> dict:
    """Step 2: per pair, which side ("a", "b" or None) is more threatening, has the heavy hitters, the size.

    A split of Penalty Points already given is kept when it still adds up, and dropped otherwise
    (the totals changed, so it must be made again).
    """
    tool = _wizard(matchup)
    answers = dict(matchup.answers or {})
    _ranked(answers)
    if not isinstance(judgements, list) or any(not isinstance(j, dict) or set(j) - set(JUDGEMENT_KEYS)
                                               for j in judgements):
        raise MatchupError("each pair's judgement names only threat, heavy_hitter and size")
    forces = matchup_forces(matchup=matchup)
    answers["judgements"] = [{key: j.get(key) for key in JUDGEMENT_KEYS} for j in judgements]
    answers["judged"] = True  # the pairs were judged by the players, not only pre-filled from team counts
    if answers.get("spending") is not None:
        without = {k: v for k, v in answers.items() if k != "spending"}
        parity = matchup_figures(matchup=matchup, answers=without, slugs=(tool.slug,), forces=forces)[tool.slug]
        if sum(answers["spending"].get(k, 0) for k in SPENDING_KEYS) != (parity or {}).get("penalty_points"):
            answers = without
    return matchup_record_answers(matchup=matchup, answers=answers, forces=forces)


def matchup_parity_spend(*, matchup: Matchup, spending: dict) -> dict:
    """Step 3: how the stronger side spends its Penalty Points (they must add up to them)."""
    _wizard(matchup)
    answers = dict(matchup.answers or {})
    _ranked(answers)
    if not isinstance(spending, dict):
        raise MatchupError("spending takes whole numbers for break_points, hero_points and reductions")
    answers["spending"] = spending
    return matchup_record_answers(matchup=matchup, answers=answers)
