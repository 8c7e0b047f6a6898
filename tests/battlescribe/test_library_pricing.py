"""The real BSData library in the database: BattleScribe prices inside the engine, the cheapest
legal force of every formation, and units priced at 0.

The library is imported once for this module (rolled back afterwards). Every pinned price was
worked out by hand from the catalogue XML; comments name entry ids only (no catalogue text here).
"""
import pytest

from armybuilder.interchange.battlescribe import evaluate_costs
from armybuilder.interchange.battlescribe.cheapest import cheapest_force, engine_check, required_upgrades
from armybuilder.lists.gamedata import handbook_data, handbook_id
from armybuilder.rules import bspricing
from armybuilder.rules.force import Force, ForceCard, ForceFormation, ForceUnit, ForceUpgrade
from handbooks.models import Handbook

from .helpers import same_list

pytestmark = [pytest.mark.bsdata, pytest.mark.django_db]

PTS = "995a-4d67-6920-bfe4"


@pytest.fixture
def book(library_in_db, db):
    def load(catalogue_id):
        return handbook_data(handbook_id("fow4", catalogue_id, Handbook.objects.get(code=catalogue_id).revision))
    return load


# -- building forces by BattleScribe ids ---------------------------------------------------------
def formation_with_entry(data, entry_id):
    return next(f for f in data.formations.values() if f.extra["bs"]["entry"] == entry_id)


def box_offering(boxes, unit_code):
    return next(b for b in boxes if b.unit_choice(unit_code))


def size_with_entry(unit, entry_id):
    return next(s for s in unit.sizes if s.extra.get("bs", {}).get("entry") == entry_id)


def option_with_entry(unit, entry_id):
    return next(u for g in unit.groups for u in g.upgrades if u.extra.get("bs", {}).get("entry") == entry_id)


def card_with_path(data, path):
    return next(c for c in data.cards.values() if c.extra["bs"]["path"] == path)


def unit_in(boxes, data, unit_code, size, upgrades=(), pointer="/formations/0/units/0", formation_index=0):
    unit = data.units[unit_code]
    return ForceUnit(pointer=pointer, box=box_offering(boxes, unit_code), unit=unit, size=size,
                     upgrades=tuple(upgrades), formation_index=formation_index)


def force_of(data, formation=None, units=(), support=(), cards=()):
    formations = ()
    if formation is not None:
        formations = (ForceFormation(pointer="/formations/0", index=0, handbook=data, formation=formation,
                                     units=tuple(units)),)
    return Force(system="fow4", handbook=data, formations=formations, support=tuple(support), cards=tuple(cards))


def priced(force):
    pricing = bspricing.BattleScribePricing(force)
    assert pricing.issues == []
    return pricing


# -- pinned prices, one per modifier kind found in the library ------------------------------------
def test_model_count_set_prices_a_tank_platoon_by_its_number_of_tanks(book):
    # catalogue 1db5-94f0-8315-42a2, unit 9892-987c-62b9-08c8 (14 pts; set 13/17/21 for 3/4/5 models);
    # models a298-c841-065c-685c (0 each, the group default) and ea6b-624c-dac5-2c88 (1 each).
    data = book("1db5-94f0-8315-42a2")
    unit = data.units["9892-987c-62b9-08c8"]
    boxes = [b for f in data.formations.values() for b in f.boxes] + list(data.support_boxes)
    box = box_offering(boxes, unit.code)
    dear = option_with_entry(unit, "ea6b-624c-dac5-2c88")
    for teams, points in ((3, 13), (4, 17), (5, 21)):
        size = next(s for s in unit.sizes if s.teams == teams)
        fu = ForceUnit(pointer="/support/0", box=box, unit=unit, size=size)
        assert priced(force_of(data, support=[fu])).unit(fu) == points
    five = next(s for s in unit.sizes if s.teams == 5)
    fu = ForceUnit(pointer="/support/0", box=box, unit=unit, size=five, upgrades=(ForceUpgrade(dear, 3),))
    assert priced(force_of(data, support=[fu])).unit(fu) == 21 + 3


def test_upgrade_dependent_increment_adds_to_the_size(book):
    # catalogue c97d-9ffb-d8c2-9cd8, unit 59c3-3306-e00a-09b2 (0 pts) with size a4e4-9d7e-675c-9e34
    # (8 pts, +2 when the unit holds one c31a-3b12-49b9-10aa, 0 pts).
    data = book("c97d-9ffb-d8c2-9cd8")
    unit = data.units["59c3-3306-e00a-09b2"]
    boxes = [b for f in data.formations.values() for b in f.boxes] + list(data.support_boxes)
    size = size_with_entry(unit, "a4e4-9d7e-675c-9e34")
    option = option_with_entry(unit, "c31a-3b12-49b9-10aa")
    plain = unit_in(boxes, data, unit.code, size, pointer="/support/0", formation_index=None)
    assert priced(force_of(data, support=[plain])).unit(plain) == 8
    upgraded = unit_in(boxes, data, unit.code, size, [ForceUpgrade(option, 1)], pointer="/support/0",
                       formation_index=None)
    assert priced(force_of(data, support=[upgraded])).unit(upgraded) == 10


