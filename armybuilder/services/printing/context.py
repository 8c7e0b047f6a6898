"""Turn a force, its report and its stat sheets into plain data the print template only has to lay out.

Everything a page shows is decided here (and tested here), so the template has no logic
beyond loops and the PDF tests only need to check that it reached the page.
"""
import re
from dataclasses import dataclass, field

from armybuilder.rules.battlescribe.names import display_name
from armybuilder.rules.force import Force, ForceCard, ForceFormation, ForceUnit
from armybuilder.rules.generic import card_points, unit_points
from armybuilder.rules.report import Report
from armybuilder.systems import system_for
from armybuilder.systems.figures import figure_label

from .selectors import ProfileSheet, UnitSheet

CARDS_PER_PAGE = 4  # two columns by two rows, on A4 and on Letter
CARDS_PER_ROW = 2
GRID_LINE_CHARS = 60  # characters that safely fit one line of a card at 7.5pt (about 66 do on A4)


# ---------------------------------------------------------------- plain data for the template

@dataclass
class Cell:
    label: str
    value: str



@dataclass
class Block:
    """A piece of a unit card: a row of rated cells, a table, or a line of text."""

    kind: str  # grid | table | text
    title: str = ""
    cells: list = field(default_factory=list)  # Cell, for grids
    columns: list = field(default_factory=list)  # header labels, for tables
    rows: list = field(default_factory=list)  # lists of strings, for tables
    widths: list = field(default_factory=list)  # column widths in percent, for tables
    text: str = ""

    def lines(self, width: int = GRID_LINE_CHARS) -> list[str]:
        """A grid's cells as text lines of at most ``width`` characters, broken only between cells.

        Breaks are chosen here, conservatively, and each cell's spaces become no-break spaces: one
        text run per line is far cheaper for WeasyPrint than an element per cell. A cell too long
        for a line keeps its spaces so the page can still wrap it.
        """
        lines, line = [], ""
        room = width - (len(self.title) + 2 if self.title else 0)
        for cell in self.cells:
            text = f"{cell.label} {cell.value}"
            if len(text) <= width:
                text = text.replace(" ", "\u00a0")
            if line and len(line) + 3 + len(text) > room:
                lines.append(line)
                line, room = text, width
            else:
                line = f"{line} · {text}" if line else text
        if line:
            lines.append(line)
        return lines

    @property
    def header(self) -> list[tuple[str, int]]:
        return list(zip(self.columns, self.widths or [None] * len(self.columns), strict=False))


@dataclass
class UpgradeLine:
    name: str
    quantity: int

    def __str__(self) -> str:
        return f"{self.quantity}× {self.name}" if self.quantity > 1 else self.name


@dataclass
class RosterUnit:
    pointer: str
    box: str
    name: str
    card_code: str
    size: str
    teams: int
    upgrades: list  # UpgradeLine
    points: int | None
    support: bool = False  # from a support box of the formation's diagram
    custom_name: str = ""  # the player's own name and notes
    notes: str = ""
    letter: str = ""  # War Ain't Fair: the set-up letter


@dataclass
class RosterFormation:
    pointer: str
    name: str
    card_code: str
    allied: bool
    book: str  # the ally's book, when not the force's own
    units: list
    points: int | None
    support_points: int | None
    custom_name: str = ""  # the player's own name and notes
    notes: str = ""
    letter: str = ""  # War Ain't Fair: the set-up letter


@dataclass
class RosterCard:
    name: str
    target: str
    points: int | None


@dataclass
class RosterIssue:
    severity: str
    code: str
    message: str
    fix: str
    where: str
    rule: str


@dataclass
class UnitCard:
    name: str
    card_code: str
    unit_type: str
    count: int
    size: str
    teams: int
    upgrades: list  # UpgradeLine
    points: int | None
    book: str
    blocks: list  # Block
    team_names: list
    rules: list  # RuleData
    command_cards: list = field(default_factory=list)  # DataRule: cards given to this unit, with their text
    letter: str = ""  # War Ain't Fair: the set-up letter (lettered units each get a card of their own)

    @property
    def casualty_boxes(self) -> range:
        """One box per team, for each time the unit is taken (at most 60: a card has room for no more)."""
        return range(min(self.teams * self.count, 60))


