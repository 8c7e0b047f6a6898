"""Write checked data files into the database.

Handbook rows are written with one insert per table (a BattleScribe library
has tens of thousands of entries, see rows.py) inside the caller's transaction.
"""
import hashlib
import json
from functools import cache

from django.db.models import Max

from handbooks import models as m

from .check import SystemInfo, box_limits
from .rows import KeyReserver, Table, insert_pairs, insert_rows


def content_hash(doc: dict) -> str:
    """Hash of what the file says, ignoring an explicit revision number."""
    body = {k: v for k, v in doc.items() if k != "revision"}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def write_system(doc: dict) -> tuple[m.GameSystem, bool, bool]:
    """Create or update a game system with its nations and profile types: (system, created, changed)."""
    system, created = m.GameSystem.objects.get_or_create(
        code=doc["code"], defaults={"name": doc["name"]}
    )
    system_created = created
    changed = created
    fields = {"name": doc["name"], "uses_points": doc.get("uses_points", True),
              "description": doc.get("description", ""),
              "default_points_limit": doc.get("default_points_limit")}
    if any(getattr(system, k) != v for k, v in fields.items()):
        for k, v in fields.items():
            setattr(system, k, v)
        system.save()
        changed = True
    for nation_doc in doc.get("nations", []):
        values = {
            "name": nation_doc["name"],
            "side": nation_doc.get("side", ""),
            "order_card_base": nation_doc.get("order_card_base"),
            "activation_modifier": nation_doc.get("activation_modifier"),
        }
        nation, created = m.Nation.objects.get_or_create(system=system, code=nation_doc["code"], defaults=values)
        if not created and any(getattr(nation, k) != v for k, v in values.items()):
            m.Nation.objects.filter(pk=nation.pk).update(**values)
            changed = True
        changed |= created
    for order, ptype_doc in enumerate(doc.get("profile_types", [])):
        values = {"name": ptype_doc["name"], "applies_to": ptype_doc.get("applies_to", "unit"), "order": order}
        ptype, created = m.ProfileType.objects.get_or_create(system=system, code=ptype_doc["code"], defaults=values)
        if not created and any(getattr(ptype, k) != v for k, v in values.items()):
            m.ProfileType.objects.filter(pk=ptype.pk).update(**values)
            changed = True
        changed |= created
        for c_order, char in enumerate(ptype_doc["characteristics"]):
            values = {"name": char["name"], "order": c_order}
            obj, created = m.Characteristic.objects.get_or_create(profile_type=ptype, code=char["code"],
                                                                  defaults=values)
            if not created and (obj.name, obj.order) != (values["name"], values["order"]):
                m.Characteristic.objects.filter(pk=obj.pk).update(**values)
                changed = True
            changed |= created
    return system, system_created, changed


def extend_system(system: m.GameSystem, doc: dict) -> bool:
    """Add the nations, profile types and characteristics ``doc`` has and the system lacks; change nothing
    that is there already (names, sides, order). Returns whether anything was added. What is new is
    written with one insert per table, in the document's order."""
    nations = set(system.nations.values_list("code", flat=True))
    new_nations = []
    for nation_doc in doc.get("nations", []):
        if nation_doc["code"] not in nations:
            new_nations.append(m.Nation(system=system, code=nation_doc["code"], name=nation_doc["name"],
                                        side=nation_doc.get("side", "")))
            nations.add(nation_doc["code"])
    ptypes = {p.code: p for p in system.profile_types.prefetch_related("characteristics")}
    next_order = len(ptypes)
    new_ptypes, new_chars = [], []  # new_chars: (profile type, its characteristic) in the document's order
    for ptype_doc in doc.get("profile_types", []):
        ptype = ptypes.get(ptype_doc["code"])
        if ptype is None:
            ptype = m.ProfileType(system=system, code=ptype_doc["code"], name=ptype_doc["name"],
                                  applies_to=ptype_doc.get("applies_to", "unit"), order=next_order)
            new_ptypes.append(ptype)
            next_order += 1
            have = set()
        else:
            have = {c.code for c in ptype.characteristics.all()}
        for order, char in enumerate(ptype_doc["characteristics"]):
            if char["code"] not in have:
                new_chars.append((ptype, m.Characteristic(code=char["code"], name=char["name"],
                                                          order=len(have) + order)))
                have.add(char["code"])
    m.Nation.objects.bulk_create(new_nations)
    m.ProfileType.objects.bulk_create(new_ptypes)  # SQLite and PostgreSQL set their keys: the characteristics
    if any(p.pk is None for p in new_ptypes):  # point at them; a database that does not is asked for them
        keys = dict(m.ProfileType.objects.filter(system=system, code__in=[p.code for p in new_ptypes])
                    .values_list("code", "pk"))
        for ptype in new_ptypes:
            ptype.pk = keys[ptype.code]
    for ptype, char in new_chars:
        char.profile_type = ptype
    m.Characteristic.objects.bulk_create([char for _, char in new_chars])
    return bool(new_nations or new_ptypes or new_chars)


