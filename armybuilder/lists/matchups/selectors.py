"""Reads of match-ups: which a visitor may open, what they may see of its two lists, and the figures of
its system's tools (armybuilder.lists.matchups.tools), computed from both lists as they are now."""
import re
from dataclasses import dataclass, field

from django.http import Http404

from armybuilder.rules import check
from armybuilder.rules.matchups import MatchupError

from ..models import ArmyList, Matchup
from ..selectors import army_list_force
from .tools import matchup_tool_for, matchup_tool_run, matchup_tools_for, matchup_wizard_for

_SHARE_LINK = re.compile(r"(?:^|/s/)([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})"
                         r"(?:/(?:export\.json|roster\.pdf)?)?/?(?:[?#].*)?$")
PRIVATE_LIST = "A private list"
SIDES = (("a", "A"), ("b", "B"))


# -- who sees what -----------------------------------------------------------------------------------------------

def matchups_visible_to(user, session_key: str | None = None):
    """Match-ups a visitor may open: their own (account or, logged out, this session's). Like lists."""
    if user is not None and user.is_authenticated:
        return Matchup.objects.filter(owner=user)
    if session_key:
        return Matchup.objects.filter(owner__isnull=True, session_key=session_key)
    return Matchup.objects.none()


def matchup_get_for_user(*, user, public_id, session_key: str | None = None) -> Matchup:
    """The match-up, or 404 whether it is missing or someone else's (the two look the same)."""
    matchup = (matchups_visible_to(user, session_key)
               .select_related("list_a__system", "list_a__handbook", "list_a__owner",
                               "list_b__system", "list_b__handbook", "list_b__owner")
               .filter(public_id=public_id).first())
    if matchup is None:
        raise Http404("No such match-up.")
    return matchup


def share_token_from_link(text: str) -> str | None:
    """The share token in a pasted share link (https://…/s/<token>/) or a bare token; None if there is none."""
    text = (text or "").strip()
    if len(text) > 500:
        return None
    match = _SHARE_LINK.search(text)
    return match[1].lower() if match else None


def army_list_from_share_link(text: str) -> ArmyList | None:
    """The shared list a pasted link points at, or None (no token, no such list, or no longer shared)."""
    token = share_token_from_link(text)
    if token is None:
        return None
    return (ArmyList.objects.select_related("system", "handbook", "owner")
            .filter(share_token=token, visibility="shared").first())


def army_list_is_own(army_list: ArmyList, *, user, session_key: str | None) -> bool:
    if user is not None and user.is_authenticated:
        return army_list.owner_id == user.pk
    return bool(session_key) and army_list.owner_id is None and army_list.session_key == session_key


def army_list_readable_in_matchup(army_list: ArmyList, *, user, session_key: str | None) -> bool:
    """A match-up shows a list only while its viewer may still read it: their own, or still shared."""
    return army_list.visibility == "shared" or army_list_is_own(army_list, user=user, session_key=session_key)


def matchup_side_labels(matchup: Matchup, *, user, session_key: str | None) -> dict:
    """What a match-up may say about its two lists to this viewer: names and books only of readable lists.

    A list its owner made private shows nothing to anyone else, not even its name (renames included).
    """
    labels = {}
    for key, army_list in (("a", matchup.list_a), ("b", matchup.list_b)):
        readable = army_list_readable_in_matchup(army_list, user=user, session_key=session_key)
        labels[f"name_{key}"] = army_list.name if readable else PRIVATE_LIST
        labels[f"book_{key}"] = army_list.handbook.name if readable else "a book not shown"
        labels[f"readable_{key}"] = readable
    return labels


def matchup_unreadable_sides(matchup: Matchup, *, user, session_key: str | None) -> list[str]:
    """The letters ("A", "B") of the sides whose list this viewer may no longer read."""
    return [letter for key, letter in SIDES
            if not army_list_readable_in_matchup(getattr(matchup, f"list_{key}"), user=user,
                                                 session_key=session_key)]


# -- the figures -------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MatchupForces:
    a: object  # Force
    b: object
    report_a: object  # Report
    report_b: object


def matchup_forces(*, matchup: Matchup) -> MatchupForces:
    """Both lists resolved and checked once, for every tool and answer that follows."""
    a, b = army_list_force(matchup.list_a), army_list_force(matchup.list_b)
    return MatchupForces(a, b, check(a), check(b))