def test_card_in_the_roster_and_unit_in_the_formation_decrement(book):
    # catalogue 17b9-5bac-7fa8-f9ee: unit dbef-035b-adfb-7fa0 (0 pts), size 118d-6eb7-40fe-0f0b (12 pts);
    # -1 when the roster holds 9e60-6230-eeea-1429 and the platoon is inside formation bb34-73fa-56e7-e1a5.
    data = book("17b9-5bac-7fa8-f9ee")
    formation = formation_with_entry(data, "bb34-73fa-56e7-e1a5")
    unit = data.units["dbef-035b-adfb-7fa0"]
    size = size_with_entry(unit, "118d-6eb7-40fe-0f0b")
    fu = unit_in(formation.boxes, data, unit.code, size)
    assert priced(force_of(data, formation, [fu])).unit(fu) == 12
    # 9e60… is a choice of the root card entry e5f5-77b3-1e70-c126, imported as a force card of its own.
    card = next(c for c in data.cards.values() if c.extra["bs"]["entry"] == "9e60-6230-eeea-1429")
    assert card.scope == "force" and card.extra["bs"]["wrapper"]["entry"] == "e5f5-77b3-1e70-c126"
    fc = ForceCard(pointer="/cards/0", card=card)
    with_card = priced(force_of(data, formation, [fu], cards=[fc]))
    assert with_card.unit(fu) == 11
    # The same platoon as support (not inside that formation) keeps its price.
    support_boxes = [b for b in data.support_boxes if b.unit_choice(unit.code)]
    if support_boxes:
        su = ForceUnit(pointer="/support/0", box=support_boxes[0], unit=unit, size=size)
        assert priced(force_of(data, formation, [fu], support=[su], cards=[fc])).unit(su) == 12


def test_card_in_the_roster_increments_a_size(book):
    # catalogue 6e54-b31b-3dbc-3dfa, unit 57ae-7ed8-294c-8638, size 9ab2-37b0-3d6a-e6d1 (3 pts):
    # +1 when the roster holds card 3109-744c-873b-d7d9 (a force card, 0 pts, via link 931d-19c2-c996-34cc).
    data = book("6e54-b31b-3dbc-3dfa")
    unit = data.units["57ae-7ed8-294c-8638"]
    boxes = [b for f in data.formations.values() for b in f.boxes] + list(data.support_boxes)
    size = size_with_entry(unit, "9ab2-37b0-3d6a-e6d1")
    fu = unit_in(boxes, data, unit.code, size, pointer="/support/0", formation_index=None)
    assert priced(force_of(data, support=[fu])).unit(fu) == 3
    card = card_with_path(data, "931d-19c2-c996-34cc::3109-744c-873b-d7d9")
    fc = ForceCard(pointer="/cards/0", card=card)
    pricing = priced(force_of(data, support=[fu], cards=[fc]))
    assert pricing.unit(fu) == 4 and pricing.card(fc) == 0


def test_unconditional_increment_on_a_card_link(book):
    # catalogue 17b9-5bac-7fa8-f9ee: card entry 57f7-ae69-7ae8-f72 costs 0; its link 4677-6fb-2b83-3302
    # adds 6 (static import price 0, BattleScribe price 6).
    data = book("17b9-5bac-7fa8-f9ee")
    card = card_with_path(data, "4677-6fb-2b83-3302::57f7-ae69-7ae8-f72")
    assert card.points == 0
    unit_code = sorted(card.target_units)[0]
    boxes = [b for f in data.formations.values() for b in f.boxes] + list(data.support_boxes)
    unit = data.units[unit_code]
    fu = unit_in(boxes, data, unit_code, unit.sizes[0], pointer="/support/0", formation_index=None)
    fc = ForceCard(pointer="/cards/0", card=card, target_pointer="/support/0", target=fu)
    assert priced(force_of(data, support=[fu], cards=[fc])).card(fc) == 6


