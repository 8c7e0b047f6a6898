"""What a unit card needs and the engine does not: stat profiles, teams and their special rules.

``unit_sheets(force)`` loads them for every unit in a force with a fixed number
of queries (seven), however many units, formations or allied books the force has.
"""
from collections import defaultdict
from dataclasses import dataclass, field
from functools import reduce
from operator import or_

from django.db.models import Q

from armybuilder.rules.data import RuleData
from armybuilder.rules.force import Force
from handbooks import models as hb

BookKey = tuple[str, str, int]  # (system, handbook code, revision), as HandbookData.key


@dataclass(frozen=True, slots=True)
class ProfileSheet:
    """One stat line: a unit's ratings, a weapon, or a team's line."""

    name: str
    type_code: str
    type_name: str
    applies_to: str  # unit | team | weapon | card
    columns: tuple  # ((code, name), ...) in the profile type's order, then any extra value keys
    values: dict
    rules: tuple = ()  # RuleData
    team: str = ""  # the team it belongs to, for team profiles

    def value(self, code: str, default: str = "") -> str:
        value = self.values.get(code)
        return default if value is None or value == "" else str(value)


@dataclass(frozen=True, slots=True)
class TeamSheet:
    name: str
    team_type: str = ""
    count: int = 1
    is_leader: bool = False
    is_transport: bool = False
    rules: tuple = ()  # RuleData


@dataclass(frozen=True, slots=True)
class UnitSheet:
    code: str
    name: str
    card_code: str = ""
    unit_type: str = ""
    description: str = ""
    teams: tuple = ()  # TeamSheet
    profiles: tuple = ()  # ProfileSheet, unit and weapon lines attached to the unit, then team lines
    rules: tuple = ()  # RuleData of the unit itself
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    def profiles_for(self, *applies_to: str) -> list:
        return [p for p in self.profiles if p.applies_to in applies_to]


def _book_of_units(force: Force) -> dict[BookKey, set[str]]:
    wanted: dict[BookKey, set[str]] = defaultdict(set)
    for formation in force.formations:
        for unit in formation.units:
            wanted[formation.handbook.key].add(unit.unit.code)
    for unit in force.support:
        wanted[force.handbook.key].add(unit.unit.code)
    return wanted


def _rules_by_owner(descriptor, owner_ids) -> dict[int, list[RuleData]]:
    """owner id -> its special rules, for one many-to-many field, in one query."""
    field_ = descriptor.field
    through = field_.remote_field.through
    owner, rule = field_.m2m_field_name(), field_.m2m_reverse_field_name()
    out: dict[int, list[RuleData]] = defaultdict(list)
    rows = through.objects.filter(**{f"{owner}_id__in": owner_ids}).values_list(
        f"{owner}_id", f"{rule}__code", f"{rule}__name", f"{rule}__summary")
    for owner_id, code, name, summary in rows:
        out[owner_id].append(RuleData(code, name, summary))
    return {k: sorted(v, key=lambda r: r.name.lower()) for k, v in out.items()}