# ---------------------------------------------------------------- Flames of War card layout

FOW_RATINGS = [("motivation", "Motivation"), ("skill", "Skill"), ("is_hit_on", "Is Hit On")]
FOW_TESTS = [("rally", "Rally"), ("counterattack", "Counter-attack"), ("last_stand", "Last Stand"),
             ("remount", "Remount"), ("tactics", "Tactics"), ("assault", "Assault")]
FOW_MOVEMENT = [("tactical", "Tactical"), ("terrain_dash", "Terrain Dash"), ("cross_country_dash", "Cross-country"),
                ("road_dash", "Road Dash"), ("cross", "Cross")]
FOW_ARMOUR = ("armour_front", "armour_side", "armour_top")
FOW_WEAPON_LABELS = {"range": "Range", "halted_rof": "Halted", "moving_rof": "Moving", "anti_tank": "AT",
                     "firepower": "FP", "notes": "Notes"}


def _fow_unit_blocks(profile: ProfileSheet) -> list[Block]:
    used = {"notes"}
    ratings = [Cell(label, profile.value(code, "–")) for code, label in FOW_RATINGS if code in profile.values]
    used.update(code for code, _ in FOW_RATINGS)
    if any(code in profile.values for code in FOW_ARMOUR):
        front, side, top = (profile.value(c, "–") for c in FOW_ARMOUR)
        ratings.append(Cell("Armour", f"front {front}, side {side}, top {top}"))
        used.update(FOW_ARMOUR)
    elif "save" in profile.values:
        ratings.append(Cell("Save", profile.value("save", "–")))
    used.add("save")
    blocks = [Block("grid", cells=ratings)] if ratings else []
    for title, spec in (("Tests", FOW_TESTS), ("Movement", FOW_MOVEMENT)):
        cells = [Cell(label, profile.value(code, "–")) for code, label in spec if code in profile.values]
        used.update(code for code, _ in spec)
        if cells:
            blocks.append(Block("grid", title=title, cells=cells))
    other = [Cell(name, profile.value(code)) for code, name in profile.columns
             if code not in used and profile.value(code)]
    if other:
        blocks.append(Block("grid", cells=other))
    if profile.value("notes"):
        blocks.append(Block("text", text=profile.value("notes")))
    return blocks


def _generic_unit_blocks(profile: ProfileSheet) -> list[Block]:
    cells = [Cell(name, profile.value(code)) for code, name in profile.columns
             if code != "notes" and profile.value(code)]
    blocks = [Block("grid", title=profile.type_name, cells=cells)] if cells else []
    if profile.value("notes"):
        blocks.append(Block("text", text=profile.value("notes")))
    return blocks


def _widths(labels: list[str]) -> list[int | None]:
    """Column widths in percent for a fixed-layout table: the name column wide, notes wider than numbers.

    The last column gets no width, so it takes what the others and the cell padding leave.
    """
    first, rest = 26, labels[1:]
    shares = [2.6 if label == "Notes" else 1.9 if label == "Range" else 1.5 if label == "Halted"
              else 1.2 if label == "Moving" else 1 for label in rest]
    total = sum(shares) or 1
    widths = [first] + [int((100 - first) * share / total) for share in shares]
    return widths[:-1] + [None] if len(widths) > 1 else [None]


def _profile_tables(profiles: list[ProfileSheet], labels: dict, first_column: str) -> list[Block]:
    """One table per profile type; columns nobody fills are left out."""
    blocks = []
    by_type: dict[str, list[ProfileSheet]] = {}
    for profile in profiles:
        by_type.setdefault(profile.type_code, []).append(profile)
    for group in by_type.values():
        columns = [(code, labels.get(code, name)) for code, name in group[0].columns
                   if any(p.value(code) for p in group)]
        rows = [[(f"{p.team}: {p.name}" if p.team and p.team != p.name else p.name)]
                + [p.value(code, "–") for code, _ in columns] for p in group]
        title = group[0].type_name if first_column != "Weapon" else ""
        headers = [first_column] + [label for _, label in columns]
        blocks.append(Block("table", title=title, columns=headers, rows=rows, widths=_widths(headers)))
    return blocks


