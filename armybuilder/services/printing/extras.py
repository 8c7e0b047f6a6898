"""Optional parts of a roster (issue 17): the composition chart, the pick list of models to bring, casualty boxes
and one formation per page. Plain data and one SVG drawing; the roster template and the builder only lay them out.

The chart is drawn here as SVG (no JavaScript library): bars of points by formation and by kind of unit (tanks,
infantry, guns, aircraft, command cards). Systems without points (Hail of Fire, War Ain't Fair) chart teams.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import mark_safe

from armybuilder.rules.force import Force
from armybuilder.rules.generic import card_points, unit_points
from armybuilder.rules.report import Report

from .context import _size

KINDS = [("tanks", "Tanks"), ("infantry", "Infantry"), ("guns", "Guns"), ("aircraft", "Aircraft"),
         ("other", "Other units"), ("cards", "Command cards")]
_KIND_WORDS = [("aircraft", ("aircraft", "plane", "air")), ("tanks", ("tank", "vehicle", "armour", "armor",
                                                                       "armoured", "transport")),
               ("guns", ("gun", "artillery", "mortar", "howitzer", "rocket")),
               ("infantry", ("infantry", "hq", "command", "team", "squad", "section", "platoon", "recce"))]


def unit_kind(unit_type: str) -> str:
    """The chart's kind of a unit, from the data's unit type ("tank", "Infantry Unit", "gun-unit", …)."""
    text = (unit_type or "").lower()
    for kind, words in _KIND_WORDS:
        if any(word in text for word in words):
            return kind
    return "other"


@dataclass
class Bar:
    label: str
    value: float


@dataclass
class Composition:
    measure: str  # "points" | "teams"
    by_formation: list  # Bar
    by_kind: list  # Bar
    total: float

    @property
    def empty(self) -> bool:
        return not self.total


def _teams(unit, report: Report) -> int:
    if unit.selection is not None:
        return report.figures.get("unit_teams", {}).get(unit.pointer, 0)
    return unit.teams


def composition(force: Force, report: Report) -> Composition:
    uses_points = force.handbook.uses_points

    def value(unit) -> float:
        return report.unit_points.get(unit.pointer, unit_points(unit)) if uses_points else _teams(unit, report)

    by_formation, kinds = [], {k: 0.0 for k, _ in KINDS}
    for formation in force.formations:
        # the formation's own points (its diagram's boxes, and any cost of its own) and the support bought in it
        own = report.formation_points.get(formation.pointer) if uses_points else None
        if own is None:
            total = sum(value(u) for u in formation.units)
        else:
            total = own + sum(value(u) for u in formation.units if not u.box.part_of_formation)
        name = getattr(formation, "custom_name", "") or formation.formation.name
        if formation.letter:
            name = f"{formation.letter}: {name}"
        by_formation.append(Bar(name, total))
        for unit in formation.units:
            kinds[unit_kind(unit.unit.unit_type)] += value(unit)
    if force.support:
        by_formation.append(Bar("Support", sum(value(u) for u in force.support)))
        for unit in force.support:
            kinds[unit_kind(unit.unit.unit_type)] += value(unit)
    if uses_points and force.cards:
        cards = report.card_points if report.card_points is not None else sum(card_points(c) for c in force.cards)
        kinds["cards"] += cards
        by_formation.append(Bar("Command cards", cards))
    by_kind = [Bar(label, kinds[k]) for k, label in KINDS if kinds[k]]
    return Composition("points" if uses_points else "teams", by_formation, by_kind,
                       sum(b.value for b in by_formation))


BAR_H, GAP, LABEL_W, WIDTH = 18, 6, 150, 440
COLOURS = {"formation": "#2f6f4f", "kind": "#8a5a12"}


def _fmt(value: float) -> str:
    return f"{value:g}"


def _clip(text: str, limit: int = 22) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def chart_svg(data: Composition, *, title_id: str = "composition-title") -> str:
    """The composition as an SVG element: two groups of horizontal bars, each labelled with its value and share.

    Colours are presentation attributes (the PDF uses them) and classes (the web pages' stylesheet, light and
    dark, overrides them)."""
    rows = [("formation", "By formation", data.by_formation), ("kind", "By kind of unit", data.by_kind)]
    height = sum(24 + len(bars) * (BAR_H + GAP) for _, _, bars in rows) + 8
    biggest = max([b.value for _, _, bars in rows for b in bars] or [1]) or 1
    room = WIDTH - LABEL_W - 100
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="composition-chart" viewBox="0 0 {WIDTH} {height}" '
             f'width="{WIDTH}" height="{height}" role="img" aria-labelledby="{title_id}">',
             f'<title id="{title_id}">Composition: {escape(data.measure)} by formation and by kind of unit, '
             f'{_fmt(data.total)} {escape(data.measure)} in all</title>']
    y = 0
    for key, heading, bars in rows:
        y += 16
        parts.append(f'<text class="chart-heading" x="0" y="{y}" font-size="13" font-weight="bold" '
                     f'fill="#1d2430">{heading}</text>')
        y += 8
        for bar in bars:
            width = max(1, round(room * bar.value / biggest)) if bar.value else 0
            share = f" ({round(100 * bar.value / data.total)}%)" if data.total else ""
            mid = y + BAR_H / 2 + 4
            parts.append(f'<text class="chart-label" x="0" y="{mid}" font-size="12" fill="#1d2430">'
                         f'{escape(_clip(bar.label))}</text>')
            parts.append(f'<rect class="chart-bar chart-bar--{key}" x="{LABEL_W}" y="{y}" width="{width}" '
                         f'height="{BAR_H}" rx="2" fill="{COLOURS[key]}"/>')
            parts.append(f'<text class="chart-value" x="{LABEL_W + width + 6}" y="{mid}" font-size="12" '
                         f'fill="#1d2430">{_fmt(bar.value)} '
                         f'{escape(data.measure if data.measure == "teams" else "pts")}'
                         f'{share}</text>')
            y += BAR_H + GAP
    parts.append("</svg>")
    return "".join(parts)


@dataclass
class PickRow:
    models: str  # what to bring, as the size says it ("3 Panzer III")
    unit: str
    times: int
    teams: int  # teams in all, over every time the unit is taken


def pick_list(force: Force, report: Report) -> list[PickRow]:
    """The models to bring: each unit bought, with its size (how many of what), grouped where alike."""
    rows: dict[tuple, PickRow] = {}
    units = [u for f in force.formations for u in f.units] + list(force.support)
    for unit in units:
        size = _size(unit, report)
        teams = _teams(unit, report)
        key = (unit.unit.name, size)
        row = rows.get(key)
        if row is None:
            rows[key] = PickRow(size, unit.unit.name, 1, teams)
        else:
            row.times += 1
            row.teams += teams
    return list(rows.values())


def roster_extras(*, force: Force, report: Report, context: dict, extras: tuple = ()) -> dict:
    """What the roster template needs for the chosen extras."""
    chosen = set(extras)
    out = {"formation_pages": "formation_pages" in chosen, "casualties": "casualties" in chosen,
           "pick_list": pick_list(force, report) if "pick_list" in chosen else [],
           "chart_svg": ""}
    if "chart" in chosen:
        data = composition(force, report)
        if not data.empty:
            out["chart_svg"] = mark_safe(chart_svg(data, title_id="roster-composition"))
    if out["pick_list"]:
        out["pick_teams"] = sum(r.teams for r in out["pick_list"])
    return out
