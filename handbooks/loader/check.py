"""Check a parsed data file: first against the JSON Schema, then its references.

Every problem is collected (never stop at the first) with a path such as
``formations[2].boxes[0].choices[1]``.
"""
import json
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from django.conf import settings
from jsonschema import Draft202012Validator

from .problems import LoadProblem, format_path

SCHEMA_PATH = settings.BASE_DIR / "docs" / "schemas" / "handbook.schema.json"


@lru_cache(maxsize=1)
def _validators():
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    defs = schema["$defs"]
    make = lambda name: Draft202012Validator({"$defs": defs, "$ref": f"#/$defs/{name}"})  # noqa: E731
    return {"system": make("system"), "handbook": make("handbook")}


@dataclass
class SystemInfo:
    """What a handbook may refer to in its game system."""

    code: str
    nations: set[str] = field(default_factory=set)
    # profile type code -> (applies_to, characteristic codes)
    profile_types: dict[str, tuple[str, set[str]]] = field(default_factory=dict)
    # code -> database key, for writing the handbook (None: not read with them)
    nation_keys: dict[str, int] | None = None
    profile_type_keys: dict[str, int] | None = None


def _schema_message(error) -> str:
    if error.validator == "oneOf" and error.context:
        # For a choice like "a code, or {unit: …}, or {formation: …}" say the closest reason.
        best = min(error.context, key=lambda e: len(list(e.absolute_path)))
        return best.message
    if error.validator == "additionalProperties":
        return error.message.replace("Additional properties are not allowed", "unknown field(s)")
    return error.message


def check_schema(doc, source: str) -> list[LoadProblem]:
    if not isinstance(doc, dict):
        return [LoadProblem(source, "", "the file must hold a mapping with 'kind: system' or 'kind: handbook'")]
    kind = doc.get("kind")
    if kind not in ("system", "handbook"):
        return [LoadProblem(source, "kind", f"must be 'system' or 'handbook', not {kind!r}")]
    validator = _validators()[kind]
    problems = []
    for error in sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path))):
        problems.append(LoadProblem(source, format_path(error.absolute_path), _schema_message(error)))
    return problems


def _duplicates(items, source: str, what: str, *path: str, key="code") -> list[LoadProblem]:
    """Problems for codes given more than once in ``items``; the path comes in pieces, joined only for a
    problem (most lists have none)."""
    if len(items) < 2:
        return []
    codes = [item.get(key) for item in items]
    if len(set(codes)) == len(codes):
        return []  # the usual case, seen with one set instead of counting every code
    counts = Counter(codes)
    problems = []
    for index, code in enumerate(codes):
        if counts[code] > 1:
            problems.append(LoadProblem(source, f"{''.join(path)}[{index}].{key}", f"duplicate {what} code {code!r}"))
    return problems


TEAM_PROFILES, UNIT_PROFILES = frozenset({"team", "weapon"}), frozenset({"unit", "weapon"})  # what they may hold


