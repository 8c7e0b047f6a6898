"""What in a catalogue document the evaluator does not evaluate, so an import can say so (nothing is
dropped silently). Each finding names the node it is on and whether it could change points, legality
or what is offered (``effect``), or only what is displayed."""
from __future__ import annotations

from dataclasses import dataclass

from .evaluate import COMPARE, INSTANCE, NAMED_SCOPES

MODIFIER_TYPES = {"set", "increment", "decrement", "append", "add", "remove", "set-primary", "unset-primary"}
EVALUATED_KINDS = {"cost", "hidden", "name", "category", "constraint"}
DISPLAY_KINDS = {"characteristic", "other"}
QUERY_FIELDS = {"selections", "forces"}


@dataclass(frozen=True, slots=True)
class Finding:
    node: str  # id of the entry, group, link, profile or rule it is on
    what: str
    effect: bool  # True: points, legality or what is offered could differ from BattleScribe


def _query(q, cost_ids, where: str, out: list, node: str) -> None:
    if not isinstance(q, dict):
        out.append(Finding(node, f"{where}: malformed", True))
        return
    if "and" in q or "or" in q:
        for item in q.get("and", q.get("or")) or ():
            _query(item, cost_ids, where, out, node)
        return
    fld = str(q.get("field") or "")
    if fld not in QUERY_FIELDS and fld not in cost_ids and not fld.startswith("limit::"):
        out.append(Finding(node, f"{where} counts field {fld!r}", True))
    scope = str(q.get("scope") or "")
    if not scope:
        out.append(Finding(node, f"{where} has no scope", True))
    elif scope == "ancestor" and q.get("type") not in INSTANCE and "repeats" not in where:
        out.append(Finding(node, f"{where} counts in scope 'ancestor'", True))
    ctype = q.get("type")
    if ctype is not None and ctype not in COMPARE and ctype not in INSTANCE and "repeat" not in where:
        out.append(Finding(node, f"{where} of type {ctype!r}", True))


def _modifiers(mods, cost_ids, node: str, out: list, *, display_only: bool = False) -> None:
    for mod in mods or ():
        mtype, kind = mod.get("type"), mod.get("kind")
        if mtype not in MODIFIER_TYPES:
            out.append(Finding(node, f"modifier type {mtype!r} on {mod.get('field')!r}", not display_only))
            continue
        if display_only or kind in DISPLAY_KINDS:
            if kind == "other":
                out.append(Finding(node, f"modifier of field {mod.get('field')!r} (display only)", False))
            continue
        if kind not in EVALUATED_KINDS:
            out.append(Finding(node, f"modifier of unknown field {mod.get('field')!r}", True))
            continue
        if mod.get("when"):
            _query(mod["when"], cost_ids, "a condition", out, node)
        for rep in mod.get("repeats") or ():
            _query(rep, cost_ids, "a repeat", out, node)
            if not rep.get("value"):
                out.append(Finding(node, "a repeat every 0 selections", True))


def unevaluated(doc: dict) -> list[Finding]:
    cost_ids = {str(c.get("id")) for c in doc.get("cost_types") or ()} | {str(doc.get("points") or "")}
    out: list[Finding] = []
    for nid, node in (doc.get("nodes") or {}).items():
        _modifiers(node.get("modifiers"), cost_ids, nid, out)
        for c in node.get("constraints") or ():
            if c.get("type") not in ("min", "max"):
                out.append(Finding(nid, f"constraint type {c.get('type')!r}", True))
            _query({**c, "type": None}, cost_ids, "a constraint", out, nid)
        for cl in node.get("categories") or ():
            _modifiers(cl.get("modifiers"), cost_ids, nid, out)
            for c in cl.get("constraints") or ():
                if node.get("k") != "force":
                    out.append(Finding(nid, f"constraint {c.get('id')} on a category link of an entry", True))
        for ref in node.get("info") or ():
            _modifiers(ref.get("modifiers"), cost_ids, nid, out, display_only=True)
    for cid, rule in (doc.get("category_rules") or {}).items():
        _modifiers(rule.get("modifiers"), cost_ids, cid, out)
        for c in rule.get("constraints") or ():
            if c.get("type") not in ("min", "max"):
                out.append(Finding(cid, f"constraint type {c.get('type')!r}", True))
            _query({**c, "type": None}, cost_ids, "a category's constraint", out, cid)
    for pid, profile in (doc.get("profiles") or {}).items():
        _modifiers(profile.get("modifiers"), cost_ids, pid, out, display_only=True)
    for rid, rule in (doc.get("rules") or {}).items():
        _modifiers(rule.get("modifiers"), cost_ids, rid, out, display_only=True)
    return out


__all__ = ["Finding", "NAMED_SCOPES", "unevaluated"]
