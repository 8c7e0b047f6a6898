"""What the builder page shows, worked out from a resolved Force and its Report.

Pure presentation: the engine decides what is legal and what things cost; this
module only arranges the diagram (columns, boxes, picks, choices), labels it in
the game's words, and ties every issue to the element on the page it concerns.
Nothing here touches the database.
"""
import hashlib
import re
from dataclasses import dataclass, field, fields
from functools import cached_property
from operator import attrgetter

from armybuilder.rules.battlescribe.choices import alternatives, cheapest_price, size_teams
from armybuilder.rules.battlescribe.editing import card_place, unit_slot
from armybuilder.rules.battlescribe.names import display_name
from armybuilder.rules.data import BoxData, HandbookData, UnitData, in_variant
from armybuilder.rules.force import Force, ForceFormation, ForceUnit
from armybuilder.rules.generic import card_points
from armybuilder.rules.report import Issue, Report
from armybuilder.systems import system_for
from armybuilder.systems.figures import option_pool_text

from .selection_tree import unit_choice_view

KIND_LABELS = {"hq": "HQ", "black": "Compulsory", "grey": "Optional", "options": "Options"}
COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
SCOPE_LABELS = {"force": "Force card", "formation": "Formation card", "unit": "Unit card"}
OUTFLANK_CHOICES = [("", "No outflanking"), ("left", "Outflank left"), ("right", "Outflank right")]


def _words(n: int) -> str:
    return COUNT_WORDS.get(n, str(n))


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def anchor_for_pointer(pointer: str) -> str:
    """Element id for a pointer the page renders: /formations/0 -> f0, /formations/0/units/2 -> f0-u2,
    /support/1 -> s1."""
    parts = [p for p in (pointer or "").split("/") if p]
    if len(parts) >= 2 and parts[0] == "formations":
        if len(parts) >= 4 and parts[2] == "units":
            return f"f{parts[1]}-u{parts[3]}"
        return f"f{parts[1]}"
    if len(parts) >= 2 and parts[0] == "support":
        return f"s{parts[1]}"
    if len(parts) >= 2 and parts[0] == "cards":
        return f"c{parts[1]}"
    return ""


def box_anchor(formation_index: int | None, box_code: str) -> str:
    if formation_index is None:
        return f"support-box-{slug(box_code)}"
    return f"f{formation_index}-box-{slug(box_code)}"


FIELD_ANCHORS = {"name": "list-settings", "points_limit": "list-settings", "variant": "list-settings",
                 "year": "list-settings", "formations": "formations", "support": "support", "cards": "cards"}


def points_text(points: int, basis: str = "unit") -> str:
    sign = "+" if points >= 0 else "−"
    amount = abs(points)
    unit = "pt" if amount == 1 else "pts"
    tail = {"team": " per team", "item": " each"}.get(basis, "")
    return f"{sign}{amount} {unit}{tail}"


@dataclass
class IssueView:
    issue: Issue
    anchor: str
    where: str

    @property
    def severity(self):
        return self.issue.severity

    def __getattr__(self, name):  # message, fix, rule, code, pointer
        return getattr(self.issue, name)


@dataclass
class SizeView:
    code: str
    label: str
    teams: int
    points: int
    selected: bool
    note: str = ""


@dataclass
class OptionView:
    code: str
    name: str
    cost: str
    quantity: int
    max_quantity: int
    disabled: bool = False
    note: str = ""

    @property
    def selected(self) -> bool:
        return self.quantity > 0


@dataclass
class GroupView:
    code: str
    name: str
    hint: str
    chosen: int
    one_pick: bool
    options: list = field(default_factory=list)


