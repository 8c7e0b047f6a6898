"""The player's own names and notes on formations and units are printed on the roster (read back from the PDF)."""
import copy
import os
from pathlib import Path

import pytest

from armybuilder.lists.selectors import list_document_report
from armybuilder.services.printing.services import roster_pdf

pytestmark = pytest.mark.django_db


def test_custom_names_and_notes_are_printed_beside_the_books_names(legal_doc, read_pdf):
    doc = copy.deepcopy(legal_doc)
    doc["formations"][0]["custom_name"] = "Kampfgruppe Hahn"
    doc["formations"][0]["notes"] = "Holds the ridge until dusk."
    doc["formations"][0]["units"][0]["custom_name"] = "Hahn's Command"
    doc["formations"][0]["units"][0]["notes"] = "Stays with the guns."
    force, report = list_document_report(doc)
    raw = roster_pdf(force=force, report=report, document=doc)
    if os.environ.get("ROSTER_PDF_OUT"):  # to look at the page: pdftoppm -png -r 50
        Path(os.environ["ROSTER_PDF_OUT"]).write_bytes(raw)
    pdf = read_pdf(raw)
    text = " ".join(pdf.pages)
    formation = force.formations[0]
    for expected in ("Kampfgruppe Hahn", formation.formation.name, "Holds the ridge until dusk.", "Hahn's Command",
                     formation.units[0].unit.name, "Stays with the guns."):
        assert expected in text, expected
