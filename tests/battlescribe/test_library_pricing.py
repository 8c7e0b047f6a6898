"""The real BSData library in the database: BattleScribe prices inside the engine, the cheapest legal
list of every formation, units priced at 0, and roster round trips.

The library is imported once for this module (rolled back afterwards). Every pinned price was worked
out by hand from the catalogue XML; comments name entry ids only (no catalogue text here).
"""
import pytest

from armybuilder.interchange.battlescribe.cheapest import cheapest_list
from armybuilder.lists.catalog import handbook_data, handbook_id
from armybuilder.lists.selectors import list_document_report
from armybuilder.rules.battlescribe.evaluate import Evaluation
from armybuilder.rules.battlescribe.offers import complete
from armybuilder.rules.battlescribe.tree import bind_draft
from handbooks.models import Handbook

from .helpers import same_list
from .listdocs import card, document, formation, sel, unit

pytestmark = [pytest.mark.bsdata, pytest.mark.django_db]

PTS = "995a-4d67-6920-bfe4"


@pytest.fixture
def book(library_in_db, db):
    def load(catalogue_id):
        hb = Handbook.objects.get(code=catalogue_id, is_current=True)
        return handbook_data(handbook_id("fow4", catalogue_id, hb.revision))
    return load


def ref(data):
    return {"code": data.code, "revision": data.revision}


# -- placing entries where the data offers them ----------------------------------------------------------
def _box_slot(layout, box, entry_id):
    place = box.extra.get("bs", {}).get("id")
    for slot in layout.slots:
        if slot.entry.id == entry_id and (slot.path == place or (slot.groups and slot.groups[0].path == place)):
            return slot
    return None


def offered(data, entry_id):
    """Every place a unit entry can be taken: (formation code or None, box code, unit code, entry path)."""
    cat = data.catalogue
    out = []
    for box in data.support_boxes:
        for choice in box.choices:
            u = data.units.get(choice.unit)
            slot = _box_slot(cat.root_layout(), box, entry_id) if u and u.extra["bs"]["entry"] == entry_id else None
            if slot is not None:
                out.append((None, box.code, u.code, slot.path))
    for f in data.formations.values():
        root = cat.root_layout().find(f.extra["bs"]["path"])
        for box in f.boxes:
            for choice in box.choices:
                u = data.units.get(choice.unit)
                slot = _box_slot(cat.layout(root.entry), box, entry_id) if u and u.extra["bs"]["entry"] == entry_id \
                    else None
                if slot is not None:
                    out.append((f.code, box.code, u.code, slot.path))
    return out


def alone(data, entry_id, *selections, cards=(), support_only=False):
    """A list holding only that unit (in the first place it is offered), and the pointer to it."""
    places = [p for p in offered(data, entry_id) if not support_only or p[0] is None]
    formation_code, box, code, path = places[0]
    u = unit(box, code, path, *selections)
    if formation_code is None:
        return document(ref(data), support=[u], cards=cards), "/support/0"
    return document(ref(data), [formation(formation_code, u)], cards=cards), "/formations/0/units/0"


def priced(doc, pointer):
    force, report = list_document_report(doc)
    return report.unit_points[pointer], report


def formation_by_entry(data, entry_id):
    return next(f for f in data.formations.values() if f.extra["bs"]["entry"] == entry_id)


# -- pinned prices, one per modifier kind found in the library ---------------------------------------------
def test_model_count_set_prices_a_tank_platoon_by_its_number_of_tanks(book):
    # catalogue 1db5-94f0-8315-42a2, unit 9892-987c-62b9-08c8 (14 pts; set 13/17/21 for 3/4/5 models);
    # models a298-c841-065c-685c (0 each, the group default) and ea6b-624c-dac5-2c88 (1 each).
    data = book("1db5-94f0-8315-42a2")
    for teams, points in ((3, 13), (4, 17), (5, 21)):
        doc, pointer = alone(data, "9892-987c-62b9-08c8", sel("a298-c841-065c-685c", number=teams))
        assert priced(doc, pointer)[0] == points
    doc, pointer = alone(data, "9892-987c-62b9-08c8", sel("a298-c841-065c-685c", number=2),
                         sel("ea6b-624c-dac5-2c88", number=3))
    assert priced(doc, pointer)[0] == 21 + 3


