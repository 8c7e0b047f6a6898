"""The printed roster, read back from the PDF: everything in the list is on the page, and nothing twice."""
import math

import pytest

from armybuilder.lists.selectors import list_document_report
from armybuilder.services.printing.codes import canonical_json, list_code
from armybuilder.services.printing.render import PrintOptionsError, roster_html
from armybuilder.services.printing.selectors import roster_print_data
from armybuilder.services.printing.services import roster_pdf

from .conftest import desert_fox

_rendered: dict = {}


def render(doc, **options):
    """Render once per list and options in this test run: the sample books are the same in every test."""
    force, report = list_document_report(doc)
    key = (canonical_json(doc), tuple(sorted(options.items())))
    if key not in _rendered:
        _rendered[key] = roster_pdf(force=force, report=report, document=doc, **options)
    return _rendered[key], force, report


@pytest.fixture
def legal_pdf(legal_doc, read_pdf):
    pdf, force, report = render(legal_doc, player="Erwin R.", event="Tobruk Open",
                                list_url="https://example.org/s/1b9f/")
    return read_pdf(pdf), force, report


def test_the_roster_names_player_event_system_book_points_set_and_points(legal_pdf):
    pdf, force, report = legal_pdf
    first = pdf.pages[0]
    for text in ["Desert Fox", "Erwin R.", "Tobruk Open", "Flames of War (4th edition)",
                 "Sample Afrika Korps (illustrative) (revision 1)", "Sample points (illustrative)",
                 "21. Panzer-Division", "Legal list", f"{report.total_points} / 100 points"]:
        assert text in first, text


def test_every_formation_unit_size_option_and_points_value_is_printed(legal_pdf):
    pdf, force, report = legal_pdf
    roster = pdf.pages[0]
    for formation in force.formations:
        assert formation.formation.name in roster
        assert f"{report.formation_points[formation.pointer]} points" in roster
        for unit in formation.units:
            assert unit.unit.name in roster and unit.size.label in roster
            for chosen in unit.upgrades:
                assert chosen.upgrade.name in roster
    for unit in force.support:
        assert unit.unit.name in roster and unit.size.label in roster
    assert "2× Panzerschreck team" in roster
    assert f"Total {report.total_points} of 100 points" in roster


def test_points_per_unit_add_up_to_the_printed_total(legal_pdf):
    pdf, force, report = legal_pdf
    roster = pdf.pages[0]
    printed = sum(report.unit_points.values()) + report.card_points
    assert printed == report.total_points == 79
    # each unit's row ends with its points
    assert "SdKfz 251/1 half-tracks 2× Panzerschreck team 14" in roster
    assert "4 leFH18 howitzers (4 teams) SdKfz 6 tractors 10" in roster


def test_allied_formations_are_marked_and_name_their_book(legal_pdf):
    pdf, _, _ = legal_pdf
    assert "ALLIED Bersaglieri Company" in pdf.pages[0]
    assert "Allied formation from Sample Italian Bersaglieri (illustrative)" in pdf.pages[0]


def test_command_cards_show_their_target_and_points(legal_pdf):
    pdf, _, report = legal_pdf
    assert "Veteran Panzer Crews Panzer III Tank Platoon 3" in pdf.pages[0]
    assert "Forward Command Post Force 2" in pdf.pages[0]
    assert f"Command cards {report.card_points} points" in pdf.pages[0]


def test_game_units_and_the_reserves_figure_are_printed(legal_pdf):
    pdf, _, report = legal_pdf
    assert f"Game units: {report.figures['game_units']}" in pdf.pages[0]
    assert f"On table in Reserves missions: at most {report.figures['reserves_on_table_max']} points" in pdf.pages[0]


def test_every_page_carries_the_verification_code_and_its_page_number(legal_pdf, legal_doc):
    pdf, _, _ = legal_pdf
    code = list_code(legal_doc)
    for number, page in enumerate(pdf.pages, start=1):
        assert f"Verification code {code} · page {number} of {len(pdf)}" in page


def line_segments(page) -> int:
    return page.get_contents().get_data().count(b" l\n")


def test_every_page_carries_the_qr_code_when_there_is_a_link(legal_pdf, legal_doc, read_pdf):
    pdf, _, _ = legal_pdf
    without_link = read_pdf(render(legal_doc, player="Erwin R.", event="Tobruk Open")[0])
    assert len(without_link) == len(pdf)
    for with_qr, plain in zip(pdf.reader.pages, without_link.reader.pages, strict=False):
        assert line_segments(with_qr) - line_segments(plain) > 100  # the QR code's modules, drawn as vectors


def test_page_count_is_roster_plus_four_cards_a_page_plus_the_appendix(legal_doc, read_pdf):
    with_cards = read_pdf(render(legal_doc)[0])
    roster_only = read_pdf(render(legal_doc, cards=False)[0])
    distinct_units = 7
    assert len(roster_only) == 2  # the roster fits one page, the rules appendix another
    assert len(with_cards) == len(roster_only) + math.ceil(distinct_units / 4)
    assert "Special rules used in this list" in with_cards.pages[-1]
    assert "Special rules used in this list" not in " ".join(with_cards.pages[:-1])


