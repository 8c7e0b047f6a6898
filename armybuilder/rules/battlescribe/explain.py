"""The conditions that would show an entry the data hides, in a player's words.

BSData hides many options until something else is chosen ("an Observation Post until its artillery is
taken"). :func:`show_conditions` finds the modifiers that would un-hide an entry (``set hidden false``
when a condition holds, or ``set hidden true`` unless it holds) and :func:`condition_words` says what
that condition asks for: "needs an Artillery unit in Panzer III Tank Company".
"""
from __future__ import annotations

from .catalogue import Catalogue, Entry
from .names import display_name

TYPE_WORDS = {"unit": "unit", "model": "model", "upgrade": "upgrade", "any": "choice"}
SCOPE_WORDS = {"self": "in this choice", "parent": "here", "force": "in the force", "roster": "in the list",
               "primary-catalogue": "in the force"}
MAX_PARTS = 4


def show_conditions(catalogue: Catalogue, entry: Entry) -> list[dict]:
    """Condition trees that would show ``entry`` (each enough on its own)."""
    out = []
    for mod in catalogue.modifiers(entry):
        if mod.get("kind") != "hidden" or not mod.get("when"):
            continue
        if mod.get("value") is False:
            out.append(mod["when"])
        elif mod.get("value") is True:
            out.append({"not": mod["when"]})
    return out


def _thing(catalogue: Catalogue, child: str, count: float) -> str:
    """What a condition counts, as many as ``count`` (0: "no …")."""
    if child in TYPE_WORDS or child in catalogue.categories:
        word = TYPE_WORDS.get(child) or f"{catalogue.categories[child]} unit"
        if count == 0:
            return f"no {word}s"
        return f"{_article(word)} {word}" if count == 1 else f"{_number(count)} {word}s"
    node = catalogue.nodes.get(child)
    if node is not None and node.get("k") == "link":
        node = catalogue.nodes.get(str(node.get("target") or ""), node)
    word = display_name(str((node or {}).get("name") or "")) or "a particular choice"
    if count == 0:
        return f"no {word}"
    return word if count == 1 else f"{_number(count)} × {word}"


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _scope(catalogue: Catalogue, scope: str) -> str:
    if scope in SCOPE_WORDS:
        return SCOPE_WORDS[scope]
    if scope == catalogue.catalogue_id or scope == catalogue.system_id:
        return "in the force"
    node = catalogue.nodes.get(scope)
    if node is not None:
        if node.get("k") == "link":
            node = catalogue.nodes.get(str(node.get("target") or ""), node)
        return f"in {display_name(str(node.get('name') or 'its formation'))}"
    return "in the force"


def condition_words(catalogue: Catalogue, tree: dict, *, negate: bool = False) -> str:
    """A condition tree in words, e.g. "needs an Artillery unit in the force"."""
    if "not" in tree:
        return condition_words(catalogue, tree["not"], negate=not negate)
    for key, joiner in (("and", " and "), ("or", " or ")):
        if key in tree:
            parts = [condition_words(catalogue, t, negate=negate) for t in tree[key][:MAX_PARTS]]
            if negate:  # not (a and b) = not a or not b
                joiner = " or " if key == "and" else " and "
            return joiner.join(dict.fromkeys(p for p in parts if p))
    ctype = str(tree.get("type") or "")
    child = str(tree.get("child") or "any")
    scope = _scope(catalogue, str(tree.get("scope") or ""))
    field = str(tree.get("field") or "selections")
    if ctype in ("instanceOf", "notInstanceOf"):
        inside = (ctype == "instanceOf") != negate
        where = _thing(catalogue, child, 1)
        return f"only inside {where}" if inside else f"not inside {where}"
    value = tree.get("value", 0) or 0
    if field != "selections":
        what = catalogue.cost_types.get(field.removeprefix("limit::"), field)
        subject = "the points limit" if field.startswith("limit::") else f"{what} spent {scope}"
        return _compare_words(ctype, value, negate, subject=subject)
    # Counting selections: say what must (or must not) be chosen.
    at_least = {"greaterThan": value + 1, "atLeast": value}.get(ctype)
    at_most = {"lessThan": value - 1, "atMost": value}.get(ctype)
    if ctype == "equalTo":
        if negate:
            return f"needs other than {_thing(catalogue, child, value)} {scope}" if value else \
                f"needs {_thing(catalogue, child, 1)} {scope}"
        return f"needs {_thing(catalogue, child, 0)} {scope}" if value == 0 else \
            f"needs exactly {_thing(catalogue, child, value)} {scope}"
    if ctype == "notEqualTo":
        negate, ctype = not negate, "equalTo"
        return condition_words(catalogue, {**tree, "type": "equalTo"}, negate=negate)
    if negate:
        at_least, at_most = (None if at_most is None else at_most + 1), (None if at_least is None else at_least - 1)
    if at_least is not None:
        return f"needs {_thing(catalogue, child, max(at_least, 1))} {scope}" if at_least <= 1 else \
            f"needs at least {_thing(catalogue, child, at_least)} {scope}"
    if at_most is not None:
        if at_most <= 0:
            return f"needs {_thing(catalogue, child, 0)} {scope}"
        return f"needs at most {_thing(catalogue, child, at_most)} {scope}"
    return "depends on other choices"


def _compare_words(ctype: str, value, negate: bool, *, subject: str) -> str:
    words = {"greaterThan": "more than", "atLeast": "at least", "lessThan": "less than", "atMost": "at most",
             "equalTo": "exactly", "notEqualTo": "other than"}
    opposite = {"greaterThan": "atMost", "atLeast": "lessThan", "lessThan": "atLeast", "atMost": "greaterThan",
                "equalTo": "notEqualTo", "notEqualTo": "equalTo"}
    if negate:
        ctype = opposite.get(ctype, ctype)
    return f"needs {subject} {words.get(ctype, 'to match')} {_number(value)}"


def hidden_because(catalogue: Catalogue, entry: Entry) -> str:
    """Why a hidden entry could be shown, or "" when nothing in the data would show it."""
    reasons = [condition_words(catalogue, tree) for tree in show_conditions(catalogue, entry)]
    reasons = list(dict.fromkeys(r for r in reasons if r))
    return "; or ".join(reasons[:MAX_PARTS])
