"""Operation WW2: one Standard root, separate option pools, counts, 8 units, off-table fire, dates."""
import pytest

from armybuilder.lists.selectors import list_document_report

from .listdocs import formation, listdoc, unit

pytestmark = pytest.mark.usefixtures("sample_data")
BOOK = "sample-oww2-germany"


def report_of(*formations, points_limit=3500, year=1944):
    return list_document_report(listdoc(*formations, book=BOOK, system="oww2", points_limit=points_limit,
                                        year=year))[1]


def issue(report, code):
    found = [i for i in report.issues if i.code == code]
    assert found, f"expected {code}, got {report.codes()}"
    return found[0]


def platoon(*options, squads=2, **extra):
    units = [unit("OG100/command", "OG101", "small")]
    units += [unit("OG100/squads", "OG102", "eight", "squad-mg/mg34") for _ in range(squads)]
    units += [unit("OG100/options", code, size) for code, size in options]
    return formation("OG100", *units, **extra)


def section(*options, parent="/formations/0", **extra):
    units = [unit("OG150/tanks", "OG110", "one")] + [unit("OG150/options", c, s) for c, s in options]
    return formation("OG150", *units, parent=parent, via_box="OG100/options", **extra)


def test_a_platoon_spending_part_of_its_pool_is_legal_and_shows_the_pool():
    report = report_of(platoon(("OG103", "three"), ("OG106", "two")))
    assert report.legal, report.codes()
    assert report.figures["option_pools"]["/formations/0"] == {"granted": 3, "spent": 2}
    assert report.total_points == sum(report.unit_points.values())


def test_an_army_needs_exactly_one_standard_root():
    assert issue(report_of(), "oww2.standard.none").pointer == "/formations"
    found = issue(report_of(platoon(), platoon()), "oww2.standard.more_than_one")
    assert found.pointer == "/formations/1"


def test_spending_more_options_than_granted_is_refused():
    found = issue(report_of(platoon(("OG107", "one"), ("OG103", "three"), ("OG104", "lone"))), "oww2.options.overspent")
    assert found.pointer == "/formations/0" and "grants 3 option(s) but 4 are spent" in found.message


def test_an_option_that_is_a_standard_choice_opens_its_own_pool_and_pools_never_add():
    legal = report_of(platoon(), section(("OG112", "one"), ("OG106", "two")))
    assert legal.legal, legal.codes()
    assert legal.figures["option_pools"] == {"/formations/0": {"granted": 3, "spent": 2},
                                             "/formations/1": {"granted": 2, "spent": 2}}
    # The section's own pool is 2; the platoon's unused option cannot pay for a third.
    found = issue(report_of(platoon(), section(("OG111", "one"), ("OG112", "one"))), "oww2.options.overspent")
    assert found.pointer == "/formations/1"


def test_a_formation_bought_through_a_list_that_does_not_offer_it_is_refused():
    found = issue(report_of(platoon(), formation("OG100", parent="/formations/0", via_box="OG100/options")),
                  "oww2.option.not_offered")
    assert found.pointer == "/formations/1"


def test_count_ranges_like_two_to_three_squads_are_enforced():
    found = issue(report_of(platoon(squads=1)), "oww2.count.too_few")
    assert (found.pointer, found.box) == ("/formations/0", "OG100/squads")
    assert issue(report_of(platoon(squads=4)), "oww2.count.too_many").box == "OG100/squads"
    assert report_of(platoon(squads=3)).legal


def test_more_than_eight_units_is_refused_in_a_points_game_only():
    big = platoon(("OG103", "three"), ("OG104", "lone"), ("OG105", "three"), squads=3)
    report = report_of(big, section(("OG112", "one")))
    assert report.figures["units"] == 9
    assert issue(report, "oww2.units.too_many").pointer == "/formations"
    assert "oww2.units.too_many" not in report_of(big, section(("OG112", "one")), points_limit=None).codes()


def test_off_table_artillery_without_an_observation_post_gets_a_warning():
    report = report_of(platoon(("OG107", "one")))
    found = issue(report, "oww2.off_table.no_observation_post")
    assert found.severity == "warning" and found.pointer == "/formations/0/units/3" and report.legal
    report = report_of(platoon(("OG107", "one"), ("OG106", "two")))
    assert "oww2.off_table.no_observation_post" not in report.codes()
    assert report.figures["wait_actions"] == 2


def test_availability_dates_warn_against_the_chosen_year():
    report = report_of(platoon(("OG103", "three")), year=1941)
    found = issue(report, "oww2.date.unit_unavailable")
    assert found.severity == "warning" and found.pointer == "/formations/0/units/3" and report.legal
    assert "oww2.date.unit_unavailable" not in report_of(platoon(("OG103", "three")), year=1943).codes()


def test_fixed_price_items_cost_per_item_and_respect_their_maximum():
    base = report_of(platoon()).total_points
    squad_with_molotovs = formation("OG100", unit("OG100/command", "OG101", "small"),
                                    unit("OG100/squads", "OG102", "eight", "squad-mg/mg34", ("items/molotov", 3)),
                                    unit("OG100/squads", "OG102", "eight", "squad-mg/mg34"))
    report = report_of(squad_with_molotovs)
    assert report.legal and report.total_points == base + 90
    squad_with_molotovs["units"][1]["upgrades"][1]["quantity"] = 4
    assert issue(report_of(squad_with_molotovs), "oww2.upgrade.too_many").pointer == "/formations/0/units/1/upgrades/1"


def test_the_first_hand_of_order_cards_is_the_nations_base_plus_one_per_unit():
    report = report_of(platoon(("OG103", "three")))
    assert report.figures["order_cards_base"] == 7  # German
    assert report.figures["order_cards_first_hand"] == 7 + 4


def test_going_over_the_points_limit_is_refused():
    assert issue(report_of(platoon(), points_limit=100), "oww2.points.over_limit").pointer == "/points_limit"
