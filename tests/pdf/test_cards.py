"""What goes on the unit cards and in the rules appendix (checked on the data, before any PDF)."""
import copy

from armybuilder.lists.selectors import list_document_report
from armybuilder.services.printing.context import (
    CARDS_PER_PAGE,
    Block,
    Cell,
    roster_context,
    rules_appendix,
    unit_cards,
)
from armybuilder.services.printing.selectors import unit_sheets

from .conftest import unit


def cards_of(doc):
    force, report = list_document_report(doc)
    return unit_cards(force, report, unit_sheets(force))


def by_name(cards):
    return {card.name: card for card in cards}


def test_identical_units_share_one_card_that_says_how_often_they_are_taken(legal_doc):
    cards = cards_of(legal_doc)
    names = [card.name for card in cards]
    assert len(names) == len(set(names)) == 7
    assert by_name(cards)["Panzer III Tank Platoon"].count == 2
    assert by_name(cards)["Bersaglieri Platoon"].count == 2
    assert by_name(cards)["Panzer Company HQ"].count == 1


def test_the_same_unit_with_other_options_gets_its_own_card(legal_doc):
    doc = copy.deepcopy(legal_doc)
    doc["formations"][0]["units"][2]["upgrades"] = [{"upgrade": "gun/long-5cm", "quantity": 1}]
    cards = [c for c in cards_of(doc) if c.name == "Panzer III Tank Platoon"]
    assert [c.count for c in cards] == [1, 1]
    assert {str(u) for c in cards for u in c.upgrades} == {"Short 5cm gun (Panzer III H)", "Schürzen side skirts",
                                                           "Long 5cm gun (Panzer III J)"}


def test_a_flames_of_war_card_shows_ratings_armour_movement_and_weapons(legal_doc):
    card = by_name(cards_of(legal_doc))["Panzer III Tank Platoon"]
    cells = {cell.label: cell.value for block in card.blocks if block.kind == "grid" for cell in block.cells}
    assert cells["Motivation"] == "Confident 4+"
    assert cells["Skill"] == "Veteran 3+"
    assert cells["Is Hit On"] == "Careful 4+"
    assert cells["Armour"] == "front 5, side 3, top 1"
    assert cells["Tactical"] == '10"/25cm' and cells["Cross"] == "3+"
    assert cells["Remount"] == "4+" and cells["Last Stand"] == "3+"
    weapons = next(block for block in card.blocks if block.kind == "table")
    assert weapons.columns == ["Weapon", "Range", "Halted", "Moving", "AT", "FP", "Notes"]
    assert ["Long 5cm gun", '28"/70cm', "2", "1", "9", "4+", "Smoke"] in weapons.rows


def test_an_infantry_card_shows_its_save_instead_of_armour(legal_doc):
    card = by_name(cards_of(legal_doc))["Panzergrenadier Platoon"]
    labels = {cell.label for block in card.blocks if block.kind == "grid" for cell in block.cells}
    assert "Save" in labels and "Armour" not in labels


def test_a_card_lists_the_special_rules_of_the_unit_its_weapons_and_its_options_with_summaries(legal_doc):
    card = by_name(cards_of(legal_doc))["Panzergrenadier Platoon"]
    rules = {rule.name: rule.summary for rule in card.rules}
    assert set(rules) == {"Heavy Weapon", "Mission Tactics", "Stormtroopers"}
    assert rules["Heavy Weapon"].startswith("The team cannot charge into an assault")


def test_a_card_gives_size_teams_options_and_points_of_one_unit(legal_doc):
    card = by_name(cards_of(legal_doc))["Panzergrenadier Platoon"]
    assert card.size == "Command MG team and 6 MG teams" and card.teams == 7
    assert [str(u) for u in card.upgrades] == ["SdKfz 251/1 half-tracks", "2× Panzerschreck team"]
    assert card.points == 8 + 2 + 2 * 2


def test_an_allied_units_card_names_its_book(legal_doc):
    cards = by_name(cards_of(legal_doc))
    assert cards["Bersaglieri Platoon"].book == "Sample Italian Bersaglieri (illustrative)"
    assert cards["Panzer III Tank Platoon"].book == ""


def test_the_rules_appendix_has_every_rule_once_in_alphabetical_order(legal_doc):
    cards = cards_of(legal_doc)
    appendix = [rule.name for rule in rules_appendix(cards)]
    assert appendix == sorted(appendix, key=str.lower)
    assert len(appendix) == len(set(appendix))
    on_cards = {rule.name for card in cards for rule in card.rules}
    assert set(appendix) == on_cards
    assert {"Avanti", "Bersaglieri Dash", "Heavy Weapon", "Observer", "Slow Firing", "Smoke"} <= set(appendix)


def test_cards_are_laid_out_four_to_a_page_in_rows_of_two(legal_doc):
    force, report = list_document_report(legal_doc)
    context = roster_context(force=force, report=report, sheets=unit_sheets(force))
    assert CARDS_PER_PAGE == 4
    assert [[len(row) for row in page] for page in context["card_pages"]] == [[2, 2], [2, 1]]


def test_rating_lines_break_between_cells_and_never_inside_one():
    block = Block("grid", title="Movement", cells=[Cell("Tactical", '10"/25cm'), Cell("Terrain Dash", '12"/30cm'),
                                                   Cell("Cross-country", '18"/45cm'), Cell("Road Dash", '20"/50cm'),
                                                   Cell("Cross", "3+")])
    lines = block.lines(width=40)
    assert len(lines) > 1 and all(len(line) <= 40 for line in lines)
    assert " · ".join(lines).replace("\u00a0", " ") == ('Tactical 10"/25cm · Terrain Dash 12"/30cm · '
                                                       'Cross-country 18"/45cm · Road Dash 20"/50cm · Cross 3+')
    assert all(" " not in cell for line in lines for cell in line.split(" · "))


def test_a_rating_too_long_for_a_line_keeps_its_spaces_so_it_can_wrap():
    block = Block("grid", cells=[Cell("Notes", "a very long value " * 6)])
    assert " " in block.lines(width=40)[0]


def test_a_system_without_points_shows_no_points_and_generic_stat_tables(sample_books):
    doc = {"format": "armybuilder-list", "version": 1, "name": "Kampfgruppe", "system": "hof",
           "handbook": {"code": "sample-hof-germany", "revision": 1}, "points_limit": None, "variant": None,
           "year": None, "notes": "", "support": [], "cards": [],
           "formations": [{"formation": "HG100", "allied": False,
                           "units": [unit("HG100/grenadiers", "HG101", "four")]}]}
    force, report = list_document_report(doc)
    context = roster_context(force=force, report=report, sheets=unit_sheets(force))
    assert context["uses_points"] is False and context["total_points"] is None
    card = context["unit_cards"][0]
    assert card.points is None
    table = next(block for block in card.blocks if block.kind == "table")
    assert table.columns[:4] == ["Team", "Move", "RoF", "Range"]
    assert table.rows[0][:4] == ["Platoon Leader team", "2d6", "1", '8"']


def test_card_data_is_loaded_with_the_same_few_queries_for_a_small_and_a_large_force(legal_doc,
                                                                                      django_assert_num_queries):
    small = copy.deepcopy(legal_doc)
    small["formations"] = small["formations"][:1]
    small["support"] = []
    small_force, _ = list_document_report(small)
    large_force, _ = list_document_report(legal_doc)
    with django_assert_num_queries(7):
        unit_sheets(small_force)
    with django_assert_num_queries(7):
        sheets = unit_sheets(large_force)
    assert len(sheets) == 7