# How a unit card lays out a stat line, by the name a game system gives (``GameSystem.card_layout``):
# the unit profile's blocks, and the labels of weapon columns.
CARD_LAYOUTS = {
    "fow": (_fow_unit_blocks, FOW_WEAPON_LABELS),
    "generic": (_generic_unit_blocks, {}),
}


def card_blocks(sheet: UnitSheet, layout: str = "generic") -> list[Block]:
    unit_blocks, weapon_labels = CARD_LAYOUTS.get(layout, CARD_LAYOUTS["generic"])
    blocks: list[Block] = []
    for profile in sheet.profiles_for("unit"):
        blocks += unit_blocks(profile)
    weapons = sheet.profiles_for("weapon")
    if weapons:
        blocks += _profile_tables(weapons, weapon_labels, "Weapon")
    teams = sheet.profiles_for("team", "card")
    if teams:
        blocks += _profile_tables(teams, {}, "Team")
    return blocks


# ---------------------------------------------------------------- the roster

def _points(value: int, uses_points: bool) -> int | None:
    return value if uses_points else None


SIZE_GROUP = re.compile(r"size|configuration", re.I)


def _imported(unit: ForceUnit, report: Report):
    """Books imported from BattleScribe: (its size, the rest of what is chosen) read off its selections."""
    context = report.context
    sel = context.roster.units.get(unit.pointer) if context is not None else None
    if sel is None:
        return "", []
    evaluation = context.evaluation
    lines = []
    size_found = [""]

    def walk(node, trail: str):
        for child in node.children:
            if child.role == "card":
                continue
            name = display_name(evaluation.name(child))
            groups = child.slot.groups
            if not trail and not size_found[0] and groups and SIZE_GROUP.search(groups[0].entry.name):
                size_found[0] = f"{name} ×{child.number}" if child.number > 1 else name
            else:
                lines.append(UpgradeLine(f"{trail}{name}", child.number))
            walk(child, f"{trail}{name} › " if trail or child.children else trail)

    walk(sel, "")
    return size_found[0], lines


def _upgrades(unit: ForceUnit, report: Report | None = None) -> list[UpgradeLine]:
    if unit.selection is not None and report is not None:
        return _imported(unit, report)[1]
    return [UpgradeLine(chosen.upgrade.name, chosen.quantity) for chosen in unit.upgrades]


def _size(unit: ForceUnit, report: Report | None = None) -> str:
    if unit.selection is not None and report is not None:
        return _imported(unit, report)[0]
    return unit.size.label if unit.size else "size not chosen"


def _teams(unit: ForceUnit, report: Report) -> int:
    if unit.selection is not None:
        return report.figures.get("unit_teams", {}).get(unit.pointer, 0)
    return unit.teams


def _unit_points(unit: ForceUnit, report: Report) -> int:
    return report.unit_points.get(unit.pointer, unit_points(unit))


def _roster_unit(unit: ForceUnit, report: Report, uses_points: bool) -> RosterUnit:
    return RosterUnit(pointer=unit.pointer, box=unit.box.name, name=unit.unit.name, card_code=unit.unit.card_code,
                      size=_size(unit, report), teams=_teams(unit, report), upgrades=_upgrades(unit, report),
                      points=_points(_unit_points(unit, report), uses_points),
                      # marked only inside a formation: the Support section needs no mark
                      support=unit.formation_index is not None and not unit.box.part_of_formation,
                      custom_name=unit.custom_name, notes=unit.notes,
                      letter=unit.letter)