def test_repeats_count_every_matching_size_in_the_parent(book):
    # catalogue d223-d561-b7be-7f4d, support unit 427e-9de3-f0fc-c14a (0 pts), sizes 6431-a024-fe6f-9476
    # (7 pts) and 925f-a4b9-7783-c692 (14 pts): +1 x (2 per 6431… and 4 per 925f… among the unit's
    # parent's descendants) when the force holds 006a-1ff5-9bbe-11be (a formation card).
    data = book("d223-d561-b7be-7f4d")
    unit = data.units["427e-9de3-f0fc-c14a"]
    small, large = size_with_entry(unit, "6431-a024-fe6f-9476"), size_with_entry(unit, "925f-a4b9-7783-c692")
    box = box_offering(data.support_boxes, unit.code)
    one = ForceUnit(pointer="/support/0", box=box, unit=unit, size=small)
    two = ForceUnit(pointer="/support/1", box=box, unit=unit, size=large)
    card = next(c for c in data.cards.values() if c.extra["bs"]["entry"] == "006a-1ff5-9bbe-11be")
    formation = data.formations[sorted(card.target_formations)[0]]
    hq_box = formation.boxes[0]
    hq_unit = data.units[hq_box.choices[0].unit]
    hq = ForceUnit(pointer="/formations/0/units/0", box=hq_box, unit=hq_unit, size=hq_unit.sizes[0],
                   upgrades=tuple(required_upgrades(hq_unit)), formation_index=0)
    plain = priced(force_of(data, formation, [hq], support=[one, two]))
    assert (plain.unit(one), plain.unit(two)) == (7, 14)
    ff = ForceFormation(pointer="/formations/0", index=0, handbook=data, formation=formation, units=(hq,))
    fc = ForceCard(pointer="/cards/0", card=card, target_pointer="/formations/0", target=ff)
    agra = priced(force_of(data, formation, [hq], support=[one, two], cards=[fc]))
    assert (agra.unit(one), agra.unit(two)) == (7 + 2 + 4, 14 + 2 + 4)


def test_a_formation_own_cost_is_charged_with_its_first_unit(book):
    # catalogue d223-d561-b7be-7f4d, formation entry 02c8-8dcb-1f05-ce72 costs 2; its units cost 0 + size.
    data = book("d223-d561-b7be-7f4d")
    formation = formation_with_entry(data, "02c8-8dcb-1f05-ce72")
    result = cheapest_force(data, formation.code)
    assert result.legal, result.reasons()
    units = result.force.formations[0].units
    sizes_only = sum(bspricing.BattleScribePricing(force_of(data, formation, [u])).unit(u) - 2 for u in units[:1])
    assert result.report.total_points == sizes_only + 2 + sum(
        result.report.unit_points[u.pointer] for u in units[1:])


# -- the whole library -----------------------------------------------------------------------------------
def test_every_formation_has_a_cheapest_force_the_engine_calls_legal(book, real_library):
    failures, checked, mismatched = [], 0, []
    for hb in Handbook.objects.filter(source="battlescribe").order_by("name"):
        data = book(hb.code)
        for code in data.formations:
            checked += 1
            result = cheapest_force(data, code)
            if not result.legal:
                failures.append(f"{hb.name} / {data.formations[code].name} [{code}]: {result.reasons()}")
                continue
            assert not any(i.code == bspricing.UNPRICED for i in result.report.issues)
            # The engine's total is what the catalogue XML gives for the same selections.
            tree = bspricing.force_tree(result.force).as_selection_tree()
            expected = evaluate_costs(real_library.index, tree).total(PTS)
            if expected != result.report.total_points:
                mismatched.append(f"{hb.name} / {code}: engine {result.report.total_points}, XML {expected}")
    assert checked > 300
    assert failures == []
    assert mismatched == []


def test_units_priced_at_zero_are_free_in_the_data(book):
    """Every unit's cheapest size, priced alone where it is offered; 0 only where the data says 0."""
    zero, not_free, units = [], [], 0
    for hb in Handbook.objects.filter(source="battlescribe"):
        data = book(hb.code)
        seen = set()
        places = [(f, b) for f in data.formations.values() for b in f.boxes] + [(None, b) for b in data.support_boxes]
        for formation, box in places:
            for choice in box.choices:
                unit = data.units.get(choice.unit)
                if unit is None or unit.code in seen:
                    continue
                seen.add(unit.code)
                units += 1
                prices = []
                for size in unit.sizes:
                    fu = ForceUnit(pointer="/formations/0/units/0" if formation else "/support/0", box=box,
                                   unit=unit, size=size, upgrades=tuple(required_upgrades(unit)),
                                   formation_index=0 if formation else None)
                    force = force_of(data, formation, [fu]) if formation else force_of(data, support=[fu])
                    prices.append(bspricing.BattleScribePricing(force).unit(fu))
                if min(prices) <= 0:
                    zero.append(f"{hb.name} / {unit.name} [{unit.code}]")
                    raw = [unit.extra["bs"].get("costs", {})] + [s.extra.get("bs", {}).get("costs", {})
                                                                 for s in unit.sizes]
                    mods = unit.extra.get("cost_modifiers") or any(s.extra.get("cost_modifiers") for s in unit.sizes)
                    if any(v for c in raw for v in c.values()) or mods:
                        not_free.append(zero[-1])
    assert units > 2000
    assert not_free == []
    assert len(zero) < 20, zero  # 13 at the time of writing: division badges, free HQs, 0-pt sections