@dataclass
class UnitView:
    pointer: str
    anchor: str
    name: str
    card_code: str
    points: int
    teams: int
    size_label: str
    sizes: list
    groups: list
    issues: list = field(default_factory=list)
    letter: str = ""
    outflank: str = ""
    option_cost: int = 0  # Operation WW2: bought from the formation's options pool
    choices: list | None = None  # books imported from BattleScribe: ChoiceGroup, the selections under the unit
    container: str = ""  # imported books: the entry the unit was chosen inside ("[Reconnaissance] Support")
    has_hidden: bool = False  # imported books: options the data hides here (behind "show hidden")
    warnings: list = field(default_factory=list)  # imported books: counts that do not add up
    custom_name: str = ""  # the player's own name and notes (builder_names.html)
    notes: str = ""

    @property
    def outflank_label(self) -> str:
        return dict(OUTFLANK_CHOICES).get(self.outflank, "")

    @property
    def chosen_options(self):
        return [o for g in self.groups for o in g.options if o.selected]


@dataclass
class ChoiceView:
    code: str
    name: str
    from_points: int | None
    note: str = ""
    is_formation: bool = False
    option_cost: int = 0
    short_of_options: bool = False  # Operation WW2: costs more options than the pool has left
    alternative: str = ""  # imported books: the alternative chosen inside a container entry (its path)
    sizes: str = ""  # "2 or 4 teams"

    @property
    def pick_value(self) -> str:
        return f"{self.code}|{self.alternative}"


@dataclass
class BoxView:
    code: str
    anchor: str
    name: str
    kind: str
    kind_label: str
    hint: str
    is_support: bool
    formation_pointer: str  # "" for a force-level support box
    units: list
    choices: list
    is_open: bool
    issues: list = field(default_factory=list)
    pool: "PoolView | None" = None
    # repr(choices) when the builder has it already (the choices of an imported book's box, worked out once per
    # book revision): the digest need not write them out again.
    choices_repr: str | None = field(default=None, repr=False, compare=False)

    @property
    def unit_choices(self):
        return [c for c in self.choices if not c.is_formation]

    @cached_property
    def digest(self) -> str:
        """What the box shows (its units with their choices and problems, what can be picked), as a short
        digest: the page keeps it on the box, and an action sends again only the boxes whose digest changed."""
        shown = repr(_BOX_SHOWN(self))
        choices = self.choices_repr if self.choices_repr is not None else repr(self.choices)
        return hashlib.blake2s(f"{shown}{choices}".encode(), digest_size=8).hexdigest()

    @property
    def formation_choices(self):
        return [c for c in self.choices if c.is_formation]


# The fields a box's digest writes out (all it shows but its choices, which go as their kept repr), read at once.
_BOX_SHOWN = attrgetter(*(f.name for f in fields(BoxView) if f.repr and f.name != "choices"))


@dataclass
class PoolView:
    """Operation WW2: one formation's options pool."""
    granted: int
    spent: int

    @property
    def left(self) -> int:
        return self.granted - self.spent

    @property
    def text(self) -> str:
        return option_pool_text({"granted": self.granted, "spent": self.spent})

    @property
    def left_text(self) -> str:
        if self.left < 0:
            return f"overspent by {-self.left}"
        return f"{self.left} option{'' if self.left == 1 else 's'} left"


@dataclass
class ColumnView:
    name: str
    boxes: list
    is_support: bool


@dataclass
class FormationView:
    pointer: str
    anchor: str
    index: int
    name: str
    card_code: str
    allied: bool
    book_name: str
    points: int
    columns: list
    issues: list = field(default_factory=list)
    parent_name: str = ""
    via_box_name: str = ""
    depth: int = 0
    pool: PoolView | None = None
    letter: str = ""
    custom_name: str = ""  # the player's own name and notes (builder_names.html)
    notes: str = ""

    @property
    def shell_digest(self) -> str:
        """What the formation's own element shows around its parts (its classes, its columns and boxes; its
        problems are a part of their own): when it still holds, an action can send the head, the problems and
        the changed boxes alone."""
        shell = (self.anchor, self.allied, self.depth,
                 [(c.name, c.is_support, [b.anchor for b in c.boxes]) for c in self.columns])
        return hashlib.blake2s(repr(shell).encode(), digest_size=8).hexdigest()


@dataclass
class CardView:
    pointer: str
    anchor: str
    name: str
    scope_label: str
    target_name: str
    points: int
    issues: list = field(default_factory=list)