def test_upgrade_dependent_increment_adds_to_the_size(book):
    # catalogue c97d-9ffb-d8c2-9cd8, unit 59c3-3306-e00a-09b2 (0 pts) with size a4e4-9d7e-675c-9e34
    # (8 pts, +2 when the unit holds one c31a-3b12-49b9-10aa, 0 pts).
    data = book("c97d-9ffb-d8c2-9cd8")
    doc, pointer = alone(data, "59c3-3306-e00a-09b2", sel("a4e4-9d7e-675c-9e34"))
    assert priced(doc, pointer)[0] == 8
    doc, pointer = alone(data, "59c3-3306-e00a-09b2", sel("a4e4-9d7e-675c-9e34"), sel("c31a-3b12-49b9-10aa"))
    assert priced(doc, pointer)[0] == 10


def test_card_in_the_roster_and_unit_in_the_formation_decrement(book):
    # catalogue 17b9-5bac-7fa8-f9ee: unit dbef-035b-adfb-7fa0 (0 pts), size 118d-6eb7-40fe-0f0b (12 pts);
    # -1 when the roster holds 9e60-6230-eeea-1429 and the platoon is inside formation bb34-73fa-56e7-e1a5.
    # 9e60… is a choice inside the root card entry e5f5-77b3-1e70-c126.
    data = book("17b9-5bac-7fa8-f9ee")
    company = formation_by_entry(data, "bb34-73fa-56e7-e1a5")
    _, box, code, path = next(p for p in offered(data, "dbef-035b-adfb-7fa0") if p[0] == company.code)
    platoon = unit(box, code, path, sel("118d-6eb7-40fe-0f0b"))
    title = next(c for c in data.cards.values() if c.extra["bs"]["entry"] == "9e60-6230-eeea-1429")
    root = data.catalogue.root_layout().find("e5f5-77b3-1e70-c126")
    plain = document(ref(data), [formation(company.code, platoon)])
    assert priced(plain, "/formations/0/units/0")[0] == 12
    with_card = document(ref(data), [formation(company.code, platoon)],
                         cards=[card(title.code, "9e60-6230-eeea-1429", via=[root.path])])
    assert priced(with_card, "/formations/0/units/0")[0] == 11


def test_card_in_the_roster_increments_a_size(book):
    # catalogue 6e54-b31b-3dbc-3dfa, unit 57ae-7ed8-294c-8638, size 9ab2-37b0-3d6a-e6d1 (3 pts):
    # +1 when the roster holds card 3109-744c-873b-d7d9 (a force card, 0 pts, via link 931d-19c2-c996-34cc).
    data = book("6e54-b31b-3dbc-3dfa")
    doc, pointer = alone(data, "57ae-7ed8-294c-8638", sel("9ab2-37b0-3d6a-e6d1"), support_only=True)
    assert priced(doc, pointer)[0] == 3
    force_card = next(c for c in data.cards.values()
                      if c.extra["bs"]["path"] == "931d-19c2-c996-34cc::3109-744c-873b-d7d9")
    doc, pointer = alone(data, "57ae-7ed8-294c-8638", sel("9ab2-37b0-3d6a-e6d1"), support_only=True,
                         cards=[card(force_card.code, "931d-19c2-c996-34cc::3109-744c-873b-d7d9")])
    points, report = priced(doc, pointer)
    assert points == 4 and report.card_points == 0


def test_unconditional_increment_on_a_card_link(book):
    # catalogue 17b9-5bac-7fa8-f9ee: card entry 57f7-ae69-7ae8-f72 costs 0; its link 4677-6fb-2b83-3302
    # adds 6. It is a unit card: it goes under one of the units it targets.
    data = book("17b9-5bac-7fa8-f9ee")
    pakfront = next(c for c in data.cards.values() if c.extra["bs"]["path"] == "4677-6fb-2b83-3302::57f7-ae69-7ae8-f72")
    # It sits under size 1efd-e935-c619-6f69 of the 8.8cm gun platoon 2500-c062-d7c1-c67f, which is one of
    # the alternatives inside a container unit (e.g. "… or 8.8cm Tank-Hunter Platoon").
    cat = data.catalogue
    container, inner = next((u, s) for u in data.units.values() if offered(data, u.extra["bs"]["entry"])
                            for s in cat.layout(cat.resolve(u.extra["bs"]["entry"])).slots
                            if s.entry.id == "2500-c062-d7c1-c67f")
    doc, pointer = alone(data, container.extra["bs"]["entry"], sel(inner.path, sel("1efd-e935-c619-6f69")))
    doc["cards"] = [card(pakfront.code, "4677-6fb-2b83-3302::57f7-ae69-7ae8-f72", target=pointer,
                         via=[inner.path, "1efd-e935-c619-6f69"])]
    _, report = list_document_report(doc)
    assert report.card_points == 6
    assert report.figures["costs"]["pts"] == report.total_points


