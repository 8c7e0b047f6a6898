"""Turn a safely parsed XML tree into :mod:`nodes` objects."""
from __future__ import annotations

from typing import Any
from xml.etree.ElementTree import Element

from .nodes import (
    Catalogue,
    CatalogueLink,
    CategoryLink,
    CostType,
    InfoGroup,
    InfoLink,
    Node,
    Profile,
    ProfileType,
    Rule,
    flag,
    number,
)
from .safe_read import RawDocument

# Children we read elsewhere or deliberately do not keep (free text we may not copy).
IGNORED = {"comment", "description", "readme", "customNotes", "publications", "alias", "attributes"}
MAX_DESCRIPTION = 4000  # characters of a rule's description kept


_LOCAL: dict[str, str] = {}


def local(tag: str) -> str:
    """The tag without its namespace (remembered: a library has ~150,000 elements of a few dozen tags)."""
    name = _LOCAL.get(tag)
    if name is None:
        name = tag.rsplit("}", 1)[-1]
        if len(_LOCAL) < 10_000:  # hostile files may invent any number of tags
            _LOCAL[tag] = name
    return name


def _kids(el: Element, name: str) -> list[Element]:
    for child in el:
        if local(child.tag) == name:
            return list(child)
    return []


def _firsts(el: Element) -> dict[str, Element]:
    """The first child of each name (what :func:`_kids` looks for), found in one pass over the children."""
    out: dict[str, Element] = {}
    for child in el:
        tag = child.tag
        name = _LOCAL.get(tag) or local(tag)
        if name not in out:
            out[name] = child
    return out


def _query_flags(el: Element, out: dict) -> dict:
    # Tens of thousands of queries, nearly all with BattleScribe's own "true"/"false": those are read here.
    get = el.get
    text = get("shared")
    if text is not None and text != "true" and not flag(text, True):
        out["shared"] = False
    text = get("includeChildSelections")
    if text is not None and text != "false" and flag(text):
        out["children"] = True
    text = get("includeChildForces")
    if text is not None and text != "false" and flag(text):
        out["forces"] = True
    text = get("percentValue")
    if text is not None and text != "false" and flag(text):
        out["percent"] = True
    return out


class _Numbers(dict):
    """Numeric attributes read so far (a library repeats a few hundred values tens of thousands of times)."""

    def __missing__(self, text: str | None) -> float | int:
        value = self[text] = number(text)
        return value


def parse_constraint(el: Element, numbers: _Numbers) -> dict:
    get = el.get
    return _query_flags(el, {"id": get("id", ""), "type": get("type", ""), "field": get("field", ""),
                             "scope": get("scope", ""), "value": numbers[get("value")]})


def parse_condition(el: Element, numbers: _Numbers) -> dict:
    get = el.get
    return _query_flags(el, {"type": get("type", ""), "field": get("field", ""), "scope": get("scope", ""),
                             "child": get("childId", ""), "value": numbers[get("value")]})


def parse_repeat(el: Element, numbers: _Numbers) -> dict:
    out = {"field": el.get("field", ""), "scope": el.get("scope", ""), "child": el.get("childId", ""),
           "value": numbers[el.get("value")], "repeats": int(number(el.get("repeats"), 1))}
    if flag(el.get("roundUp")):
        out["round_up"] = True
    return _query_flags(el, out)


def parse_condition_group(el: Element, numbers: _Numbers) -> dict:
    return {el.get("type", "and"): _conditions_of(el, numbers)}


def _conditions_of(el: Element, numbers: _Numbers, firsts: dict | None = None) -> list:
    firsts = _firsts(el) if firsts is None else firsts
    conditions, groups = firsts.get("conditions"), firsts.get("conditionGroups")
    items = [parse_condition(c, numbers) for c in conditions] if conditions is not None else []
    if groups is not None:
        items += [parse_condition_group(g, numbers) for g in groups]
    return items


def _merge_when(outer: list, inner: list) -> dict | None:
    items = outer + inner
    if not items:
        return None
    return items[0] if len(items) == 1 else {"and": items}