class _M2M:
    """Collects many-to-many links (owner key, target key) and writes each through-table in one insert."""

    def __init__(self):
        self.links: dict = {}

    def adder(self, descriptor, by_code: dict):
        """A function ``add(owner, codes)`` that links ``owner`` to the key of each of ``codes`` (none for no
        list) through ``descriptor``'s table: made once per table, as a book has tens of thousands of
        lists to link, most of them empty."""
        pairs = self.links.setdefault(descriptor.field, [])

        def add(owner: int, codes) -> None:
            if codes:
                pairs.extend([(owner, by_code[c]) for c in codes])
        return add

    def link(self, descriptor, by_code: dict, owners: list[int], docs: list[dict], name: str) -> None:
        """Link each of ``owners`` to the keys of the codes its document (in ``docs``) lists under ``name``:
        as an ``adder`` per row, for the tables whose rows are linked in a loop of their own."""
        pairs = self.links.setdefault(descriptor.field, [])
        for owner, d in zip(owners, docs, strict=True):
            if codes := d.get(name):
                pairs.extend([(owner, by_code[c]) for c in codes])

    def flush(self) -> None:
        for field, pairs in self.links.items():
            insert_pairs(field.remote_field.through, field.m2m_column_name(), field.m2m_reverse_name(), pairs)


@cache
def _table(model) -> Table:
    return Table(model)


# The largest tables' rows are tuples, in these columns' order: a library has ~30,000 such rows, and a dict
# per row costs as much to build and read back as the rest of the row's way to the statement.
SIZE_COLUMNS = ("unit_id", "code", "label", "teams", "points", "order", "extra")
GROUP_COLUMNS = ("unit_id", "code", "name", "min_choices", "max_choices", "order")
UPGRADE_COLUMNS = ("group_id", "code", "name", "points", "cost_basis", "kind", "max_quantity", "adds_game_units",
                   "available_from", "available_to", "order", "extra")
PROFILE_COLUMNS = ("profile_type_id", "unit_id", "team_id", "name", "values", "order")
BOX_COLUMNS = ("handbook_id", "formation_id", "code", "name", "column", "kind", "part_of_formation", "min_picks",
               "max_picks", "order", "extra")
CHOICE_COLUMNS = ("box_id", "unit_id", "formation_id", "option_cost", "max_count", "order")


@cache
def _ordered(model, columns: tuple[str, ...]) -> Table:
    """The table whose rows are tuples in the order of ``columns``, which must name every column: a tuple
    has no column left out to take the field's default."""
    table = Table(model, list(columns))
    if sorted(columns) != sorted(_table(model).names):
        raise ValueError(f"{model.__name__} rows as tuples must give every column, not only {columns}")
    return table


@cache
def _keyless(model) -> Table:
    """A table whose rows nothing written with them points at: the database gives the keys."""
    return Table(model, with_key=False)


