"""The rules engine: plain Python, no ORM, no HTTP.

A resolved ``Force`` (the list) and the ``HandbookData`` it uses go in; a
``Report`` (totals, figures, issues) comes out. Each game system's
force-building rules live in their own module; ``generic`` holds what they share.
"""
from .engine import check  # noqa: F401
