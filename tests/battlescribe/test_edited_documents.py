"""On a real imported book, each action's history entry (written from the document the builder kept, edited the way
the change edits the rows) is the document read back from the rows (tests/lists/history/test_edited_documents.py
does the same on a sample book)."""
import pytest
from django.test import Client

from armybuilder.lists import selectors
from armybuilder.lists.models import ListCard
from armybuilder.rules import check
from armybuilder.web.builder import builder_view
from tests.lists.history.test_edited_documents import play, reads  # noqa: F401 - the reads fixture

from .test_builder_queries import COMPANY, GREY, army_of, player  # noqa: F401 - the player fixture

pytestmark = [pytest.mark.bsdata]


def walk(groups):
    for group in groups:
        yield group
        for option in group.options:
            yield from walk(option.children)


def test_each_action_on_an_imported_book_writes_the_document_read_back(library_in_db, db, player, reads):  # noqa: F811
    client = Client()
    client.force_login(player)
    army = army_of(player, 1)
    play(client, army, reads, "pick", formation="/formations/0", box=GREY[0], unit=GREY[1])
    play(client, army, reads, "add-formation", formation=COMPANY)
    force = selectors.army_list_force(army)
    view = builder_view(force, check(force))
    # A pick-one choice of a unit (its selections change), then the other way back.
    unit, group = next((u, g) for f in view.formations for c in f.columns for b in c.boxes for u in b.units
                       for g in walk(u.choices or [])
                       if g.pick_one and len([o for o in g.options if not o.hidden]) >= 2)
    first, second = [o for o in group.options if not o.hidden][:2]
    chosen = play(client, army, reads, "select", holder=unit.pointer, at=second.at, entry=second.entry, number=1)
    play(client, army, reads, "select", holder=unit.pointer, at=first.at, entry=first.entry, number=1)
    card = next(o for g in view.card_groups for o in g.offers if o.available and o.targets)
    with_card = play(client, army, reads, "add-card", choice=card.targets[0][0])
    assert len(with_card["cards"]) == 1 and chosen != with_card
    assert ListCard.objects.filter(army_list=army).count() == 1
    assert not play(client, army, reads, "remove-card", card="/cards/0")["cards"]
    play(client, army, reads, "add-card", choice=card.targets[-1][0])
    play(client, army, reads, "remove-unit", unit="/formations/0/units/1")
    last = play(client, army, reads, "remove-formation", formation="/formations/1")
    assert len(last["formations"]) == 1
