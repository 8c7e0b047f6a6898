"""Match-up pages: two lists of one system side by side, and Hail of Fire's Force Parity Procedure.

Thin like the builder's views: forms check shape, ``armybuilder.lists.matchups`` computes and stores
(its selectors read a match-up as this viewer may see it, its services keep the answers), ``matchup_page``
arranges. A match-up is private to whoever made it (404 for anyone else, exactly as for one that does not
exist).
"""
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from armybuilder.lists.matchups import (
    MatchupError,
    matchup_create,
    matchup_parity_judge,
    matchup_parity_rank,
    matchup_parity_spend,
    matchup_read,
    matchup_wizard_get,
)
from armybuilder.lists.matchups import matchup_delete as matchup_remove
from armybuilder.lists.matchups.selectors import (
    army_list_from_share_link,
    army_list_is_own,
    matchup_get_for_user,
    matchup_side_labels,
    matchups_visible_to,
)
from armybuilder.lists.selectors import army_lists_visible_to

from . import forms
from .matchup_page import matchup_view
from .views import owner_kwargs

MAX_UNITS = 200
NO_LINK = ("No shared list at that link: check that it was copied whole, or ask the opponent to share the list "
           "again (a list made private is no longer reachable).")


def sentence(text) -> str:
    text = str(text).strip().rstrip(".")
    return (text[:1].upper() + text[1:] + ".") if text else ""


def _visible_lists(request):
    return (army_lists_visible_to(request.user, request.session.session_key)
            .select_related("system", "handbook").order_by("system__name", "name"))


def _own(request, public_id):
    return matchup_get_for_user(user=request.user, public_id=public_id, session_key=request.session.session_key)


# -- the index: my match-ups and a new one -----------------------------------------------------------------------

@require_http_methods(["GET", "POST"])
def matchups(request):
    lists = list(_visible_lists(request))
    form = forms.NewMatchupForm(request.POST or None, lists=lists)
    if request.method == "POST" and form.is_valid():
        list_a = form.cleaned_data["army_list_a"]
        list_b = form.cleaned_data["army_list_b"] or army_list_from_share_link(form.cleaned_data["opponent_link"])
        if list_b is None:
            form.add_error("opponent_link", NO_LINK)
        elif list_b.pk == list_a.pk:
            form.add_error(None, "Choose two different lists.")
        else:
            try:
                matchup = matchup_create(list_a=list_a, list_b=list_b, **owner_kwargs(request))
            except MatchupError as exc:
                form.add_error(None, sentence(exc))
            else:
                return redirect("web:matchup", public_id=matchup.public_id)
    rows = list(matchups_visible_to(request.user, request.session.session_key)
                .select_related("list_a__system", "list_a__handbook", "list_b__handbook"))
    for row in rows:
        row.labels = matchup_side_labels(row, user=request.user, session_key=request.session.session_key)
    return render(request, "web/matchups.html", {"form": form, "matchups": rows, "lists": lists},
                  status=400 if form.errors else 200)


# -- one match-up ------------------------------------------------------------------------------------------------

def _list_url(request, army_list) -> str:
    if army_list_is_own(army_list, user=request.user, session_key=request.session.session_key):
        return reverse("web:builder", args=[army_list.public_id])
    if army_list.visibility == "shared":
        return reverse("web:shared", args=[army_list.share_token])
    return ""


def matchup_context(request, matchup, *, message: str = "", message_kind: str = "error") -> dict:
    reading = matchup_read(matchup=matchup, user=request.user, session_key=request.session.session_key)
    context = {"matchup": matchup, "message": message, "message_kind": message_kind, "view": None,
               "answers_problem": "", "unreadable": reading.unreadable, "labels": reading.labels}
    if reading.unreadable:
        return context
    if reading.answers_problem:
        context["answers_problem"] = (f"The saved parity answers no longer fit these lists "
                                      f"({reading.answers_problem.rstrip('.')}): the lists changed since. "
                                      "Rank the units again.")
    urls = {"a": _list_url(request, matchup.list_a), "b": _list_url(request, matchup.list_b)}
    context["view"] = matchup_view(reading.figures, system_name=matchup.list_a.system.name,
                                   uses_points=matchup.list_a.system.uses_points, urls=urls,
                                   answers=reading.answers, tools=reading.tools)
    return context


