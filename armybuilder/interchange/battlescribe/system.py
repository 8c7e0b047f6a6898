"""The Flames of War game-system document extended with what BattleScribe data needs.

Choice (see docs/battlescribe-import.md): profile types are added with their
BattleScribe ids as codes and characteristic type ids as characteristic codes,
instead of being mapped onto our hand-written ``tank-unit``/``weapon`` types.
That keeps imports lossless (BS has types we lack, e.g. Unarmoured Tank Unit,
Transport Attachment, Command Card), lets characteristic ``set``/``append``
modifiers and roster exports use the ids unchanged, and never guesses a
mapping between differently named characteristics.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .fow import generic_nation, generic_system_code
from .index import Index
from .nations import nation_for

BASE_SYSTEM_FILE = Path(__file__).resolve().parents[3] / "handbooks" / "data" / "systems" / "flames-of-war.yaml"


def applies_to(name: str) -> str:
    lowered = name.lower()
    if "command card" in lowered:
        return "card"
    if lowered == "weapon" or lowered.startswith("weapon"):
        return "weapon"
    return "unit"


# libyaml's loader where PyYAML has it: the same documents, about 9x faster than the pure-Python one (7 ms of
# every import for this file).
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def base_system_doc() -> dict:
    with BASE_SYSTEM_FILE.open(encoding="utf-8") as fh:
        return yaml.load(fh, Loader=_SAFE_LOADER)


def profile_type_table(index: Index) -> dict[str, dict]:
    return {p.id: {"applies_to": applies_to(p.name), "name": p.name,
                   "characteristics": {c[0] for c in p.characteristics}}
            for p in index.profile_types.values()}


def system_document(index: Index, catalogues, base: dict | None = None) -> dict:
    """The Flames of War system doc plus every nation and profile type the imported catalogues need."""
    doc = dict(base or base_system_doc())
    doc["nations"] = list(doc.get("nations", []))
    known = {n["code"] for n in doc["nations"]}
    for cat in catalogues:
        code, name, side, _ = nation_for(cat.name, cat.source)
        if code not in known:
            doc["nations"].append({"code": code, "name": name, "side": side})
            known.add(code)
    doc["profile_types"] = list(doc.get("profile_types", []))
    have = {p["code"] for p in doc["profile_types"]}
    for p in index.profile_types.values():
        if p.id in have or not p.characteristics:
            continue
        seen = set()
        chars = []
        for cid, cname in p.characteristics:
            if cid and cid not in seen:
                seen.add(cid)
                chars.append({"code": cid, "name": (cname or cid)[:200]})
        doc["profile_types"].append({"code": p.id, "name": p.name[:200], "applies_to": applies_to(p.name),
                                     "characteristics": chars})
    return doc


def generic_system_document(index: Index, catalogues) -> dict:
    """A game system that is not Flames of War: its own system, one nation per catalogue."""
    doc: dict[str, Any] = {"kind": "system", "format": 1, "code": generic_system_code(index.system),
           "name": (index.system.name or index.system.id)[:200], "uses_points": True,
           "description": f"Imported from the BattleScribe game system {index.system.id} (revision "
                          f"{index.system.revision}).",
           "nations": [], "profile_types": []}
    seen = set()
    for cat in catalogues:
        code, name = generic_nation(cat)
        if code not in seen:
            seen.add(code)
            doc["nations"].append({"code": code, "name": name, "side": ""})
    return system_document(index, [], base=doc) | {"nations": doc["nations"]}
