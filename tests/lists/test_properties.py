"""Property-based: any sequence of builder operations leaves a list the engine can check, with consistent totals."""
import contextlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.lists import services as s
from armybuilder.lists.models import ListCard, ListFormation, ListUnit
from armybuilder.lists.selectors import army_list_report
from handbooks import models as hb
from tests.factories import ArmyListFactory

OPERATIONS = st.lists(
    st.tuples(st.sampled_from(["formation", "unit", "support", "remove_unit", "remove_formation", "size", "upgrade",
                               "card", "limit"]),
              st.integers(0, 1000), st.integers(0, 1000), st.integers(0, 5)),
    max_size=25,
)


def apply(army, germany, op, a, b, qty):
    formations = list(ListFormation.objects.filter(army_list=army))
    units = list(ListUnit.objects.filter(army_list=army).select_related("unit"))
    pick = lambda seq, i: seq[i % len(seq)] if seq else None  # noqa: E731
    if op == "formation":
        code = pick(list(germany.formations.values_list("code", flat=True)), a)
        s.army_list_add_formation(army_list=army, formation_code=code)
    elif op in ("unit", "support"):
        target = pick(formations, a) if op == "unit" else None
        boxes = list(hb.Box.objects.filter(formation=target.formation) if target else
                     hb.Box.objects.filter(handbook=germany, formation__isnull=True))
        box = pick(boxes, b)
        if box is None:
            return
        choice = pick(list(box.choices.select_related("unit")), a + b)
        sizes = list(choice.unit.sizes.values_list("code", flat=True))
        size = pick(sizes, qty) if qty else None
        s.army_list_pick_unit(army_list=army, list_formation=target, box_code=box.code, unit_code=choice.unit.code,
                              size_code=size)
    elif op == "remove_unit" and units:
        s.army_list_remove_unit(army_list=army, list_unit=pick(units, a))
    elif op == "remove_formation" and formations:
        s.army_list_remove_formation(army_list=army, list_formation=pick(formations, a))
    elif op == "size" and units:
        unit = pick(units, a)
        s.army_list_set_size(army_list=army, list_unit=unit,
                             size_code=pick(list(unit.unit.sizes.values_list("code", flat=True)), b))
    elif op == "upgrade" and units:
        unit = pick(units, a)
        upgrade = pick(list(hb.Upgrade.objects.filter(group__unit=unit.unit).select_related("group")), b)
        if upgrade:
            s.army_list_set_upgrade(army_list=army, list_unit=unit, upgrade_code=f"{upgrade.group.code}/{upgrade.code}",
                                    quantity=qty)
    elif op == "card":
        card = pick(list(germany.cards.values_list("code", flat=True)), a)
        choice = b % 3
        s.army_list_add_card(army_list=army, card_code=card,
                             target_formation=pick(formations, b) if choice == 1 else None,
                             target_unit=pick(units, b) if choice == 2 else None)
    elif op == "limit":
        s.army_list_update(army_list=army, points_limit=a % 120)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=OPERATIONS)
def test_any_sequence_of_builder_operations_gives_a_checkable_list_whose_totals_add_up(germany, player, operations):
    army = ArmyListFactory(owner=player, handbook=germany, name="Fuzzed")
    for op in operations:
        with contextlib.suppress(s.ListOperationError):  # a refused operation is fine; a crash is not
            apply(army, germany, *op)
    report = army_list_report(army)
    assert report.total_points == sum(report.unit_points.values()) + report.card_points
    assert sum(report.unit_points.values()) == sum(report.formation_points.values()) + report.support_points
    assert len(report.unit_points) == ListUnit.objects.filter(army_list=army).count()
    assert report.figures["purchases"] == len(report.unit_points)
    assert report.legal == (not report.errors)
    for item in report.issues:
        assert item.code and item.message and item.pointer is not None and item.severity in ("error", "warning")
    if not ListFormation.objects.filter(army_list=army).exists():
        assert "fow.force.no_formation" in report.codes()
    assert ListCard.objects.filter(army_list=army).count() == report.figures["command_cards"]
