"""Every issue code the checks report, with its severity, the rule it comes from and its wording.

A code is a constant here and nowhere else is one spelt out, so grepping ``fow.black_box.missing`` finds
the one place that defines it, and every place that reports it says ``FOW_BLACK_BOX_MISSING``. Each code
holds:

* ``severity``: error (the list is not legal), warning (legal, worth a look) or info;
* ``rule``: where the rule is written: the seed lines ("L672") of the rulebook, as the rules digests in
  the project's shared notes cite them, with the digest's section; "project rule" where no book says it;
* ``message``: the wording, a template with ``{name}`` placeholders (``str.format`` syntax). A code reported
  in several situations has one template per situation, by name (its *forms*); the values a form needs are
  exactly its placeholders;
* ``fix``: what to do about it, templates by name the same way (none where nothing useful can be said).

The shared checks (``generic.py``, ``battlescribe/check.py``) report the same kinds of problem for every
system; :func:`diagram_codes` and :func:`battlescribe_codes` give a system's own set of codes for them,
one constant per code that system really produces.

``python -m armybuilder.rules.issue_codes_doc docs/issue-codes.md`` writes the reference page from this
module (``issue_codes_doc.py``). Plain Python: no Django.
"""
from __future__ import annotations

import ast
import string
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any

from .report import ERROR, WARNING, Issue

INFO = "info"
SEVERITIES = (ERROR, WARNING, INFO)
# Report.add and IssueCode.issue take these by keyword, so no template may use them as a placeholder.
RESERVED = frozenset({"self", "pointer", "form", "rule", "fix", "box"})
# Prefix -> the heading its codes go under, in the order of the reference page.
SYSTEMS = {
    "force": "Every system",
    "fow": "Flames of War (4th edition)",
    "oww2": "Operation WW2",
    "hof": "Hail of Fire",
    "waf": "War Ain't Fair",
    "bs": "Other systems imported from BattleScribe",
    "event": "Event rules packs",
}
# Prefixes of systems added at run time (``armybuilder.systems.system_register``): such a system brings its own
# codes (``system_codes_add``), kept apart from the built-in ones the reference page lists.
ADDED_PREFIXES: set[str] = set()
DOC_PATH = "docs/issue-codes.md"  # the reference page of every code (issue_codes_doc.py writes it)


def _fields_of(template: str) -> frozenset:
    names = set()
    for _, name, spec, conversion in string.Formatter().parse(template):
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            raise ValueError(f"template {template!r}: placeholders are plain names, not {name!r}")
        names.add(name)
    return frozenset(names)


def _compiled(template: str):
    """The template as a function of its placeholders, by keyword only: an f-string built from its parts (the
    text as constants, each placeholder a name), so filling one in does not parse the template again, and a
    missing or unknown value is a TypeError."""
    parts: list[ast.expr] = []
    names: list[str] = []
    for literal, name, _, _ in string.Formatter().parse(template):
        if literal:
            parts.append(ast.Constant(literal))
        if name is not None:
            parts.append(ast.FormattedValue(ast.Name(name, ast.Load()), conversion=-1, format_spec=None))
            names.append(name)
    names = list(dict.fromkeys(names))
    arguments = ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[ast.arg(n) for n in names],
                              kw_defaults=[None] * len(names), kwarg=None, defaults=[])
    tree = ast.Expression(ast.Lambda(arguments, ast.JoinedStr(parts)))
    return eval(compile(ast.fix_missing_locations(tree), "<issue template>", "eval"), {})  # noqa: S307 - our own


def _forms(templates, what: str, code: str) -> MappingProxyType:
    if templates is None:
        templates = {}
    elif isinstance(templates, str):
        templates = {"": templates}
    out = {}
    for form, template in templates.items():
        if not isinstance(template, str) or not template:
            raise ValueError(f"{code}: the {what} form {form!r} has no template")
        clash = _fields_of(template) & RESERVED
        if clash:
            raise ValueError(f"{code}: the {what} form {form!r} uses reserved placeholder(s) {sorted(clash)}")
        out[form] = template
    return MappingProxyType(out)


class IssueCode:
    """One issue code. ``message`` and ``fix`` are one template, or a mapping form name -> template."""

    __slots__ = ("code", "severity", "rule", "messages", "fixes", "_message_forms", "_fix_forms")

    def __init__(self, code: str, *, severity: str, rule: str, message, fix=None):
        prefix = code.partition(".")[0]
        if ((prefix not in SYSTEMS and prefix not in ADDED_PREFIXES) or code.count(".") < 2 or code != code.lower()
                or " " in code):
            raise ValueError(f"{code!r} is not an issue code (<system>.<subject>.<problem>, lower case)")
        if severity not in SEVERITIES:
            raise ValueError(f"{code}: severity {severity!r} is not one of {SEVERITIES}")
        if not rule:
            raise ValueError(f"{code}: say where the rule comes from")
        self.code = code
        self.severity = severity
        self.rule = rule
        self.messages = _forms(message, "message", code)
        if not self.messages:
            raise ValueError(f"{code}: a message template is required")
        self.fixes = _forms(fix, "fix", code)
        # form -> (template filled in, its placeholders): one look-up per issue reported.
        self._message_forms = {k: (_compiled(v), _fields_of(v)) for k, v in self.messages.items()}
        self._fix_forms = {k: (_compiled(v), _fields_of(v)) for k, v in self.fixes.items()}

    @property
    def system(self) -> str:
        return self.code.partition(".")[0]

    def __repr__(self) -> str:
        return f"IssueCode({self.code!r})"

    def _fill(self, kind: str, forms: dict, form: str, values: dict) -> str:
        found = forms.get(form)
        if found is None:
            raise KeyError(f"{self.code} has no {kind} form {form!r} (it has {sorted(forms)})")
        try:
            return found[0](**values)
        except TypeError:
            if values.keys() != found[1]:
                raise TypeError(f"{self.code} {kind} {form!r} takes {sorted(found[1])}, was given "
                                f"{sorted(values)}") from None
            raise

    def message(self, form: str = "", /, **values) -> str:
        return self._fill("message", self._message_forms, form, values)

    def fix(self, form: str = "", /, **values) -> str:
        return self._fill("fix", self._fix_forms, form, values)

    def issue(self, pointer: str, *, form: str = "", rule=None, fix: str | None = None, box: str | None = None,
              **values) -> Issue:
        """The issue, its message filled in from the ``form`` template with ``values``; ``fix`` is
        already worded (usually ``code.fix(...)``) or None."""
        return self.issue_of(pointer, form, rule, fix, box, values)

    def issue_of(self, pointer: str, form: str, rule, fix, box, values: dict) -> Issue:
        """:meth:`issue` with the values as a dict (``Report.add`` passes its own on)."""
        return Issue(self.code, self.severity, self._fill("message", self._message_forms, form, values), pointer,
                     rule, fix, box)


class Registry:
    """Every code by its string; a code defined twice is refused."""

    def __init__(self, codes=()):
        self._codes: dict[str, IssueCode] = {}
        for code in codes:
            self.add(code)

    def add(self, code: IssueCode) -> IssueCode:
        if not isinstance(code, IssueCode):
            raise TypeError(f"{code!r} is not an IssueCode")
        if code.code in self._codes:
            raise ValueError(f"the issue code {code.code!r} is defined twice")
        self._codes[code.code] = code
        return code

    def lookup(self, code: str) -> IssueCode:
        try:
            return self._codes[code]
        except KeyError:
            raise KeyError(f"{code!r} is not a registered issue code (see {DOC_PATH})") from None

    def __contains__(self, code) -> bool:
        return code in self._codes

    def __iter__(self):
        return iter(self._codes.values())

    def __len__(self) -> int:
        return len(self._codes)

    def codes(self) -> list[str]:
        return list(self._codes)


