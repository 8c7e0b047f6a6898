"""What a match-up page shows, arranged from ``matchup_figures``' output. Pure presentation.

The engine computes every number (reserves, activation dice, order-card hands, parity totals, size
suggestions) through the system's match-up tools (armybuilder.lists.matchups.tools); this module pairs
them with names, puts the two sides next to each other and words the verdicts. Each tool the page draws
has a presenter here, by the tool's slug; a tool without one is offered by the API only.
"""
from dataclasses import dataclass, field

SIDE_LETTERS = {"a": "A", "b": "B"}
JUDGEMENTS = (("threat", "More threatening", "1 point"), ("heavy_hitter", "Heavy hitters", "+1"),
              ("size", "Size advantage", "+1"))
SPENDING = (("break_points", "Starting Break Points", "for {strong}: it starts the game with them"),
            ("hero_points", "Hero Points", "given to {weak}"),
            ("reductions", "Reductions", "{strong} leaves part of its force at home"))


@dataclass
class SideView:
    key: str
    letter: str
    name: str
    book: str
    nation: str
    points: int
    points_limit: int | None
    legal: bool
    url: str
    units: list
    figures: dict

    @property
    def title(self) -> str:
        return f"Force {self.letter}: {self.name}"


@dataclass
class CompareRow:
    label: str
    a: str
    b: str
    detail: str = ""
    difference: str = ""  # force A less force B, where the figures are numbers


@dataclass
class RankRow:
    pointer: str
    name: str
    teams: int
    rank: int


@dataclass
class JudgementView:
    key: str
    label: str
    worth: str
    value: str  # "a" | "b" | ""
    suggested: str = ""  # "a" | "b" | "" (size only)


@dataclass
class PairView:
    rank: int
    unit_a: RankRow
    unit_b: RankRow
    judgements: list
    points_a: int
    points_b: int
    size_hint: str


@dataclass
class SpendField:
    key: str
    label: str
    help: str
    value: int


@dataclass
class ParityView:
    ranking_a: list  # RankRow, force A's units as B's player ranked them
    ranking_b: list
    saved: bool  # rankings saved: the pairs exist
    pairs: list = field(default_factory=list)
    unpaired: list = field(default_factory=list)  # (side letter, RankRow)
    total_a: int = 0
    total_b: int = 0
    stronger: str = ""  # "A" | "B" | ""
    weaker: str = ""
    penalty_points: int = 0
    spending: list = field(default_factory=list)  # SpendField
    spent: bool = False

    @property
    def verdict(self) -> str:
        if not self.saved:
            return ""
        if not self.stronger:
            return "The totals are equal: no Penalty Points. Roll off for attack and defence as usual."
        return (f"Force {self.stronger} scores more and takes {self.penalty_points} Penalty Point"
                f"{'' if self.penalty_points == 1 else 's'}; force {self.weaker}, the weaker force, chooses to attack "
                "or defend.")


@dataclass
class MatchupView:
    system: str
    system_name: str
    a: SideView
    b: SideView
    uses_points: bool
    compare: list = field(default_factory=list)  # CompareRow
    compare_title: str = "Side by side"
    verdict: str = ""
    activation_dice: dict | None = None  # War Ain't Fair: each side's dice with the working
    parity: ParityView | None = None
    fow_forces: dict | None = None  # Flames of War: each side's formations and units, with points

    @property
    def has_difference(self) -> bool:
        return any(row.difference for row in self.compare)

    @property
    def sides(self):
        return [self.a, self.b]


def _side(key: str, data: dict, url: str) -> SideView:
    return SideView(key, SIDE_LETTERS[key], data["name"], data.get("book", ""), data.get("nation", ""),
                    data.get("points", 0), data.get("points_limit"), bool(data.get("legal")), url,
                    [RankRow(u["pointer"], u["name"], u.get("teams", 0), i + 1) for i, u in enumerate(data["units"])],
                    data.get("figures") or {})


