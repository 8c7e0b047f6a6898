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
    out = {"id": get("id", ""), "type": get("type", ""), "field": get("field", ""), "scope": get("scope", ""),
           "value": numbers[get("value")]}
    # The most common query by far, nearly always with BattleScribe's defaults: no call for those.
    if (get("shared") == "true" and get("includeChildSelections") == "false"
            and get("includeChildForces") == "false" and get("percentValue") == "false"):
        return out
    return _query_flags(el, out)


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
        if mods is None and groups is None:  # most profiles and links
            return []
        return self.modifier_lists(el, mods, groups, outer_when or [], outer_repeats or [])

    def modifier_lists(self, el: Element, mods: Element | None, groups: Element | None, outer_when: list,
                       outer_repeats: list) -> list[dict]:
        """The modifiers of ``el``'s first ``modifiers`` and ``modifierGroups`` children (None: it has none)."""
        out: list[dict] = []
        if mods is not None:
            for m in mods:
                if local(m.tag) != "modifier":
                    self.cat.unknown.append((el.get("id", ""), local(m.tag), "modifiers"))
                    continue
                out.append(self.modifier(m, outer_when, outer_repeats))
        if groups is not None:
            for g in groups:
                out.extend(self.modifier_group(g, outer_when, outer_repeats))
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
        hidden = get("hidden")  # "false" nearly always: flag() only for what BattleScribe does not write
        return InfoLink(get("id", ""), get("name", ""), get("targetId", ""), get("type", ""),
                        hidden == "true" or (hidden is not None and hidden != "false" and flag(hidden)),
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
    def category_link(self, el: Element) -> CategoryLink:
        get = el.get
        if not len(el):  # most links: no constraints, no modifiers
            return CategoryLink(get("id", ""), get("targetId", ""), flag(get("primary")), [], [])
        firsts = _firsts(el)
        found = firsts.get("constraints")
        constraints = [parse_constraint(x, self.numbers) for x in found] if found is not None else []
        self.constraint_ids.update([x["id"] for x in constraints])
        return CategoryLink(get("id", ""), get("targetId", ""), flag(get("primary")), constraints,
                            self.modifiers(el, firsts=firsts))

    def node(self, el: Element) -> Node:
        tag = el.tag
        tag = _LOCAL.get(tag) or local(tag)
        get = el.get
        ident, name = get("id", ""), get("name", "")
        # Each list is built once, for this node only (callers extend them), and handed to Node as it is.
        costs: dict[str, float] = {}
        has_costs = False
        constraints: list[dict] = []
        category_links: list[CategoryLink] = []
        children: list[Node] = []
        profiles: list[Profile] = []
        rules: list[Rule] = []
        info_links: list[InfoLink] = []
        info_groups: list[InfoGroup] = []
        unknown: list[str] = []
        mods = groups = None
        numbers = self.numbers
        for child in el:
            child_tag = child.tag
            child_name = _LOCAL.get(child_tag) or local(child_tag)
            if child_name == "constraints":
                constraints = [parse_constraint(c, numbers) for c in child]
                self.constraint_ids.update([c["id"] for c in constraints])
            elif child_name == "modifiers":
                if mods is None:  # only the first list counts, read below with the groups
                    mods = child
            elif child_name == "modifierGroups":
                if groups is None:
                    groups = child
            elif child_name == "costs":
                has_costs = True
                for c in child:
                    costs[c.get("typeId", "")] = numbers[c.get("value")]
            elif child_name == "categoryLinks":
                category_links += [self.category_link(c) for c in child]
            elif child_name in ("selectionEntries", "selectionEntryGroups", "entryLinks", "forceEntries"):
                children += [self.node(c) for c in child]
            elif child_name == "profiles":
                profiles = [self.profile(p) for p in child]
            elif child_name == "rules":
                rules = [self.rule(r) for r in child]
            elif child_name == "infoLinks":
                info_links = [self.info_link(i) for i in child]
            elif child_name == "infoGroups":
                info_groups = [self.info_group(i) for i in child]
            elif child_name not in IGNORED:
                unknown.append(child_name)
                self.cat.unknown.append((ident, child_name, f"{child_tag} {name!r}"))
        # BattleScribe writes "true"/"false": flag() only for anything else.
        hidden = get("hidden")
        collective = get("collective")
        hidden_flag = hidden == "true" or (hidden is not None and hidden != "false" and flag(hidden))
        collective_flag = collective == "true" or (collective is not None and collective != "false"
                                                   and flag(collective))
        modifiers = self.modifier_lists(el, mods, groups, [], []) if mods is not None or groups is not None else []
        # Positional, in the field order of Node: calling a class with keywords first packs them into a dict.
        n = Node(tag, ident, name, get("type", ""), hidden_flag, get("targetId", ""),
                 get("defaultSelectionEntryId", ""), collective_flag, costs, has_costs, constraints, modifiers,
                 category_links, children, profiles, rules, info_links, info_groups, self.cat.id, unknown)
        if ident and tag != "entryLink":
            self.cat.by_id.setdefault(ident, n)
        elif ident:
            self.cat.links.setdefault(ident, n)
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
