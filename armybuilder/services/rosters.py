"""Use cases for BattleScribe rosters: import a roster file as an army list, export a list as .ros.

The only roster code that touches the database: it reads game data through
``lists.selectors.DbCatalog`` and writes through ``lists.services.army_list_import``
(so a roster import is exactly a JSON-document import: all or nothing).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from armybuilder.interchange.battlescribe.roster import ROSTER_LIMITS, BattleScribeRosterError, read_roster_bytes
from armybuilder.interchange.battlescribe.roster_map import MappedRoster, roster_to_document
from armybuilder.interchange.battlescribe.roster_write import force_to_ros, zip_roster
from armybuilder.interchange.battlescribe.safe_read import ReadLimits
from armybuilder.lists.listjson import resolve_document
from armybuilder.lists.listjson.document import ListDocumentError
from armybuilder.lists.selectors import DbCatalog, army_list_force
from armybuilder.lists.services import army_list_import
from armybuilder.rules import check
from armybuilder.systems import systems_with_mapping
from handbooks.models import Handbook


@dataclass
class RosterImport:
    army_list: object
    mapped: MappedRoster
    report: object
    warnings: list[str] = field(default_factory=list)

    @property
    def figures(self) -> dict:
        return self.report.figures


def battlescribe_systems() -> tuple[str, ...]:
    """The systems a roster's catalogues are looked up in: those with books imported from BattleScribe, the
    ones with a BattleScribe mapping of their own first (then imported systems by code); those mapped
    systems when nothing is imported yet."""
    mapped = [s.code for s in systems_with_mapping()]
    codes = set(Handbook.objects.filter(source="battlescribe").values_list("system__code", flat=True).distinct())
    first = [c for c in mapped if c in codes]
    return tuple(first + sorted(codes - set(first))) or tuple(mapped)


def roster_import(*, data: bytes, source: str, owner=None, session_key: str = "", name: str | None = None,
                  limits: ReadLimits = ROSTER_LIMITS) -> RosterImport:
    """Read a .ros/.rosz/New Recruit JSON roster and save it as a new list.

    Raises BattleScribeRosterError (unreadable or unmappable roster) or ListDocumentError (the mapped
    document does not resolve); nothing is written then.
    """
    roster = read_roster_bytes(data, source, limits=limits)
    mapped = roster_to_document(roster, DbCatalog(), systems=battlescribe_systems())
    army_list = army_list_import(doc=mapped.document, owner=owner, session_key=session_key, name=name)
    force = army_list_force(army_list)
    report = check(force)
    warnings = list(mapped.warnings)
    ours = report.figures.get("costs", {})
    for cost_name, value in mapped.costs.items():
        got = ours.get(cost_name, 0)
        skipped = mapped.skipped_costs.get(cost_name, 0)
        if abs(got + skipped - value) > 1e-6 or skipped:
            warnings.append(f"{source}: the roster states {value:g} {cost_name}; the imported list costs {got:g}"
                            + (f" ({skipped:g} of it in selections not imported)" if skipped else ""))
    return RosterImport(army_list, mapped, report, warnings)


def roster_export(army_list, *, zipped: bool = False) -> bytes:
    """The list as roster XML (or a .rosz zip); BattleScribeRosterError when it is not on BattleScribe data."""
    force = army_list_force(army_list)
    xml = force_to_ros(force, name=army_list.name)
    return zip_roster(xml, "roster.ros") if zipped else xml


def document_to_ros(doc: dict, catalog) -> bytes:
    """A list document as roster XML; BattleScribeRosterError if it does not resolve."""
    try:
        force = resolve_document(doc, catalog)
    except ListDocumentError as exc:
        raise BattleScribeRosterError([str(p) for p in exc.problems]) from None
    return force_to_ros(force, name=doc.get("name"))


__all__ = ["BattleScribeRosterError", "RosterImport", "document_to_ros", "roster_export", "roster_import"]