# -- where rules are written -------------------------------------------------------------------------------
def _fow(lines: str, section: str) -> str:
    return f"Flames of War rulebook {lines}; digest flames-of-war.md {section}"


def _oww2(lines: str, section: str) -> str:
    return f"Operation WW2 core rules {lines}; digest operation-ww2.md {section}"


def _hof(lines: str, section: str) -> str:
    return f"Hail of Fire summary {lines}; digest hail-of-fire-and-war-aint-fair.md {section}"


def _waf(lines: str, section: str) -> str:
    return f"War Ain't Fair v1.2 {lines}; digest hail-of-fire-and-war-aint-fair.md {section}"


def _anchors(section: str) -> str:
    return f"digest anchors-and-battlescribe-format.md {section}"


BS_DATA = "the catalogue's own constraints and visibility (" + _anchors("§3.3, §3.4") + ")"
CARDS = "Command Card rules (" + _anchors("§4, lines 303-309") + ")"
PACK = "the event's rules pack (" + _anchors("§4") + ")"

# -- wording the shared checks use for every system --------------------------------------------------------
SIZE_MISSING = "{unit}: no size chosen."
NOT_IN_VARIANT = {
    "size": "{unit}: the size '{size}' is not available to your chosen variant.",
    "upgrade": "{unit}: {upgrade} is not available to your chosen variant.",
    "box": "{formation}: the box '{box_name}' is not on the diagram for your chosen variant.",
    "unit": "{unit} is not available to your chosen variant.",
}
UPGRADE_TOO_MANY = "{unit}: at most {most} × {upgrade}, not {quantity}."
GROUP_TOO_FEW = "{unit}: choose at least {least} from {group} (has {count})."
GROUP_TOO_MANY = "{unit}: at most {most} from {group} (has {count})."
HQ_EMPTY = "{formation} has no HQ: the box '{box_name}' is empty."
COMPULSORY = "{formation}: the compulsory box '{box_name}' needs {needed}, it has {count}."
BOX_TOO_MANY = "{formation}: the box '{box_name}' holds at most {most}, it has {count}."
SUPPORT_TOO_MANY = "Support box '{box_name}' holds at most {most}, it has {count}."
NOT_IN_FORMATION = "{unit} is in box '{box_name}', which is not on the {formation} diagram."
NOT_FORCE_SUPPORT = "{unit} is listed as force support, but '{box_name}' is a formation's box."
NOT_OFFERED = "{unit} cannot be taken in the box '{box_name}'."
CONSTRAINT_TOO_FEW = "{restriction}: needs at least {least}, has {count}."
CONSTRAINT_TOO_MANY = "{restriction}: at most {most}, has {count}."
OVER_LIMIT = "The force costs {total} points, {over} more than the {limit}-point limit."
INCOMPLETE = "{unit} cannot be played: its record lacks {missing}."

FIX_SIZE = "Choose a size: {sizes}."
FIX_REMOVE_UPGRADE = {"upgrade": "Remove {upgrade}."}
FIX_REDUCE = "Reduce {upgrade} to {most}."
FIX_ADD_OPTION = "Add one of: {options}."
FIX_REMOVE_OF_THEM = "Remove {extra} of them."
FIX_ADD_FROM = {"add_from": "Add {wanted} from: {choices}."}
FIX_REMOVE_FROM = {"remove_from": "Remove {extra} unit(s) from it."}
FIX_PICK = "Pick one of: {choices}."
FIX_OVER_LIMIT = "Remove or shrink units worth at least {over} points."
FIX_INCOMPLETE = "Complete the unit's record in the force list (data), or pick another unit."

# -- wording of the BattleScribe check (imported books) ----------------------------------------------------
BS_MIN = {"choose": "{where}: choose at least {limit} from {what}{per} (has {count}).",
          "needs": "{where}: needs at least {limit} × {what}{per} (has {count})."}
BS_MAX = {"at_most_from": "{where}: at most {limit} from {what}{per} (has {count}).",
          "at_most_times": "{where}: at most {limit} × {what}{per} (has {count})."}
BS_CATEGORY_MIN = {"category_min": "The list needs at least {limit} {what}{per}; it has {count}."}
BS_CATEGORY_MAX = {"category_max": "The list needs at most {limit} {what}{per}; it has {count}."}
BS_HIDDEN = "{where}: {what} is not available here: the data hides it with the choices made."
BS_NOT_OFFERED = {"unreadable": "The list cannot be checked: {error}. Import the book again.",
                  "stale": "{problem}; the list may come from another revision of the book."}
BS_FIX_MIN = {"add_choices": "Add {n} of: {choices}.", "add_times": "Add {n} × {what}.",
              "add_times_choices": "Add {n} × {what}. ({choices})"}
BS_FIX_MAX = {"remove_times": "Remove {n} of {what}."}
BS_FIX_CATEGORY_MIN = {"add_more": "Add {n} more."}
BS_FIX_CATEGORY_MAX = {"remove_of": "Remove {n} of: {names}.", "remove_count": "Remove {n}."}
BS_FIX_HIDDEN = "Remove {what}."
BS_FIX_NOT_OFFERED = {"stale": "Remove it, or move the list to the revision it was built on."}

# == Every system ===========================================================================================
FORCE_SYSTEM_UNSUPPORTED = IssueCode(
    "force.system.unsupported", severity=ERROR, rule="project rule: a list is checked by its system's rules",
    message="No rules are known for the system '{system}'.")

# == Flames of War ==========================================================================================
_FOW_DIAGRAM = _fow("L671-672, L675-679", "§1.1, §1.4")
_FOW_VARIANT = _fow("L673-674", "§1.8")
_FOW_ENTRY = "the Intelligence Handbook's unit entry (data; " + _fow("L667", "§1.2, §4.1") + ")"
_FOW_BOOK_RESTRICTION = "the handbook's own restriction (data; digest flames-of-war.md §4.1)"

FOW_FORCE_NO_FORMATION = IssueCode(
    "fow.force.no_formation", severity=ERROR, rule=_fow("L64", "§1.4"),
    message={"": "The force has no formation.", **BS_CATEGORY_MIN},
    fix={"add_formation": "Add a formation from: {formations}.", **BS_FIX_CATEGORY_MIN})
FOW_FORCE_ONLY_ALLIED = IssueCode(
    "fow.force.only_allied", severity=ERROR, rule=_fow("L70, L469, L716", "§1.7, §3.3"),
    message="Every formation is allied; the force needs at least one formation of its own nation.",
    fix="Add a formation from: {formations}.")
FOW_FORCE_TOO_FEW = IssueCode(
    "fow.force.too_few", severity=ERROR, rule=BS_DATA, message=BS_CATEGORY_MIN, fix=BS_FIX_CATEGORY_MIN)
FOW_FORCE_TOO_MANY = IssueCode(
    "fow.force.too_many", severity=ERROR, rule=BS_DATA, message=BS_CATEGORY_MAX, fix=BS_FIX_CATEGORY_MAX)
FOW_FORMATION_WRONG_SYSTEM = IssueCode(
    "fow.formation.wrong_system", severity=ERROR, rule="project rule: a Flames of War force uses Flames of War books",
    message="{formation} is not a Flames of War formation.")
FOW_FORMATION_MIXED_SOURCES = IssueCode(
    "fow.formation.mixed_sources", severity=ERROR, rule=_fow("L69", "§1.6"),
    message="{formation} {problems}. All formations must share book, nation and higher formation (allies excepted).",
    fix="Mark it as an Allied Formation if its nation is a permitted ally, or remove it.")
