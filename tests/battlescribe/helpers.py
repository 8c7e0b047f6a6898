"""Helpers shared by the BattleScribe tests."""
import json


def same_list(a: dict, b: dict) -> bool:
    """The same list; cards come back in roster order (a roster keeps no other), so compare them as a set."""
    def key(doc):
        return {**doc, "cards": sorted(json.dumps(c, sort_keys=True) for c in doc["cards"])}
    return key(a) == key(b)