def _formation(formation: ForceFormation, force: Force, report: Report, uses_points: bool) -> RosterFormation:
    units = [_roster_unit(u, report, uses_points) for u in formation.units]
    own = report.formation_points.get(formation.pointer,
                                      sum(_unit_points(u, report) for u in formation.units if u.box.part_of_formation))
    support = sum(_unit_points(u, report) for u in formation.units if not u.box.part_of_formation)
    book = formation.handbook.name if formation.handbook.key != force.handbook.key else ""
    return RosterFormation(pointer=formation.pointer, name=formation.formation.name,
                           card_code=formation.formation.card_code, allied=formation.allied, book=book, units=units,
                           points=_points(own, uses_points), support_points=_points(support, uses_points) or None,
                           custom_name=formation.custom_name, notes=formation.notes,
                           letter=formation.letter)


def _target_name(card: ForceCard) -> str:
    if isinstance(card.target, ForceUnit):
        return card.target.unit.name
    if isinstance(card.target, ForceFormation):
        return card.target.formation.name
    return "Force" if card.card.scope == "force" else ""


def pointer_labels(force: Force) -> dict[str, str]:
    """JSON pointer -> the words a player knows it by."""
    labels = {"": "The whole force", "/": "The whole force"}
    for formation in force.formations:
        labels[formation.pointer] = formation.formation.name
        for unit in formation.units:
            labels[unit.pointer] = f"{formation.formation.name} › {unit.unit.name}"
    for unit in force.support:
        labels[unit.pointer] = f"Support › {unit.unit.name}"
    for card in force.cards:
        labels[card.pointer] = f"Command card › {card.card.name}"
    return labels


def _where(pointer: str, labels: dict[str, str]) -> str:
    probe = pointer or ""
    while probe:
        if probe in labels:
            return labels[probe]
        probe = probe.rsplit("/", 1)[0]
    return labels[""]


def _issues(force: Force, report: Report) -> list[RosterIssue]:
    labels = pointer_labels(force)
    ordered = report.errors + report.warnings
    return [RosterIssue(severity=i.severity, code=i.code, message=i.message, fix=i.fix or "",
                        where=_where(i.pointer, labels),
                        rule=(i.rule.name + (f" ({i.rule.where})" if i.rule.where else "")) if i.rule else "")
            for i in ordered]


def _figures(report: Report, uses_points: bool) -> list[Cell]:
    skip = set() if uses_points else {"reserves_on_table_max"}
    first = ["game_units", "reserves_on_table_max"]
    keys = [k for k in first if k in report.figures] + [k for k in report.figures if k not in first]
    cells = []
    for key in keys:
        value = report.figures[key]
        if key in skip or not isinstance(value, (int, float, str)) or isinstance(value, bool):
            continue
        label = figure_label(key)
        if key == "reserves_on_table_max":
            label, value = "On table in Reserves missions", f"at most {value} points"
        cells.append(Cell(label, str(value)))
    return cells


# ---------------------------------------------------------------- unit cards and the rules appendix

def _unit_key(unit: ForceUnit, book_key) -> tuple:
    if unit.letter:  # War Ain't Fair: each lettered unit is deployed (and tracked) on its own
        return (book_key, unit.pointer)
    if unit.selection is not None:
        return (book_key, unit.unit.code, unit.selection)
    return (book_key, unit.unit.code, unit.size.code if unit.size else None,
            tuple(sorted((u.upgrade.code, u.quantity) for u in unit.upgrades)))


def _units_with_books(force: Force):
    for formation in force.formations:
        for unit in formation.units:
            yield unit, formation.handbook
    for unit in force.support:
        yield unit, force.handbook