@dataclass
class CardOffer:
    """One command card by name and scope (a book may hold the same card once per unit that can take it)."""

    code: str  # the card's code (force cards); unit and formation cards name theirs in each target's value
    name: str
    scope: str
    scope_label: str
    cost: str
    targets: list  # (value, label): value "<card code>|<pointer>"
    limit_note: str
    available: bool

    @property
    def search(self) -> str:
        return self.name.lower()


@dataclass
class CardOfferGroup:
    scope: str
    label: str
    offers: list

    @property
    def unavailable(self) -> int:
        return sum(1 for o in self.offers if not o.available)


@dataclass
class FormationOffer:
    code: str
    name: str
    card_code: str
    note: str = ""


@dataclass
class AllyBookOffer:
    code: str
    name: str
    nation: str
    formations: list


@dataclass
class BuilderView:
    force: Force
    report: Report
    formations: list
    support_boxes: list
    cards: list
    card_offers: list
    formation_offers: list
    ally_offers: list
    issues: list
    errors: int
    warnings: int
    variants: list  # (code, name)
    uses_points: bool
    figures: list = field(default_factory=list)  # FigureGroup
    system: str = ""
    uses_year: bool = False
    has_cards: bool = True
    has_support: bool = True
    uses_letters: bool = False
    outflank_choices: list = field(default_factory=lambda: list(OUTFLANK_CHOICES))
    root_needed: bool = False  # Operation WW2: the force still needs its one Standard choice
    grows_by_options: bool = False  # Operation WW2: further formations come from options boxes
    support_hint: str = ""  # the system's line over the force's support
    card_groups: list = field(default_factory=list)  # CardOfferGroup: the offers by scope

    @property
    def unavailable_cards(self) -> int:
        return sum(g.unavailable for g in self.card_groups)

    @property
    def cards_digest(self) -> str:
        """What the Command Cards section shows, as a short digest: an action that leaves it alone need not send it."""
        shown = ([(c.pointer, c.name, c.target_name, c.points, [i.message for i in c.issues]) for c in self.cards],
                 [(o.name, o.scope, o.cost, o.targets, o.available, o.limit_note) for o in self.card_offers],
                 self.report.card_points)
        return hashlib.blake2s(repr(shown).encode(), digest_size=8).hexdigest()

    @property
    def figure_rows(self):
        return [row for group in self.figures for row in group.rows]

    @property
    def legal(self) -> bool:
        return self.errors == 0

    @property
    def support_points(self) -> int:
        return self.report.support_points

    @property
    def over_limit(self) -> bool:
        limit = self.report.points_limit
        return limit is not None and self.report.total_points > limit


def _variant_note(variants: frozenset, chosen: str | None, book: HandbookData) -> str | None:
    """None: hide (tied to another variant); "" : always available; text: only with a variant not yet chosen."""
    if not variants:
        return ""
    if chosen is None:
        return f"{' or '.join(book.variants.get(v, v) for v in sorted(variants))} only"
    return "" if chosen in variants else None


def teams_text(teams: tuple) -> str:
    if not teams:
        return ""
    if len(teams) == 1:
        return f"{teams[0]} team{'' if teams[0] == 1 else 's'}"
    if list(teams) == list(range(teams[0], teams[-1] + 1)) and len(teams) > 2:
        return f"{teams[0]}–{teams[-1]} teams"
    return f"{', '.join(map(str, teams[:-1]))} or {teams[-1]} teams"


def box_hint(box: BoxData) -> str:
    if box.kind == "options":
        return "Options bought with this formation's pool"
    if not box.part_of_formation:
        return f"Support, optional: pick up to {_words(box.max_picks)}"
    if box.min_picks >= 1:
        if box.min_picks == box.max_picks:
            return f"Compulsory: pick {_words(box.min_picks)}"
        return f"Compulsory: pick {_words(box.min_picks)} to {_words(box.max_picks)}"
    return f"Optional: pick up to {_words(box.max_picks)}"


def group_hint(lo: int, hi: int | None) -> str:
    if hi is None:
        return f"Choose at least {lo}" if lo else "Choose any"
    if lo == hi:
        return f"Choose {lo}"
    if lo == 0:
        return f"Up to {hi}"
    return f"Choose {lo} to {hi}"


