"""An event's rules pack on top of the system's check (armybuilder/rules/event_pack.py): the pack's points limit
(with an optional pool for command cards), formation limit, allowed books, nations, periods and points sets, and
current revisions. What a pack may set is described in docs/events.md; the system's own rules are unchanged.
"""
from armybuilder.rules import engine
from armybuilder.rules.event_pack import PackSettings, check_with_pack, force_for_pack, pack_issues

from .build import a_book, a_box, a_card, a_force, a_formation, a_size, a_unit, field, give, issue, take


def book(code="de", revision=2, **kw):
    kw.setdefault("period", "Late-War")
    kw.setdefault("points_set", "2025")
    units = [a_unit("HQ", "HQ", sizes=[a_size("1x", 1, 4)]), a_unit("TNK", "Tanks", sizes=[a_size("3x", 3, 9)])]
    company = a_formation("C", a_box("C/hq", "HQ", kind="hq"), a_box("C/b1", "TNK", kind="black"), name="Company",
                          allied_nations={"italy"})
    return a_book(code, name=f"Book {code}", revision=revision, units=units, formations=[company],
                  cards=[a_card("AMB", "force", 3, name="Ambush")], **kw)


def company(**kw):
    return field("C", take("C/hq", "HQ", "1x"), take("C/b1", "TNK", "3x"), **kw)


def italian_ally():
    return company(book=book("it", revision=1, nation="italy", nation_name="Italy"), allied=True)


def pack(**kw):
    return PackSettings(event="Desert Cup", **kw)


def test_a_force_inside_every_limit_of_the_pack_has_no_pack_issues():
    force = a_force(book(), company(), cards=[give("AMB")], points_limit=16)
    settings = pack(points_limit=16, formation_limit=1, books=frozenset({"de"}), nations=frozenset({"germany"}),
                    periods=frozenset({"Late-War"}), points_sets=frozenset({"2025"}), current_revisions={"de": 2})
    report = check_with_pack(force, settings, engine.check)
    assert report.legal, report.codes()
    assert report.total_points == 4 + 9 + 3


def test_the_packs_points_limit_replaces_the_one_typed_into_the_list():
    force = a_force(book(), company(), points_limit=10)  # the system alone would refuse 13 points
    assert issue(engine.check(force), "fow.points.over_limit")
    report = check_with_pack(force, pack(points_limit=13), engine.check)
    assert report.legal and report.points_limit == 13
    assert force_for_pack(force, pack(points_limit=13)).points_limit is None
    assert force_for_pack(force, pack()) is force  # a pack without a points limit leaves the list's own


def test_over_the_packs_limit_is_an_event_error():
    report = check_with_pack(a_force(book(), company()), pack(points_limit=12), engine.check)
    found = issue(report, "event.points.over")
    assert found.message == "The force costs 13 points, 1 more than the event's 12-point limit."
    assert found.rule.where == "Desert Cup: rules pack"


def test_command_cards_are_paid_from_the_card_pool_first_and_only_up_to_it():
    force = a_force(book(), company(), cards=[give("AMB"), give("AMB")])  # 13 + 6
    assert check_with_pack(force, pack(points_limit=13, card_points=6), engine.check).legal
    found = issue(check_with_pack(force, pack(points_limit=13, card_points=4), engine.check), "event.points.over")
    assert "with up to 4 points of command cards paid from the card pool that is 15, 2 more" in found.message


def test_the_pack_limits_the_formations_allies_included_but_not_those_bought_with_options():
    force = a_force(book(), company(), company(), italian_ally())
    found = issue(check_with_pack(force, pack(formation_limit=2), engine.check), "event.formations.too_many")
    assert found.fix == "Remove 1 formation, e.g. Company."
    bought = a_force(book(), company(), company(parent=0))
    assert pack_issues(bought, engine.check(bought), pack(formation_limit=1)) == []


def test_every_book_the_force_uses_is_checked_against_the_pack_with_its_own_pointer():
    force = a_force(book(), company(), italian_ally())
    report = check_with_pack(force, pack(books=frozenset({"de"}), nations=frozenset({"germany"})), engine.check)
    assert [(i.code, i.pointer) for i in report.issues if i.code.startswith("event.")] == [
        ("event.book.not_allowed", "/formations/1"), ("event.nation.not_allowed", "/formations/1")]


def test_the_pack_can_name_periods_points_sets_and_the_current_revisions():
    force = a_force(book(period="Mid-War", points_set="2024", revision=1), company())
    settings = pack(periods=frozenset({"Late-War"}), points_sets=frozenset({"2025"}), current_revisions={"de": 2})
    codes = [i.code for i in pack_issues(force, engine.check(force), settings)]
    assert codes == ["event.period.not_allowed", "event.points_set.not_allowed", "event.revision.old"]
    found = pack_issues(force, engine.check(force), settings)[2]
    assert (found.pointer, found.fix) == ("/handbook", "Copy the list onto revision 2 of Book de and submit it again.")


def test_the_packs_issues_come_after_the_systems_own():
    force = a_force(book(), field("C", take("C/b1", "TNK", "3x")))
    report = check_with_pack(force, pack(points_limit=1), engine.check)
    codes = report.codes()
    assert codes.index("fow.hq.missing") < codes.index("event.points.over")