FOW_FORMATION_TOO_FEW_UNITS = IssueCode(
    "fow.formation.too_few_units", severity=WARNING, rule=_fow("L465-469", "§3.3"),
    message="{formation} has {count} unit(s) of its own (support does not count); with fewer than two it fails "
            "its Formation Last Stand at once.",
    fix="Add a unit from a grey or black box.")
FOW_HQ_MISSING = IssueCode(
    "fow.hq.missing", severity=ERROR, rule=_fow("L65, L676", "§1.4, §1.9"),
    message={"hq": HQ_EMPTY, **BS_MIN}, fix={**FIX_ADD_FROM, **BS_FIX_MIN})
FOW_BLACK_BOX_MISSING = IssueCode(
    "fow.black_box.missing", severity=ERROR, rule=_fow("L672, L677", "§1.4"),
    message={"compulsory": COMPULSORY, **BS_MIN}, fix={**FIX_ADD_FROM, **BS_FIX_MIN})
FOW_BOX_TOO_FEW = IssueCode(
    "fow.box.too_few", severity=ERROR, rule="the diagram's minimum for the box (data; " + _fow("L672", "§1.4") + ")",
    message={"compulsory": COMPULSORY}, fix=FIX_ADD_FROM)
FOW_BOX_TOO_MANY = IssueCode(
    "fow.box.too_many", severity=ERROR, rule=_fow("L672, L678-679", "§1.4"),
    message={"box": BOX_TOO_MANY, "support": SUPPORT_TOO_MANY, **BS_MAX}, fix={**FIX_REMOVE_FROM, **BS_FIX_MAX})
FOW_BOX_NOT_IN_FORMATION = IssueCode(
    "fow.box.not_in_formation", severity=ERROR, rule=_FOW_DIAGRAM, message=NOT_IN_FORMATION)
FOW_BOX_NOT_FORCE_SUPPORT = IssueCode(
    "fow.box.not_force_support", severity=ERROR, rule=_fow("L68, L679", "§1.5"), message=NOT_FORCE_SUPPORT)
FOW_BOX_CHOICE_NOT_OFFERED = IssueCode(
    "fow.box.choice_not_offered", severity=ERROR, rule=_FOW_DIAGRAM, message=NOT_OFFERED, fix=FIX_PICK)
FOW_VARIANT_UNKNOWN = IssueCode(
    "fow.variant.unknown", severity=ERROR, rule=_FOW_VARIANT,
    message="'{variant}' is not a variant of {book}.", fix="Choose one of: {variants}.")
FOW_VARIANT_NOT_CHOSEN = IssueCode(
    "fow.variant.not_chosen", severity=ERROR, rule=_FOW_VARIANT,
    message="{book} has variants and this force uses options tied to one; choose its variant.",
    fix="Choose one of: {variants}.")
FOW_VARIANT_OPTION_NOT_IN_VARIANT = IssueCode(
    "fow.variant.option_not_in_variant", severity=ERROR, rule=_FOW_VARIANT,
    message={**NOT_IN_VARIANT, "formation": "{formation} is not available to your chosen variant."},
    fix=FIX_REMOVE_UPGRADE)
FOW_UNIT_SIZE_MISSING = IssueCode(
    "fow.unit.size_missing", severity=ERROR, rule=_FOW_ENTRY, message=SIZE_MISSING, fix=FIX_SIZE)
FOW_UPGRADE_TOO_MANY = IssueCode(
    "fow.upgrade.too_many", severity=ERROR, rule=_FOW_ENTRY, message=UPGRADE_TOO_MANY, fix=FIX_REDUCE)
FOW_UPGRADE_GROUP_TOO_FEW = IssueCode(
    "fow.upgrade_group.too_few", severity=ERROR, rule=_FOW_ENTRY, message=GROUP_TOO_FEW, fix=FIX_ADD_OPTION)
FOW_UPGRADE_GROUP_TOO_MANY = IssueCode(
    "fow.upgrade_group.too_many", severity=ERROR, rule=_FOW_ENTRY, message=GROUP_TOO_MANY, fix=FIX_REMOVE_OF_THEM)
FOW_CONSTRAINT_TOO_FEW = IssueCode(
    "fow.constraint.too_few", severity=ERROR, rule=_FOW_BOOK_RESTRICTION, message=CONSTRAINT_TOO_FEW)
FOW_CONSTRAINT_TOO_MANY = IssueCode(
    "fow.constraint.too_many", severity=ERROR, rule=_FOW_BOOK_RESTRICTION, message=CONSTRAINT_TOO_MANY)
FOW_SUPPORT_SEVERAL_DIAGRAMS = IssueCode(
    "fow.support.several_diagrams", severity=ERROR, rule=_fow("L69, L679", "§1.5"),
    message="Support is taken from more than one diagram ({diagrams}); {unit} must go, or the other support must.",
    fix="Take all support from {diagram} only.")
FOW_SUPPORT_BOX_REUSED = IssueCode(
    "fow.support.box_reused", severity=ERROR, rule=_fow("L679", "§1.5"),
    message="The support box '{box_name}' is used {count} times in the force; it allows {most}.",
    fix="Remove {extra} unit(s) from it.")
FOW_ALLIED_SAME_NATION = IssueCode(
    "fow.allied.same_nation", severity=ERROR, rule=_fow("L70, L680", "§1.7"),
    message="{formation} is of your own nation; it cannot be an Allied Formation.",
    fix="Take it as one of your own formations.")
FOW_ALLIED_OTHER_SOURCE = IssueCode(
    "fow.allied.other_source", severity=ERROR,
    rule="project rule: an allied formation's book is data of the same kind as the force's (sample or imported)",
    message="{formation} comes from {their_kind}, your book from {our_kind}: allies come from books of the same kind.",
    fix="Remove it, and choose an Allied Formation offered in the builder.")
FOW_ALLIED_OTHER_PERIOD = IssueCode(
    "fow.allied.other_period", severity=ERROR,
    rule="project rule: books of one period fight together (digest flames-of-war.md §1.7 leaves it open)",
    message="{formation} is {period}; your force is {force_period}.",
    fix="Remove it, and choose an Allied Formation from a {force_period} book.")
FOW_ALLIED_NATION_NOT_PERMITTED = IssueCode(
    "fow.allied.nation_not_permitted", severity=ERROR, rule=_fow("L70, L680", "§1.7"),
    message="{formation} is {nation}; your diagrams list allies from: {listed}.",
    fix="Remove it, or choose an allied formation from a listed nation.")
FOW_ALLIED_MORE_THAN_ONE = IssueCode(
    "fow.allied.more_than_one", severity=WARNING, rule=_fow("L70, L680 (\"an Allied Formation\")", "§1.7"),
    message="The force has {count} Allied Formations; the rules speak of one. Check your event's rules.")
FOW_OBSERVER_TOO_MANY = IssueCode(
    "fow.observer.too_many", severity=ERROR, rule=_fow("L52, L57", "§1.11"),
    message="A force may have one Observer; {unit} would be number {number}.", fix="Remove {unit}.")
FOW_OBSERVER_SOURCE_MISSING = IssueCode(
    "fow.observer.source_missing", severity=ERROR, rule=_fow("L52", "§1.11"),
    message="{unit} comes from {source}, which is not in the force.", fix="Add {source}, or remove the Observer.")
_CARD_TARGET_FIXES = {"give": "Give it to one of: {targets}.", "add": "Add one of: {targets}, or remove the card."}
FOW_CARD_OVER_FORCE_LIMIT = IssueCode(
    "fow.card.over_force_limit", severity=ERROR, rule=CARDS,
    message="{card} may be taken {most} time(s) per force, not {count}.", fix="Remove {extra} of them.")