_BOOKS: dict[int, tuple[HandbookData, dict]] = {}
_BOOKS_MAX = 64


def _per_book(book: HandbookData) -> dict:
    """A memo for what the builder works out from one book revision's game data alone. Held by the snapshot
    object itself (armybuilder.lists.catalog keeps one per revision): a new snapshot starts a new memo."""
    held = _BOOKS.get(id(book))
    if held is None or held[0] is not book:
        if len(_BOOKS) >= _BOOKS_MAX:
            _BOOKS.clear()
        held = _BOOKS[id(book)] = (book, {})
    return held[1]


class _Builder:
    def __init__(self, force: Force, report: Report):
        self.force = force
        self.report = report
        self.variant = force.variant
        self.anchors: set[str] = {"list-settings", "formations", "support", "cards", "summary"}
        self.box_anchors: dict[tuple[int | None, str], str] = {}
        self.where: dict[str, str] = {}
        self.issue_views = [IssueView(i, "", "") for i in report.issues]

    # -- units --------------------------------------------------------------------------------------------
    def imported_unit_view(self, unit: ForceUnit) -> UnitView:
        context = self.report.context
        sel = context.roster.units.get(unit.pointer) if context is not None else None
        anchor = anchor_for_pointer(unit.pointer)
        self.anchors.add(anchor)
        self.where[anchor] = unit.unit.name
        teams = self.report.figures.get("unit_teams", {}).get(unit.pointer, 0)
        view = UnitView(unit.pointer, anchor, unit.unit.name, unit.unit.card_code,
                        self.report.unit_points.get(unit.pointer, 0), teams, "", [], [], choices=[],
                        custom_name=unit.custom_name, notes=unit.notes)
        if sel is not None:
            shown = unit_choice_view(context.evaluation, sel, points=sel.force.catalogue.points, key=anchor)
            view.name, view.container, view.choices = shown.name, shown.container, shown.groups
            view.has_hidden, view.warnings = shown.has_hidden, shown.warnings
            self.where[anchor] = shown.name
        return view

    def unit_view(self, unit: ForceUnit, book: HandbookData) -> UnitView:
        if unit.selection is not None:
            return self.imported_unit_view(unit)
        data = unit.unit
        sizes = []
        for size in data.sizes:
            note = _variant_note(size.variants, self.variant, book)
            selected = unit.size is not None and unit.size.code == size.code
            if note is None and not selected:
                continue
            sizes.append(SizeView(size.code, size.label, size.teams, size.points, selected, note or ""))
        chosen = {u.upgrade.code: u.quantity for u in unit.upgrades}
        groups = []
        for group in data.groups:
            count = sum(1 for o in group.upgrades if chosen.get(o.code))
            one_pick = group.max_choices == 1
            full = group.max_choices is not None and count >= group.max_choices and not one_pick
            options = []
            for option in group.upgrades:
                note = _variant_note(option.variants, self.variant, book)
                quantity = chosen.get(option.code, 0)
                if note is None and not quantity:
                    continue
                options.append(OptionView(option.code, option.name, points_text(option.points, option.cost_basis),
                                          quantity, option.max_quantity, disabled=full and not quantity,
                                          note=note or ""))
            hint = group_hint(group.min_choices, group.max_choices)
            if full:
                hint += " (full: remove one to choose another)"
            groups.append(GroupView(group.code, group.name, hint, count, one_pick, options))
        anchor = anchor_for_pointer(unit.pointer)
        self.anchors.add(anchor)
        self.where[anchor] = data.name
        option_cost = 0
        if unit.box.kind == "options":
            choice = unit.box.unit_choice(data.code)
            option_cost = choice.option_cost if choice else 0
        return UnitView(unit.pointer, anchor, data.name, data.card_code, self.report.unit_points.get(unit.pointer, 0),
                        unit.teams, unit.size.label if unit.size else "", sizes, groups, letter=unit.letter or "",
                        outflank=unit.outflank or "", option_cost=option_cost, custom_name=unit.custom_name,
                        notes=unit.notes)

    # -- boxes --------------------------------------------------------------------------------------------
    def imported_choices(self, box: BoxData, book: HandbookData, formation_code: str | None) -> list[ChoiceView]:
        """A box of an imported book: each choice with its real "from" price; an entry that only groups
        alternatives is shown as the alternatives inside it. Game data alone decides them (not the list), so
        they are worked out once per book revision and box."""
        return list(self._imported_choices_memo(box, book, formation_code)[0])

    def _imported_choices_memo(self, box: BoxData, book: HandbookData, formation_code: str | None) -> tuple:
        """(the choices, their repr for the box's digest), once per book revision and box."""
        memo = _per_book(book)
        key = ("choices", box.code, formation_code)
        if key not in memo:
            choices = self._imported_choices(box, book, formation_code)
            memo[key] = (tuple(choices), repr(choices))
        return memo[key]

    def _imported_choices(self, box: BoxData, book: HandbookData, formation_code: str | None) -> list[ChoiceView]:
        catalogue = book.catalogue
        parent = None
        if formation_code is not None:
            formation = book.formations.get(formation_code)
            path = (formation.extra.get("bs") or {}).get("path", formation_code) if formation else formation_code
            parent = catalogue.root_layout().find(path)
            if parent is None:
                return []
        place = (box.extra.get("bs") or {}).get("id", box.code)
        out = []
        for choice in box.choices:
            unit = book.units.get(choice.unit) if choice.unit else None
            if unit is None:
                continue
            entry = (unit.extra.get("bs") or {}).get("entry", unit.code)
            slot = unit_slot(catalogue, parent.entry if parent is not None else None, entry, place)
            if slot is None:
                continue
            inner = alternatives(catalogue, slot.entry)
            for alt in inner or (None,):
                price = cheapest_price(catalogue, slot, parent=parent, inside=alt.path if alt else "")
                target = alt.slot.entry if alt else slot.entry
                out.append(ChoiceView(unit.code, display_name(alt.name if alt else unit.name),
                                      None if price is None else int(round(price)),
                                      note="" if price is not None else "cannot be completed with this data",
                                      alternative=alt.path if alt else "",
                                      sizes=teams_text(size_teams(catalogue, target))))
        return out

    def choices(self, box: BoxData, book: HandbookData, pool: PoolView | None = None,
                formation_code: str | None = None) -> list[ChoiceView]:
        if book.catalogue is not None:
            return self.imported_choices(box, book, formation_code)
        out = []
        left = pool.left if pool is not None else None
        for choice in box.choices:
            note = _variant_note(choice.variants, self.variant, book)
            if note is None:
                continue
            if choice.unit:
                unit: UnitData | None = book.units.get(choice.unit)
                if unit is None:
                    continue
                unit_note = _variant_note(unit.variants, self.variant, book)
                if unit_note is None:
                    continue
                sizes = [s.points for s in unit.sizes if in_variant(s.variants, self.variant)]
                out.append(ChoiceView(unit.code, unit.name, min(sizes) if sizes else None, note or unit_note or "",
                                      option_cost=choice.option_cost,
                                      short_of_options=left is not None and choice.option_cost > left))
            elif choice.formation and choice.formation in book.formations:
                formation = book.formations[choice.formation]
                out.append(ChoiceView(formation.code, formation.name, None, note or "", is_formation=True,
                                      option_cost=choice.option_cost,
                                      short_of_options=left is not None and choice.option_cost > left))
        return out

    def box_view(self, box: BoxData, book: HandbookData, picked: list, formation_index: int | None,
                 formation_pointer: str, label: str, pool: PoolView | None = None,
                 formation_code: str | None = None) -> BoxView:
        anchor = box_anchor(formation_index, box.code)
        self.anchors.add(anchor)
        self.box_anchors[(formation_index, box.code)] = anchor
        self.where[anchor] = f"{label} › {box.name}"
        units = [self.unit_view(u, book) for u in picked]
        is_support = not box.part_of_formation or formation_index is None
        kind_label = "Support" if is_support and box.kind != "hq" else KIND_LABELS.get(box.kind, box.kind)
        pool = pool if box.kind == "options" else None
        choices_repr = None
        if book.catalogue is not None:
            shared, choices_repr = self._imported_choices_memo(box, book, formation_code)
            choices = list(shared)
        else:
            choices = self.choices(box, book, pool, formation_code)
        return BoxView(box.code, anchor, box.name, box.kind, kind_label, box_hint(box), is_support, formation_pointer,
                       units, choices, is_open=len(picked) < box.max_picks, pool=pool, choices_repr=choices_repr)

    # -- formations ---------------------------------------------------------------------------------------
    def formation_view(self, formation: ForceFormation) -> FormationView:
        data, book = formation.formation, formation.handbook
        anchor = anchor_for_pointer(formation.pointer)
        self.anchors.add(anchor)
        self.where[anchor] = data.name
        by_box: dict[str, list] = {}
        stray = []
        for unit in formation.units:
            if unit.box.formation == data.code:
                by_box.setdefault(unit.box.code, []).append(unit)
            else:
                stray.append(unit)
        columns: dict[str, ColumnView] = {}
        pool = None
        pool_figure = (self.report.figures.get("option_pools") or {}).get(formation.pointer)
        if pool_figure is not None and (data.grants_options or pool_figure.get("spent")):
            pool = PoolView(pool_figure.get("granted", 0), pool_figure.get("spent", 0))
        for box in data.boxes:
            if not in_variant(box.variants, self.variant) and box.code not in by_box:
                continue
            view = self.box_view(box, book, by_box.get(box.code, []), formation.index, formation.pointer, data.name,
                                 pool, formation_code=data.code)
            name = box.column or ("Support" if view.is_support else "Units")
            column = columns.setdefault(name, ColumnView(name, [], view.is_support))
            column.is_support = column.is_support and view.is_support
            column.boxes.append(view)
        if stray:  # units whose box is not on this diagram (an imported oddity): still shown, so they can be removed
            box = BoxView("stray", f"f{formation.index}-box-stray", "Not on this diagram", "grey", "Problem",
                          "These units do not belong to any box of this formation", False, formation.pointer,
                          [self.unit_view(u, book) for u in stray], [], is_open=False)
            self.anchors.add(box.anchor)
            columns.setdefault("Other", ColumnView("Other", [], False)).boxes.append(box)
        parent_name = ""
        if formation.parent_index is not None and formation.parent_index < len(self.force.formations):
            parent_name = self.force.formations[formation.parent_index].formation.name
        return FormationView(formation.pointer, anchor, formation.index, data.name, data.card_code, formation.allied,
                             book.name if book.key != self.force.handbook.key else "",
                             self.report.formation_points.get(formation.pointer, 0), list(columns.values()),
                             parent_name=parent_name, via_box_name=formation.via_box.name if formation.via_box else "",
                             pool=pool, letter=formation.letter or "", custom_name=formation.custom_name,
                             notes=formation.notes)

    # -- cards --------------------------------------------------------------------------------------------
    def card_views(self) -> list[CardView]:
        out = []
        for card in self.force.cards:
            target = ""
            if card.target is not None:
                target = (card.target.formation.name if isinstance(card.target, ForceFormation)
                          else card.target.unit.name)
            anchor = anchor_for_pointer(card.pointer)
            self.anchors.add(anchor)
            self.where[anchor] = card.card.name
            out.append(CardView(card.pointer, anchor, card.card.name, SCOPE_LABELS.get(card.card.scope, ""), target,
                                card_points(card)))
        return out

    def card_offers(self) -> list[CardOffer]:
        taken: dict[str, int] = {}
        for card in self.force.cards:
            taken[card.card.name] = taken.get(card.card.name, 0) + 1
        by_name: dict[tuple, CardOffer] = {}
        fits = self._card_fits()
        units = None  # the force's units with each one's label as a target, worked out for the first unit card
        for card in self.force.handbook.cards.values():
            key = (card.scope, card.name)
            offer = by_name.get(key)
            cost = points_text(card.points, "team" if card.cost_basis == "team" else "unit")
            if offer is None:
                offer = by_name[key] = CardOffer(card.code, card.name, card.scope, SCOPE_LABELS.get(card.scope, ""),
                                                 cost, [], "", True)
            if card.scope == "unit":
                if units is None:
                    units = [(unit, self._target_label(unit)) for unit in self.force.all_units()]
                for unit, label in units:
                    if (not card.target_units or unit.unit.code in card.target_units) and fits(card, unit.pointer):
                        offer.targets.append((f"{card.code}|{unit.pointer}", label))
            elif card.scope == "formation":
                for formation in self.force.formations:
                    if (not card.target_formations or formation.formation.code in card.target_formations) and \
                            fits(card, formation.pointer):
                        offer.targets.append((f"{card.code}|{formation.pointer}", formation.formation.name))
            if card.max_per_force is not None:
                offer.limit_note = f"At most {card.max_per_force} per force"
                if taken.get(card.name, 0) >= card.max_per_force:
                    offer.available = False
        offers = list(by_name.values())
        for offer in offers:
            offer.targets = list(dict.fromkeys(offer.targets))
            if offer.scope != "force" and not offer.targets:
                offer.available = False
        return offers

    def _target_label(self, unit: ForceUnit) -> str:
        where = (self.force.formations[unit.formation_index].formation.name
                 if unit.formation_index is not None else "Support")
        return f"{self.where.get(anchor_for_pointer(unit.pointer), unit.unit.name)} ({where})"

    def _card_fits(self):
        """Imported books: whether the data offers a card (visible) under a unit or formation; else always."""
        context = self.report.context
        if context is None or self.force.handbook.catalogue is None:
            return lambda card, pointer: True
        catalogue = self.force.handbook.catalogue
        holders = {**context.roster.formations, **context.roster.units}
        memo = _per_book(self.force.handbook)

        def fits(card, pointer: str) -> bool:
            holder = holders.get(pointer)
            if holder is None or holder.force.catalogue is not catalogue:
                return False
            # Where the data offers the card under this entry is the data's alone: worked out once per revision.
            key = ("card place", holder.slot.path, card.code)
            if key not in memo:
                place = card_place(catalogue, holder.entry, (card.extra.get("bs") or {}).get("entry", card.code))
                memo[key] = place and (place[0], catalogue.layout(holder.entry).find(place[1]))
            place = memo[key]
            if place is None:
                return False
            via, slot = place
            if via:
                return True  # inside an entry chosen with the card: the data decides when it is made
            return slot is not None and not context.evaluation.slot_hidden(slot, holder)

        return fits

    # -- issues -------------------------------------------------------------------------------------------
    def anchor_for_issue(self, issue: Issue) -> str:
        pointer = issue.pointer or ""
        parts = [p for p in pointer.split("/") if p]
        anchor = ""
        while parts:
            candidate = anchor_for_pointer("/" + "/".join(parts))
            if candidate in self.anchors:
                anchor = candidate
                break
            parts.pop()
        if issue.box:
            # A box issue reported at formation level (or the support list) points at the box itself.
            match = re.fullmatch(r"f(\d+)", anchor)
            key = (int(match[1]), issue.box) if match else (None, issue.box)
            if (match or not anchor) and key in self.box_anchors:
                return self.box_anchors[key]
        if anchor:
            return anchor
        head = [p for p in pointer.split("/") if p][:1]
        return FIELD_ANCHORS.get(head[0], "summary") if head else "summary"

    def attach_issues(self, formations, support_boxes, cards):
        by_anchor: dict[str, list] = {}
        for view in self.issue_views:
            view.anchor = self.anchor_for_issue(view.issue)
            view.where = self.where.get(view.anchor, {"list-settings": "List settings", "formations": "Formations",
                                                       "support": "Support", "cards": "Command Cards"}
                                        .get(view.anchor, "The force"))
            by_anchor.setdefault(view.anchor, []).append(view)
        for formation in formations:
            formation.issues = by_anchor.get(formation.anchor, [])
            for column in formation.columns:
                for box in column.boxes:
                    self._attach_box(box, by_anchor)
        for box in support_boxes:
            self._attach_box(box, by_anchor)
        for card in cards:
            card.issues = by_anchor.get(card.anchor, [])

    @staticmethod
    def _attach_box(box: BoxView, by_anchor):
        box.issues = by_anchor.get(box.anchor, [])
        for unit in box.units:
            unit.issues = by_anchor.get(unit.anchor, [])