def test_engine_check_reports_battlescribe_points_for_a_list(book):
    # catalogue 17b9-5bac-7fa8-f9ee: the Pakfront card (link 4677-6fb-2b83-3302, +6) on a unit it targets.
    data = book("17b9-5bac-7fa8-f9ee")
    card = card_with_path(data, "4677-6fb-2b83-3302::57f7-ae69-7ae8-f72")
    unit = data.units[sorted(card.target_units)[0]]
    boxes = [b for f in data.formations.values() for b in f.boxes] + list(data.support_boxes)
    fu = unit_in(boxes, data, unit.code, unit.sizes[0], pointer="/support/0", formation_index=None)
    fc = ForceCard(pointer="/cards/0", card=card, target_pointer="/support/0", target=fu)
    report = engine_check(force_of(data, support=[fu], cards=[fc]))
    assert report.card_points == 6
    assert report.figures["costs"]["pts"] == report.total_points


# -- rosters: export -> import -> export on real Flames of War lists -----------------------------------
def force_document(force):
    def unit_doc(u):
        return {"box": u.box.code, "unit": u.unit.code, "size": u.size.code if u.size else None,
                "upgrades": [{"upgrade": x.upgrade.code, "quantity": x.quantity} for x in u.upgrades]}

    return {"format": "armybuilder-list", "version": 1, "name": force.name or "List", "system": "fow4",
            "handbook": {"code": force.handbook.code, "revision": force.handbook.revision}, "points_limit": 100,
            "formations": [{"formation": f.formation.code, "allied": False, "units": [unit_doc(u) for u in f.units]}
                           for f in force.formations],
            "support": [unit_doc(u) for u in force.support],
            "cards": [{"card": c.card.code, **({"target": c.target_pointer} if c.target_pointer else {})}
                      for c in force.cards]}


def round_trip(doc):
    from armybuilder.interchange.battlescribe.roster_service import roster_export, roster_import
    from armybuilder.lists.selectors import army_list_document
    from armybuilder.lists.services import army_list_import

    first = army_list_import(doc=doc)
    ros = roster_export(first)
    again = roster_import(data=ros, source="first.ros")
    assert again.warnings == []
    assert same_list(army_list_document(again.army_list), army_list_document(first))
    second = roster_export(again.army_list)
    return ros, second, again


def test_cheapest_lists_survive_export_import_export_byte_for_byte(book):
    checked = 0
    for hb in Handbook.objects.filter(source="battlescribe").order_by("name")[::6]:
        data = book(hb.code)
        for code in list(data.formations)[:2]:
            result = cheapest_force(data, code)
            ros, second, again = round_trip(force_document(result.force))
            assert second == ros
            assert again.report.total_points == result.report.total_points
            checked += 1
    assert checked >= 10


def test_a_list_with_cards_and_options_exports_costs_per_selection(book):
    import xml.etree.ElementTree as ET

    # catalogue 6e54-b31b-3dbc-3dfa: size 9ab2-37b0-3d6a-e6d1 of unit 57ae-7ed8-294c-8638 costs 3, +1 with
    # the force card 3109-744c-873b-d7d9 (reached through link 931d-19c2-c996-34cc).
    data = book("6e54-b31b-3dbc-3dfa")
    unit = data.units["57ae-7ed8-294c-8638"]
    box = box_offering(list(data.support_boxes), unit.code)
    size = size_with_entry(unit, "9ab2-37b0-3d6a-e6d1")
    card = card_with_path(data, "931d-19c2-c996-34cc::3109-744c-873b-d7d9")
    formation = next(iter(data.formations.values()))
    cheapest = cheapest_force(data, formation.code).force
    force = Force(system="fow4", handbook=data, name="Cards", formations=cheapest.formations,
                  support=(ForceUnit(pointer="/support/0", box=box, unit=unit, size=size),),
                  cards=(ForceCard(pointer="/cards/0", card=card),))
    ros, second, again = round_trip(force_document(force))
    assert second == ros
    ns = {"r": "http://www.battlescribe.net/schema/rosterSchema"}
    root = ET.fromstring(ros)
    sizes = [s for s in root.iter("{%s}selection" % ns["r"]) if s.get("entryId", "").endswith("9ab2-37b0-3d6a-e6d1")]
    assert [c.get("value") for c in sizes[0].find("r:costs", ns)] == ["4.0"]
    total = float(root.find("r:costs/r:cost", ns).get("value"))
    assert total == engine_check(force).total_points == again.report.total_points
