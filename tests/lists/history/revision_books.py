"""A second revision of the sample Afrika Korps book, with changes a test can count by hand."""
from pathlib import Path

import yaml
from django.conf import settings

from handbooks.services import handbook_document_load

AFRIKA = Path(settings.HANDBOOK_DATA_DIR) / "fow4" / "sample-afrika-korps.yaml"


def afrika_revision_2():
    """Revision 2: three Panzer III cost 14 (not 12), the short 5cm gun option is gone, the Panzer IV platoon
    (SG103) is gone from the book and its boxes, and the Forward Command Post card is gone."""
    doc = yaml.safe_load(AFRIKA.read_text(encoding="utf-8"))
    units = {u["code"]: u for u in doc["units"]}
    for size in units["SG102"]["sizes"]:
        if size["code"] == "three-tanks":
            size["points"] = 14
    gun = next(g for g in units["SG102"]["upgrades"] if g["code"] == "gun")
    gun["options"] = [o for o in gun["options"] if o["code"] != "short-5cm"]
    gun["min"] = 0
    doc["units"] = [u for u in doc["units"] if u["code"] != "SG103"]
    for formation in doc["formations"]:
        for box in formation.get("boxes", []):
            box["choices"] = [c for c in box.get("choices", []) if c != "SG103"]
    doc["cards"] = [c for c in doc["cards"] if c["code"] != "forward-command-post"]
    for card in doc["cards"]:
        units = (card.get("targets") or {}).get("units")
        if units:
            card["targets"]["units"] = [u for u in units if u != "SG103"]
    result = handbook_document_load(doc, "sample-afrika-korps-rev2.yaml")
    assert result.ok and result.revision == 2, [str(p) for p in result.problems]
    return result
