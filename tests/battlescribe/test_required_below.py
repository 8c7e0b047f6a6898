"""offers.required_below reads what a candidate's compulsory entries cost off the catalogue's nodes when its layout
is not built yet (most candidates priced are never chosen): over every entry of the real library (and of the mini
catalogue), that gives exactly what reading the entry's layout gives, with or without merged views made first."""
import pytest

from armybuilder.interchange.battlescribe import map_library
from armybuilder.rules.battlescribe.catalogue import Catalogue, CatalogueError
from armybuilder.rules.battlescribe.offers import _required_below, _required_below_nodes


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