FOW_CARD_WRONG_TARGET = IssueCode(
    "fow.card.wrong_target", severity=ERROR, rule=CARDS,
    message={"force": "{card} applies to the whole force, not to one part.",
             "kind": "{card} is given to a {given}, but it is a {wanted} card.",
             "target": "{card} cannot be given to {target}."},
    fix={"remove_target": "Remove its target.", **_CARD_TARGET_FIXES})
FOW_CARD_TARGET_MISSING = IssueCode(
    "fow.card.target_missing", severity=ERROR, rule=CARDS,
    message={"": "{card} must be given to a {wanted}; it has none.",
             "listed": "{card} must be given to a {wanted} in the force; it has none."},
    fix=_CARD_TARGET_FIXES)
FOW_CARD_OVER_TARGET_LIMIT = IssueCode(
    "fow.card.over_target_limit", severity=ERROR, rule=CARDS,
    message="{card} is given to the same {wanted} more than {most} time(s).", fix="Remove the extra copy.")
FOW_CARD_RATING_TWICE = IssueCode(
    "fow.card.rating_twice", severity=ERROR, rule=CARDS,
    message="{unit} already has a card that changes its ratings ({first}); {card} would be a second.",
    fix="Remove {card}.")
FOW_POINTS_OVER_LIMIT = IssueCode(
    "fow.points.over_limit", severity=ERROR, rule=_fow("L668", "§1.2, §3.7"), message=OVER_LIMIT, fix=FIX_OVER_LIMIT)
# Books imported from BattleScribe: what the data's own constraints say.
FOW_OPTION_TOO_FEW = IssueCode("fow.option.too_few", severity=ERROR, rule=BS_DATA, message=BS_MIN, fix=BS_FIX_MIN)
FOW_OPTION_TOO_MANY = IssueCode("fow.option.too_many", severity=ERROR, rule=BS_DATA, message=BS_MAX, fix=BS_FIX_MAX)
FOW_OPTION_HIDDEN = IssueCode("fow.option.hidden", severity=ERROR, rule=BS_DATA, message=BS_HIDDEN, fix=BS_FIX_HIDDEN)
FOW_LIMIT_PER_FORCE = IssueCode(
    "fow.limit.per_force", severity=ERROR, rule=BS_DATA, message={**BS_CATEGORY_MAX, **BS_MAX},
    fix={**BS_FIX_CATEGORY_MAX, **BS_FIX_MAX})
FOW_LIMIT_PER_ROSTER = IssueCode(
    "fow.limit.per_roster", severity=ERROR, rule=BS_DATA, message={**BS_CATEGORY_MAX, **BS_MAX},
    fix={**BS_FIX_CATEGORY_MAX, **BS_FIX_MAX})
FOW_LIMIT_FORCE_MINIMUM = IssueCode(
    "fow.limit.force_minimum", severity=ERROR, rule=BS_DATA, message={**BS_CATEGORY_MIN, **BS_MIN},
    fix={**BS_FIX_CATEGORY_MIN, **BS_FIX_MIN})
FOW_SELECTION_NOT_OFFERED = IssueCode(
    "fow.selection.not_offered", severity=ERROR, rule="the imported catalogue the list was built on (project rule)",
    message=BS_NOT_OFFERED, fix=BS_FIX_NOT_OFFERED)

# == Operation WW2 ==========================================================================================
_OWW2_LIST = _oww2("L2019, L2030", "§1.1")
_OWW2_COUNT = _oww2("L2019, L2025", "§1.2, §1.11 rule 2")
_OWW2_POOLS = _oww2("L2028, L2030", "§1.3, §1.11 rule 3")
_OWW2_ENTRY = "the army list's unit entry (data; digest operation-ww2.md §4)"
_OWW2_DATES = _oww2("L2025", "§1.6, §1.11 rule 10")

OWW2_STANDARD_NONE = IssueCode(
    "oww2.standard.none", severity=ERROR, rule=_oww2("L2030", "§1.3, §1.11 rule 1"),
    message="The army has no Standard choice to grow from.", fix="Start with one of: {standards}.")
OWW2_STANDARD_NOT_STANDARD = IssueCode(
    "oww2.standard.not_standard", severity=ERROR, rule=_oww2("L2030", "§1.3, §1.11 rule 1"),
    message="{formation} is not a Standard choice; it can only be bought with options.",
    fix="Start the army with one of: {standards}.")
OWW2_STANDARD_MORE_THAN_ONE = IssueCode(
    "oww2.standard.more_than_one", severity=ERROR, rule=_oww2("L2030", "§1.3, §1.11 rule 1"),
    message="The army starts from {first}; {formation} must be bought with options, not as a second starting choice.",
    fix="Buy it through an options list, or remove it.")
OWW2_COUNT_TOO_FEW = IssueCode(
    "oww2.count.too_few", severity=ERROR, rule=_OWW2_COUNT, message={"hq": HQ_EMPTY, "compulsory": COMPULSORY},
    fix=FIX_ADD_FROM)
OWW2_COUNT_TOO_MANY = IssueCode(
    "oww2.count.too_many", severity=ERROR, rule=_OWW2_COUNT,
    message={"box": BOX_TOO_MANY, "options": "{formation}: at most {most} from '{box_name}', it has {count}."},
    fix=FIX_REMOVE_FROM)
OWW2_BOX_TOO_MANY = IssueCode(
    "oww2.box.too_many", severity=ERROR, rule=_OWW2_COUNT, message={"support": SUPPORT_TOO_MANY}, fix=FIX_REMOVE_FROM)
OWW2_BOX_NOT_IN_FORMATION = IssueCode(
    "oww2.box.not_in_formation", severity=ERROR, rule=_OWW2_LIST, message=NOT_IN_FORMATION)
OWW2_BOX_NOT_FORCE_SUPPORT = IssueCode(
    "oww2.box.not_force_support", severity=ERROR, rule=_OWW2_LIST, message=NOT_FORCE_SUPPORT)
OWW2_BOX_CHOICE_NOT_OFFERED = IssueCode(
    "oww2.box.choice_not_offered", severity=ERROR, rule=_OWW2_LIST, message=NOT_OFFERED, fix=FIX_PICK)
OWW2_OPTION_NOT_OFFERED = IssueCode(
    "oww2.option.not_offered", severity=ERROR, rule=_OWW2_POOLS,
    message="{formation} is not on the options list of {parent}.",
    fix="Buy it through a list that offers it, or remove it.")
OWW2_OPTIONS_OVERSPENT = IssueCode(
    "oww2.options.overspent", severity=ERROR, rule=_OWW2_POOLS,
    message="{formation} grants {pool} option(s) but {used} are spent on its list; other units' options cannot help.",
    fix="Remove options worth {extra}.")
OWW2_UNITS_TOO_MANY = IssueCode(
    "oww2.units.too_many", severity=ERROR, rule=_oww2("L2033", "§1.4, §1.11 rule 5"),
    message="The army has {count} units; a points game allows {most} (off-table units count).",
    fix="Remove {extra} unit(s).")
OWW2_OFF_TABLE_NO_OBSERVATION_POST = IssueCode(
    "oww2.off_table.no_observation_post", severity=WARNING, rule=_oww2("L965", "§1.5, §1.11 rule 6"),
    message="{unit} can only fire from off the table if the army has an Observation Post; without one it must "
            "deploy on the table.",
    fix="Buy an Observation Post, or plan to deploy it on the table.")
