"""What the handbook's rows keep of BattleScribe once the catalogue document holds the rest."""
from __future__ import annotations

# What the handbook's rows keep of BattleScribe: the ids that tie them to the catalogue document (which holds
# every cost, constraint and modifier the engine evaluates) and a few display hints.
KEPT_EXTRA = {"bs", "card", "formation_support", "hidden", "unbounded", "bs_max"}
KEPT_BS = {"entry", "path", "id", "kind", "type", "categories", "catalogue", "default", "single", "models"}


def _slim(extra: dict) -> dict:
    out = {k: v for k, v in extra.items() if k in KEPT_EXTRA}
    if isinstance(out.get("bs"), dict):
        out["bs"] = {k: v for k, v in out["bs"].items() if k in KEPT_BS}
    return out


def slim_extras(doc: dict) -> None:
    for unit in doc["units"]:
        unit["extra"] = _slim(unit.get("extra", {}))
        for size in unit.get("sizes", []):
            size["extra"] = _slim(size.get("extra", {}))
        for group in unit.get("upgrades", []):
            for option in group["options"]:
                option["extra"] = _slim(option.get("extra", {}))
    for formation in doc["formations"]:
        formation["extra"] = _slim(formation.get("extra", {}))
        for box in formation["boxes"]:
            box["extra"] = _slim(box.get("extra", {}))
    for box in doc["support"]:
        box["extra"] = _slim(box.get("extra", {}))
    for card in doc["cards"]:
        card["extra"] = _slim(card.get("extra", {}))