def nest_formations(force: Force, views: list[FormationView]) -> list[FormationView]:
    """Operation WW2: each formation bought with options right after its parent (depth-first), indented.

    Pointers and anchors keep the list's own order; only the drawing order changes. A formation whose
    parent is missing (a broken import) stays at the top level, so it can still be seen and removed.
    """
    by_index = {v.index: v for v in views}
    children: dict[int | None, list] = {}
    for formation in force.formations:
        parent = formation.parent_index if formation.parent_index in by_index else None
        if parent == formation.index:
            parent = None
        children.setdefault(parent, []).append(formation.index)
    out, seen = [], set()

    def walk(index: int, depth: int):
        if index in seen:
            return
        seen.add(index)
        view = by_index[index]
        view.depth = depth
        out.append(view)
        for child in children.get(index, []):
            walk(child, depth + 1)

    for index in children.get(None, []):
        walk(index, 0)
    for view in views:  # a cycle in imported data: still drawn
        if view.index not in seen:
            out.append(view)
    return out


def allied_offers(ally_books) -> list[AllyBookOffer]:
    """The formations the force may take as allies, by book."""
    return [AllyBookOffer(ally.code, ally.name, ally.nation_name,
                          [FormationOffer(f.code, f.name, f.card_code) for f in ally.formations.values()])
            for ally in ally_books]