def _plural(n, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _signed(n, unit: str = "") -> str:
    if not n:
        return "="
    text = f"{n:+g}".replace("-", "−")
    return f"{text} {unit}".strip()


FOW_ROWS = (("points", "Points", "pts", ""), ("formations", "Formations", "", ""),
            ("units_bought", "Units bought", "", "each unit card bought"),
            ("game_units", "Game units", "", "units on the table: some purchases field more than one"),
            ("teams", "Teams", "", ""),
            ("support_points", "Support", "pts", "units from the force's support boxes"),
            ("card_points", "Command cards", "pts", ""))


def _fow(view: MatchupView, fow: dict, answers: dict) -> None:
    sides, diff = fow["sides"], fow.get("difference", {})
    for key, label, unit, detail in FOW_ROWS:
        a, b = sides["a"].get(key) or 0, sides["b"].get(key) or 0
        if key == "points":
            a = f"{a:g} / {sides['a']['points_limit']}" if sides["a"].get("points_limit") else f"{a:g}"
            b = f"{b:g} / {sides['b']['points_limit']}" if sides["b"].get("points_limit") else f"{b:g}"
        view.compare.append(CompareRow(label, str(a), str(b), detail, _signed(diff.get(key, 0), unit)))
    view.compare.append(CompareRow("Most points on table in Reserves missions",
                                   _plural(sides["a"].get("reserves_on_table_max") or 0, "pt"),
                                   _plural(sides["b"].get("reserves_on_table_max") or 0, "pt"),
                                   "60% of the agreed points; the rest waits in Reserve",
                                   _signed(diff.get("reserves_on_table_max", 0), "pts")))
    view.fow_forces = {"a": sides["a"].get("forces", []), "b": sides["b"].get("forces", [])}
    more = fow.get("more_on_table_in_reserves")
    if more:
        other = "b" if more == "a" else "a"
        view.verdict = (f"In missions with Reserves, force {SIDE_LETTERS[more]} may have more on the table: "
                        f"{sides[more].get('reserves_on_table_max') or 0} points against "
                        f"{sides[other].get('reserves_on_table_max') or 0}.")
    else:
        view.verdict = "In missions with Reserves, both forces may have the same points on the table."


def _activation_dice(view: MatchupView, waf: dict, answers: dict) -> None:
    view.activation_dice = waf  # drawn per side with the working; the unit counts are on the side cards
    fewer = waf.get("fewer_dice")
    if fewer:
        view.verdict = (f"Force {SIDE_LETTERS[fewer]} has fewer activation dice, so its player rolls on the "
                        "Tactical Advantages table before the game.")
    else:
        view.verdict = "Both forces have the same number of activation dice: nobody rolls for Tactical Advantages."


def _order_cards(view: MatchupView, hand: dict, answers: dict) -> None:
    sa, sb = hand["sides"]["a"], hand["sides"]["b"]
    view.compare_title = "Order cards"

    def row(label, key, fmt=str, detail=""):
        view.compare.append(CompareRow(label, fmt(sa.get(key, 0)), fmt(sb.get(key, 0)), detail))

    def cards(n):
        return _plural(n, "card")

    view.compare.append(CompareRow("Nation", sa.get("nation") or "—", sb.get("nation") or "—"))
    row("Base hand", "base", cards, "by nation")
    view.compare.append(CompareRow("Units", _units_text(sa), _units_text(sb)))
    row("First hand", "first_hand", cards, "base + 1 per unit")
    if sa.get("off_table_units") or sb.get("off_table_units"):
        row("First hand with off-table units held back", "first_hand_off_table", cards,
            "their cards come once the Observation Post calls them")
    row("WAIT actions", "wait_actions")
    more = hand.get("more_cards")
    if more is None:
        view.verdict = f"Both players draw {sa.get('first_hand', 0)} order cards in the first turn."
    else:
        difference = hand.get("difference", 0)
        view.verdict = (f"Force {SIDE_LETTERS[more]} draws {difference} more order card"
                        f"{'' if difference == 1 else 's'} in the first turn.")


def _units_text(side: dict) -> str:
    units, limit = side.get("units", 0), side.get("unit_limit")
    return f"{units} / {limit}" if limit else str(units)


def _hof_compare(view: MatchupView) -> None:
    fa, fb = view.a.figures, view.b.figures
    view.compare.append(CompareRow("Units", str(fa.get("units", 0)), str(fb.get("units", 0))))
    view.compare.append(CompareRow("Break limit", str(fa.get("break_limit", 0)), str(fb.get("break_limit", 0)),
                                   "5 + 2 per unit"))
    view.compare.append(CompareRow("Order dice", str(fa.get("order_dice", 0)), str(fb.get("order_dice", 0))))
    view.compare.append(CompareRow("Objectives if defending", str(fa.get("objectives_if_defending", 0)),
                                   str(fb.get("objectives_if_defending", 0))))


def _ordered(units: list, ranking: list | None) -> list:
    if not ranking:
        return [RankRow(u.pointer, u.name, u.teams, i + 1) for i, u in enumerate(units)]
    by_pointer = {u.pointer: u for u in units}
    return [RankRow(p, by_pointer[p].name, by_pointer[p].teams, i + 1) for i, p in enumerate(ranking)
            if p in by_pointer]


def _size_hint(unit_a: RankRow, unit_b: RankRow) -> str:
    if unit_a.teams == unit_b.teams:
        return f"Both have {_plural(unit_a.teams, 'team')}: no size suggestion"
    more = "A" if unit_a.teams > unit_b.teams else "B"
    return (f"Suggested: {more} ({_plural(unit_a.teams, 'team')} against {unit_b.teams}; "
            "based on team counts)")


def _parity(view: MatchupView, answers: dict, parity: dict | None) -> ParityView:
    saved = parity is not None
    ranking_a = _ordered(view.a.units, answers.get("ranking_a") if saved else None)
    ranking_b = _ordered(view.b.units, answers.get("ranking_b") if saved else None)
    out = ParityView(ranking_a, ranking_b, saved)
    if not saved:
        return out
    by_a = {r.pointer: r for r in ranking_a}
    by_b = {r.pointer: r for r in ranking_b}
    for pair, suggestion in zip(parity["pairs"], parity.get("suggestions") or [{}] * len(parity["pairs"]),
                                strict=False):
        unit_a, unit_b = by_a[pair["unit_a"]], by_b[pair["unit_b"]]
        judgements = [JudgementView(key, label, worth, pair.get(key) or "",
                                    (suggestion or {}).get("size") or "" if key == "size" else "")
                      for key, label, worth in JUDGEMENTS]
        out.pairs.append(PairView(pair["rank"], unit_a, unit_b, judgements, pair["points_a"], pair["points_b"],
                                  _size_hint(unit_a, unit_b)))
    out.unpaired = ([("A", by_a[p]) for p in parity.get("unpaired_a", [])]
                    + [("B", by_b[p]) for p in parity.get("unpaired_b", [])])
    out.total_a, out.total_b = parity["total_a"], parity["total_b"]
    stronger = parity.get("stronger") or ""
    out.stronger = SIDE_LETTERS.get(stronger, "")
    out.weaker = {"A": "B", "B": "A"}.get(out.stronger, "")
    out.penalty_points = parity.get("penalty_points", 0)
    spending = parity.get("spending") or {}
    out.spent = bool(parity.get("spending"))
    names = {"strong": f"force {out.stronger}", "weak": f"force {out.weaker}"}
    out.spending = [SpendField(key, label, text.format(**names), spending.get(key, 0))
                    for key, label, text in SPENDING]
    if not out.spent and out.penalty_points:
        out.spending[0].value = out.penalty_points  # a starting point the player can change
    return out


def _parity_procedure(view: MatchupView, parity: dict | None, answers: dict) -> None:
    _hof_compare(view)
    view.parity = _parity(view, answers, parity)


# What the page draws of each tool, by the tool's slug (the tools come from the match-up's system).
PRESENTERS = {"fow-comparison": _fow, "activation-dice": _activation_dice, "order-cards": _order_cards,
              "parity": _parity_procedure}


def matchup_view(figures: dict, *, system_name: str, uses_points: bool, urls: dict, answers: dict,
                 tools=()) -> MatchupView:
    """Everything the match-up page draws. ``urls`` maps "a"/"b" to a link to each list ("" for none);
    ``tools`` are the system's match-up tools, in the order their panels come."""
    view = MatchupView(figures["system"], system_name, _side("a", figures["a"], urls.get("a", "")),
                       _side("b", figures["b"], urls.get("b", "")), uses_points)
    for tool in tools:
        presenter = PRESENTERS.get(tool.slug)
        if presenter is not None and tool.slug in figures:
            presenter(view, figures[tool.slug], answers)
    return view