def _unit_rules(unit: ForceUnit, book, sheet: UnitSheet | None) -> list:
    """Every special rule on a unit as bought: its own, its teams', its weapons' and its chosen options'."""
    found = {}
    for code in unit.unit.rules:
        if code in book.rules:
            found[(book.key, code)] = book.rules[code]
    for chosen in unit.upgrades:
        for code in chosen.upgrade.rules:
            if code in book.rules:
                found[(book.key, code)] = book.rules[code]
    if sheet is not None:
        for rule in sheet.rules:
            found[(book.key, rule.code)] = rule
        for team in sheet.teams:
            for rule in team.rules:
                found[(book.key, rule.code)] = rule
        for profile in sheet.profiles:
            for rule in profile.rules:
                found[(book.key, rule.code)] = rule
    return sorted(found.values(), key=lambda r: (r.name.lower(), r.code))


# ---------------------------------------------------------------- unit cards of imported books: what was bought

SHORT_LABELS = {"halted rof": "Halted", "moving rof": "Moving", "anti-tank": "AT", "firepower": "FP"}


@dataclass(frozen=True)
class DataRule:
    """A special rule (or a command card) as the imported data describes it, for the card and the appendix."""

    code: str
    name: str
    summary: str


def _sheet_of(profile_id: str, doc: dict) -> ProfileSheet:
    values = doc.get("values") or []
    type_name = str(doc.get("type_name") or "")
    kind = "weapon" if "weapon" in type_name.lower() else "unit" if "unit" in type_name.lower() else "team"
    return ProfileSheet(name=display_name(str(doc.get("name") or "")), type_code=str(doc.get("type") or ""),
                        type_name=type_name, applies_to=kind,
                        columns=tuple((str(t), str(n)) for t, n, _ in values), values={str(t): v for t, _, v in values})


def imported_card_parts(unit: ForceUnit, report: Report, force: Force) -> tuple[list, list, list] | None:
    """The blocks, special rules and command cards of an imported unit's card, read off what the list chose:
    only the profiles and rules of the selections made (the size bought, the weapons and options taken),
    the cards given to it with their own text. None when the unit is not on imported data."""
    context = report.context
    sel = context.roster.units.get(unit.pointer) if context is not None else None
    if sel is None:
        return None
    catalogue = sel.force.catalogue
    profiles: dict[str, ProfileSheet] = {}
    rules: dict[str, DataRule] = {}
    for node in sel.walk():
        if node.role == "card" or node.entry.role == "card":
            continue
        for ref in node.entry.node.get("info") or ():
            if ref.get("hidden"):
                continue
            if ref.get("profile") and ref["profile"] in catalogue.profiles:
                doc = catalogue.profiles[ref["profile"]]
                if "command card" not in str(doc.get("type_name", "")).lower():
                    profiles.setdefault(ref["profile"], _sheet_of(ref["profile"], doc))
            elif ref.get("rule") and ref["rule"] in catalogue.rules:
                doc = catalogue.rules[ref["rule"]]
                rules.setdefault(ref["rule"], DataRule(ref["rule"], display_name(str(doc.get("name") or "")),
                                                       " ".join(str(doc.get("description") or "").split())))
    blocks: list[Block] = []
    sheets = list(profiles.values())
    for profile in (p for p in sheets if p.applies_to == "unit"):
        blocks += _generic_unit_blocks(profile)
    for kind, first in (("weapon", "Weapon"), ("team", "Team")):
        chosen = [p for p in sheets if p.applies_to == kind]
        if chosen:
            labels = {code: SHORT_LABELS.get(name.lower(), name) for p in chosen for code, name in p.columns}
            blocks += _profile_tables(chosen, labels, first)
    cards = [_card_text(card, context) for card in force.cards if card.target_pointer == unit.pointer]
    return blocks, sorted(rules.values(), key=lambda r: (r.name.lower(), r.code)), cards


def _card_text(card: ForceCard, context) -> DataRule:
    """A command card given to a unit: its name and what it does, from the card's own profile in the data."""
    sel = context.roster.cards.get(card.pointer)
    text = ""
    if sel is not None:
        catalogue = sel.force.catalogue
        for ref in sel.entry.node.get("info") or ():
            doc = catalogue.profiles.get(ref.get("profile") or "")
            if doc:
                parts = [str(v) for _, name, v in doc.get("values") or () if str(name).lower() in ("details", "effect")]
                text = " ".join(" ".join(parts).split())
                if text:
                    break
    return DataRule(card.card.code, card.card.name, text)