def check_handbook_references(doc: dict, source: str, system: SystemInfo | None) -> list[LoadProblem]:
    """Everything the schema cannot see: duplicate codes and unknown references."""
    p: list[LoadProblem] = []
    add = lambda path, msg: p.append(LoadProblem(source, path, msg))  # noqa: E731

    if system is None:
        add("system", f"unknown game system {doc['system']!r}; load its system file first")
        return p
    if doc["nation"] not in system.nations:
        add("nation", f"unknown nation {doc['nation']!r} in system {system.code!r}")
    for i, nation in enumerate(doc.get("allied_nations", [])):
        if nation not in system.nations:
            add(f"allied_nations[{i}]", f"unknown nation {nation!r} in system {system.code!r}")

    rules = doc.get("special_rules", [])
    variants = doc.get("variants", [])
    units = doc.get("units", [])
    formations = doc.get("formations", [])
    cards = doc.get("cards", [])
    p += _duplicates(rules, source, "special rule", "special_rules")
    p += _duplicates(variants, source, "variant", "variants")
    p += _duplicates(units, source, "unit", "units")
    p += _duplicates(formations, source, "formation", "formations")
    p += _duplicates(cards, source, "command card", "cards")
    p += _duplicates(doc.get("constraints", []), source, "constraint", "constraints")
    p += _duplicates(doc.get("support", []), source, "box", "support")

    rule_codes = {r["code"] for r in rules}
    variant_codes = {v["code"] for v in variants}
    unit_codes = {u["code"] for u in units}
    formation_codes = {f["code"] for f in formations}

    def refs(values, known, what, *path):
        """Report every code of ``values`` not in ``known``. The path comes in pieces, joined only for a
        problem: nearly every list is all known, and one set test sees that."""
        if not values or known.issuperset(values):
            return
        for i, code in enumerate(values):
            if code not in known:
                add(f"{''.join(path)}[{i}]", f"unknown {what} {code!r}")

    def check_profiles(profiles, allowed_targets, *pieces):  # the path in pieces, as for refs
        for i, prof in enumerate(profiles or []):
            ptype = system.profile_types.get(prof["type"])
            if ptype is None:
                add(f"{''.join(pieces)}[{i}].type", f"unknown profile type {prof['type']!r} in system {system.code!r}")
                continue
            applies_to, characteristics = ptype
            if applies_to not in allowed_targets:
                add(f"{''.join(pieces)}[{i}].type", f"profile type {prof['type']!r} is for a {applies_to}, not here")
            values = prof["values"]
            if not characteristics.issuperset(values):  # one set test for the usual case, all known
                for key in values:
                    if key not in characteristics:
                        add(f"{''.join(pieces)}[{i}].values.{key}", f"{prof['type']!r} has no characteristic {key!r}")
            if found := prof.get("rules"):
                refs(found, rule_codes, "special rule", *pieces, f"[{i}].rules")

    for ui, unit in enumerate(units):
        base = f"units[{ui}]"
        refs(unit.get("variants"), variant_codes, "variant", base, ".variants")
        refs(unit.get("rules"), rule_codes, "special rule", base, ".rules")
        source_code = unit.get("observer_source")
        if source_code is not None:
            if source_code not in unit_codes:
                add(f"{base}.observer_source", f"unknown unit {source_code!r}")
            elif not unit.get("observer"):
                add(f"{base}.observer_source", "only an observer unit has an observer source")
        avail = unit.get("available") or {}
        if "from" in avail and "to" in avail and avail["from"] > avail["to"]:
            add(f"{base}.available", f"'from' {avail['from']} is after 'to' {avail['to']}")
        sizes = unit["sizes"]
        p += _duplicates(sizes, source, "size", base, ".sizes")
        for si, size in enumerate(sizes):
            if found := size.get("variants"):
                refs(found, variant_codes, "variant", base, f".sizes[{si}].variants")
        groups = unit.get("upgrades", [])
        p += _duplicates(groups, source, "upgrade group", base, ".upgrades")
        for gi, group in enumerate(groups):
            gpath = f"{base}.upgrades[{gi}]"
            options = group["options"]
            p += _duplicates(options, source, "upgrade", gpath, ".options")
            if "max" in group and group.get("min", 0) > group["max"]:
                add(gpath, f"min {group['min']} is more than max {group['max']}")
            if group.get("min", 0) > len(options):
                add(gpath, f"min {group['min']} is more than the {len(options)} option(s) offered")
            for oi, option in enumerate(options):
                if found := option.get("variants"):
                    refs(found, variant_codes, "variant", gpath, f".options[{oi}].variants")
                if found := option.get("rules"):
                    refs(found, rule_codes, "special rule", gpath, f".options[{oi}].rules")
        teams = unit.get("teams", [])
        p += _duplicates(teams, source, "team", base, ".teams")
        for ti, team in enumerate(teams):
            if found := team.get("rules"):
                refs(found, rule_codes, "special rule", base, f".teams[{ti}].rules")
            if found := team.get("profiles"):
                check_profiles(found, TEAM_PROFILES, base, f".teams[{ti}].profiles")
        check_profiles(unit.get("profiles"), UNIT_PROFILES, base, ".profiles")

    def check_boxes(boxes, path):
        for bi, box in enumerate(boxes):
            bpath = f"{path}[{bi}]"
            if found := box.get("variants"):
                refs(found, variant_codes, "variant", bpath, ".variants")
            lo, hi = box_limits(box)
            if lo > hi:
                add(bpath, f"min {lo} is more than max {hi}")
            for ci, choice in enumerate(box["choices"]):
                if isinstance(choice, str):  # a unit's code alone
                    if choice not in unit_codes:
                        add(f"{bpath}.choices[{ci}]", f"unknown unit {choice!r}")
                    continue
                if "unit" in choice and choice["unit"] not in unit_codes:
                    add(f"{bpath}.choices[{ci}]", f"unknown unit {choice['unit']!r}")
                if "formation" in choice and choice["formation"] not in formation_codes:
                    add(f"{bpath}.choices[{ci}]", f"unknown formation {choice['formation']!r}")
                if found := choice.get("variants"):
                    refs(found, variant_codes, "variant", bpath, f".choices[{ci}].variants")

    for fi, formation in enumerate(formations):
        fpath = f"formations[{fi}]"
        refs(formation.get("variants"), variant_codes, "variant", fpath, ".variants")
        for ni, nation in enumerate(formation.get("allied_nations", [])):
            if nation not in system.nations:
                add(f"{fpath}.allied_nations[{ni}]", f"unknown nation {nation!r} in system {system.code!r}")
        p += _duplicates(formation["boxes"], source, "box", fpath, ".boxes")
        check_boxes(formation["boxes"], f"{fpath}.boxes")
    check_boxes(doc.get("support", []), "support")

    for ci, card in enumerate(cards):
        targets = card.get("targets") or {}
        refs(targets.get("units"), unit_codes, "unit", f"cards[{ci}].targets.units")
        refs(targets.get("formations"), formation_codes, "formation", f"cards[{ci}].targets.formations")

    for ci, constraint in enumerate(doc.get("constraints", [])):
        cpath = f"constraints[{ci}]"
        if "min" in constraint and "max" in constraint and constraint["min"] > constraint["max"]:
            add(cpath, f"min {constraint['min']} is more than max {constraint['max']}")
        known = {"unit": unit_codes, "formation": formation_codes, "card": {c["code"] for c in cards}}.get(
            constraint["target"]["kind"]
        )
        if known is not None:
            refs(constraint["target"]["codes"], known, constraint["target"]["kind"], cpath, ".target.codes")
    return p


DEFAULT_LIMITS = {"hq": (1, 1), "black": (1, 1), "grey": (0, 1), "options": (0, 1)}


def box_limits(box: dict) -> tuple[int, int]:
    lo, hi = DEFAULT_LIMITS[box["kind"]]
    lo = box.get("min", lo)
    hi = box.get("max", max(hi, lo))
    return lo, hi