def _side(army_list: ArmyList, force, report) -> dict:
    return {"name": army_list.name, "book": force.handbook.name, "nation": force.handbook.nation_name,
            "points": report.total_points, "points_limit": force.points_limit, "legal": report.legal,
            "figures": report.figures,
            "units": [{"pointer": u.pointer, "name": u.unit.name, "teams": u.teams} for u in force.all_units()]}


def matchup_figures(*, matchup: Matchup, answers: dict | None = None, slugs=None,
                    forces: MatchupForces | None = None) -> dict:
    """Both sides and the figures of the system's tools (``slugs``: only those; None: all), keyed by slug.

    Raises MatchupError when the answers (the recorded ones unless given) no longer fit the forces.
    """
    answers = (matchup.answers or {}) if answers is None else answers
    forces = forces or matchup_forces(matchup=matchup)
    out = {"system": forces.a.system, "a": _side(matchup.list_a, forces.a, forces.report_a),
           "b": _side(matchup.list_b, forces.b, forces.report_b)}
    for tool in matchup_tools_for(forces.a.system):
        if slugs is None or tool.slug in slugs:
            out[tool.slug] = matchup_tool_run(tool, a=forces.a, b=forces.b, report_a=forces.report_a,
                                              report_b=forces.report_b, answers=answers)
    return out


@dataclass
class MatchupReading:
    """A match-up as one viewer may see it now."""

    matchup: Matchup
    labels: dict
    unreadable: list  # side letters whose list the viewer may no longer read: then nothing else is computed
    figures: dict | None = None
    answers: dict = field(default_factory=dict)  # the answers the figures count
    answers_problem: str = ""  # why the recorded answers were set aside (the lists changed since)
    tools: tuple = ()  # MatchupTool of the match-up's system


def matchup_read(*, matchup: Matchup, user, session_key: str | None = None, slugs=None) -> MatchupReading:
    """What the viewer may see: the labels, and, while both lists are readable, the figures of the tools
    (``slugs``: only those). Recorded answers that no longer fit the lists are set aside, with the reason."""
    reading = MatchupReading(matchup, matchup_side_labels(matchup, user=user, session_key=session_key),
                             matchup_unreadable_sides(matchup, user=user, session_key=session_key),
                             tools=matchup_tools_for(matchup.list_a.system.code))
    if reading.unreadable:
        return reading
    forces = matchup_forces(matchup=matchup)
    reading.answers = matchup.answers or {}
    try:
        reading.figures = matchup_figures(matchup=matchup, slugs=slugs, forces=forces)
    except MatchupError as exc:  # a list changed since the answers were given
        reading.figures = matchup_figures(matchup=matchup, answers={}, slugs=slugs, forces=forces)
        reading.answers, reading.answers_problem = {}, str(exc)
    return reading


def matchup_tool_get(*, matchup: Matchup, slug: str):
    """The match-up's tool called ``slug``, or 404 saying which tools its system has."""
    system = matchup.list_a.system
    tool = matchup_tool_for(system.code, slug)
    if tool is None:
        offered = ", ".join(t.slug for t in matchup_tools_for(system.code)) or "none"
        raise Http404(f"A {system.name} match-up has no '{slug}' tool; its tools: {offered}.")
    return tool


def matchup_wizard_get(*, matchup: Matchup):
    """The match-up's step-by-step tool (Hail of Fire's parity procedure), or 404."""
    system = matchup.list_a.system
    tool = matchup_wizard_for(system.code)
    if tool is None:
        raise Http404(f"A {system.name} match-up has no step-by-step procedure; only Hail of Fire's Force "
                      "Parity Procedure takes answers.")
    return tool


def matchup_wizard_state(*, figures: dict, answers: dict, tool, answers_problem: str = "") -> dict:
    """Where the step-by-step procedure stands: each side's units (list order), the answers recorded, the
    result so far, and the step that comes next (ranking, judgements, spending, then done)."""
    result = figures.get(tool.slug)
    ranked = result is not None
    judged = ranked and bool(answers.get("judged"))
    if not ranked:
        next_step = "ranking"
    elif not judged:
        next_step = "judgements"
    elif result.get("penalty_points") and result.get("spending") is None:
        next_step = "spending"
    else:
        next_step = "done"
    return {"units": {key: figures[key]["units"] for key, _letter in SIDES},
            "ranked": ranked, "judged": judged, "next_step": next_step,
            "ranking_a": answers.get("ranking_a") if ranked else None,
            "ranking_b": answers.get("ranking_b") if ranked else None,
            "result": result, "answers_problem": answers_problem}
