"""JSON read defensively: duplicate keys, NaN/Infinity and absurdly long numbers refused, nesting measured.

Shared by every reader of untrusted JSON (list documents, New Recruit rosters, API bodies); it imports nothing
of the project, so any layer may use it.
"""
import json
import math

MAX_NUMBER_CHARS = 40  # far beyond any real figure, far below Python's 4,300-digit conversion limit
MAX_QUOTED_CHARS = 60  # a value echoed in a message is cut to this


def shorten(text: str, limit: int = MAX_QUOTED_CHARS) -> str:
    """A value fit to be echoed in a message: at most ``limit`` characters, control characters shown escaped."""
    text = str(text)
    if len(text) > limit:
        text = text[:limit] + f"… ({len(text)} characters)"
    return text.encode("unicode_escape", "backslashreplace").decode("ascii") if not text.isprintable() else text


def depth(value, limit: int) -> int:
    """Nesting depth, stopping early once past the limit."""
    stack = [(value, 1)]
    deepest = 0
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return deepest


class RefusedJSON(ValueError):
    """The JSON text is well-formed but holds something a list document may not."""


def _parse_int(text: str) -> int:
    if len(text) > MAX_NUMBER_CHARS:
        raise RefusedJSON(f"a number has {len(text)} digits; at most {MAX_NUMBER_CHARS} are read")
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise RefusedJSON(f"a number is {len(text)} characters long; at most {MAX_NUMBER_CHARS} are read")
    value = float(text)
    if not math.isfinite(value):
        raise RefusedJSON(f"the number {text} is too large")
    return value


def _parse_constant(name: str):
    raise RefusedJSON(f"{name} is not a JSON number")


def _unique_keys(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise RefusedJSON(f"the key '{shorten(key)}' appears twice in one object")
        seen[key] = value
    return seen


def loads_strict(text: str):
    """json.loads that refuses duplicate keys, NaN/Infinity and numbers too long to be real (raises RefusedJSON)."""
    return json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant,
                      object_pairs_hook=_unique_keys)