class _Parser:
    def __init__(self, cat: Catalogue, cost_ids: set[str], characteristic_ids: set[str]):
        self.cat = cat
        self.cost_ids = cost_ids
        self.characteristic_ids = characteristic_ids
        self.constraint_ids: set[str] = set()
        self.all_modifiers: list[dict] = []
        self.numbers = _Numbers()

    # -- modifiers -------------------------------------------------------
    def field_kind(self, fld: str) -> str:
        if fld in ("hidden", "name", "category", "page", "publicationId", "annotation"):
            return fld if fld in ("hidden", "name", "category") else "other"
        if fld in self.cost_ids:
            return "cost"
        if fld in self.characteristic_ids:
            return "characteristic"
        return "constraint?"  # resolved to "constraint" once all constraint ids are known

    def modifiers(self, el: Element, outer_when: list | None = None, outer_repeats: list | None = None,
                  firsts: dict | None = None) -> list[dict]:
        """The element's modifiers, then its modifier groups' (``firsts``: its :func:`_firsts`, when the caller
        has them)."""
        if not len(el):
            return []
        firsts = _firsts(el) if firsts is None else firsts
        mods, groups = firsts.get("modifiers"), firsts.get("modifierGroups")
        out: list[dict] = []
        if mods is not None:
            for m in mods:
                if local(m.tag) != "modifier":
                    self.cat.unknown.append((el.get("id", ""), local(m.tag), "modifiers"))
                    continue
                out.append(self.modifier(m, outer_when or [], outer_repeats or []))
        if groups is not None:
            for g in groups:
                out.extend(self.modifier_group(g, outer_when or [], outer_repeats or []))
        return out

    def modifier_group(self, g: Element, outer_when: list, outer_repeats: list) -> list[dict]:
        firsts = _firsts(g)
        when = outer_when + _conditions_of(g, self.numbers, firsts)
        own = firsts.get("repeats")
        repeats = (outer_repeats + [parse_repeat(r, self.numbers) for r in own] if own is not None
                   else list(outer_repeats))
        return self.modifiers(g, when, repeats, firsts)

    def modifier(self, m: Element, outer_when: list, outer_repeats: list) -> dict:
        fld = m.get("field", "")
        kind = self.field_kind(fld)
        raw = m.get("value", "")
        value: float | bool | str
        if kind in ("cost", "constraint?"):
            value = self.numbers[raw]
        elif kind == "hidden":
            value = flag(raw)
        else:
            value = raw
        out: dict[str, Any] = {"type": m.get("type", ""), "field": fld, "kind": kind, "value": value}
        self.all_modifiers.append(out)
        firsts = _firsts(m) if len(m) else {}
        when = _merge_when(outer_when, _conditions_of(m, self.numbers, firsts))
        if when is not None:
            out["when"] = when
        own = firsts.get("repeats")
        repeats = (outer_repeats + [parse_repeat(r, self.numbers) for r in own] if own is not None
                   else list(outer_repeats))
        if repeats:
            out["repeats"] = repeats
        return out

    # -- info ------------------------------------------------------------
    def profile(self, el: Element) -> Profile:
        firsts = _firsts(el)
        found = firsts.get("characteristics")
        chars = [(c.get("typeId", ""), c.get("name", ""), (c.text or "").strip())
                 for c in found] if found is not None else []
        p = Profile(el.get("id", ""), el.get("name", ""), el.get("typeId", ""), el.get("typeName", ""),
                    flag(el.get("hidden")), chars, self.modifiers(el, firsts=firsts), self.cat.id)
        self.cat.by_id.setdefault(p.id, p)
        return p

    def rule(self, el: Element) -> Rule:
        description = ""
        for child in el:
            if local(child.tag) == "description":
                description = " ".join((child.text or "").split())[:MAX_DESCRIPTION]
        r = Rule(el.get("id", ""), el.get("name", ""), flag(el.get("hidden")), self.modifiers(el), self.cat.id,
                 description)
        self.cat.by_id.setdefault(r.id, r)
        return r

    def info_link(self, el: Element) -> InfoLink:
        get = el.get
        return InfoLink(get("id", ""), get("name", ""), get("targetId", ""), get("type", ""), flag(get("hidden")),
                        self.modifiers(el) if len(el) else [])  # most links are bare: no call for them

    def info_group(self, el: Element) -> InfoGroup:
        firsts = _firsts(el)
        kids = lambda name: firsts.get(name, ())  # noqa: E731
        g = InfoGroup(el.get("id", ""), el.get("name", ""), flag(el.get("hidden")),
                      [self.profile(p) for p in kids("profiles")], [self.rule(r) for r in kids("rules")],
                      [self.info_link(i) for i in kids("infoLinks")],
                      [self.info_group(i) for i in kids("infoGroups")], self.modifiers(el, firsts=firsts), self.cat.id)
        self.cat.by_id.setdefault(g.id, g)
        return g

    # -- entries ---------------------------------------------------------
    def node(self, el: Element) -> Node:
        tag = local(el.tag)
        get = el.get
        n = Node(tag=tag, id=get("id", ""), name=get("name", ""), type=get("type", ""),
                 hidden=flag(get("hidden")), target_id=get("targetId", ""),
                 default_id=get("defaultSelectionEntryId", ""), collective=flag(get("collective")),
                 catalogue_id=self.cat.id)
        firsts: dict[str, Element] = {}
        for child in el:
            tag = child.tag
            name = _LOCAL.get(tag) or local(tag)
            if name not in firsts:
                firsts[name] = child
            if name == "constraints":
                n.constraints = [parse_constraint(c, self.numbers) for c in child]
                self.constraint_ids.update([c["id"] for c in n.constraints])
            elif name in ("modifiers", "modifierGroups"):
                continue  # read together below, in document order of the two lists
            elif name == "costs":
                n.has_costs = True
                for c in child:
                    n.costs[c.get("typeId", "")] = self.numbers[c.get("value")]
            elif name == "categoryLinks":
                for c in child:
                    cl = CategoryLink(c.get("id", ""), c.get("targetId", ""), flag(c.get("primary")),
                                      [parse_constraint(x, self.numbers) for x in _kids(c, "constraints")],
                                      self.modifiers(c) if len(c) else [])
                    self.constraint_ids.update([x["id"] for x in cl.constraints])
                    n.category_links.append(cl)
            elif name in ("selectionEntries", "selectionEntryGroups", "entryLinks", "forceEntries"):
                n.children += [self.node(c) for c in child]
            elif name == "profiles":
                n.profiles = [self.profile(p) for p in child]
            elif name == "rules":
                n.rules = [self.rule(r) for r in child]
            elif name == "infoLinks":
                n.info_links = [self.info_link(i) for i in child]
            elif name == "infoGroups":
                n.info_groups = [self.info_group(i) for i in child]
            elif name not in IGNORED:
                n.unknown.append(name)
                self.cat.unknown.append((n.id, name, f"{tag} {n.name!r}"))
        n.modifiers = self.modifiers(el, firsts=firsts)
        if n.id and n.tag != "entryLink":
            self.cat.by_id.setdefault(n.id, n)
        elif n.id:
            self.cat.links.setdefault(n.id, n)
        return n


