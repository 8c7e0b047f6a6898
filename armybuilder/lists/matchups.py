"""Match-ups: figures that depend on two lists of the same system, and the players' recorded answers."""
from armybuilder.rules import check
from armybuilder.rules.matchups import MatchupError, fow_matchup, hof_parity, waf_activation_dice

from .models import ArmyList, Matchup
from .selectors import army_list_force

__all__ = ["MatchupError", "matchup_create", "matchup_figures", "matchup_record_answers"]


def matchup_create(*, list_a: ArmyList, list_b: ArmyList, owner=None, session_key: str = "") -> Matchup:
    if list_a.system_id != list_b.system_id:
        raise MatchupError(f"{list_a.name} is a {list_a.system.name} list and {list_b.name} a "
                           f"{list_b.system.name} list; a match-up needs two lists of the same system")
    return Matchup.objects.create(list_a=list_a, list_b=list_b, owner=owner,
                                  session_key=session_key if owner is None else "")


def matchup_record_answers(*, matchup: Matchup, answers: dict) -> dict:
    """Check the answers against both forces (raises MatchupError with the reason), then keep them."""
    figures = matchup_figures(matchup=matchup, answers=answers)
    Matchup.objects.filter(pk=matchup.pk).update(answers=answers)
    matchup.answers = answers
    return figures


def _side(army_list: ArmyList, force, report) -> dict:
    return {"name": army_list.name, "book": force.handbook.name, "nation": force.handbook.nation_name,
            "points": report.total_points, "points_limit": force.points_limit, "legal": report.legal,
            "figures": report.figures,
            "units": [{"pointer": u.pointer, "name": u.unit.name, "teams": u.teams} for u in force.all_units()]}


def matchup_figures(*, matchup: Matchup, answers: dict | None = None) -> dict:
    answers = matchup.answers if answers is None else answers
    force_a, force_b = army_list_force(matchup.list_a), army_list_force(matchup.list_b)
    report_a, report_b = check(force_a), check(force_b)
    out = {"system": force_a.system, "a": _side(matchup.list_a, force_a, report_a),
           "b": _side(matchup.list_b, force_b, report_b)}
    if force_a.system == "fow4":
        out["fow"] = fow_matchup(force_a, force_b, report_a, report_b)
    elif force_a.system == "waf":
        out["waf"] = waf_activation_dice(force_a, force_b)
    elif force_a.system == "hof" and answers.get("ranking_a") and answers.get("ranking_b"):
        out["parity"] = hof_parity(force_a, force_b, ranking_a=answers["ranking_a"], ranking_b=answers["ranking_b"],
                                   judgements=answers.get("judgements") or [],
                                   spending=answers.get("spending")).as_dict()
    return out
