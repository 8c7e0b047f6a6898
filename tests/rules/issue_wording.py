"""Whether issues seen in a run come from the registry: a registered code, its severity, and a message
(and fix) that one of the code's templates produces. Shared by tests/rules/test_issue_codes.py and the
suite-wide check in tests/conftest.py."""
from __future__ import annotations

import re
import string
from functools import cache

from armybuilder.rules.issue_codes import is_registered, lookup


@cache
def _pattern(template: str) -> re.Pattern:
    """A template as a regular expression: its text exactly, any text where a placeholder is."""
    parts = []
    for literal, name, _, _ in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if name is not None:
            parts.append("(.*)")
    return re.compile("".join(parts), re.DOTALL)


def worded_by(text: str, templates) -> bool:
    return any(_pattern(t).fullmatch(text) for t in templates)


def wording_problems(seen) -> list[str]:
    """``seen``: (code, severity, message, fix) of issues; what about them does not come from the registry."""
    problems = []
    for code, severity, message, fix in seen:
        if not is_registered(code):
            problems.append(f"{code!r} is not a registered issue code (message {message!r})")
            continue
        registered = lookup(code)
        if severity != registered.severity:
            problems.append(f"{code}: severity {severity!r}, registered {registered.severity!r}")
        if not worded_by(message, registered.messages.values()):
            problems.append(f"{code}: the message {message!r} matches none of its templates")
        if fix is not None and not worded_by(fix, registered.fixes.values()):
            problems.append(f"{code}: the fix {fix!r} matches none of its fix templates")
    return problems