def _walk_nodes(nodes):
    for n in nodes:
        yield n
        yield from _walk_nodes(n.children)


def parse_document(doc: RawDocument, *, cost_ids: set[str] | None = None,
                   characteristic_ids: set[str] | None = None) -> Catalogue:
    """Build a Catalogue from a RawDocument.

    ``cost_ids``/``characteristic_ids`` come from the game system so that a
    catalogue's modifiers can be classified; a game system supplies its own.
    """
    root = doc.root
    cat = Catalogue(kind=doc.kind, id=root.get("id", ""), name=root.get("name", ""),
                    revision=max(1, int(number(root.get("revision"), 1))), source=doc.source,
                    library=flag(root.get("library")), game_system_id=root.get("gameSystemId", ""),
                    game_system_revision=int(number(root.get("gameSystemRevision"), 0)),
                    battlescribe_version=root.get("battleScribeVersion", ""))
    for c in _kids(root, "costTypes"):
        cat.cost_types.append(CostType(c.get("id", ""), c.get("name", ""), number(c.get("defaultCostLimit"), -1),
                                       flag(c.get("hidden"))))
    for p in _kids(root, "profileTypes"):
        characteristics = [(c.get("id", ""), c.get("name", "")) for c in _kids(p, "characteristicTypes")]
        cat.profile_types.append(ProfileType(p.get("id", ""), p.get("name", ""), characteristics))
    cost_ids = set(cost_ids or ()) | {c.id for c in cat.cost_types}
    characteristic_ids = set(characteristic_ids or ()) | {c[0] for p in cat.profile_types for c in p.characteristics}
    parser = _Parser(cat, cost_ids, characteristic_ids)
    for child in root:
        name = local(child.tag)
        if name in ("costTypes", "profileTypes") or name in IGNORED:
            if name == "publications":
                cat.publications = {p.get("id", ""): p.get("name", "") for p in child}
            continue
        if name == "catalogueLinks":
            cat.catalogue_links = [CatalogueLink(c.get("id", ""), c.get("name", ""), c.get("targetId", ""),
                                                 flag(c.get("importRootEntries"))) for c in child]
        elif name == "categoryEntries":
            cat.categories = [parser.node(c) for c in child]
        elif name == "forceEntries":
            cat.force_entries = [parser.node(c) for c in child]
        elif name in ("selectionEntries", "entryLinks"):
            cat.root_entries.extend(parser.node(c) for c in child)
        elif name == "rules":
            cat.root_rules = [parser.rule(r) for r in child]
        elif name == "infoLinks":
            cat.root_info_links = [parser.info_link(i) for i in child]
        elif name == "sharedSelectionEntries":
            cat.shared_entries = [parser.node(c) for c in child]
        elif name == "sharedSelectionEntryGroups":
            cat.shared_groups = [parser.node(c) for c in child]
        elif name == "sharedRules":
            cat.shared_rules = [parser.rule(r) for r in child]
        elif name == "sharedProfiles":
            cat.shared_profiles = [parser.profile(p) for p in child]
        elif name == "sharedInfoGroups":
            cat.shared_info_groups = [parser.info_group(g) for g in child]
        else:
            cat.unknown.append((cat.id, name, "catalogue root"))
    cat.constraint_ids = parser.constraint_ids
    cat.all_modifiers = parser.all_modifiers
    return cat