OWW2_DATE_UNIT_UNAVAILABLE = IssueCode(
    "oww2.date.unit_unavailable", severity=WARNING, rule=_OWW2_DATES,
    message="{unit} is dated {dates}, outside {year}.")
OWW2_DATE_OPTION_UNAVAILABLE = IssueCode(
    "oww2.date.option_unavailable", severity=WARNING, rule=_OWW2_DATES,
    message="{unit}: {upgrade} is dated {dates}, outside {year}.")
OWW2_VARIANT_OPTION_NOT_IN_VARIANT = IssueCode(
    "oww2.variant.option_not_in_variant", severity=ERROR, rule="the army list's variant (data)",
    message=NOT_IN_VARIANT, fix=FIX_REMOVE_UPGRADE)
OWW2_UNIT_SIZE_MISSING = IssueCode(
    "oww2.unit.size_missing", severity=ERROR, rule=_OWW2_ENTRY, message=SIZE_MISSING, fix=FIX_SIZE)
OWW2_UPGRADE_TOO_MANY = IssueCode(
    "oww2.upgrade.too_many", severity=ERROR, rule=_OWW2_ENTRY, message=UPGRADE_TOO_MANY, fix=FIX_REDUCE)
OWW2_UPGRADE_GROUP_TOO_FEW = IssueCode(
    "oww2.upgrade_group.too_few", severity=ERROR, rule=_OWW2_ENTRY, message=GROUP_TOO_FEW, fix=FIX_ADD_OPTION)
OWW2_UPGRADE_GROUP_TOO_MANY = IssueCode(
    "oww2.upgrade_group.too_many", severity=ERROR, rule=_OWW2_ENTRY, message=GROUP_TOO_MANY, fix=FIX_REMOVE_OF_THEM)
OWW2_CONSTRAINT_TOO_FEW = IssueCode(
    "oww2.constraint.too_few", severity=ERROR, rule="the army list's own restriction (data)",
    message=CONSTRAINT_TOO_FEW)
OWW2_CONSTRAINT_TOO_MANY = IssueCode(
    "oww2.constraint.too_many", severity=ERROR, rule="the army list's own restriction (data)",
    message=CONSTRAINT_TOO_MANY)
OWW2_POINTS_OVER_LIMIT = IssueCode(
    "oww2.points.over_limit", severity=ERROR, rule=_oww2("L2030", "§1.4, §1.11 rule 4"), message=OVER_LIMIT,
    fix=FIX_OVER_LIMIT)

# == Hail of Fire ===========================================================================================
_HOF_LIST = "the force's list (data; Hail of Fire has no points, digest hail-of-fire-and-war-aint-fair.md §0)"

HOF_FORCE_EMPTY = IssueCode(
    "hof.force.empty", severity=ERROR, rule="project rule: a force has at least one unit",
    message="The force has no units.", fix="Pick units from the force's boxes.")
HOF_UNIT_INCOMPLETE = IssueCode(
    "hof.unit.incomplete", severity=ERROR, rule=_hof("003:L17, L25, L31", "§1.6, §1.7"), message=INCOMPLETE,
    fix=FIX_INCOMPLETE)
HOF_TRANSPORT_OVER_CAPACITY = IssueCode(
    "hof.transport.over_capacity", severity=ERROR, rule=_hof("003:L67, L69", "§1.7"),
    message="{unit}: {vehicles} transport(s) carry at most {capacity} teams and {vehicles} towed gun(s); the unit "
            "has {passengers} team(s) and {towed} towed gun(s) to carry.",
    fix="Transports may only carry their own unit's teams.")
HOF_HQ_MISSING = IssueCode(
    "hof.hq.missing", severity=ERROR, rule=_HOF_LIST, message={"hq": HQ_EMPTY}, fix=FIX_ADD_FROM)
HOF_BLACK_BOX_MISSING = IssueCode(
    "hof.black_box.missing", severity=ERROR, rule=_HOF_LIST, message={"compulsory": COMPULSORY}, fix=FIX_ADD_FROM)
HOF_BOX_TOO_FEW = IssueCode(
    "hof.box.too_few", severity=ERROR, rule=_HOF_LIST, message={"compulsory": COMPULSORY}, fix=FIX_ADD_FROM)
HOF_BOX_TOO_MANY = IssueCode(
    "hof.box.too_many", severity=ERROR, rule=_HOF_LIST, message={"box": BOX_TOO_MANY, "support": SUPPORT_TOO_MANY},
    fix=FIX_REMOVE_FROM)
HOF_BOX_NOT_IN_FORMATION = IssueCode(
    "hof.box.not_in_formation", severity=ERROR, rule=_HOF_LIST, message=NOT_IN_FORMATION)
HOF_BOX_NOT_FORCE_SUPPORT = IssueCode(
    "hof.box.not_force_support", severity=ERROR, rule=_HOF_LIST, message=NOT_FORCE_SUPPORT)
HOF_BOX_CHOICE_NOT_OFFERED = IssueCode(
    "hof.box.choice_not_offered", severity=ERROR, rule=_HOF_LIST, message=NOT_OFFERED, fix=FIX_PICK)
HOF_VARIANT_OPTION_NOT_IN_VARIANT = IssueCode(
    "hof.variant.option_not_in_variant", severity=ERROR, rule=_HOF_LIST, message=NOT_IN_VARIANT,
    fix=FIX_REMOVE_UPGRADE)
HOF_UNIT_SIZE_MISSING = IssueCode(
    "hof.unit.size_missing", severity=ERROR, rule=_HOF_LIST, message=SIZE_MISSING, fix=FIX_SIZE)
HOF_UPGRADE_TOO_MANY = IssueCode(
    "hof.upgrade.too_many", severity=ERROR, rule=_HOF_LIST, message=UPGRADE_TOO_MANY, fix=FIX_REDUCE)
HOF_UPGRADE_GROUP_TOO_FEW = IssueCode(
    "hof.upgrade_group.too_few", severity=ERROR, rule=_HOF_LIST, message=GROUP_TOO_FEW, fix=FIX_ADD_OPTION)
HOF_UPGRADE_GROUP_TOO_MANY = IssueCode(
    "hof.upgrade_group.too_many", severity=ERROR, rule=_HOF_LIST, message=GROUP_TOO_MANY, fix=FIX_REMOVE_OF_THEM)
HOF_CONSTRAINT_TOO_FEW = IssueCode(
    "hof.constraint.too_few", severity=ERROR, rule=_HOF_LIST, message=CONSTRAINT_TOO_FEW)
HOF_CONSTRAINT_TOO_MANY = IssueCode(
    "hof.constraint.too_many", severity=ERROR, rule=_HOF_LIST, message=CONSTRAINT_TOO_MANY)

# == War Ain't Fair =========================================================================================
_WAF_LIST = "the force list (data; digest hail-of-fire-and-war-aint-fair.md §2.2)"
_WAF_LETTERS = _waf("004:L12", "§2.3, §2.12")
_WAF_OUTFLANK = _waf("004:L12", "§2.3")
_WAF_HQ = _waf("004:L14, L20", "§2.7, §2.12")

WAF_FORCE_EMPTY = IssueCode(
    "waf.force.empty", severity=ERROR, rule="project rule: a force has at least one unit",
    message="The force has no units.", fix="Pick platoons from the formation's boxes.")
WAF_LETTER_MISSING = IssueCode(
    "waf.letter.missing", severity=WARNING, rule=_WAF_LETTERS, message="{unit} has no set-up letter yet.",
    fix="Give it a letter that no other card uses.")
