"""Map a Flames of War v4 catalogue (BSData conventions) onto one handbook document.

Conventions (see docs/battlescribe-import.md for the full table):
* formations: root entries/links whose primary category is "Formations";
* boxes: the formation's children in order ("0) …", "1) …" prefixes, HQ first);
  a group with min 1 → black box, max only → grey box, "HQ" in the name → hq;
  a single entry/link child is a box of its own with its min/max;
* units: every entry offered in a box; the "Unit Size"/"Unit Configuration"
  group (exactly one choice) gives size options, or model-count ``set`` cost
  modifiers give them (3 tanks 13 pts, 4 tanks 17 …); other groups are
  upgrade groups (nested groups flattened);
* support: root entries with primary category Support Units / Formation
  Support / Wildcards become force-level support boxes (column says which);
* command cards: groups named "Command Cards […]" (scope from the brackets)
  and root entries with primary category "Command Cards";
* codes are BattleScribe ids; an entry used through a link that changes it
  (modifiers, costs, children) gets the roster path ``link-id::target-id``.

Modifiers, conditions, repeats and constraints that change costs, limits or
visibility are kept, normalised (see nodes.py), in the catalogue document; a
row's ``extra`` keeps only the ids that tie it to that document and a few
display hints. Everything that is not represented goes into the report with
its id and the reason.
"""
from .mapper import (
    FOW_GAME_SYSTEM_ID,
    FowMapper,
    GenericMapper,
    generic_nation,
    generic_system_code,
    is_flames_of_war,
    map_catalogue,
    system_code_for,
)

__all__ = ["FOW_GAME_SYSTEM_ID", "FowMapper", "GenericMapper", "generic_nation", "generic_system_code",
           "is_flames_of_war", "map_catalogue", "system_code_for"]