def matchup(request, public_id):
    return render(request, "web/matchup.html", matchup_context(request, _own(request, public_id)))


@require_POST
def matchup_delete(request, public_id):
    matchup_remove(matchup=_own(request, public_id))
    return redirect("web:matchups")


# -- Hail of Fire: the Force Parity Procedure ----------------------------------------------------------------------

class AnswerProblem(ValueError):
    pass


def parse_ranking(post, side: str, known: list[str]) -> list[str]:
    """A side's ranking from the posted rows (unit pointer + rank number, in the order drawn).

    Number inputs: rows sort by the typed rank; on a tie the row whose number was changed wins, so
    typing 1 into the third row moves it to the top. Up/down buttons (``move=a:2:up``) swap rows.
    """
    units, ranks = post.getlist(f"{side}_unit"), post.getlist(f"{side}_rank")
    if len(units) > MAX_UNITS or len(units) != len(ranks) or sorted(units) != sorted(known) or \
            len(set(units)) != len(units):
        raise AnswerProblem("The forces changed since this page was drawn; the page now shows them as they are.")
    move = post.get("move", "")
    move_side, _, rest = move.partition(":")
    if move_side == side:
        index_text, _, direction = rest.partition(":")
        if not index_text.isdigit() or direction not in ("up", "down"):
            raise AnswerProblem("That move was not understood.")
        index = int(index_text)
        other = index - 1 if direction == "up" else index + 1
        order = list(units)
        if 0 <= index < len(order) and 0 <= other < len(order):
            order[index], order[other] = order[other], order[index]
        return order
    rows = []
    for index, (pointer, rank) in enumerate(zip(units, ranks, strict=False)):
        rank = (rank or "").strip()
        if not rank.isdigit() or not 1 <= int(rank) <= len(units):
            raise AnswerProblem(f"Ranks of force {side.upper()}'s units are whole numbers from 1 to {len(units)}.")
        rows.append((int(rank), 0 if int(rank) != index + 1 else 1, index, pointer))
    return [row[3] for row in sorted(rows)]


def parse_judgements(post, pairs: int) -> list[dict]:
    out = []
    for rank in range(1, pairs + 1):
        judgement = {}
        for key in ("threat", "heavy_hitter", "size"):
            value = post.get(f"{key}_{rank}", "")
            if value not in ("", "a", "b"):
                raise AnswerProblem(f"Pair {rank}: choose A, B or neither.")
            judgement[key] = value or None
        out.append(judgement)
    return out


@require_POST
def matchup_answers(request, public_id):
    """Save one step of the parity procedure: ``step`` is rank, judge or spend."""
    matchup = _own(request, public_id)
    matchup_wizard_get(matchup=matchup)  # 404 for a system without one
    context = matchup_context(request, matchup)
    if context["view"] is None:
        return render(request, "web/matchup.html", context, status=404)
    view = context["view"]
    step = request.POST.get("step", "")
    anchor = "parity"
    try:
        if step == "rank":
            ranking_a = parse_ranking(request.POST, "a", [u.pointer for u in view.a.units])
            ranking_b = parse_ranking(request.POST, "b", [u.pointer for u in view.b.units])
            matchup_parity_rank(matchup=matchup, ranking_a=ranking_a, ranking_b=ranking_b)
            anchor = "rank" if request.POST.get("move") else "judge"
        elif step == "judge":
            pairs = min(len(view.a.units), len(view.b.units))
            matchup_parity_judge(matchup=matchup, judgements=parse_judgements(request.POST, pairs))
            anchor = "result"
        elif step == "spend":
            form = forms.SpendingForm(request.POST)
            if not form.is_valid():
                raise AnswerProblem("Penalty Points are spent in whole numbers of 0 or more.")
            matchup_parity_spend(matchup=matchup, spending=form.spending())
            anchor = "result"
        else:
            raise AnswerProblem("That request was not understood.")
    except (AnswerProblem, MatchupError) as exc:
        matchup.refresh_from_db()
        return render(request, "web/matchup.html", matchup_context(request, matchup, message=sentence(exc)),
                      status=400)
    return redirect(reverse("web:matchup", args=[matchup.public_id]) + f"#{anchor}")