WAF_LETTER_DUPLICATE = IssueCode(
    "waf.letter.duplicate", severity=ERROR, rule=_WAF_LETTERS,
    message="The set-up letter '{letter}' is used more than once.",
    fix="Choose a letter no other platoon or company uses.")
WAF_OUTFLANK_TOO_MANY = IssueCode(
    "waf.outflank.too_many", severity=ERROR, rule=_WAF_OUTFLANK,
    message="{count} cards are set to outflank; at most {most} (a d3 roll) can be.", fix="Bring it on normally.")
WAF_OUTFLANK_NEEDS_ROLL = IssueCode(
    "waf.outflank.needs_roll", severity=WARNING, rule=_WAF_OUTFLANK,
    message="{count} cards are set to outflank: you need a d3 roll of {count} or more, or some must deploy normally.")
WAF_UNIT_INCOMPLETE = IssueCode(
    "waf.unit.incomplete", severity=ERROR, rule=_waf("004:L12", "§2.11, §2.12"), message=INCOMPLETE,
    fix=FIX_INCOMPLETE)
WAF_HQ_MISSING_CHQ = IssueCode(
    "waf.hq.missing_chq", severity=WARNING, rule=_WAF_HQ,
    message="The force has no Company HQ: every platoon will test morale as if it were out of command.",
    fix="Add a Company HQ unit.")
WAF_HQ_MISSING_BHQ = IssueCode(
    "waf.hq.missing_bhq", severity=WARNING, rule=_WAF_HQ,
    message="The force has no Battalion or Force HQ: every platoon will test morale as if it were out of command.",
    fix="Add a Battalion or Force HQ unit.")
WAF_HQ_MISSING = IssueCode(
    "waf.hq.missing", severity=ERROR, rule=_WAF_LIST, message={"hq": HQ_EMPTY}, fix=FIX_ADD_FROM)
WAF_BLACK_BOX_MISSING = IssueCode(
    "waf.black_box.missing", severity=ERROR, rule=_WAF_LIST, message={"compulsory": COMPULSORY}, fix=FIX_ADD_FROM)
WAF_BOX_TOO_FEW = IssueCode(
    "waf.box.too_few", severity=ERROR, rule=_WAF_LIST, message={"compulsory": COMPULSORY}, fix=FIX_ADD_FROM)
WAF_BOX_TOO_MANY = IssueCode(
    "waf.box.too_many", severity=ERROR, rule=_WAF_LIST, message={"box": BOX_TOO_MANY, "support": SUPPORT_TOO_MANY},
    fix=FIX_REMOVE_FROM)
WAF_BOX_NOT_IN_FORMATION = IssueCode(
    "waf.box.not_in_formation", severity=ERROR, rule=_WAF_LIST, message=NOT_IN_FORMATION)
WAF_BOX_NOT_FORCE_SUPPORT = IssueCode(
    "waf.box.not_force_support", severity=ERROR, rule=_WAF_LIST, message=NOT_FORCE_SUPPORT)
WAF_BOX_CHOICE_NOT_OFFERED = IssueCode(
    "waf.box.choice_not_offered", severity=ERROR, rule=_WAF_LIST, message=NOT_OFFERED, fix=FIX_PICK)
WAF_VARIANT_OPTION_NOT_IN_VARIANT = IssueCode(
    "waf.variant.option_not_in_variant", severity=ERROR, rule=_WAF_LIST, message=NOT_IN_VARIANT,
    fix=FIX_REMOVE_UPGRADE)
WAF_UNIT_SIZE_MISSING = IssueCode(
    "waf.unit.size_missing", severity=ERROR, rule=_WAF_LIST, message=SIZE_MISSING, fix=FIX_SIZE)
WAF_UPGRADE_TOO_MANY = IssueCode(
    "waf.upgrade.too_many", severity=ERROR, rule=_WAF_LIST, message=UPGRADE_TOO_MANY, fix=FIX_REDUCE)
WAF_UPGRADE_GROUP_TOO_FEW = IssueCode(
    "waf.upgrade_group.too_few", severity=ERROR, rule=_WAF_LIST, message=GROUP_TOO_FEW, fix=FIX_ADD_OPTION)
WAF_UPGRADE_GROUP_TOO_MANY = IssueCode(
    "waf.upgrade_group.too_many", severity=ERROR, rule=_WAF_LIST, message=GROUP_TOO_MANY, fix=FIX_REMOVE_OF_THEM)
WAF_CONSTRAINT_TOO_FEW = IssueCode(
    "waf.constraint.too_few", severity=ERROR, rule=_WAF_LIST, message=CONSTRAINT_TOO_FEW)
WAF_CONSTRAINT_TOO_MANY = IssueCode(
    "waf.constraint.too_many", severity=ERROR, rule=_WAF_LIST, message=CONSTRAINT_TOO_MANY)
WAF_POINTS_OVER_LIMIT = IssueCode(
    "waf.points.over_limit", severity=ERROR, rule=_waf("004:L12 (points are optional)", "§2.2"), message=OVER_LIMIT,
    fix=FIX_OVER_LIMIT)

# == Other systems imported from BattleScribe ===============================================================
BS_BOX_TOO_FEW = IssueCode("bs.box.too_few", severity=ERROR, rule=BS_DATA, message=BS_MIN, fix=BS_FIX_MIN)
BS_BOX_TOO_MANY = IssueCode("bs.box.too_many", severity=ERROR, rule=BS_DATA, message=BS_MAX, fix=BS_FIX_MAX)
BS_OPTION_TOO_FEW = IssueCode("bs.option.too_few", severity=ERROR, rule=BS_DATA, message=BS_MIN, fix=BS_FIX_MIN)
BS_OPTION_TOO_MANY = IssueCode("bs.option.too_many", severity=ERROR, rule=BS_DATA, message=BS_MAX, fix=BS_FIX_MAX)
BS_OPTION_HIDDEN = IssueCode("bs.option.hidden", severity=ERROR, rule=BS_DATA, message=BS_HIDDEN, fix=BS_FIX_HIDDEN)
BS_LIMIT_PER_FORCE = IssueCode(
    "bs.limit.per_force", severity=ERROR, rule=BS_DATA, message={**BS_CATEGORY_MAX, **BS_MAX},
    fix={**BS_FIX_CATEGORY_MAX, **BS_FIX_MAX})
BS_LIMIT_PER_ROSTER = IssueCode(
    "bs.limit.per_roster", severity=ERROR, rule=BS_DATA, message={**BS_CATEGORY_MAX, **BS_MAX},
    fix={**BS_FIX_CATEGORY_MAX, **BS_FIX_MAX})
BS_LIMIT_FORCE_MINIMUM = IssueCode(
    "bs.limit.force_minimum", severity=ERROR, rule=BS_DATA, message={**BS_CATEGORY_MIN, **BS_MIN},
    fix={**BS_FIX_CATEGORY_MIN, **BS_FIX_MIN})
BS_FORCE_TOO_FEW = IssueCode(
    "bs.force.too_few", severity=ERROR, rule=BS_DATA, message=BS_CATEGORY_MIN, fix=BS_FIX_CATEGORY_MIN)
BS_FORCE_TOO_MANY = IssueCode(
    "bs.force.too_many", severity=ERROR, rule=BS_DATA, message=BS_CATEGORY_MAX, fix=BS_FIX_CATEGORY_MAX)
BS_SELECTION_NOT_OFFERED = IssueCode(
    "bs.selection.not_offered", severity=ERROR, rule="the imported catalogue the list was built on (project rule)",
    message=BS_NOT_OFFERED, fix=BS_FIX_NOT_OFFERED)
BS_POINTS_OVER_LIMIT = IssueCode(
    "bs.points.over_limit", severity=ERROR, rule="the roster's points limit (" + _anchors("§3.3, limit::") + ")",
    message=OVER_LIMIT, fix=FIX_OVER_LIMIT)