def test_repeats_count_every_matching_size_in_the_parent(book):
    # catalogue d223-d561-b7be-7f4d, support unit 427e-9de3-f0fc-c14a (0 pts), sizes 6431-a024-fe6f-9476
    # (7 pts) and 925f-a4b9-7783-c692 (14 pts): +1 x (2 per 6431… and 4 per 925f… among the unit's
    # parent's descendants) when the force holds 006a-1ff5-9bbe-11be (a formation card).
    data = book("d223-d561-b7be-7f4d")
    _, box, code, path = next(p for p in offered(data, "427e-9de3-f0fc-c14a") if p[0] is None)
    small, large = unit(box, code, path, sel("6431-a024-fe6f-9476")), unit(box, code, path, sel("925f-a4b9-7783-c692"))
    agra = next(c for c in data.cards.values() if c.extra["bs"]["entry"] == "006a-1ff5-9bbe-11be")
    company = data.formations[sorted(agra.target_formations)[0]]
    plain = document(ref(data), [formation(company.code)], support=[small, large])
    _, report = list_document_report(plain)
    assert (report.unit_points["/support/0"], report.unit_points["/support/1"]) == (7, 14)
    holder = data.catalogue.layout(data.catalogue.root_layout().find(company.extra["bs"]["path"]).entry)
    card_slot = next(s for s in holder.slots if s.entry.id == "006a-1ff5-9bbe-11be")
    with_card = document(ref(data), [formation(company.code)], support=[small, large],
                         cards=[card(agra.code, card_slot.path, target="/formations/0")])
    _, report = list_document_report(with_card)
    assert (report.unit_points["/support/0"], report.unit_points["/support/1"]) == (7 + 2 + 4, 14 + 2 + 4)


def test_a_formation_own_cost_counts_in_its_formation_and_the_total(book):
    # catalogue d223-d561-b7be-7f4d, formation entry 02c8-8dcb-1f05-ce72 costs 2; its units cost 0 + size.
    data = book("d223-d561-b7be-7f4d")
    company = formation_by_entry(data, "02c8-8dcb-1f05-ce72")
    result = cheapest_list(data, company.code)
    _, report = list_document_report(result.document)
    assert report.legal, report.errors
    units = sum(report.unit_points.values())
    assert report.figures["formation_own_points"] == {"/formations/0": 2}
    assert report.formation_points["/formations/0"] == units + 2 == report.total_points


# -- the whole library -------------------------------------------------------------------------------------
KNOWN_IMPOSSIBLE = {
    # The Jeep box's entry link 8925-891f-13f9-7d5c asks for two troops, its target 50b6-66c5-eeec-0b38
    # allows one: no list satisfies both (a data error; issue 11).
    "Airborne Recce Squadron",
    # Offered only when the force holds the 1st SS Panzer Division title (45ed-ffab-3bcb-3fbb): the cheapest
    # completion does not go looking for what un-hides a formation (the oracle's search does).
    "Puma Company",
}


def test_every_formation_has_a_cheapest_list_the_engine_calls_legal(book):
    failures, checked = [], 0
    for hb in Handbook.objects.filter(source="battlescribe", is_current=True).order_by("name"):
        data = book(hb.code)
        for code, f in data.formations.items():
            checked += 1
            result = cheapest_list(data, code)
            _, report = list_document_report(result.document)
            if not report.legal and f.name not in KNOWN_IMPOSSIBLE:
                failures.append(f"{hb.name} / {f.name} [{code}]: {[i.message for i in report.errors]}")
            if result.complete:
                assert report.total_points == result.points
    assert checked > 330
    assert failures == []


