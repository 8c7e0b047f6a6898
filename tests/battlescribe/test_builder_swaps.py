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
