"""The registry of game systems: every layer asks it instead of comparing system codes.

The built-in systems are the modules of this package listed in ``BUILT_IN``; each defines ``SYSTEM``,
one ``GameSystem``. ``system_register`` adds one at run time (tests add a toy system this way) and also
gives its rules module to the engine, so ``armybuilder.rules.check`` checks its lists.
"""
from __future__ import annotations

from contextlib import contextmanager

from armybuilder.rules import engine

from . import fow4, hof, oww2, waf
from .base import GameSystem
from .figures import generic_groups

BUILT_IN = (fow4, oww2, hof, waf)

_systems: dict[str, GameSystem] = {}
_engine_added: set[str] = set()  # codes whose rules module the registry gave the engine (and takes back)


class UnknownSystem(LookupError):
    """A code (or BattleScribe mapping name) no registered game system has."""

    def __str__(self) -> str:
        return self.args[0]


def _known() -> str:
    return ", ".join(sorted(_systems)) or "none"


def system_register(system: GameSystem) -> GameSystem:
    if not isinstance(system, GameSystem):
        raise TypeError(f"a game system is a GameSystem, not {type(system).__name__}")
    if system.code in _systems:
        raise ValueError(f"a game system with the code {system.code!r} is already registered")
    _systems[system.code] = system
    if system.rules is not None and engine.MODULES.get(system.code) is not system.rules:
        if system.code not in engine.MODULES:
            _engine_added.add(system.code)
        engine.register(system.rules)
    return system


def system_unregister(code: str) -> None:
    """Forget a system added with ``system_register`` (and its rules module, if the registry gave it)."""
    if _systems.pop(code, None) is None:
        raise UnknownSystem(f"No game system {code!r} is registered (known: {_known()}).")
    if code in _engine_added:
        _engine_added.discard(code)
        engine.unregister(code)


@contextmanager
def system_registered(system: GameSystem):
    """``system`` is registered for the duration of the block."""
    system_register(system)
    try:
        yield system
    finally:
        system_unregister(system.code)


def system_get(code: str) -> GameSystem:
    try:
        return _systems[code]
    except (KeyError, TypeError):
        raise UnknownSystem(f"No game system {code!r} is registered (known: {_known()}).") from None


def systems_all() -> tuple[GameSystem, ...]:
    """Every registered system, built-in ones first, in the order they were registered."""
    return tuple(_systems.values())


def imported_system(code: str, name: str = "") -> GameSystem:
    """What a game system imported from BattleScribe with no module of its own gets (the engine checks it
    with BattleScribe's rules): the plain figures, the shared templates, no system-specific flags."""
    return GameSystem(code=code, name=name or code, rules=None, figures=generic_groups)


def system_for(code: str, name: str = "") -> GameSystem:
    """The registered system, or the stand-in of a system imported from BattleScribe (``name`` is its
    name where the caller knows it). For layers drawing any list: never raises."""
    return _systems.get(code) or imported_system(code, name)


def system_for_mapping(mapping: str) -> GameSystem:
    """The system whose BattleScribe catalogues the mapping of that name reads (``fow`` -> fow4)."""
    for system in _systems.values():
        if system.battlescribe_mapping == mapping:
            return system
    mapped = sorted(s.battlescribe_mapping for s in _systems.values() if s.battlescribe_mapping)
    raise UnknownSystem(f"No game system uses the BattleScribe mapping {mapping!r} (mappings: "
                        f"{', '.join(mapped) or 'none'}).")


def systems_with_mapping() -> tuple[GameSystem, ...]:
    """The systems with a BattleScribe mapping of their own, in registry order."""
    return tuple(s for s in _systems.values() if s.battlescribe_mapping)


for _module in BUILT_IN:
    system_register(_module.SYSTEM)
