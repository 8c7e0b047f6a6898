"""An independent BattleScribe evaluator and roster generators, used by tests only.

It reads the game system and catalogues with the standard library (behind defusedxml) and never
imports the product (armybuilder, handbooks). See README.md beside this file for the API and for
every reading of BattleScribe's behaviour it takes.

    lib = oracle.load(path)                 # a folder with one .gst and its .cat files
    lib.formations()                        # FormationRef for each formation root option
    lib.minimal_legal_roster(ref)           # Roster, or raises NoRoster(reason)
    lib.random_legal_roster(rng, ...)       # Roster
    lib.mutations(roster, rng)              # [Mutation(kind, roster, expected, description)]
    lib.evaluate(roster)                    # Verdict(totals, costs, violations, unevaluated, ...)
    oracle.write_ros(roster) / oracle.read_ros(data)
"""
from .evaluate import Unevaluated, Verdict, Violation
from .generate import FormationRef, NoRoster, clone
from .library import Library
from .mutate import KINDS as MUTATION_KINDS
from .mutate import Mutation
from .roster import Force, Roster, Selection, read_ros, write_ros, write_rosz

__all__ = ["load", "Library", "FormationRef", "NoRoster", "Roster", "Force", "Selection", "Verdict", "Violation",
           "Unevaluated", "Mutation", "MUTATION_KINDS", "read_ros", "write_ros", "write_rosz", "clone"]

_cache = {}


def load(path) -> Library:
    """The library in `path`, read once per process."""
    from pathlib import Path
    key = str(Path(path).resolve())
    if key not in _cache:
        _cache[key] = Library(path)
    return _cache[key]
