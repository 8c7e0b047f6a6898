"""On a real imported book, an action's answer applied to the page gives the page a reload gives, and the boxes it
leaves out are the same in both (tests/web/test_builder_swaps.py plays the browser the same way on a sample book)."""
import pytest
from django.test import Client

from tests.web.test_builder_swaps import box_ids, by_id, normal, play

from .test_builder_queries import GREY, army_of, player  # noqa: F401 - the player fixture

pytestmark = [pytest.mark.bsdata]


@pytest.mark.parametrize("name, section, data", [
    ("pick", "f1", {"formation": "/formations/1", "box": GREY[0], "unit": GREY[1]}),
    ("remove-unit", "f1", {"unit": "/formations/1/units/1"}),
    ("remove-unit", "f0", {"unit": "/formations/0/units/0"}),
])
def test_the_answer_carries_exactly_what_changed(library_in_db, db, player, name, section, data):  # noqa: F811
    client = Client()
    client.force_login(player)
    army = army_of(player, 2)
    before, response, sent, applied, reload = play(client, army, name, **data)
    assert response["HX-Retarget"] == "#list-version"
    assert normal(applied) == normal(reload)
    boxes = box_ids(before, section)
    assert boxes and set(boxes) == set(box_ids(reload, section))
    changed = {a for a in boxes if normal(by_id(before, a)) != normal(by_id(reload, a))}
    assert changed and changed == {a for a in sent if a.startswith(f"{section}-box-")}
    # The other company's boxes were not sent (nothing in them changed).
    other = "f0" if section == "f1" else "f1"
    assert not [a for a in sent if a.startswith(f"{other}-box-")]


def test_a_remembered_document_is_used_only_by_a_writer_at_its_version(library_in_db, db, player):  # noqa: F811
    """The builder keeps the document it read for the next action (a pick works out the new unit's compulsory
    choices from it); a list changed meanwhile elsewhere makes that action stale, with nothing written, and the
    next one reads the list afresh."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from armybuilder.lists import selectors
    from armybuilder.lists import services as s
    from armybuilder.lists.models import ListFormation, ListUnit
    from tests.web.conftest import action

    client = Client()
    client.force_login(player)
    army = army_of(player, 1)
    client.get(reverse("web:builder", args=[army.public_id]))
    army.refresh_from_db()
    seen_version = army.version
    assert (army.public_id, seen_version) in selectors._DOCUMENTS
    company = ListFormation.objects.get(army_list=army)
    s.army_list_remove_unit(army_list=army, list_unit=ListUnit.objects.filter(list_formation=company).last())
    units = ListUnit.objects.filter(army_list=army).count()
    pick = {"formation": "/formations/0", "box": GREY[0], "unit": GREY[1]}
    stale = action(client, army, "pick", version=seen_version, **pick)  # another tab changed the list
    assert stale["HX-Retarget"] == "#builder-alert" and ListUnit.objects.filter(army_list=army).count() == units
    with CaptureQueriesContext(connection) as fresh_queries:
        fresh = action(client, army, "pick", **pick)
    assert fresh.status_code == 200 and "alert--error" not in fresh.content.decode()
    assert ListUnit.objects.filter(army_list=army).count() == units + 1
    # The answer remembered the list as it is now: the next pick does not read the document again (at least
    # three queries: the list's formations, units and cards).
    with CaptureQueriesContext(connection) as remembered_queries:
        again = action(client, army, "pick", **pick)
    assert again.status_code == 200 and "alert--error" not in again.content.decode()
    assert len(fresh_queries) - len(remembered_queries) >= 3
