"""One place per game system (issue 16): each system is one module here, listed by ``registry``.

Layers above the rules engine (lists, interchange, web, api, pdf, commands) ask the registry what a
system needs (its rules, figures, builder sections and flags, templates, list extras, BattleScribe
mapping) and never compare system codes. See docs/systems.md.
"""
from .base import GameSystem, ListExtra
from .registry import (
    UnknownSystem,
    imported_system,
    system_for,
    system_for_mapping,
    system_get,
    system_register,
    system_registered,
    system_unregister,
    systems_all,
    systems_with_mapping,
)

__all__ = ["GameSystem", "ListExtra", "UnknownSystem", "imported_system", "system_for", "system_for_mapping",
           "system_get", "system_register", "system_registered", "system_unregister", "systems_all",
           "systems_with_mapping"]
