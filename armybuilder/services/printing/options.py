"""Print options of a list: what the player chose in the builder, remembered with the list (ArmyList.print_options)
and used by every roster download of it (the owner's and the share page's) unless the URL names options itself."""
from __future__ import annotations

from django.db import transaction

from armybuilder.lists.models import ArmyList

from .render import PAPERS

# Layout choices beyond paper, cards, player and event: a roster option each, off unless chosen.
EXTRAS = {
    "formation_pages": "One formation per page",
    "casualties": "Casualty boxes on unit cards",
    "pick_list": "Pick list (models to bring)",
    "chart": "Composition chart",
}
DEFAULTS = {"paper": "a4", "cards": True, "player": "", "event": "", **{name: False for name in EXTRAS}}
MAX_TEXT = 120


def clean_options(raw) -> dict:
    """Stored or posted options as a complete, safe set (anything unknown or malformed falls back to the default)."""
    raw = raw if isinstance(raw, dict) else {}
    out = dict(DEFAULTS)
    if raw.get("paper") in PAPERS:
        out["paper"] = raw["paper"]
    for name in ("cards", *EXTRAS):
        if isinstance(raw.get(name), bool):
            out[name] = raw[name]
    for name in ("player", "event"):
        value = raw.get(name)
        if isinstance(value, str):
            out[name] = " ".join(value.split())[:MAX_TEXT]
    return out


def saved_print_options(army_list) -> dict:
    return clean_options(army_list.print_options)


def render_options(options: dict) -> dict:
    """Keyword arguments for armybuilder.services.printing.services' roster functions."""
    return {"paper": options["paper"], "cards": options["cards"], "player": options["player"],
            "event": options["event"], "extras": tuple(name for name in EXTRAS if options.get(name))}


def army_list_set_print_options(*, army_list, options: dict) -> dict:
    """Remember how this list is printed. Not a change to the list itself: its version stays."""
    cleaned = clean_options(options)
    with transaction.atomic():
        ArmyList.objects.filter(pk=army_list.pk).update(print_options=cleaned)
    army_list.print_options = cleaned
    return cleaned