def write_handbook(doc: dict, *, system: m.GameSystem, source: str, source_kind: str = "file",
                   digest: str | None = None, keys: SystemInfo | None = None, revision: int | None = None,
                   retire_current: bool = True, reserver: KeyReserver | None = None) -> m.Handbook:
    """Create a new revision of the handbook described by ``doc`` (already checked).

    Every table is written with one insert whatever its number of rows, keys reserved up front
    (:mod:`.rows`): the number of queries does not grow with the size of the book. ``keys``: the system's
    nations and profile types with their keys, when the caller read them (once for many books). A caller
    that read the book's revisions itself says its new ``revision`` (else the document's, else the next
    one) and whether there is a current one to retire (``retire_current``). ``reserver``: the transaction's
    key reserver, when it writes many books."""
    digest = digest or content_hash(doc)
    reserver = reserver or KeyReserver()

    def _insert(model, rows: list[dict], keys: list[int] | None = None) -> list[int]:
        return insert_rows(_table(model), rows, keys, reserver)

    def _insert_tuples(model, columns: tuple[str, ...], rows: list[tuple]) -> list[int]:
        return insert_rows(_ordered(model, columns), rows, None, reserver)

    if keys is not None and keys.code == system.code and keys.nation_keys is not None \
            and keys.profile_type_keys is not None:
        nations, ptypes = keys.nation_keys, keys.profile_type_keys
    else:
        nations = dict(system.nations.values_list("code", "pk"))
        ptypes = dict(system.profile_types.values_list("code", "pk"))

    previous = m.Handbook.objects.filter(system=system, code=doc["code"])
    revision = revision or doc.get("revision") or (previous.aggregate(r=Max("revision"))["r"] or 0) + 1
    if retire_current:
        previous.filter(is_current=True).update(is_current=False)

    handbook = m.Handbook.objects.create(
        system=system, code=doc["code"], revision=revision, name=doc["name"], nation_id=nations[doc["nation"]],
        period=doc.get("period", ""), higher_formation=doc.get("higher_formation", ""),
        points_set=doc.get("points_set", ""), illustrative=doc.get("illustrative", False),
        description=doc.get("description", ""), source=source_kind, source_ref=source[:300],
        content_hash=digest, is_current=True, extra=doc.get("extra", {}),
    )
    book = handbook.pk
    links = _M2M()
    links.adder(m.Handbook.allied_nations, nations)(book, doc.get("allied_nations"))
    if doc.get("catalogue"):
        # As the other rows (not Model.create): a catalogue document is megabytes of JSON, which a debug cursor
        # would quote a second time to record the statement.
        insert_rows(_keyless(m.HandbookCatalogue), [{"handbook_id": book, "document": doc["catalogue"]}])

    rule_docs = doc.get("special_rules", [])
    rule_keys = _insert(m.SpecialRule, [{"handbook_id": book, "code": r["code"], "name": r["name"],
                                         "summary": r.get("summary", "")} for r in rule_docs])
    rule_by_code = {r["code"]: k for r, k in zip(rule_docs, rule_keys, strict=False)}
    variant_docs = doc.get("variants", [])
    variant_keys = _insert(m.Variant, [{"handbook_id": book, "code": v["code"], "name": v["name"],
                                        "symbol": v.get("symbol", "")} for v in variant_docs])
    variant_by_code = {v["code"]: k for v, k in zip(variant_docs, variant_keys, strict=False)}

    unit_docs = doc.get("units", [])
    unit_keys = reserver.reserve(m.UnitEntry, len(unit_docs))
    unit_by_code = {u["code"]: k for u, k in zip(unit_docs, unit_keys, strict=False)}
    units = []
    for order, u in enumerate(unit_docs):
        avail = u.get("available") or {}
        units.append({
            "handbook_id": book, "code": u["code"], "name": u["name"], "card_code": u.get("card_code", ""),
            "unit_type": u.get("type", ""), "description": u.get("description", ""), "order": order,
            "independent": u.get("independent", False), "is_observer": u.get("observer", False),
            "observer_source_id": unit_by_code[u["observer_source"]] if u.get("observer_source") else None,
            "game_units": u.get("game_units", 1), "is_standard": u.get("standard", False),
            "available_from": avail.get("from"), "available_to": avail.get("to"),
            "availability_note": avail.get("note", ""), "off_table": u.get("off_table", False),
            "is_observation_post": u.get("observation_post", False), "quality": u.get("quality", ""),
            "keywords": u.get("keywords", []), "is_vehicle_unit": u.get("vehicle_unit", False),
            "has_platoon_leader": u.get("platoon_leader", False), "artillery_weight": u.get("artillery_weight", ""),
            "transport_capacity": u.get("transport_capacity"), "morale_level": u.get("morale", ""),
            "unit_class": u.get("unit_class", ""), "weapon_class": u.get("weapon_class", ""),
            "armour_class": u.get("armour_class", ""), "hq_level": u.get("hq_level", ""), "extra": u.get("extra", {}),
        })
    _insert(m.UnitEntry, units, unit_keys)
    links.link(m.UnitEntry.variants, variant_by_code, unit_keys, unit_docs, "variants")
    links.link(m.UnitEntry.special_rules, rule_by_code, unit_keys, unit_docs, "rules")

    sizes, size_docs, groups, group_docs, teams, team_docs, profiles, profile_docs = [], [], [], [], [], [], [], []
    for key, u in zip(unit_keys, unit_docs, strict=False):
        for order, s in enumerate(u["sizes"]):
            sizes.append((key, s["code"], s["label"], s.get("teams", 1), s.get("points", 0), order,  # SIZE_COLUMNS
                          s.get("extra", {})))
            size_docs.append(s)
        for order, g in enumerate(u.get("upgrades", [])):
            groups.append((key, g["code"], g["name"], g.get("min", 0), g.get("max"), order))  # GROUP_COLUMNS
            group_docs.append(g)
        for order, t in enumerate(u.get("teams", [])):
            teams.append({"unit_id": key, "code": t["code"], "name": t["name"], "team_type": t.get("type", ""),
                          "count": t.get("count", 1), "is_leader": t.get("leader", False),
                          "is_small": t.get("small", False), "is_transport": t.get("transport", False),
                          "man_portable": t.get("man_portable", False), "towed": t.get("towed", False),
                          "order": order})
            team_docs.append(t)
        for order, pr in enumerate(u.get("profiles", [])):
            profiles.append((ptypes[pr["type"]], key, None, pr["name"], pr["values"], order))  # PROFILE_COLUMNS
            profile_docs.append(pr)
    links.link(m.SizeOption.variants, variant_by_code, _insert_tuples(m.SizeOption, SIZE_COLUMNS, sizes), size_docs,
               "variants")
    upgrades, upgrade_docs = [], []
    for key, g in zip(_insert_tuples(m.UpgradeGroup, GROUP_COLUMNS, groups), group_docs, strict=False):
        for order, o in enumerate(g["options"]):
            avail = o.get("available") or {}
            kind = o.get("kind", "option")
            upgrades.append((  # UPGRADE_COLUMNS
                key, o["code"], o["name"], o.get("points", 0), o.get("per", "item" if kind == "item" else "unit"),
                kind, o.get("max_quantity", 1), o.get("game_units", 1 if kind == "transport" else 0),
                avail.get("from"), avail.get("to"), order, o.get("extra", {}),
            ))
            upgrade_docs.append(o)
    upgrade_keys = _insert_tuples(m.Upgrade, UPGRADE_COLUMNS, upgrades)
    links.link(m.Upgrade.variants, variant_by_code, upgrade_keys, upgrade_docs, "variants")
    links.link(m.Upgrade.special_rules, rule_by_code, upgrade_keys, upgrade_docs, "rules")
    team_rules = links.adder(m.Team.special_rules, rule_by_code)
    for key, t in zip(_insert(m.Team, teams), team_docs, strict=False):
        team_rules(key, t.get("rules"))
        for order, pr in enumerate(t.get("profiles", [])):
            profiles.append((ptypes[pr["type"]], None, key, pr["name"], pr["values"], order))  # PROFILE_COLUMNS
            profile_docs.append(pr)
    links.link(m.Profile.special_rules, rule_by_code, _insert_tuples(m.Profile, PROFILE_COLUMNS, profiles),
               profile_docs, "rules")

    formation_docs = doc.get("formations", [])
    formation_keys = _insert(m.Formation, [
        {"handbook_id": book, "code": f["code"], "name": f["name"], "card_code": f.get("card_code", ""),
         "higher_formation": f.get("higher_formation", ""), "instructions": f.get("instructions", ""),
         "order": order, "is_standard": f.get("standard", False), "grants_options": f.get("grants_options", 0),
         "extra": f.get("extra", {})}
        for order, f in enumerate(formation_docs)
    ])
    formation_by_code = {f["code"]: k for f, k in zip(formation_docs, formation_keys, strict=False)}
    boxes, box_docs = [], []

    def queue_boxes(formation, prefix, box_list):
        for order, b in enumerate(box_list):
            lo, hi = box_limits(b)
            column = b.get("column", "")
            boxes.append((  # BOX_COLUMNS
                book, formation, f"{prefix}/{b['code']}", b["name"], column, b["kind"],
                b.get("part_of_formation", formation is not None and column.lower() != "support"),
                lo, hi, order, b.get("extra", {}),
            ))
            box_docs.append(b)

    formation_variants = links.adder(m.Formation.variants, variant_by_code)
    formation_allies = links.adder(m.Formation.allied_nations, nations)
    for key, f in zip(formation_keys, formation_docs, strict=False):
        formation_variants(key, f.get("variants"))
        formation_allies(key, f.get("allied_nations"))
        queue_boxes(key, f["code"], f["boxes"])
    queue_boxes(None, "force", doc.get("support", []))
    choices, choice_docs = [], []
    box_variants = links.adder(m.Box.variants, variant_by_code)
    for key, b in zip(_insert_tuples(m.Box, BOX_COLUMNS, boxes), box_docs, strict=False):
        box_variants(key, b.get("variants"))
        for order, c in enumerate(b["choices"]):
            c = {"unit": c} if isinstance(c, str) else c
            choices.append((key, unit_by_code.get(c.get("unit")), formation_by_code.get(c.get("formation")),
                            c.get("option_cost", 0), c.get("max"), order))  # CHOICE_COLUMNS
            choice_docs.append(c)
    links.link(m.BoxChoice.variants, variant_by_code, _insert_tuples(m.BoxChoice, CHOICE_COLUMNS, choices),
               choice_docs, "variants")

    card_docs = doc.get("cards", [])
    card_keys = _insert(m.CommandCard, [
        {"handbook_id": book, "code": c["code"], "name": c["name"], "card_code": c.get("card_code", ""),
         "scope": c["scope"], "points": c.get("points", 0), "cost_basis": c.get("per", "card"),
         "max_per_force": c.get("max_per_force"), "max_per_target": c.get("max_per_target", 1),
         "changes_rating": c.get("changes_rating", False), "summary": c.get("summary", ""), "order": order,
         "extra": c.get("extra", {})}
        for order, c in enumerate(card_docs)
    ])
    card_units = links.adder(m.CommandCard.target_units, unit_by_code)
    card_formations = links.adder(m.CommandCard.target_formations, formation_by_code)
    for key, c in zip(card_keys, card_docs, strict=False):
        targets = c.get("targets") or {}
        card_units(key, targets.get("units"))
        card_formations(key, targets.get("formations"))

    _insert(m.Constraint, [
        {"handbook_id": book, "code": c["code"], "description": c["description"], "scope": c.get("scope", "force"),
         "target_kind": c["target"]["kind"], "target_codes": c["target"]["codes"], "min_count": c.get("min"),
         "max_count": c.get("max")}
        for c in doc.get("constraints", [])
    ])
    links.flush()
    return handbook
