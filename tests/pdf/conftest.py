"""Lists to print, and a way to read a PDF back as text."""
import copy
import re
from io import BytesIO
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from pypdf import PdfReader

from armybuilder.lists import catalog
from handbooks.services import handbooks_load_paths


def unit(box, code, size, *upgrades):
    return {"box": box, "unit": code, "size": size,
            "upgrades": [{"upgrade": u, "quantity": 1} if isinstance(u, str) else {"upgrade": u[0], "quantity": u[1]}
                         for u in upgrades]}


def desert_fox() -> dict:
    """A legal list from the sample Afrika Korps: a Panzer Company, an Italian allied company, support, cards.

    Nine units, seven distinct (the two Panzer III platoons and the two Bersaglieri platoons are alike).
    """
    return {
        "format": "armybuilder-list", "version": 1, "name": "Desert Fox", "system": "fow4",
        "handbook": {"code": "sample-afrika-korps", "revision": 1}, "points_limit": 100, "variant": "pz21",
        "year": None, "notes": "",
        "formations": [
            {"formation": "SG100", "allied": False, "units": [
                unit("SG100/hq", "SG101", "two-tanks", "gun/long-5cm"),
                unit("SG100/panzer-1", "SG102", "three-tanks", "gun/short-5cm", "field-kit/schurzen"),
                unit("SG100/panzer-2", "SG102", "three-tanks", "gun/short-5cm", "field-kit/schurzen"),
                unit("SG100/grenadiers", "SG105", "seven-teams", "transport/sdkfz251",
                     ("anti-tank/panzerschreck", 2)),
            ]},
            {"formation": "SI300", "handbook": {"code": "sample-italy", "revision": 1}, "allied": True, "units": [
                unit("SI300/hq", "SI301", "one-team"),
                unit("SI300/platoon-1", "SI302", "seven-teams"),
                unit("SI300/platoon-2", "SI302", "seven-teams"),
            ]},
        ],
        "support": [
            unit("force/artillery", "SG110", "four-guns", "transport/sdkfz6"),
            unit("force/observer", "SG112", "observer"),
        ],
        "cards": [{"card": "veteran-panzer-crews", "target": "/formations/0/units/1"},
                  {"card": "forward-command-post"}],
    }


def over_the_limit() -> dict:
    """Desert Fox at a 40-point limit and without its second black-box platoon: not legal, two ways."""
    doc = copy.deepcopy(desert_fox())
    doc["name"] = "Too Much Fox"
    doc["points_limit"] = 40
    del doc["formations"][0]["units"][2]
    doc["cards"] = doc["cards"][1:]
    return doc


@pytest.fixture
def sample_books(db):
    """The game systems and the sample books these tests print (Flames of War, and one Hail of Fire book)."""
    data = Path(settings.HANDBOOK_DATA_DIR)
    catalog.clear_cache()
    results = handbooks_load_paths([data / "systems", data / "fow4", data / "hof" / "sample-germany.yaml"])
    assert all(r.ok for r in results), [str(p) for r in results for p in r.problems]
    yield
    catalog.clear_cache()


@pytest.fixture
def legal_doc(sample_books):
    return desert_fox()


@pytest.fixture
def illegal_doc(sample_books):
    return over_the_limit()


@pytest.fixture
def player(db):
    return get_user_model().objects.create_user("rommel", password="pw-not-secret-123", first_name="Erwin",
                                                last_name="R.")


@pytest.fixture
def rival(db):
    return get_user_model().objects.create_user("monty", password="pw-not-secret-123")


class PdfText:
    """A PDF read back with pypdf: its pages' text with whitespace folded, and its page sizes in mm."""

    def __init__(self, pdf: bytes):
        assert pdf.startswith(b"%PDF-")
        self.reader = PdfReader(BytesIO(pdf))
        self.pages = [re.sub(r"\s+", " ", (page.extract_text() or "").replace("\xa0", " ")) for page in
                      self.reader.pages]
        self.text = " ".join(self.pages)

    def __len__(self) -> int:
        return len(self.pages)

    def size_mm(self, index: int = 0) -> tuple[int, int]:
        box = self.reader.pages[index].mediabox
        return round(float(box.width) * 25.4 / 72), round(float(box.height) * 25.4 / 72)

    def has_url(self, url: str, index: int = 0) -> bool:
        """Whether a URL is printed on a page (long URLs wrap, so spaces are ignored)."""
        return url in self.pages[index].replace(" ", "")

    def count(self, phrase: str) -> int:
        return self.text.count(phrase)


@pytest.fixture
def read_pdf():
    return PdfText