# == Event rules packs ======================================================================================
EVENT_POINTS_OVER = IssueCode(
    "event.points.over", severity=ERROR,
    rule="the event's rules pack, with or without a separate pool for command cards (" + _anchors("§4, lines 295, 304")
         + ")",
    message={"": "The force costs {total} points, {over} more than the event's {limit}-point limit.",
             "pool": "The force costs {total} points; with up to {pool} points of command cards paid from the card "
                     "pool that is {counted}, {over} more than the event's {limit}-point limit."},
    fix="Remove or shrink units or cards worth at least {over} points.")
EVENT_FORMATIONS_TOO_MANY = IssueCode(
    "event.formations.too_many", severity=ERROR,
    rule="the event's rules pack, e.g. \"3 Formation limit per player\" (" + _anchors("§4, lines 293") + ")",
    message="The force fields {count} formations; the event allows at most {most}.",
    fix={"one": "Remove {extra} formation, e.g. {names}.", "several": "Remove {extra} formations, e.g. {names}."})
EVENT_BOOK_NOT_ALLOWED = IssueCode(
    "event.book.not_allowed", severity=ERROR, rule=PACK, message="{book} is not one of the event's books.",
    fix="Build the force from an allowed book.")
EVENT_NATION_NOT_ALLOWED = IssueCode(
    "event.nation.not_allowed", severity=ERROR, rule=PACK,
    message="{nation} ({book}) is not one of the event's nations.",
    fix="Build the force from a book of an allowed nation.")
EVENT_PERIOD_NOT_ALLOWED = IssueCode(
    "event.period.not_allowed", severity=ERROR, rule=PACK, message="{book} is {period}; the event plays {periods}.",
    fix="Build the force from a book of the event's period.")
EVENT_POINTS_SET_NOT_ALLOWED = IssueCode(
    "event.points_set.not_allowed", severity=ERROR, rule=PACK,
    message="{book} uses {points_set}; the event uses {points_sets}.",
    fix="Rebuild the list on a book revision with an allowed points set.")
EVENT_REVISION_OLD = IssueCode(
    "event.revision.old", severity=ERROR, rule=PACK,
    message="{book} is revision {revision}; the event uses the current revision {current}.",
    fix="Copy the list onto revision {current} of {book} and submit it again.")
EVENT_LIST_UNREADABLE = IssueCode(
    "event.list.unreadable", severity=ERROR, rule="project rule: a submitted list must still resolve against the data",
    message="{problem}", fix="Open the list in the builder, fix it and submit it again.")


# -- one system's codes for the shared checks -----------------------------------------------------------------
@dataclass(frozen=True)
class DiagramCodes:
    """The codes ``generic.py`` reports for one system (units picked from boxes of diagrams or lists).
    Each field names the forms the shared check uses, so a set that lacks one fails at import."""

    size_missing: IssueCode
    option_not_in_variant: IssueCode  # forms size, upgrade, box, unit
    upgrade_too_many: IssueCode
    upgrade_group_too_few: IssueCode
    upgrade_group_too_many: IssueCode
    hq_missing: IssueCode  # form hq
    black_box_missing: IssueCode  # form compulsory
    box_too_few: IssueCode  # form compulsory
    box_too_many: IssueCode  # form box
    support_box_too_many: IssueCode  # form support
    box_not_in_formation: IssueCode
    box_not_force_support: IssueCode
    box_choice_not_offered: IssueCode
    constraint_too_few: IssueCode
    constraint_too_many: IssueCode
    date_unit_unavailable: IssueCode | None = None
    date_option_unavailable: IssueCode | None = None

    FORMS = {"option_not_in_variant": ("size", "upgrade", "box", "unit"), "hq_missing": ("hq",),
             "black_box_missing": ("compulsory",), "box_too_few": ("compulsory",), "box_too_many": ("box",),
             "support_box_too_many": ("support",)}

    def __post_init__(self):
        _check_forms(self)


@dataclass(frozen=True)
class BattleScribeCodes:
    """The codes ``battlescribe/check.py`` reports for one system: the verdict of an imported catalogue's data."""

    hq: IssueCode  # a formation's HQ box below its minimum
    box_min: IssueCode  # another box of a formation below its minimum
    box_max: IssueCode
    min: IssueCode  # a choice inside a selection below its minimum
    max: IssueCode
    hidden: IssueCode
    force_max: IssueCode  # a limit per force
    roster_max: IssueCode  # a limit per list
    force_min: IssueCode
    category_min: IssueCode  # the force's make-up (its force entry's categories)
    category_max: IssueCode
    formations: IssueCode  # the force's Formations category below its minimum
    not_offered: IssueCode  # the list names what the catalogue does not offer

    FORMS = {"hq": ("choose", "needs"), "box_min": ("choose", "needs"), "box_max": ("at_most_from", "at_most_times"),
             "min": ("choose", "needs"), "max": ("at_most_from", "at_most_times"), "hidden": ("",),
             "force_max": ("category_max", "at_most_from", "at_most_times"),
             "roster_max": ("category_max", "at_most_from", "at_most_times"),
             "force_min": ("category_min", "choose", "needs"), "category_min": ("category_min",),
             "category_max": ("category_max",), "formations": ("category_min",), "not_offered": ("unreadable", "stale")}

    def __post_init__(self):
        _check_forms(self)


def _check_forms(codes) -> None:
    for f in fields(codes):
        code = getattr(codes, f.name)
        if code is None:
            continue
        missing = [form for form in codes.FORMS.get(f.name, ("",)) if form not in code.messages]
        if missing:
            raise ValueError(f"{type(codes).__name__}.{f.name}: {code.code} lacks the message form(s) {missing}")


