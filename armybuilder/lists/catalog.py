"""Build the engine's immutable HandbookData from the database.

A handbook revision never changes once written, so its data is built once with
a fixed number of queries, whatever its size, and cached twice: in this
process, and in the shared cache (Redis in production) under the revision's
content hash, so a new or restarted process gets it with one query.
"""
import dataclasses
import gc
import hashlib
import threading
from collections import defaultdict

from django.core.cache import cache
from django.db.models.signals import post_delete

from armybuilder.rules import data as g
from armybuilder.rules.battlescribe.catalogue import Catalogue
from handbooks import models as m

_cache: dict[int, g.HandbookData] = {}
_ids: dict[tuple[str, str, int], int] = {}
_lock = threading.Lock()


def clear_cache() -> None:
    _cache.clear()
    _ids.clear()
    gc.unfreeze()  # what was frozen with the books (handbook_data) is looked at again, and freed if unreachable


def _forget_handbook(sender, instance, **kwargs) -> None:
    # Revisions are immutable, but a deleted row's key may be reused by the database.
    clear_cache()


def handbook_id(system: str, code: str, revision: int) -> int | None:
    key = (system, code, revision)
    pk = _ids.get(key)
    if pk is None:
        pk = m.Handbook.objects.filter(system__code=system, code=code, revision=revision).values_list(
            "pk", flat=True).first()
        if pk is not None:
            _ids[key] = pk
    return pk


post_delete.connect(_forget_handbook, sender=m.Handbook, dispatch_uid="lists.gamedata.forget_handbook")


# The shape of the snapshot classes: a deploy that changes them never reads an old pickled snapshot.
_SHAPE = hashlib.sha256(repr(sorted(
    (cls.__name__, [f.name for f in dataclasses.fields(cls)]) for cls in vars(g).values()
    if isinstance(cls, type) and dataclasses.is_dataclass(cls))).encode()).hexdigest()[:10]
SHARED_SECONDS = 7 * 24 * 60 * 60


def handbook_data(handbook_id: int) -> g.HandbookData:
    data = _cache.get(handbook_id)
    if data is None:
        data = _shared(handbook_id)
        with _lock:
            _cache[handbook_id] = data
        # A book is hundreds of thousands of objects that live as long as the process: a full collection would
        # walk them all (some 200 ms for the largest, at any request). Frozen, the collector leaves them (and
        # whatever else lives now) alone; clear_cache lets it see them again.
        gc.freeze()
    return data


def _shared(handbook_id: int) -> g.HandbookData:
    digest = m.Handbook.objects.filter(pk=handbook_id).values_list("content_hash", flat=True).first()
    if not digest:
        return _build(handbook_id)
    key = f"gamedata:{_SHAPE}:{handbook_id}:{digest}"
    data = cache.get(key)
    if data is None:
        data = _build(handbook_id)
        cache.set(key, data, SHARED_SECONDS)
    return data


def _m2m(descriptor, owner_filter: dict, code_field: str = "code") -> dict:
    """owner id -> frozenset of target codes, for one many-to-many field, in one query."""
    field = descriptor.field
    through = field.remote_field.through
    owner, target = field.m2m_field_name(), field.m2m_reverse_field_name()
    filters = {f"{owner}__{k}": v for k, v in owner_filter.items()}
    out = defaultdict(set)
    for owner_id, code in through.objects.filter(**filters).values_list(f"{owner}_id", f"{target}__{code_field}"):
        out[owner_id].add(code)
    return {k: frozenset(v) for k, v in out.items()}


