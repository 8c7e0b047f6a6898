"""Short cuts of the pricing of candidates (_cheapest_for), most of which are never chosen, checked against the
long way over the whole real library (and the mini catalogue):

* offers.required_below reads what a candidate's compulsory entries cost off the catalogue's nodes when its layout
  is not built yet: exactly what reading the entry's layout gives, with or without merged views made first;
* offers.probe_cost prices a candidate no modifier prices from its merged view, with no Facts made for it: exactly
  what pricing a probe selection of it gives."""
import pytest

from armybuilder.interchange.battlescribe import map_library
from armybuilder.rules.battlescribe.catalogue import Catalogue, CatalogueError
from armybuilder.rules.battlescribe.evaluate import Evaluation
from armybuilder.rules.battlescribe.offers import _probe_cost, _required_below, _required_below_nodes, plain_cost
from armybuilder.rules.battlescribe.tree import ForceScope, Roster, Sel


def _entries(cat: Catalogue):
    """Every entry or group a node (itself, or as a link's target) can be offered as."""
    for node_id, node in cat.nodes.items():
        if node.get("k") not in ("entry", "group", "link"):
            continue
        try:
            yield cat.resolve(node_id)
        except CatalogueError:
            continue


def _compare(documents) -> int:
    compared = 0
    for _, doc in documents:
        by_nodes, by_layout = Catalogue(doc["catalogue"]), Catalogue(doc["catalogue"])
        points = by_nodes.points
        for entry in _entries(by_layout):
            try:
                layout = by_layout.layout(entry)
            except CatalogueError:
                continue
            expected = _required_below(by_layout, layout, points)
            assert _required_below_nodes(by_nodes, entry, points) == expected, entry.key
            # the same once merged views exist (read through them rather than the nodes)
            for child in layout.slots:
                by_layout.view(child.entry)
            for group in layout.groups:
                by_layout.view(group.entry)
            assert _required_below_nodes(by_layout, entry, points) == expected, entry.key
            assert _required_below(by_layout, layout, points) == expected, entry.key
            compared += 1
    return compared


def test_the_mini_catalogue_s_required_below_reads_the_same_off_its_nodes(mini_dir):
    assert _compare(map_library([mini_dir]).documents) > 3


@pytest.mark.bsdata
def test_every_entry_of_the_library_s_required_below_reads_the_same_off_its_nodes(real_library):
    assert _compare(real_library.documents) > 1000


def _compare_probes(documents) -> int:
    compared = 0
    for _, doc in documents:
        cat = Catalogue(doc["catalogue"])
        force = ForceScope(catalogue=cat, entry=cat.force_entry())
        evaluation = Evaluation(Roster(forces=[force]))
        todo = [(cat.root_layout(), force)]
        seen = {id(todo[0][0])}
        while todo:
            layout, container = todo.pop()
            for slot in layout.slots:
                plain = plain_cost(cat, slot)
                if plain is not None:
                    assert slot.facts is None
                    assert plain == _probe_cost(evaluation, slot, container, force), slot.path
                    compared += 1
                below = cat.slot_layout(slot)
                if id(below) not in seen:
                    seen.add(id(below))
                    todo.append((below, Sel(slot=slot, number=1, force=force)))
    return compared


def test_the_mini_catalogue_s_plain_costs_are_what_a_probe_is_priced_at(mini_dir):
    assert _compare_probes(map_library([mini_dir]).documents) > 3


@pytest.mark.bsdata
def test_every_choice_of_the_library_unmodified_costs_what_a_probe_is_priced_at(real_library):
    assert _compare_probes(real_library.documents) > 1000