DIAGRAM_CODES = {
    "fow": DiagramCodes(
        size_missing=FOW_UNIT_SIZE_MISSING, option_not_in_variant=FOW_VARIANT_OPTION_NOT_IN_VARIANT,
        upgrade_too_many=FOW_UPGRADE_TOO_MANY, upgrade_group_too_few=FOW_UPGRADE_GROUP_TOO_FEW,
        upgrade_group_too_many=FOW_UPGRADE_GROUP_TOO_MANY, hq_missing=FOW_HQ_MISSING,
        black_box_missing=FOW_BLACK_BOX_MISSING, box_too_few=FOW_BOX_TOO_FEW, box_too_many=FOW_BOX_TOO_MANY,
        support_box_too_many=FOW_BOX_TOO_MANY, box_not_in_formation=FOW_BOX_NOT_IN_FORMATION,
        box_not_force_support=FOW_BOX_NOT_FORCE_SUPPORT, box_choice_not_offered=FOW_BOX_CHOICE_NOT_OFFERED,
        constraint_too_few=FOW_CONSTRAINT_TOO_FEW, constraint_too_many=FOW_CONSTRAINT_TOO_MANY),
    # Operation WW2 lists give count ranges ("0-1", "2-3") rather than HQ and black boxes.
    "oww2": DiagramCodes(
        size_missing=OWW2_UNIT_SIZE_MISSING, option_not_in_variant=OWW2_VARIANT_OPTION_NOT_IN_VARIANT,
        upgrade_too_many=OWW2_UPGRADE_TOO_MANY, upgrade_group_too_few=OWW2_UPGRADE_GROUP_TOO_FEW,
        upgrade_group_too_many=OWW2_UPGRADE_GROUP_TOO_MANY, hq_missing=OWW2_COUNT_TOO_FEW,
        black_box_missing=OWW2_COUNT_TOO_FEW, box_too_few=OWW2_COUNT_TOO_FEW, box_too_many=OWW2_COUNT_TOO_MANY,
        support_box_too_many=OWW2_BOX_TOO_MANY, box_not_in_formation=OWW2_BOX_NOT_IN_FORMATION,
        box_not_force_support=OWW2_BOX_NOT_FORCE_SUPPORT, box_choice_not_offered=OWW2_BOX_CHOICE_NOT_OFFERED,
        constraint_too_few=OWW2_CONSTRAINT_TOO_FEW, constraint_too_many=OWW2_CONSTRAINT_TOO_MANY,
        date_unit_unavailable=OWW2_DATE_UNIT_UNAVAILABLE, date_option_unavailable=OWW2_DATE_OPTION_UNAVAILABLE),
    "hof": DiagramCodes(
        size_missing=HOF_UNIT_SIZE_MISSING, option_not_in_variant=HOF_VARIANT_OPTION_NOT_IN_VARIANT,
        upgrade_too_many=HOF_UPGRADE_TOO_MANY, upgrade_group_too_few=HOF_UPGRADE_GROUP_TOO_FEW,
        upgrade_group_too_many=HOF_UPGRADE_GROUP_TOO_MANY, hq_missing=HOF_HQ_MISSING,
        black_box_missing=HOF_BLACK_BOX_MISSING, box_too_few=HOF_BOX_TOO_FEW, box_too_many=HOF_BOX_TOO_MANY,
        support_box_too_many=HOF_BOX_TOO_MANY, box_not_in_formation=HOF_BOX_NOT_IN_FORMATION,
        box_not_force_support=HOF_BOX_NOT_FORCE_SUPPORT, box_choice_not_offered=HOF_BOX_CHOICE_NOT_OFFERED,
        constraint_too_few=HOF_CONSTRAINT_TOO_FEW, constraint_too_many=HOF_CONSTRAINT_TOO_MANY),
    "waf": DiagramCodes(
        size_missing=WAF_UNIT_SIZE_MISSING, option_not_in_variant=WAF_VARIANT_OPTION_NOT_IN_VARIANT,
        upgrade_too_many=WAF_UPGRADE_TOO_MANY, upgrade_group_too_few=WAF_UPGRADE_GROUP_TOO_FEW,
        upgrade_group_too_many=WAF_UPGRADE_GROUP_TOO_MANY, hq_missing=WAF_HQ_MISSING,
        black_box_missing=WAF_BLACK_BOX_MISSING, box_too_few=WAF_BOX_TOO_FEW, box_too_many=WAF_BOX_TOO_MANY,
        support_box_too_many=WAF_BOX_TOO_MANY, box_not_in_formation=WAF_BOX_NOT_IN_FORMATION,
        box_not_force_support=WAF_BOX_NOT_FORCE_SUPPORT, box_choice_not_offered=WAF_BOX_CHOICE_NOT_OFFERED,
        constraint_too_few=WAF_CONSTRAINT_TOO_FEW, constraint_too_many=WAF_CONSTRAINT_TOO_MANY),
}
BATTLESCRIBE_CODES = {
    "fow": BattleScribeCodes(
        hq=FOW_HQ_MISSING, box_min=FOW_BLACK_BOX_MISSING, box_max=FOW_BOX_TOO_MANY, min=FOW_OPTION_TOO_FEW,
        max=FOW_OPTION_TOO_MANY, hidden=FOW_OPTION_HIDDEN, force_max=FOW_LIMIT_PER_FORCE,
        roster_max=FOW_LIMIT_PER_ROSTER, force_min=FOW_LIMIT_FORCE_MINIMUM, category_min=FOW_FORCE_TOO_FEW,
        category_max=FOW_FORCE_TOO_MANY, formations=FOW_FORCE_NO_FORMATION, not_offered=FOW_SELECTION_NOT_OFFERED),
    "bs": BattleScribeCodes(
        hq=BS_BOX_TOO_FEW, box_min=BS_BOX_TOO_FEW, box_max=BS_BOX_TOO_MANY, min=BS_OPTION_TOO_FEW,
        max=BS_OPTION_TOO_MANY, hidden=BS_OPTION_HIDDEN, force_max=BS_LIMIT_PER_FORCE,
        roster_max=BS_LIMIT_PER_ROSTER, force_min=BS_LIMIT_FORCE_MINIMUM, category_min=BS_FORCE_TOO_FEW,
        category_max=BS_FORCE_TOO_MANY, formations=BS_FORCE_TOO_FEW, not_offered=BS_SELECTION_NOT_OFFERED),
}


def diagram_codes(prefix: str) -> DiagramCodes:
    try:
        return DIAGRAM_CODES[prefix]
    except KeyError:
        raise KeyError(f"no diagram issue codes for the system prefix {prefix!r}") from None


def battlescribe_codes(prefix: str) -> BattleScribeCodes:
    try:
        return BATTLESCRIBE_CODES[prefix]
    except KeyError:
        raise KeyError(f"no BattleScribe issue codes for the system prefix {prefix!r}") from None


# -- the registry: every constant above, each code once -----------------------------------------------------
def constants() -> dict[str, IssueCode]:
    """Constant name -> code, as this module defines them."""
    return {name: value for name, value in globals().items() if isinstance(value, IssueCode)}


REGISTRY = Registry(constants().values())
ADDED = Registry()  # the codes of systems added at run time


def lookup(code: str) -> IssueCode:
    if code in ADDED:
        return ADDED.lookup(code)
    return REGISTRY.lookup(code)


def is_registered(code: str) -> bool:
    return code in REGISTRY or code in ADDED


def system_prefix_add(prefix: str) -> None:
    """Let codes under ``prefix`` be made: the first step of a system added at run time."""
    if prefix in SYSTEMS:
        raise ValueError(f"the issue-code prefix {prefix!r} is a built-in system's")
    ADDED_PREFIXES.add(prefix)


def code_like(code: IssueCode, prefix: str, *, rule: str) -> IssueCode:
    """``code`` under another system's prefix, worded the same: a system added at run time may borrow a built-in
    system's wording (``system_prefix_add`` first)."""
    return IssueCode(f"{prefix}.{code.code.partition('.')[2]}", severity=code.severity, rule=rule,
                     message=dict(code.messages), fix=dict(code.fixes) or None)


def diagram_codes_like(source: str, prefix: str, *, rule: str) -> DiagramCodes:
    """The diagram codes of the system ``source`` (for example ``"waf"``), worded the same, under ``prefix``.
    One field may share a code with another (Operation WW2's count ranges), so each code is made once."""
    made: dict[str, IssueCode] = {}
    taken = diagram_codes(source)
    values: dict[str, Any] = {}  # field name -> its code, or None where the source leaves an optional field empty
    for f in fields(DiagramCodes):
        code = getattr(taken, f.name)
        values[f.name] = None if code is None else made.setdefault(code.code, code_like(code, prefix, rule=rule))
    return DiagramCodes(**values)


def system_codes_add(prefix: str, *, codes=(), diagram: DiagramCodes | None = None) -> None:
    """Register the codes of a system added at run time, and the codes the shared diagram checks report for
    it (``diagram``), once per process."""
    if prefix not in ADDED_PREFIXES:
        raise ValueError(f"add the prefix {prefix!r} first (system_prefix_add)")
    for code in (*codes, *((vars(diagram) if diagram else {}).values())):
        if code is not None and code.code not in ADDED:
            if code.system != prefix:
                raise ValueError(f"{code.code} is not under the prefix {prefix!r}")
            ADDED.add(code)
    if diagram is not None:
        DIAGRAM_CODES[prefix] = diagram
