"""The roster as text for forums and chat: plain text, Markdown or BBCode.

Built from the same plain data as the printed roster (``context``), so nothing the roster shows is
dropped: every formation, unit, size, option (with its quantity), command card, set-up letter and
points figure, plus the formation-level and force-level choices of books imported from BattleScribe
(which the printed table folds away). A custom name or a note on a formation or unit row is shown when
the force carries one (``custom_name`` / ``notes``; read with getattr so lists without them still work).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from armybuilder.lists.selectors import army_list_force
from armybuilder.rules import check
from armybuilder.rules.battlescribe.names import display_name
from armybuilder.rules.force import Force
from armybuilder.rules.generic import card_points
from armybuilder.rules.report import Report
from armybuilder.systems import system_for

from .context import _formation, _roster_unit, _target_name

FLAVOURS = {"text": "Plain text", "markdown": "Markdown", "bbcode": "BBCode"}
EXTENSIONS = {"text": "txt", "markdown": "md", "bbcode": "txt"}


@dataclass
class Line:
    """One entry of the outline: a unit, a card or a choice, with what was bought under it."""

    title: str
    detail: str = ""
    points: int | None = None
    options: list = field(default_factory=list)  # str
    note: str = ""


@dataclass
class Section:
    title: str
    points: int | None = None
    subtitle: str = ""
    lines: list = field(default_factory=list)  # Line
    note: str = ""


@dataclass
class Outline:
    title: str
    facts: list  # (label, value)
    status: str
    sections: list  # Section
    total: str


def _extra(obj, name: str) -> str:
    value = getattr(obj, name, "") or ""
    return str(value).strip()


def _choice_lines(sel, evaluation, trail: str = "") -> list[str]:
    """Everything chosen under a BattleScribe selection, as "Name" / "2× Name", nested with "›"."""
    out = []
    for child in sel.children:
        if child.role in ("unit", "card", "formation"):
            continue
        name = display_name(evaluation.name(child))
        out.append(f"{child.number}× {trail}{name}" if child.number > 1 else f"{trail}{name}")
        out.extend(_choice_lines(child, evaluation, f"{trail}{name} › "))
    return out


def _pts(value, uses_points: bool) -> str:
    return f"{value:g} pts" if uses_points and value is not None else ""


def _unit_line(unit, row, uses_points: bool) -> Line:
    name = _extra(unit, "custom_name")
    title = f"{name} ({row.name})" if name else row.name
    if row.letter:
        title = f"{row.letter}: {title}"
    detail = row.size or ""
    if row.teams:
        detail += f" ({row.teams} team{'s' if row.teams != 1 else ''})"
    if row.card_code:
        detail = f"{row.card_code} · {detail}" if detail else row.card_code
    if row.box:
        detail = f"{row.box} · {detail}" if detail else row.box
    if row.support:
        detail += " · support"
    return Line(title=title, detail=detail, points=row.points if uses_points else None,
                options=[str(u) for u in row.upgrades], note=_extra(unit, "notes"))


def force_outline(*, force: Force, report: Report, player: str = "", event: str = "") -> Outline:
    book = force.handbook
    uses_points = book.uses_points
    context = report.context
    bs_roster = getattr(context, "roster", None)
    evaluation = getattr(context, "evaluation", None)
    facts = [("System", system_for(force.system).name),
             ("Book", f"{book.name} (revision {book.revision}{', ' + book.points_set if book.points_set else ''})")]
    if force.variant:
        facts.append(("Variant", book.variants.get(force.variant, force.variant)))
    if force.year:
        facts.append(("Year", str(force.year)))
    if player:
        facts.append(("Player", player))
    if event:
        facts.append(("Event", event))
    if uses_points:
        limit = f" / {force.points_limit}" if force.points_limit is not None else ""
        facts.append(("Points", f"{report.total_points:g}{limit}"))
    if report.legal:
        status = "Legal" + (f" ({len(report.warnings)} warning{'s' if len(report.warnings) != 1 else ''})"
                            if report.warnings else "")
    else:
        status = f"NOT LEGAL: {len(report.errors)} error{'s' if len(report.errors) != 1 else ''}"

    sections = []
    for formation in force.formations:
        row = _formation(formation, force, report, uses_points)
        title = row.name + (f" [{row.card_code}]" if row.card_code else "")
        name = _extra(formation, "custom_name")
        if name:
            title = f"{name} ({title})"
        if formation.letter:
            title = f"{formation.letter}: {title}"
        if row.allied:
            title = f"Allied: {title}"
        subtitle = f"from {row.book}" if row.book else ""
        if row.support_points:
            subtitle = ", ".join(filter(None, [subtitle, f"+ {row.support_points:g} pts of support"]))
        section = Section(title=title, points=row.points, subtitle=subtitle, note=_extra(formation, "notes"))
        sel = bs_roster.formations.get(formation.pointer) if bs_roster is not None else None
        if sel is not None and evaluation is not None:
            chosen = _choice_lines(sel, evaluation)
            if chosen:
                section.lines.append(Line(title="Formation choices", options=chosen))
        for unit, unit_row in zip(formation.units, row.units, strict=False):
            section.lines.append(_unit_line(unit, unit_row, uses_points))
        sections.append(section)
    if force.support:
        support = Section(title="Support",
                          points=sum(report.unit_points.get(u.pointer, 0) for u in force.support) if uses_points
                          else None)
        for unit in force.support:
            unit_row = _roster_unit(unit, report, uses_points)
            support.lines.append(_unit_line(unit, unit_row, uses_points))
        sections.append(support)
    if force.cards:
        cards = Section(title="Command cards", points=report.card_points if uses_points else None)
        for card in force.cards:
            target = _target_name(card)
            line = Line(title=card.card.name, detail=f"on {target}" if target else "",
                        points=card_points(card) if uses_points else None)
            sel = bs_roster.cards.get(card.pointer) if bs_roster is not None else None
            if sel is not None and evaluation is not None:
                line.options = _choice_lines(sel, evaluation)
            cards.lines.append(line)
        sections.append(cards)
    if bs_roster is not None and evaluation is not None:
        roots = [s for scope in bs_roster.roster.forces for s in scope.children if s.role == "force-option"]
        if roots:
            choices = Section(title="Force choices")
            for sel in roots:
                choices.lines.append(Line(title=display_name(evaluation.name(sel)) + (
                    f" ×{sel.number}" if sel.number > 1 else ""), options=_choice_lines(sel, evaluation)))
            sections.append(choices)
    total = ""
    if uses_points:
        total = f"Total: {report.total_points:g}" + (f" of {force.points_limit}" if force.points_limit is not None
                                                     else "") + " points"
    return Outline(title=force.name, facts=facts, status=status, sections=sections, total=total)


# ---------------------------------------------------------------- writers

def _plain(outline: Outline) -> str:
    out = [outline.title, "=" * max(len(outline.title), 3)]
    out += [f"{label}: {value}" for label, value in outline.facts]
    out.append(f"Status: {outline.status}")
    for section in outline.sections:
        head = section.title + (f" — {_pts(section.points, True)}" if section.points is not None else "")
        out += ["", head, "-" * len(head)]
        if section.subtitle:
            out.append(f"({section.subtitle})")
        if section.note:
            out.append(f"Note: {section.note}")
        for line in section.lines:
            text = "* " + line.title + (f" — {line.detail}" if line.detail else "")
            if line.points is not None:
                text += f" — {_pts(line.points, True)}"
            out.append(text)
            out += [f"    + {option}" for option in line.options]
            if line.note:
                out.append(f"    Note: {line.note}")
    if outline.total:
        out += ["", outline.total]
    return "\n".join(out) + "\n"


def _md_escape(text: str) -> str:
    for char in "\\*_`[]#|<>":
        text = text.replace(char, "\\" + char)
    return text


def _markdown(outline: Outline) -> str:
    e = _md_escape
    out = [f"# {e(outline.title)}", ""]
    out += [f"- **{label}:** {e(value)}" for label, value in outline.facts]
    out.append(f"- **Status:** {e(outline.status)}")
    for section in outline.sections:
        head = e(section.title) + (f" — {_pts(section.points, True)}" if section.points is not None else "")
        out += ["", f"## {head}", ""]
        if section.subtitle:
            out += [f"*{e(section.subtitle)}*", ""]
        if section.note:
            out += [f"> {e(section.note)}", ""]
        for line in section.lines:
            text = f"- **{e(line.title)}**" + (f" — {e(line.detail)}" if line.detail else "")
            if line.points is not None:
                text += f" — {_pts(line.points, True)}"
            out.append(text)
            out += [f"  - {e(option)}" for option in line.options]
            if line.note:
                out.append(f"  - *Note:* {e(line.note)}")
    if outline.total:
        out += ["", f"**{e(outline.total)}**"]
    return "\n".join(out) + "\n"


def _bb_escape(text: str) -> str:
    # BBCode has no escape; a bracket in a name must not open a tag, so it becomes a look-alike.
    return text.replace("[", "(").replace("]", ")")


def _bbcode(outline: Outline) -> str:
    e = _bb_escape
    out = [f"[size=150][b]{e(outline.title)}[/b][/size]"]
    out += [f"[b]{label}:[/b] {e(value)}" for label, value in outline.facts]
    out.append(f"[b]Status:[/b] {e(outline.status)}")
    for section in outline.sections:
        head = f"[b]{e(section.title)}[/b]" + (f" — {_pts(section.points, True)}" if section.points is not None
                                               else "")
        out += ["", head]
        if section.subtitle:
            out.append(f"[i]{e(section.subtitle)}[/i]")
        if section.note:
            out.append(f"[quote]{e(section.note)}[/quote]")
        out.append("[list]")
        for line in section.lines:
            text = f"[*][b]{e(line.title)}[/b]" + (f" — {e(line.detail)}" if line.detail else "")
            if line.points is not None:
                text += f" — {_pts(line.points, True)}"
            out.append(text)
            if line.options or line.note:
                out.append("[list]")
                out += [f"[*]{e(option)}" for option in line.options]
                if line.note:
                    out.append(f"[*][i]Note:[/i] {e(line.note)}")
                out.append("[/list]")
        out.append("[/list]")
    if outline.total:
        out += ["", f"[b]{e(outline.total)}[/b]"]
    return "\n".join(out) + "\n"


WRITERS = {"text": _plain, "markdown": _markdown, "bbcode": _bbcode}


def force_text(*, force: Force, report: Report, flavour: str = "text", player: str = "", event: str = "") -> str:
    """The force in one of FLAVOURS; ValueError for any other flavour."""
    writer = WRITERS.get(flavour)
    if writer is None:
        raise ValueError(f"unknown text format {flavour!r}: use one of {', '.join(FLAVOURS)}")
    return writer(force_outline(force=force, report=report, player=player, event=event))


def army_list_text(*, army_list, flavour: str = "text", player: str = "", event: str = "") -> str:
    """A saved list in one of FLAVOURS (the use case the web page, the API and the export command call)."""
    if flavour not in WRITERS:
        raise ValueError(f"unknown text format {flavour!r}: use one of {', '.join(FLAVOURS)}")
    force = army_list_force(army_list)
    return force_text(force=force, report=check(force), flavour=flavour, player=player, event=event)


def text_filename(name: str, flavour: str) -> str:
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in name).strip("-")[:60] or "army-list"
    return f"{safe}.{EXTENSIONS.get(flavour, 'txt')}"