def test_each_distinct_unit_has_exactly_one_card(legal_pdf):
    pdf, _, _ = legal_pdf
    cards = " ".join(pdf.pages[1:-1])
    assert cards.count("Panzer III Tank Platoon ×2") == 1
    assert cards.count("Bersaglieri Platoon ×2") == 1
    for name in ["Panzer Company HQ", "Panzergrenadier Platoon", "Bersaglieri Company HQ",
                 "10.5cm Artillery Battery", "Artillery Observer"]:
        assert cards.count(f"{name} ") >= 1
        assert cards.count(f"· {name}") == 0  # not a second card hiding behind a different heading
    assert sum(page.count(" points") for page in pdf.pages[1:-1]) == 7


def test_cards_show_stats_weapons_and_rule_summaries(legal_pdf):
    pdf, _, _ = legal_pdf
    cards = " ".join(pdf.pages[1:-1])
    for text in ["Motivation Confident 4+", "Skill Veteran 3+", "Is Hit On Careful 4+", "Armour front 5, side 3, top 1",
                 "Save 3+", "Tactical 10\"/25cm", "Cross 3+", "Long 5cm gun 28\"/70cm 2 1 9 4+ Smoke",
                 "Slow Firing:", "Mission Tactics: A unit whose leader has lost contact"]:
        assert text in cards, text


def test_the_appendix_lists_each_rule_once_with_its_summary(legal_pdf):
    pdf, _, _ = legal_pdf
    appendix = pdf.pages[-1]
    for name in ["Avanti", "Heavy Weapon", "Mission Tactics", "Observer", "Slow Firing", "Smoke", "Stormtroopers"]:
        assert appendix.count(f"{name} ") >= 1
    assert appendix.index("Avanti") < appendix.index("Heavy Weapon") < appendix.index("Stormtroopers")
    assert appendix.count("Instead of firing to destroy, the weapon can lay a smoke marker") == 1


def test_a_list_that_is_not_legal_says_so_on_every_page_with_its_problems(illegal_doc, read_pdf):
    pdf_bytes, _, report = render(illegal_doc)
    pdf = read_pdf(pdf_bytes)
    errors = len(report.errors)
    assert errors >= 2
    assert len(pdf) >= 3
    for page in pdf.pages:
        assert f"NOT LEGAL — {errors} problems" in page
    assert "Why this list is not legal" in pdf.pages[0]
    for issue in report.errors:
        assert issue.message in pdf.pages[0]
        if issue.fix:
            assert f"Fix: {issue.fix}" in pdf.pages[0]


def test_a_legal_list_has_no_not_legal_mark(legal_pdf):
    pdf, _, _ = legal_pdf
    assert "NOT LEGAL" not in pdf.text


@pytest.mark.parametrize("paper, size", [("a4", (210, 297)), ("letter", (216, 279))])
def test_rosters_print_on_a4_and_letter(legal_doc, read_pdf, paper, size):
    pdf = read_pdf(render(legal_doc, paper=paper)[0])
    assert all(pdf.size_mm(i) == size for i in range(len(pdf)))
    assert len(pdf) == 4


def test_an_unknown_paper_size_is_refused(legal_doc):
    force, report = list_document_report(legal_doc)
    with pytest.raises(PrintOptionsError, match="paper is one of"):
        roster_html(force=force, report=report, document=legal_doc, paper="a3", **roster_print_data(force))


def test_user_text_is_escaped_and_cannot_inject_markup_or_styles(sample_books, read_pdf):
    doc = desert_fox()
    doc["name"] = '</style><img src="file:///etc/passwd"> "} @page { size: A3 }'
    force, report = list_document_report(doc)
    html = roster_html(force=force, report=report, document=doc, player="<b>Bold</b>", **roster_print_data(force))
    assert "<img src=\"file:" not in html and "&lt;b&gt;Bold&lt;/b&gt;" in html
    pdf = read_pdf(roster_pdf(force=force, report=report, document=doc))
    assert pdf.size_mm(0) == (210, 297)
    assert "@page { size: A3 }" in pdf.pages[0]


def test_a_half_built_list_prints_without_error(sample_books, read_pdf):
    doc = desert_fox()
    doc["name"] = "Half built"
    doc["formations"][0]["units"] = [{"box": "SG100/hq", "unit": "SG101", "size": None, "upgrades": []}]
    doc["formations"][1]["units"] = []
    doc["support"], doc["cards"] = [], []
    pdf = read_pdf(render(doc)[0])
    assert len(pdf) == 3  # roster, one card, the appendix
    assert "size not chosen" in pdf.pages[0] and "No units picked yet." in pdf.pages[0]
    assert "NOT LEGAL" in pdf.pages[0]


def test_a_list_with_no_units_has_no_card_pages(sample_books, read_pdf):
    doc = desert_fox()
    doc["formations"], doc["support"], doc["cards"] = [], [], []
    pdf = read_pdf(render(doc)[0])
    assert len(pdf) == 2
    assert "No special rules." in pdf.pages[1]