def complete_unit(data, entry_id, place=0):
    """The cheapest selections that meet a unit's own minimums where it is offered."""
    cat = data.catalogue
    formation_code, box, code, path = offered(data, entry_id)[place]
    force = cat.force_entry()
    unit_draft = {"entry": path, "number": 1, "selections": []}
    if formation_code is None:
        roots = [unit_draft]
    else:
        roots = [{"entry": data.formations[formation_code].extra["bs"]["path"], "selections": [unit_draft]}]
    draft = {"forces": [{"catalogue": cat.catalogue_id, "entry": force.id, "selections": roots}]}

    def bind():
        return Evaluation(bind_draft({cat.catalogue_id: cat}, draft)[0])

    def inside(v):
        node = v.at
        while node is not None and getattr(node, "ref", None) is not unit_draft:
            node = getattr(node, "parent", None)
        return node is not None

    complete(bind, points=cat.points, only=inside)
    return unit_draft["selections"]


def test_units_priced_at_zero_are_free_in_the_data(book):
    """Every unit's cheapest legal make-up, priced where it is offered; 0 only where the data says 0."""
    zero, not_free, units = [], [], 0
    for hb in Handbook.objects.filter(source="battlescribe", is_current=True):
        data = book(hb.code)
        for u in data.units.values():
            entry = u.extra["bs"]["entry"]
            if not offered(data, entry):
                continue
            units += 1
            doc, pointer = alone(data, entry, *complete_unit(data, entry))
            points, _ = priced(doc, pointer)
            if points <= 0:
                zero.append(f"{hb.name} / {u.name} [{u.code}]")
                node = data.catalogue.nodes[entry]
                if any(v for v in node.get("costs", {}).values()) or any(
                        m.get("kind") == "cost" for m in node.get("modifiers", ())):
                    not_free.append(zero[-1])
    assert units > 1900
    assert not_free == []
    # Division badges, free HQs and 0-pt sections, and container entries ("Artillery", "A or B Battery") whose
    # alternatives the data lets a player leave empty: 45 at the time of writing.
    assert len(zero) < 50, zero


# -- rosters: export -> import -> export on real Flames of War lists -----------------------------------------
def round_trip(doc):
    from armybuilder.lists.selectors import army_list_document
    from armybuilder.lists.services import army_list_import
    from armybuilder.services.rosters import roster_export, roster_import

    first = army_list_import(doc=doc)
    ros = roster_export(first)
    again = roster_import(data=ros, source="first.ros")
    assert again.warnings == []
    assert same_list(army_list_document(again.army_list), army_list_document(first))
    second = roster_export(again.army_list)
    return ros, second, again


def test_cheapest_lists_survive_export_import_export_byte_for_byte(book):
    checked = 0
    for hb in Handbook.objects.filter(source="battlescribe", is_current=True).order_by("name")[::6]:
        data = book(hb.code)
        for code in list(data.formations)[:2]:
            result = cheapest_list(data, code)
            _, report = list_document_report(result.document)
            ros, second, again = round_trip(result.document)
            assert second == ros
            assert again.report.total_points == report.total_points
            checked += 1
    assert checked >= 10


def test_a_list_with_cards_and_options_exports_costs_per_selection(book):
    import xml.etree.ElementTree as ET

    # catalogue 6e54-b31b-3dbc-3dfa: size 9ab2-37b0-3d6a-e6d1 of unit 57ae-7ed8-294c-8638 costs 3, +1 with
    # the force card 3109-744c-873b-d7d9 (reached through link 931d-19c2-c996-34cc).
    data = book("6e54-b31b-3dbc-3dfa")
    force_card = next(c for c in data.cards.values()
                      if c.extra["bs"]["path"] == "931d-19c2-c996-34cc::3109-744c-873b-d7d9")
    base = cheapest_list(data, next(iter(data.formations))).document
    doc, _ = alone(data, "57ae-7ed8-294c-8638", sel("9ab2-37b0-3d6a-e6d1"), support_only=True,
                   cards=[card(force_card.code, "931d-19c2-c996-34cc::3109-744c-873b-d7d9")])
    doc["formations"] = base["formations"]
    doc["selections"] = base.get("selections", [])
    ros, second, again = round_trip(doc)
    assert second == ros
    ns = {"r": "http://www.battlescribe.net/schema/rosterSchema"}
    root = ET.fromstring(ros)
    sizes = [s for s in root.iter(f"{{{ns['r']}}}selection") if s.get("entryId", "").endswith("9ab2-37b0-3d6a-e6d1")]
    assert [c.get("value") for c in sizes[0].find("r:costs", ns)] == ["4.0"]
    total = float(root.find("r:costs/r:cost", ns).get("value"))
    assert total == list_document_report(doc)[1].total_points == again.report.total_points