def builder_view(force: Force, report: Report, ally_books: list = ()) -> BuilderView:
    """Everything the builder (or the read-only share page) draws, from a resolved force and its report."""
    b = _Builder(force, report)
    book = force.handbook
    formations = nest_formations(force, [b.formation_view(f) for f in force.formations])
    support_by_box: dict[str, list] = {}
    for unit in force.support:
        support_by_box.setdefault(unit.box.code, []).append(unit)
    support_boxes = [b.box_view(box, book, support_by_box.get(box.code, []), None, "", "Force support")
                     for box in book.support_boxes
                     if in_variant(box.variants, force.variant) or box.code in support_by_box]
    cards = b.card_views()
    b.attach_issues(formations, support_boxes, cards)
    system = system_for(force.system, book.system_name)
    # A system that grows from one Standard choice buys every other formation with options.
    grows_by_options = system.grows_by_options and any(f.is_standard for f in book.formations.values())
    has_root = any(f.parent_index is None for f in force.formations)
    offers = []
    for formation in book.formations.values():
        note = _variant_note(formation.variants, force.variant, book)
        if note is None:
            continue
        if grows_by_options and (has_root or not formation.is_standard):
            continue
        if grows_by_options:
            options = formation.grants_options
            note = note or f"Standard: grants {options} option{'' if options == 1 else 's'}"
        offers.append(FormationOffer(formation.code, formation.name, formation.card_code, note or ""))
    ally_offers = allied_offers(ally_books)
    issues = b.issue_views
    card_offers = b.card_offers()
    card_groups = [CardOfferGroup(scope, label, [o for o in card_offers if o.scope == scope])
                   for scope, label in (("force", "Force cards"), ("formation", "Formation cards"),
                                        ("unit", "Unit cards"))]
    return BuilderView(force, report, formations, support_boxes, cards, card_offers, offers, ally_offers, issues,
                       errors=sum(1 for i in issues if i.severity == "error"),
                       warnings=sum(1 for i in issues if i.severity == "warning"),
                       variants=sorted(book.variants.items(), key=lambda kv: kv[1]), uses_points=book.uses_points,
                       figures=system.figures(force, report), system=force.system,
                       # A year imported with a list of a system without dates still shows.
                       uses_year=system.uses_year or force.year is not None,
                       has_cards=system.shows("cards") and (bool(book.cards) or bool(force.cards)),
                       has_support=system.shows("support") and (bool(book.support_boxes) or bool(force.support)),
                       uses_letters=system.uses_letters, support_hint=system.support_hint,
                       root_needed=grows_by_options and not has_root, grows_by_options=grows_by_options,
                       card_groups=[g for g in card_groups if g.offers])

