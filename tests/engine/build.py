"""Builders for the engine's frozen game data and forces, for tests that run the rules with no database.

Game data: ``a_size``, ``an_upgrade``, ``a_group``, ``a_team``, ``a_unit``, ``a_box``, ``a_formation``, ``a_card``,
``a_book``. A force: ``take`` (a unit picked into a box), ``field`` (a formation with its picks), ``give`` (a
card), then ``a_force`` resolves them against the books into the ``Force`` the engine checks, with the same
JSON pointers the list document uses (``/formations/N``, ``/formations/N/units/M``, ``/support/M``,
``/cards/K``).
"""
from dataclasses import dataclass

from armybuilder.rules.data import (
    BoxData,
    CardData,
    ChoiceData,
    ConstraintData,
    FormationData,
    HandbookData,
    SizeData,
    TeamData,
    UnitData,
    UpgradeData,
    UpgradeGroupData,
)
from armybuilder.rules.force import Force, ForceCard, ForceFormation, ForceUnit, ForceUpgrade
from armybuilder.rules.report import Report

# --- game data -------------------------------------------------------------------------------------------------


def a_size(code: str, teams: int, points: int = 0, label: str = "", **kw) -> SizeData:
    return SizeData(code=code, label=label or code, teams=teams, points=points, **kw)


def an_upgrade(code: str, points: int = 0, name: str = "", **kw) -> UpgradeData:
    return UpgradeData(code=code, name=name or code.split("/", 1)[-1], points=points, **kw)


def a_group(code: str, *upgrades: UpgradeData, name: str = "", **kw) -> UpgradeGroupData:
    return UpgradeGroupData(code=code, name=name or code, upgrades=upgrades, **kw)


def a_team(code: str, count: int = 1, team_type: str = "infantry", name: str = "", **kw) -> TeamData:
    return TeamData(code=code, name=name or code, team_type=team_type, count=count, **kw)


def a_unit(code: str, name: str = "", *, sizes=(), groups=(), teams=(), **kw) -> UnitData:
    return UnitData(code=code, name=name or code, sizes=tuple(sizes), groups=tuple(groups), teams=tuple(teams), **kw)


def a_box(code: str, *choices, kind: str = "grey", formation: str | None = None, name: str = "", **kw) -> BoxData:
    """A diagram box. ``choices`` are unit codes or ``ChoiceData``; an HQ or black box is compulsory
    (``min_picks`` 1) unless told otherwise. ``formation`` defaults to the part of the code before its slash, and
    a box whose code starts with ``force/`` is force-level support (no formation)."""
    if formation is None and not code.startswith("force/"):
        formation = code.split("/", 1)[0]
    kw.setdefault("min_picks", 1 if kind in ("hq", "black") else 0)
    made = tuple(c if isinstance(c, ChoiceData) else ChoiceData(unit=c) for c in choices)
    return BoxData(code=code, name=name or code, kind=kind, formation=formation, choices=made, **kw)


def a_formation(code: str, *boxes: BoxData, name: str = "", **kw) -> FormationData:
    return FormationData(code=code, name=name or code, boxes=boxes, **kw)


def a_card(code: str, scope: str = "force", points: int = 0, name: str = "", **kw) -> CardData:
    for key in ("target_units", "target_formations"):
        if key in kw:
            kw[key] = frozenset(kw[key])
    return CardData(code=code, name=name or code, scope=scope, points=points, **kw)


def a_constraint(code: str, target_kind: str, *targets: str, scope: str = "force", description: str = "",
                 **kw) -> ConstraintData:
    return ConstraintData(code=code, description=description or code, scope=scope, target_kind=target_kind,
                          target_codes=frozenset(targets), **kw)


def a_book(code: str = "book", *, system: str = "fow4", nation: str = "germany", units=(), formations=(),
           support=(), cards=(), revision: int = 1, uses_points: bool = True, **kw) -> HandbookData:
    """A handbook: its units, formations (each with its boxes), force-level support boxes and cards, indexed by
    code as the engine looks them up."""
    for key in ("allied_nations",):
        if key in kw:
            kw[key] = frozenset(kw[key])
    boxes = {b.code: b for f in formations for b in f.boxes} | {b.code: b for b in support}
    return HandbookData(code=code, revision=revision, name=kw.pop("name", code), system=system,
                        uses_points=uses_points, nation=nation, units={u.code: u for u in units},
                        formations={f.code: f for f in formations}, boxes=boxes, support_boxes=tuple(support),
                        cards={c.code: c for c in cards}, **kw)


