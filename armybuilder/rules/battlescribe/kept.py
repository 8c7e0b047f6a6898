"""The last evaluation an edit made, kept (per thread) for the check of the list it saves.

Completing a pick evaluates the force with the unit's selection as it will be saved (editing._fill); the
builder's answer then checks the saved list, read back as a Force that is equal to it. The check takes the kept
evaluation instead of binding and evaluating the same roster again, only when the force is equal and made on the
same book objects (the same HandbookData, so the same catalogues): an evaluation depends on nothing else. One is
kept at a time, and taken once.
"""
from __future__ import annotations

import threading

from ..force import Force

_kept = threading.local()


def keep(force: Force, built, evaluation) -> None:
    """Keep ``built`` (force_tree.ForceRoster) and its ``evaluation``, made of ``force`` and not changed since."""
    _kept.last = (force, built, evaluation)


def take(force: Force) -> tuple | None:
    """(built, evaluation) kept for a force equal to ``force`` on the same book objects, or None. Whatever was
    kept is let go either way."""
    last = getattr(_kept, "last", None)
    _kept.last = None
    if last is None:
        return None
    old, built, evaluation = last
    if not _same_books(old, force) or old != force:
        return None
    return built, evaluation


def forget() -> None:
    _kept.last = None


def _same_books(a: Force, b: Force) -> bool:
    # Identity first: equal forces on the same book objects compare fast, and a force on other objects (another
    # revision, a book read again) is not compared field by field at all.
    return a.handbook is b.handbook and len(a.formations) == len(b.formations) and all(
        x.handbook is y.handbook for x, y in zip(a.formations, b.formations, strict=True))
