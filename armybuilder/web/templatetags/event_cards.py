"""The organiser dashboard's player cards, written in Python.

An event has up to a few hundred players; a card through the template engine costs about a millisecond (a
hundred nodes), which for 128 players is most of the page's time budget (bench/bench_event_dashboard.py).
The cards are built here from f-strings with every value passed through ``html.escape`` (quotes included),
and URLs made from one ``reverse`` per kind; the page template places them with ``{% player_cards %}``.
"""
import uuid
from html import escape as e

from django import template
from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe

register = template.Library()

STATUS_LABELS = {"none": "Nothing submitted", "submitted": "Submitted", "approved": "Approved",
                 "rejected": "Rejected", "locked": "Locked"}
_ZERO = uuid.UUID(int=0)


def status_badge(status: str) -> str:
    return f'<span class="status status--{e(status)}">{e(STATUS_LABELS.get(status, status))}</span>'


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _issue(issue: dict) -> str:
    severity = "error" if issue.get("severity") == "error" else "warning"
    where = issue.get("where") or issue.get("pointer", "")
    out = (f'<li class="issue issue--{severity}" data-code="{e(str(issue.get("code", "")))}">'
           f'<p class="issue-where"><span class="sev">{"Error" if severity == "error" else "Warning"}</span> '
           f'{e(str(where))}</p><p class="issue-message">{e(str(issue.get("message", "")))}</p>')
    if issue.get("fix"):
        out += f'<p class="issue-fix"><strong>Fix:</strong> {e(str(issue["fix"]))}</p>'
    rule = issue.get("rule")
    if rule:
        where = f" — {rule['where']}" if rule.get("where") else ""
        out += f'<p class="issue-rule">Rule: {e(str(rule.get("name", "")) + where)}</p>'
    return out + "</li>"


def issues_html(issues: list) -> str:
    return f'<ol class="issue-list">{"".join(_issue(i) for i in issues)}</ol>' if issues else ""


def _unit_line(kind: str, unit: dict) -> str:
    sign, word = ("+", "In") if kind == "in" else ("−", "Out")
    return (f'<li class="diff-{kind}"><span aria-hidden="true">{sign}</span><span class="visually-hidden">{word}:'
            f'</span> {e(str(unit["name"]))} <span class="meta">{e(str(unit["formation"]))}, '
            f'{int(unit["points"])} pts</span></li>')


def diff_html(submission) -> str:
    diff = submission.changes or {}
    if not diff or diff.get("first", True):
        return ""
    delta = int(diff.get("points_delta") or 0)
    title = (f'<p class="diff-title">Since #{submission.number - 1}: {int(diff.get("points_before") or 0)} → '
             f'{int(diff.get("points_after") or 0)} pts ({"+" if delta > 0 else ""}{delta})</p>')
    lines = [_unit_line("out", u) for u in diff.get("out", [])] + [_unit_line("in", u) for u in diff.get("in", [])]
    body = f'<ul class="diff-list">{"".join(lines)}</ul>' if lines else '<p class="meta">No unit changed.</p>'
    return f'<div class="diff">{title}{body}</div>'


class _Urls:
    """Each URL pattern reversed once; the ids put in by replacing the placeholder."""

    def __init__(self, event):
        self.event = str(event.public_id)
        self.submission = reverse("events:submission", args=[_ZERO])
        self.review = reverse("events:review", args=[event.public_id, _ZERO])
        self.reopen = reverse("events:reopen", args=[event.public_id, 999999999])

    def of_submission(self, s) -> str:
        return self.submission.replace(str(_ZERO), str(s.public_id))

    def review_of(self, s) -> str:
        return self.review.replace(str(_ZERO), str(s.public_id))

    def reopen_of(self, registration) -> str:
        return self.reopen.replace("999999999", str(int(registration.pk)))


def _card(row, event, csrf: str, urls: _Urls, closed: bool) -> str:
    registration, s = row.registration, row.current
    player = e(registration.player.get_username())
    out = [f'<div class="player-card-head"><h2 class="player-name">{player}</h2>'
           f'{status_badge(registration.status)}</div>']
    if s is not None:
        late = " · late" if s.reopened else ""
        out.append(f'<p class="player-list"><a href="{urls.of_submission(s)}">{e(s.name or "(no name)")}</a> '
                   f'<span class="meta">#{int(s.number)} · {s.submitted_at:%d %b %H:%M}{late}</span></p>')
        badges = [f'<span class="pts">{int(s.points)} pts</span>',
                  f'<span class="badge badge--bad">{_plural(len(s.errors), "error")}</span>' if s.errors
                  else '<span class="badge badge--ok">legal</span>']
        if s.warnings:
            badges.append(f'<span class="badge">{_plural(len(s.warnings), "warning")}</span>')
        if s.verdict_changed:
            badges.append('<span class="badge badge--bad">verdict changed</span>')
        badges.append(f'<code class="mono code-small">{e(s.code)}</code>')
        out.append(f'<p class="player-figures">{" ".join(badges)}</p>')
        if s.errors or s.warnings:
            out.append(f'<details class="player-issues"{" open" if s.errors else ""}><summary>Problems</summary>'
                       f'{issues_html(s.errors)}{issues_html(s.warnings)}</details>')
        out.append(diff_html(s))
        if s.comment:
            out.append(f'<p class="meta">Your comment: <q class="comment">{e(s.comment)}</q></p>')
        if registration.status != "locked":
            pk = int(registration.pk)
            out.append(
                f'<form method="post" action="{urls.review_of(s)}" class="review-form">'
                f'<input type="hidden" name="csrfmiddlewaretoken" value="{csrf}">'
                f'<label for="comment-{pk}">Comment to {player}</label>'
                f'<textarea name="comment" id="comment-{pk}" rows="2" maxlength="2000"></textarea>'
                '<div class="button-row">'
                '<button type="submit" name="decision" value="approve" class="button button--primary button--small">'
                'Approve</button>'
                '<button type="submit" name="decision" value="reject" class="button button--danger button--small">'
                'Reject</button></div></form>')
    else:
        out.append('<p class="empty">No list submitted yet.</p>')
    if registration.reopened:
        out.append('<p class="meta">Reopened: may submit once after the deadline.</p>')
    elif event.late_changes and (closed or registration.status == "locked"):
        label = "Unlock for a late change" if registration.status == "locked" else "Reopen for a late submission"
        out.append(f'<form method="post" action="{urls.reopen_of(registration)}" class="inline-form">'
                   f'<input type="hidden" name="csrfmiddlewaretoken" value="{csrf}">'
                   f'<button type="submit" class="link-button">{label}</button></form>')
    return (f'<li class="player-card player-card--{e(registration.status)}" id="player-{int(registration.pk)}">'
            f'{"".join(out)}</li>')


@register.simple_tag(takes_context=True)
def player_cards(context, rows, event):
    csrf = e(get_token(context["request"]))
    urls = _Urls(event)
    closed = timezone.now() > event.deadline
    return mark_safe(f'<ol class="player-cards">{"".join(_card(row, event, csrf, urls, closed) for row in rows)}</ol>')