# --- a force ---------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Take:
    box: str
    unit: str
    size: str | None = None
    upgrades: tuple = ()  # (upgrade code, quantity)
    letter: str = ""
    outflank: str = ""


@dataclass(frozen=True)
class Field:
    formation: str
    takes: tuple = ()
    book: HandbookData | None = None  # None: the force's own book
    allied: bool = False
    parent: int | None = None  # Operation WW2: the index of the formation whose options bought it
    via: str | None = None  # and the options box it was bought from
    letter: str = ""


@dataclass(frozen=True)
class Give:
    card: str
    target: str | None = None  # a pointer to a formation or unit of the force


def take(box: str, unit: str, size: str | None = None, *upgrades, letter: str = "", outflank: str = "") -> Take:
    """A unit picked into a box; ``upgrades`` are upgrade codes, or (code, quantity) pairs."""
    made = tuple(u if isinstance(u, tuple) else (u, 1) for u in upgrades)
    return Take(box, unit, size, made, letter, outflank)


def field(formation: str, *takes: Take, **kw) -> Field:
    return Field(formation, takes, **kw)


def give(card: str, target: str | None = None) -> Give:
    return Give(card, target)


def _unit(book: HandbookData, pick: Take, pointer: str, index: int | None) -> ForceUnit:
    data = book.units[pick.unit]
    size = data.size(pick.size) if pick.size else None
    assert pick.size is None or size is not None, f"{pick.unit} has no size {pick.size}"
    upgrades = []
    for code, quantity in pick.upgrades:
        upgrade = data.upgrade(code)
        assert upgrade is not None, f"{pick.unit} has no upgrade {code}"
        upgrades.append(ForceUpgrade(upgrade, quantity))
    return ForceUnit(pointer=pointer, box=book.boxes[pick.box], unit=data, size=size, upgrades=tuple(upgrades),
                     formation_index=index, letter=pick.letter, outflank=pick.outflank)


def a_force(book: HandbookData, *formations: Field, support=(), cards=(), points_limit: int | None = None,
            variant: str | None = None, year: int | None = None, system: str | None = None) -> Force:
    fielded = []
    for i, spec in enumerate(formations):
        source = spec.book or book
        pointer = f"/formations/{i}"
        units = tuple(_unit(source, pick, f"{pointer}/units/{j}", i) for j, pick in enumerate(spec.takes))
        via = book.boxes[spec.via] if spec.via else None
        fielded.append(ForceFormation(pointer=pointer, index=i, handbook=source,
                                      formation=source.formations[spec.formation], allied=spec.allied, units=units,
                                      parent_index=spec.parent, via_box=via, letter=spec.letter))
    backing = tuple(_unit(book, pick, f"/support/{j}", None) for j, pick in enumerate(support))
    by_pointer = {f.pointer: f for f in fielded} | {u.pointer: u for f in fielded for u in f.units}
    by_pointer |= {u.pointer: u for u in backing}
    given = tuple(ForceCard(pointer=f"/cards/{k}", card=book.cards[spec.card], target_pointer=spec.target,
                            target=by_pointer[spec.target] if spec.target else None)
                  for k, spec in enumerate(cards))
    return Force(system=system or book.system, handbook=book, points_limit=points_limit, variant=variant, year=year,
                 formations=tuple(fielded), support=backing, cards=given)


# --- reading a report --------------------------------------------------------------------------------------------

def issue(report: Report, code: str):
    """The first issue with ``code``; fails naming the codes the report has instead."""
    found = [i for i in report.issues if i.code == code]
    assert found, f"expected {code}, got {report.codes()}"
    return found[0]


def issues(report: Report, code: str) -> list:
    return [i for i in report.issues if i.code == code]



def sole_error(report: Report, code: str):
    """The issue with ``code``, which must be the report's only error: the rule under test broke, nothing else."""
    assert [i.code for i in report.errors] == [code], report.codes()
    return report.errors[0]
