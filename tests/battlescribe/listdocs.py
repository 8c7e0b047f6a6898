"""List documents (format version 2) for books imported from BattleScribe, written by entry ids.

A selection's ``entry`` may be a bare entry id where it is the only place that entry can be chosen
under its parent (the list reader finds it), or ``link::entry`` where the same entry is offered
through several links.
"""


def sel(entry: str, *children: dict, number: int = 1) -> dict:
    out: dict = {"entry": entry}
    if number != 1:
        out["number"] = number
    if children:
        out["selections"] = list(children)
    return out


def unit(box: str, code: str, entry: str, *selections: dict) -> dict:
    return {"box": box, "unit": code, "entry": entry, "selections": list(selections)}


def formation(code: str, *units: dict, selections=(), allied=False, handbook=None) -> dict:
    out: dict = {"formation": code, "allied": allied, "units": list(units)}
    if selections:
        out["selections"] = list(selections)
    if handbook is not None:
        out["handbook"] = handbook
    return out


def card(code: str, entry: str, *, target: str | None = None, via=(), selections=()) -> dict:
    out: dict = {"card": code, "entry": entry}
    if target is not None:
        out["target"] = target
    if via:
        out["via"] = list(via)
    if selections:
        out["selections"] = list(selections)
    return out


def document(book: dict, formations=(), support=(), cards=(), selections=(), points_limit=100,
             name="List") -> dict:
    out = {"format": "armybuilder-list", "version": 2, "name": name, "system": "fow4", "handbook": book,
           "points_limit": points_limit, "formations": list(formations), "support": list(support),
           "cards": list(cards)}
    if selections:
        out["selections"] = list(selections)
    return out