def unit_cards(force: Force, report: Report, sheets: dict) -> list[UnitCard]:
    """One card per distinct unit (same unit, size and options), in list order, with how often it is taken."""
    uses_points = force.handbook.uses_points
    layout = system_for(force.system).card_layout
    cards: dict[tuple, UnitCard] = {}
    for unit, book in _units_with_books(force):
        key = _unit_key(unit, book.key)
        if key in cards:
            cards[key].count += 1
            continue
        sheet = sheets.get((book.key, unit.unit.code))
        parts = imported_card_parts(unit, report, force) if unit.selection is not None else None
        if parts is not None:
            blocks, rules, applied = parts
            shown = report.context.roster.units.get(unit.pointer)
            cards[key] = UnitCard(
                name=display_name(report.context.evaluation.name(shown)), card_code=unit.unit.card_code,
                unit_type=unit.unit.unit_type, count=1, size=_size(unit, report), teams=_teams(unit, report),
                upgrades=_upgrades(unit, report), points=_points(_unit_points(unit, report), uses_points),
                book=book.name if book.key != force.handbook.key else "", blocks=blocks, team_names=[],
                rules=rules, command_cards=applied)
            continue
        cards[key] = UnitCard(
            name=unit.unit.name, card_code=unit.unit.card_code, unit_type=unit.unit.unit_type, count=1,
            size=_size(unit, report), teams=_teams(unit, report), upgrades=_upgrades(unit, report),
            points=_points(_unit_points(unit, report), uses_points),
            book=book.name if book.key != force.handbook.key else "",
            blocks=card_blocks(sheet, layout) if sheet else [],
            team_names=[t.name for t in sheet.teams] if sheet else [],
            rules=_unit_rules(unit, book, sheet), letter=unit.letter)
    return list(cards.values())


def rules_appendix(cards: list[UnitCard]) -> list:
    """Every special rule used in the force, once, alphabetically (the same rule text from two books counts once)."""
    seen = {}
    for card in cards:
        for rule in card.rules:
            seen.setdefault((rule.name.lower(), rule.summary), rule)
    return [seen[k] for k in sorted(seen)]


def chunk(items: list, size: int) -> list[list]:
    return [items[i:i + size] for i in range(0, len(items), size)]


def roster_context(*, force: Force, report: Report, sheets: dict, system_name: str = "", player: str = "",
                   event: str = "", with_cards: bool = True) -> dict:
    book = force.handbook
    uses_points = book.uses_points
    system = system_for(force.system)
    cards = unit_cards(force, report, sheets)
    errors = len(report.errors)
    return {
        "name": force.name,
        "player": player,
        "event": event,
        "system": system_name or system.name,
        "card_template": system.card_template,
        "book": book.name,
        "revision": book.revision,
        "points_set": book.points_set,
        "variant": book.variants.get(force.variant, force.variant) if force.variant else "",
        "year": force.year,
        "uses_points": uses_points,
        "points_limit": force.points_limit if uses_points else None,
        "total_points": report.total_points if uses_points else None,
        "support_points": sum(_unit_points(u, report) for u in force.support) if uses_points else None,
        "card_points": report.card_points if uses_points else None,
        "legal": report.legal,
        "error_count": errors,
        "warning_count": len(report.warnings),
        "issues": _issues(force, report),
        "figures": _figures(report, uses_points),
        "formations": [_formation(f, force, report, uses_points) for f in force.formations],
        "support": [_roster_unit(u, report, uses_points) for u in force.support],
        "command_cards": [RosterCard(c.card.name, _target_name(c), _points(card_points(c), uses_points))
                          for c in force.cards],
        "with_cards": with_cards,
        "unit_cards": cards,
        "card_pages": [chunk(page, CARDS_PER_ROW) for page in chunk(cards, CARDS_PER_PAGE)] if with_cards else [],
        "rules": rules_appendix(cards),
    }