def _build(handbook_id: int) -> g.HandbookData:
    hb = m.Handbook.objects.select_related("system", "nation").get(pk=handbook_id)
    by_book = {"handbook_id": hb.pk}
    by_unit_book = {"unit__handbook_id": hb.pk}
    allied = frozenset(hb.allied_nations.values_list("code", flat=True))
    variants = dict(m.Variant.objects.filter(**by_book).values_list("code", "name"))
    rules = {code: g.RuleData(code, name, summary) for code, name, summary in
             m.SpecialRule.objects.filter(**by_book).values_list("code", "name", "summary")}

    unit_variants = _m2m(m.UnitEntry.variants, by_book)
    unit_rules = _m2m(m.UnitEntry.special_rules, by_book)
    size_variants = _m2m(m.SizeOption.variants, by_unit_book)
    upgrade_variants = _m2m(m.Upgrade.variants, {"group__unit__handbook_id": hb.pk})
    upgrade_rules = _m2m(m.Upgrade.special_rules, {"group__unit__handbook_id": hb.pk})

    sizes = defaultdict(list)
    for row in m.SizeOption.objects.filter(**by_unit_book).values("id", "unit_id", "code", "label", "teams",
                                                                  "points", "extra"):
        sizes[row["unit_id"]].append(g.SizeData(row["code"], row["label"], row["teams"], row["points"],
                                                size_variants.get(row["id"], g.EMPTY), row["extra"] or {}))
    upgrades = defaultdict(list)
    for row in m.Upgrade.objects.filter(group__unit__handbook_id=hb.pk).values(
            "id", "group_id", "group__code", "code", "name", "points", "cost_basis", "kind", "max_quantity",
            "adds_game_units", "available_from", "available_to", "extra"):
        upgrades[row["group_id"]].append(g.UpgradeData(
            code=f"{row['group__code']}/{row['code']}", name=row["name"], points=row["points"],
            cost_basis=row["cost_basis"], kind=row["kind"], max_quantity=row["max_quantity"],
            adds_game_units=row["adds_game_units"], available_from=row["available_from"],
            available_to=row["available_to"], variants=upgrade_variants.get(row["id"], g.EMPTY),
            rules=tuple(sorted(upgrade_rules.get(row["id"], ()))), extra=row["extra"] or {},
        ))
    groups = defaultdict(list)
    for row in m.UpgradeGroup.objects.filter(**by_unit_book).values("id", "unit_id", "code", "name", "min_choices",
                                                                    "max_choices"):
        groups[row["unit_id"]].append(g.UpgradeGroupData(row["code"], row["name"], row["min_choices"],
                                                         row["max_choices"], tuple(upgrades[row["id"]])))
    teams = defaultdict(list)
    for row in m.Team.objects.filter(**by_unit_book).values("unit_id", "code", "name", "team_type", "count",
                                                            "is_leader", "is_small", "is_transport", "man_portable",
                                                            "towed"):
        unit_id = row.pop("unit_id")
        teams[unit_id].append(g.TeamData(**row))

    units = {}
    unit_fields = ["id", "code", "name", "card_code", "unit_type", "independent", "is_observer",
                   "observer_source__code", "game_units", "is_standard", "available_from", "available_to",
                   "availability_note", "off_table",
                   "is_observation_post", "quality", "keywords", "is_vehicle_unit", "has_platoon_leader",
                   "artillery_weight", "transport_capacity", "morale_level", "unit_class", "weapon_class",
                   "armour_class", "hq_level", "extra"]
    for row in m.UnitEntry.objects.filter(**by_book).values(*unit_fields):
        uid = row.pop("id")
        row["observer_source"] = row.pop("observer_source__code")
        row["keywords"] = tuple(row["keywords"] or ())
        units[row["code"]] = g.UnitData(
            **row, sizes=tuple(sizes[uid]), groups=tuple(groups[uid]), teams=tuple(teams[uid]),
            variants=unit_variants.get(uid, g.EMPTY), rules=tuple(sorted(unit_rules.get(uid, ()))),
        )

    choice_variants = _m2m(m.BoxChoice.variants, {"box__handbook_id": hb.pk})
    choices = defaultdict(list)
    for row in m.BoxChoice.objects.filter(box__handbook_id=hb.pk).values("id", "box_id", "unit__code",
                                                                         "formation__code", "option_cost",
                                                                         "max_count"):
        choices[row["box_id"]].append(g.ChoiceData(row["unit__code"], row["formation__code"], row["option_cost"],
                                                   row["max_count"], choice_variants.get(row["id"], g.EMPTY)))
    box_variants = _m2m(m.Box.variants, by_book)
    boxes_by_formation = defaultdict(list)
    boxes = {}
    for row in m.Box.objects.filter(**by_book).values("id", "code", "name", "kind", "column", "part_of_formation",
                                                      "min_picks", "max_picks", "formation__code", "extra"):
        box = g.BoxData(code=row["code"], name=row["name"], kind=row["kind"], column=row["column"],
                        part_of_formation=row["part_of_formation"], min_picks=row["min_picks"],
                        max_picks=row["max_picks"], formation=row["formation__code"],
                        choices=tuple(choices[row["id"]]), variants=box_variants.get(row["id"], g.EMPTY),
                        extra=row["extra"] or {})
        boxes[box.code] = box
        boxes_by_formation[box.formation].append(box)

    formation_allies = _m2m(m.Formation.allied_nations, by_book)
    formation_variants = _m2m(m.Formation.variants, by_book)
    formations = {}
    for row in m.Formation.objects.filter(**by_book).values("id", "code", "name", "card_code", "higher_formation",
                                                            "is_standard", "grants_options", "extra"):
        fid = row.pop("id")
        row["extra"] = row["extra"] or {}
        formations[row["code"]] = g.FormationData(
            **row, allied_nations=formation_allies.get(fid, g.EMPTY), variants=formation_variants.get(fid, g.EMPTY),
            boxes=tuple(boxes_by_formation[row["code"]]),
        )

    card_units = _m2m(m.CommandCard.target_units, by_book)
    card_formations = _m2m(m.CommandCard.target_formations, by_book)
    cards = {}
    for row in m.CommandCard.objects.filter(**by_book).values("id", "code", "name", "scope", "points", "cost_basis",
                                                              "max_per_force", "max_per_target", "changes_rating",
                                                              "extra"):
        cid = row.pop("id")
        row["extra"] = row["extra"] or {}
        cards[row["code"]] = g.CardData(**row, target_units=card_units.get(cid, g.EMPTY),
                                        target_formations=card_formations.get(cid, g.EMPTY))
    constraints = tuple(
        g.ConstraintData(code, description, scope, kind, frozenset(codes), lo, hi)
        for code, description, scope, kind, codes, lo, hi in m.Constraint.objects.filter(**by_book).values_list(
            "code", "description", "scope", "target_kind", "target_codes", "min_count", "max_count")
    )
    catalogue = None
    document = m.HandbookCatalogue.objects.filter(handbook_id=hb.pk).values_list("document", flat=True).first()
    if document is not None:
        catalogue = Catalogue(document)
    return g.HandbookData(
        code=hb.code, revision=hb.revision, name=hb.name, system=hb.system.code, uses_points=hb.system.uses_points,
        nation=hb.nation.code, nation_name=hb.nation.name, nation_side=hb.nation.side,
        order_card_base=hb.nation.order_card_base, activation_modifier=hb.nation.activation_modifier,
        period=hb.period, higher_formation=hb.higher_formation, points_set=hb.points_set, allied_nations=allied,
        variants=variants, units=units, formations=formations, boxes=boxes,
        support_boxes=tuple(boxes_by_formation[None]), cards=cards, constraints=constraints, rules=rules,
        system_name=hb.system.name, source=hb.source, extra=hb.extra, catalogue=catalogue,
    )