def unit_sheets(force: Force) -> dict[tuple[BookKey, str], UnitSheet]:
    """(book key, unit code) -> UnitSheet for every unit in the force. Seven queries, or none for an empty force."""
    wanted = _book_of_units(force)
    if not wanted:
        return {}
    books = {
        (system, code, revision): pk
        for pk, system, code, revision in hb.Handbook.objects.filter(
            reduce(or_, (Q(system__code=s, code=c, revision=r) for s, c, r in wanted))
        ).values_list("pk", "system__code", "code", "revision")
    }
    key_of_book = {pk: key for key, pk in books.items()}
    unit_filter = [Q(handbook_id=books[key], code__in=codes) for key, codes in wanted.items() if key in books]
    if not unit_filter:
        return {}
    units = list(hb.UnitEntry.objects.filter(reduce(or_, unit_filter)).values(
        "id", "handbook_id", "code", "name", "card_code", "unit_type", "description", "extra"))
    unit_ids = [u["id"] for u in units]

    teams = list(hb.Team.objects.filter(unit_id__in=unit_ids).order_by("unit_id", "order", "pk").values(
        "id", "unit_id", "name", "team_type", "count", "is_leader", "is_transport"))
    team_rules = _rules_by_owner(hb.Team.special_rules, [t["id"] for t in teams])
    team_name = {t["id"]: t["name"] for t in teams}
    team_unit = {t["id"]: t["unit_id"] for t in teams}

    profiles = list(hb.Profile.objects.filter(Q(unit_id__in=unit_ids) | Q(team__unit_id__in=unit_ids))
                    .order_by("order", "pk").values(
                        "id", "unit_id", "team_id", "name", "values", "profile_type_id", "profile_type__code",
                        "profile_type__name", "profile_type__applies_to"))
    profile_rules = _rules_by_owner(hb.Profile.special_rules, [p["id"] for p in profiles])
    columns_of: dict[int, list[tuple[str, str]]] = defaultdict(list)
    for type_id, code, name in hb.Characteristic.objects.filter(
            profile_type_id__in={p["profile_type_id"] for p in profiles}).order_by("order", "pk").values_list(
            "profile_type_id", "code", "name"):
        columns_of[type_id].append((code, name))

    teams_of: dict[int, list[TeamSheet]] = defaultdict(list)
    for team in teams:
        teams_of[team["unit_id"]].append(TeamSheet(
            name=team["name"], team_type=team["team_type"], count=team["count"], is_leader=team["is_leader"],
            is_transport=team["is_transport"], rules=tuple(team_rules.get(team["id"], ()))))
    profiles_of: dict[int, list[ProfileSheet]] = defaultdict(list)
    for row in profiles:
        values = row["values"] if isinstance(row["values"], dict) else {}
        columns = list(columns_of[row["profile_type_id"]])
        known = {code for code, _ in columns}
        columns += [(key, key.replace("_", " ").capitalize()) for key in values if key not in known]
        owner_unit = row["unit_id"] if row["unit_id"] is not None else team_unit[row["team_id"]]
        applies_to = row["profile_type__applies_to"]
        if row["unit_id"] is None and applies_to == "unit":
            applies_to = "team"  # a unit-type line written on a team reads as that team's line
        profiles_of[owner_unit].append(ProfileSheet(
            name=row["name"], type_code=row["profile_type__code"], type_name=row["profile_type__name"],
            applies_to=applies_to, columns=tuple(columns), values=values,
            rules=tuple(profile_rules.get(row["id"], ())),
            team=team_name.get(row["team_id"], "") if row["team_id"] is not None else ""))

    data_of_book = {formation.handbook.key: formation.handbook for formation in force.formations}
    data_of_book[force.handbook.key] = force.handbook
    sheets = {}
    for unit in units:
        key = key_of_book[unit["handbook_id"]]
        book = data_of_book[key]
        unit_data = book.units.get(unit["code"])
        rule_codes = unit_data.rules if unit_data else ()
        rules = sorted((book.rules[c] for c in rule_codes if c in book.rules), key=lambda r: r.name.lower())
        # Team lines after the unit's own lines, so a card reads unit -> weapons -> teams.
        own = [p for p in profiles_of[unit["id"]] if not p.team]
        of_teams = [p for p in profiles_of[unit["id"]] if p.team]
        sheets[(key, unit["code"])] = UnitSheet(
            code=unit["code"], name=unit["name"], card_code=unit["card_code"], unit_type=unit["unit_type"],
            description=unit["description"], teams=tuple(teams_of[unit["id"]]), profiles=tuple(own + of_teams),
            rules=tuple(rules), extra=unit["extra"] or {})
    return sheets


def system_name(code: str) -> str:
    """The game system's name as printed on rosters ("" for a code the database does not know)."""
    return hb.GameSystem.objects.filter(code=code).values_list("name", flat=True).first() or ""


def roster_print_data(force: Force) -> dict:
    """What the renderer needs beyond the force and its report, read from the database: the unit sheets and the
    system's name (keyword arguments of ``render.roster_pdf_render`` and ``render.roster_html``)."""
    return {"sheets": unit_sheets(force), "system_name": system_name(force.system)}
