"""Self-tests of the independent BattleScribe oracle (tests/battlescribe/oracle).

Expected values are worked out by reading the BSData XML by hand; each test says how, by ids only.
The oracle never imports the product (armybuilder, handbooks); the first tests prove it.
The whole module runs in a few seconds (the library is read once, about 0.6 s).
"""
import ast
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.battlescribe import oracle
from tests.battlescribe.oracle import NoRoster, Roster, Selection

pytestmark = pytest.mark.bsdata

ORACLE_DIR = Path(oracle.__file__).parent
PROJECT_ROOT = ORACLE_DIR.parents[2]
PTS = "995a-4d67-6920-bfe4"
FORMATIONS = "5630-abd3-15d8-5cc6"


# --------------------------------------------------------------------------- fixtures and helpers
@pytest.fixture(scope="module")
def fow(bsdata_dir):
    return oracle.load(bsdata_dir)


def catalogue_id(lib, name):
    return next(c.id for c in lib.catalogues.values() if c.name == name)


def formation(lib, catalogue_name, path):
    cat = catalogue_id(lib, catalogue_name)
    return next(f for f in lib.formations()
                if f.catalogue_id == cat and (f.path == path or f.path.startswith(path + "::")))


def holder_of(roster, entry_id):
    """The first selection (preorder) whose entry path is `entry_id`."""
    for f in roster.forces:
        for s in f.walk():
            if s.entry_id == entry_id:
                return s
    raise AssertionError(f"no selection {entry_id}")


def pick(lib, roster, holder, rel, number=1):
    """Add under `holder` (a Selection, or None for the force) the option whose path ends with `rel`."""
    force = roster.forces[0]
    root = lib.force_root(force.catalogue_id)
    if holder is None:
        options, prefix, children = root.options, (), force.selections
    else:
        node = _node(lib, roster, holder)
        options, prefix, children = node.options, tuple(holder.entry_id.split("::"))[:-1], holder.children
    wanted = tuple(rel.split("::"))
    opt = next(o for o in options if (prefix + o.rel)[-len(wanted):] == wanted)
    group = "::".join(prefix + opt.groups[-1].rel) if opt.groups else None
    sel = Selection(entry_id="::".join(prefix + opt.rel), entry_group_id=group, number=number, type=opt.node.type,
                    name=opt.node.name)
    children.append(sel)
    return sel


def _node(lib, roster, target):
    force = roster.forces[0]
    opts = lib.force_root(force.catalogue_id).options_by_rel

    def walk(sels, opts, prefix):
        for s in sels:
            parts = tuple(s.entry_id.split("::"))
            opt = opts.get(parts[len(prefix):])
            if opt is None:
                continue
            if s is target:
                return opt.node
            found = walk(s.children, opt.node.options_by_rel, parts[:-1])
            if found is not None:
                return found
        return None

    return walk(force.selections, opts, ())


def empty_roster(lib, catalogue_name):
    cat = lib.catalogues[catalogue_id(lib, catalogue_name)]
    fe = lib.force_entry()
    return Roster(game_system_id=lib.game_system.id,
                  forces=[oracle.Force(catalogue_id=cat.id, entry_id=fe.id, catalogue_name=cat.name)])


def keys(verdict):
    return {(v.kind, v.constraint_id, v.owner_id, v.type, v.limit, v.actual) for v in verdict.violations}


# --------------------------------------------------------------------------- independence
def test_importing_the_oracle_loads_nothing_of_the_product():
    code = ("import sys; import tests.battlescribe.oracle as o; import tests.battlescribe.oracle.mutate; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('armybuilder', 'handbooks', 'django')); "
            "print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_oracle_module_names_the_product_in_an_import():
    for path in ORACLE_DIR.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            for name in names:
                assert name.split(".")[0] not in ("armybuilder", "handbooks", "django"), f"{path.name}: {name}"


# --------------------------------------------------------------------------- loading
def test_formations_are_the_root_options_in_the_formations_category(fow, bsdata_dir):
    # Counted here straight from the XML, differently from the oracle: a root entryLink or root
    # selectionEntry of a non-library catalogue whose categoryLinks (the link's, else its target's, which
    # may sit in a linked library) name 5630-... Primary ones are formations; the others are the
    # card-formations and Formation Support entries that carry Formations as a second category.
    from defusedxml import ElementTree as ET

    def cat_links(el):
        return [c for lst in el if lst.tag.endswith("}categoryLinks") for c in lst]

    shared, linked, roots = {}, {}, []  # ids repeat across the copied catalogues: resolve per file
    for path in sorted(bsdata_dir.glob("*.cat")):
        root = ET.parse(str(path)).getroot()
        cid = root.get("id")
        shared[cid], linked[cid] = {}, []
        for lst in root:
            if lst.tag.endswith("}sharedSelectionEntries"):
                shared[cid].update((e.get("id"), e) for e in lst)
            if lst.tag.endswith("}catalogueLinks"):
                linked[cid] = [c.get("targetId") for c in lst]
            if root.get("library") != "true" and lst.tag.rsplit("}", 1)[-1] in ("selectionEntries", "entryLinks"):
                roots.extend((cid, e) for e in lst)
    primary = secondary = 0
    for cid, e in roots:
        own = cat_links(e)
        hit = next((shared[c][e.get("targetId")] for c in [cid, *linked[cid]]
                    if e.get("targetId") in shared.get(c, {})), None)
        target = cat_links(hit) if hit is not None else []
        if FORMATIONS not in {c.get("targetId") for c in own + target}:
            continue
        chosen = [c for c in own if c.get("primary") == "true"] or [c for c in target if c.get("primary") == "true"]
        if any(c.get("targetId") == FORMATIONS for c in chosen):
            primary += 1
        else:
            secondary += 1
    found = fow.formations()
    assert sum(f.kind == "formation" for f in found) == primary == 331
    assert sum(f.kind == "secondary" for f in found) == secondary == 23


def test_a_catalogue_link_makes_the_fallschirmjager_library_entries_reachable(fow):
    # MW - Afrika Korps links 4e61-1b9e-452b-7fe1 (library="true"); its root link 5a02-4d0d-ceb1-640d
    # targets 3278-296b-fd55-cec9, a shared entry of the library, not of Afrika Korps itself.
    root = fow.force_root(catalogue_id(fow, "Mid-War - Afrika Korps"))
    opt = root.options_by_rel[("5a02-4d0d-ceb1-640d", "3278-296b-fd55-cec9")]
    assert opt.node.catalogue.id == "4e61-1b9e-452b-7fe1"
    assert opt.node.catalogue.library
    assert not fow.unresolved_links


# --------------------------------------------------------------------------- rosters as files
def test_a_roster_battlescribe_wrote_is_priced_exactly_as_written(phalanx_dir):
    # Test Roster 1.ros (a BattleScribe 2.03 roster) carries BattleScribe's own cost per selection and
    # totals of 114 Points and 32 Fuel; paths like b5e5-...::17ed-...::4191-... must all resolve.
    lib = oracle.load(phalanx_dir)
    roster = oracle.read_ros((phalanx_dir / "Test Roster 1.ros").read_bytes())
    v = lib.evaluate(roster)
    assert v.totals == roster.costs == {"a66b-3b27-93dd-68ce": 114.0, "f129-c6bb-02e0-923e": 32.0}
    for s in roster.forces[0].walk():
        assert v.costs[s.id] == pytest.approx(s.costs), s.name
    assert v.legal and not v.warnings


@pytest.fixture(scope="module")
def roster_schema(bsdata_dir):
    from lxml import etree
    xsd = (bsdata_dir.parent / "bsdata-schemas" / "Catalogue.xsd").read_text(encoding="utf-8")
    xsd = xsd.replace("http://www.battlescribe.net/schema/catalogueSchema", "http://www.battlescribe.net/schema/rosterSchema")
    return etree.XMLSchema(etree.fromstring(xsd.encode("utf-8")))


def test_written_rosters_validate_against_the_battlescribe_schema_and_read_back_the_same(fow, roster_schema):
    from lxml import etree
    rosters = [fow.minimal_legal_roster(formation(fow, "Late-War - Bulge: German",
                                                  "ca65-20c9-0622-e7f1::1295-b052-7163-9602"))]
    rosters += [fow.random_legal_roster(random.Random(seed)) for seed in (1, 2, 3)]
    for roster in rosters:
        data = oracle.write_ros(roster, fow.cost_types)
        doc = etree.fromstring(data)
        assert roster_schema.validate(doc), roster_schema.error_log
        back = oracle.read_ros(data)
        assert _shape(back) == _shape(roster)
        assert fow.evaluate(back).totals == fow.evaluate(roster).totals == back.costs
        assert oracle.read_ros(oracle.write_rosz(roster, fow.cost_types)).costs == back.costs


def _shape(roster):
    def one(s):
        return (s.entry_id, s.entry_group_id, s.number, s.type, tuple(one(c) for c in s.children))
    return [(f.catalogue_id, f.entry_id, tuple(one(s) for s in f.selections)) for f in roster.forces]


def test_a_broken_roster_file_gets_a_clear_error():
    with pytest.raises(ValueError, match="not a BattleScribe roster"):
        oracle.read_ros(b"<catalogue xmlns='x'/>")


# --------------------------------------------------------------------------- hand-counted cases
def test_a_commando_section_needs_five_teams(fow):
    # PW - Australian Force: Commando Section link e93d-47eb-7a79-8f82 -> f61a-f848-22e5-8b84 (2 pts)
    # has group 5311-66a4-6ebd-e451 with min 5 (46f3-1293-e6f8-3a29) and max 5 quantities; the Bren
    # team 84d0-0816-2e7f-a1eb costs 1 and allows 5. So 3 teams are short by 2; 5 teams cost 2 + 5.
    f = formation(fow, "PW - Australian Force", "5af8-b6ee-f69f-c82f")
    roster = fow.minimal_legal_roster(f)
    base = fow.evaluate(roster).totals[PTS]
    section = pick(fow, roster, holder_of(roster, f.path), "e93d-47eb-7a79-8f82::f61a-f848-22e5-8b84")
    team = pick(fow, roster, section, "84d0-0816-2e7f-a1eb", number=3)
    v = fow.evaluate(roster)
    assert keys(v) == {("constraint", "46f3-1293-e6f8-3a29", "5311-66a4-6ebd-e451", "min", 5.0, 3.0)}
    team.number = 5
    v = fow.evaluate(roster)
    assert v.legal
    assert v.totals[PTS] == base + 2 + 5


def test_a_panzergrenadier_platoon_of_seven_needs_only_its_own_half_tracks(fow):
    # D-Day German dbef-035b-adfb-7fa0 (via cc58-3a04-8e65-86d8 in the Armoured Panzergrenadier Company
    # 4a01-4c43-eb9a-4e71): size group b5d8-31f7-2173-6a7e; the 7x option 118d-6eb7-40fe-0f0b (12 pts)
    # holds its own link 4486-72ba-3d31-bb0e to the Sd Kfz 251 with min 1; the 5x option's transport
    # link b36b-780a-7606-0941 sits under the 5x option (9 pts), so it is not asked for.
    f = formation(fow, "Late-War - D-Day: German", "4a01-4c43-eb9a-4e71")
    roster = fow.minimal_legal_roster(f)
    base = fow.evaluate(roster).totals[PTS]
    platoon = holder_of(roster, "cc58-3a04-8e65-86d8::dbef-035b-adfb-7fa0")
    platoon.children = []
    seven = pick(fow, roster, platoon, "118d-6eb7-40fe-0f0b")
    v = fow.evaluate(roster)
    assert keys(v) == {("constraint", "1df4-873c-3a21-6bab", "1ed4-b4d2-0673-298d", "min", 1.0, 0.0)}
    pick(fow, roster, seven, "4486-72ba-3d31-bb0e::1ed4-b4d2-0673-298d")
    v = fow.evaluate(roster)
    assert v.legal
    assert v.totals[PTS] == base - 9 + 12


def any_minimal(lib, catalogue_name):
    cat = catalogue_id(lib, catalogue_name)
    return lib.minimal_legal_roster(next(f for f in lib.formations(include_secondary=False) if f.catalogue_id == cat))


def add_filled(lib, roster, root_path):
    """Add a root option with the cheapest children it needs (the oracle's own search)."""
    b = lib.builder(roster.forces[0].catalogue_id)
    sel = oracle.clone(b.fill([], b.root.options_by_rel[tuple(root_path.split("::"))])[0])
    roster.forces[0].selections.append(sel)
    return sel


def test_an_entry_with_max_two_allows_two_hmgs_not_three(fow):
    # LW - Bagration German: sMG42 HMG ad77-f556-3706-8d66 (2 pts) directly in the Grenadier Platoon,
    # root entry b0c8-c361-1de6-60cf, max 2 per parent (ca5d-aee9-48f0-ec22).
    roster = any_minimal(fow, "Late-War - Bagration: German")
    b = fow.builder(roster.forces[0].catalogue_id)
    platoon = add_filled(fow, roster, next(o.rel_key for o in b.root.options if o.rel[0] == "b0c8-c361-1de6-60cf"))
    before = fow.evaluate(roster)
    assert before.legal
    hmg = pick(fow, roster, platoon, "ad77-f556-3706-8d66", number=2)
    v = fow.evaluate(roster)
    assert v.legal and v.totals[PTS] == before.totals[PTS] + 4
    hmg.number = 3
    assert keys(fow.evaluate(roster)) == {("constraint", "ca5d-aee9-48f0-ec22", "ad77-f556-3706-8d66", "max", 2.0, 3.0)}


def test_three_universal_carriers_are_one_selection_of_three(fow):
    # LW - Bulge British: support link f79e-49ad-e07d-1968 -> Universal Carrier Patrol c5a3-a78d-9ad6-4858;
    # its group 7d22-46d2-79d6-fbcf needs exactly 3 (71a5-2bd7-1bed-266b, 93e9-d10e-0aaa-b48e);
    # Universal Carrier (MG) 5939-1387-0c97-a9e4 costs 2: three of them are 6 points.
    roster = any_minimal(fow, "Late-War - Bulge: British")
    base = roster.costs[PTS]
    patrol = pick(fow, roster, None, "f79e-49ad-e07d-1968::c5a3-a78d-9ad6-4858")
    carriers = pick(fow, roster, patrol, "5939-1387-0c97-a9e4", number=2)
    assert keys(fow.evaluate(roster)) == {("constraint", "71a5-2bd7-1bed-266b", "7d22-46d2-79d6-fbcf", "min", 3.0, 2.0)}
    carriers.number = 3
    v = fow.evaluate(roster)
    assert v.legal, [x.message for x in v.violations]
    assert v.totals[PTS] == base + 6


def test_model_count_units_start_at_three_tanks(fow):
    # PW - Japanese Force: * [FS] Type 97 Chi-Ha link f8f8-4179-dd2c-ebfb -> 083b-3c74-b1ea-8cb3 costs 1,
    # set to 2 with more than 3 models (scope 083b itself); group 0f03-e3c5-5b0f-9f63 needs 3..5;
    # Chi-Ha (57mm) 173c-bcaf-6520-54ef costs 2 each. 3 tanks: 1 + 3 x 2 = 7; 4 tanks: 2 + 4 x 2 = 10.
    roster = fow.minimal_legal_roster(next(f for f in fow.formations()
                                           if f.catalogue_id == catalogue_id(fow, "PW - Japanese Force")))
    base = fow.evaluate(roster).totals[PTS]
    platoon = pick(fow, roster, None, "f8f8-4179-dd2c-ebfb::083b-3c74-b1ea-8cb3")
    tanks = pick(fow, roster, platoon, "173c-bcaf-6520-54ef", number=2)
    assert keys(fow.evaluate(roster)) == {("constraint", "632f-794e-ab68-cadf", "0f03-e3c5-5b0f-9f63", "min", 3.0, 2.0)}
    tanks.number = 3
    v = fow.evaluate(roster)
    if not v.legal:  # the support entry may be hidden by the formation the Japanese minimal roster picked
        assert {x.kind for x in v.violations} == {"hidden"}
    assert v.totals[PTS] == base + 7
    tanks.number = 4
    assert fow.evaluate(roster).totals[PTS] == base + 10


def test_the_m3_lee_company_prices_three_tanks_without_a_size_modifier(fow):
    # MW - Eastern Front Soviet: *[FS] M3 Lee link 5d78-4519-ddb1-b761 -> a95a-da05-9e25-fb53 costs 11;
    # its set modifiers start at 4 models (14); group 89f8-9b0d-7c4c-1e50 needs 3..10; short 75mm
    # 79d5-cada-8744-41f3 costs 0. So 3 short-gun tanks are 11 points.
    cat = "Mid-War - Eastern Front: Soviet"
    roster = fow.minimal_legal_roster(next(f for f in fow.formations() if f.catalogue_id == catalogue_id(fow, cat)))
    base = fow.evaluate(roster).totals[PTS]
    lee = pick(fow, roster, None, "5d78-4519-ddb1-b761::a95a-da05-9e25-fb53")
    pick(fow, roster, lee, "79d5-cada-8744-41f3", number=3)
    v = fow.evaluate(roster)
    assert v.totals[PTS] == base + 11
    assert all(x.kind == "hidden" for x in v.violations)  # only if the formation hides this support entry


def test_the_seventy_five_size_group_switches_with_the_type(fow):
    # MW - Eastern Front German, Panzer IV Tank Company 10d2-ffbf-d87c-f076, Panzer III Tank Platoon link
    # 6684-01bf-65f0-b62c -> 69a3-528c-0d85-86e0: type group 702c-...; the 5cm size group 3196-2647-b52c-cbd2
    # needs 3 (4520-a99f-7fb0-a876) and is hidden once 7.5cm 153b-a8b3-c600-375b is picked; the 7.5cm size
    # group 72be-f859-fb9f-d98b is hidden otherwise. The unit costs 1 with the 5cm type, else 0.
    f = formation(fow, "Mid-War - Eastern Front: German", "10d2-ffbf-d87c-f076")
    roster = fow.minimal_legal_roster(f)
    base = fow.evaluate(roster).totals[PTS]
    company = holder_of(roster, f.path)
    platoon = pick(fow, roster, company, "6684-01bf-65f0-b62c::69a3-528c-0d85-86e0")
    kind = pick(fow, roster, platoon, "8a5d-ae7f-fbe1-0ec3")  # the 5cm type
    short = pick(fow, roster, platoon, "43fd-7042-6718-bb5c", number=2)  # 4 pts each
    v = fow.evaluate(roster)
    assert ("constraint", "4520-a99f-7fb0-a876", "3196-2647-b52c-cbd2", "min", 3.0, 2.0) in keys(v)
    short.number = 3
    v = fow.evaluate(roster)
    assert v.legal, [x.message for x in v.violations]
    assert v.totals[PTS] == base + 1 + 12
    # the 7.5cm size picked beside the 5cm type is a hidden choice
    seventy_five = pick(fow, roster, platoon, "8e83-88e5-0e79-8c92")  # 3x 7.5cm, 18 pts
    v = fow.evaluate(roster)
    assert {(x.kind, x.owner_id) for x in v.violations} == {("hidden", "72be-f859-fb9f-d98b")}
    # the 7.5cm type with its own size is legal, and the 5cm group's minimum is gone
    platoon.children = [c for c in platoon.children if c is not kind and c is not short]
    pick(fow, roster, platoon, "153b-a8b3-c600-375b")
    v = fow.evaluate(roster)
    assert v.legal, [x.message for x in v.violations]
    assert v.totals[PTS] == base + 18
    assert seventy_five in platoon.children


def test_night_attacks_need_their_formation(fow):
    # D-Day German root Formation Title e5f5-77b3-1e70-c126, group c542-7ed6-4366-8570: Night Attacks
    # (link 6b7-d069-d42a-f4ab -> f837-f497-2dcd-6c0, 1 pt) has max 1 (4547-baa7-c1be-542b) set to 0 while
    # the roster holds fewer than 1 of bb34-73fa-56e7-e1a5 (the 2nd Panzer Division formation).
    roster = fow.minimal_legal_roster(formation(fow, "Late-War - D-Day: German", "4a01-4c43-eb9a-4e71"))
    title = pick(fow, roster, None, "e5f5-77b3-1e70-c126")
    pick(fow, roster, title, "6b7-d069-d42a-f4ab::f837-f497-2dcd-6c0")
    assert keys(fow.evaluate(roster)) == {("constraint", "4547-baa7-c1be-542b", "f837-f497-2dcd-6c0", "max", 0.0, 1.0)}
    bb34 = next(f for f in fow.formations() if f.path.endswith("bb34-73fa-56e7-e1a5")
                and f.catalogue_id == roster.forces[0].catalogue_id)
    with_it = fow.minimal_legal_roster(bb34)
    title = pick(fow, with_it, None, "e5f5-77b3-1e70-c126")
    pick(fow, with_it, title, "6b7-d069-d42a-f4ab::f837-f497-2dcd-6c0")
    v = fow.evaluate(with_it)
    assert v.legal, [x.message for x in v.violations]
    assert v.totals[PTS] == with_it.costs[PTS] + 1


def test_two_formation_titles_break_the_one_title_group(fow):
    # group c542-7ed6-4366-8570 (max 1, 535a-8d05-2480-526): two different titles (9e60-... and c8b4-...,
    # neither limited by a formation) break it; the same title twice breaks its own max 1 too.
    roster = fow.minimal_legal_roster(formation(fow, "Late-War - D-Day: German", "4a01-4c43-eb9a-4e71"))
    title = pick(fow, roster, None, "e5f5-77b3-1e70-c126")
    one = pick(fow, roster, title, "96b8-170a-dd1b-a3d0::9e60-6230-eeea-1429")
    assert fow.evaluate(roster).legal
    pick(fow, roster, title, "91d3-ad97-299f-d908::c8b4-cf-7778-3def")
    assert keys(fow.evaluate(roster)) == {("constraint", "535a-8d05-2480-526", "c542-7ed6-4366-8570", "max", 1.0, 2.0)}
    title.children = [one]
    one.number = 2
    assert keys(fow.evaluate(roster)) == {
        ("constraint", "535a-8d05-2480-526", "c542-7ed6-4366-8570", "max", 1.0, 2.0),
        ("constraint", "b07f-8be6-b60a-1776", "9e60-6230-eeea-1429", "max", 1.0, 2.0)}


def test_an_option_and_a_card_share_one_upgrade_limit(fow):
    # D-Day American: link 30b3-a53c-63c5-996f to group 1791-3aa3-d6a0-e951 (max 1, f57d-fea2-adc5-804f)
    # adds its own Sticky Bombs be7f-3e6a-9560-3178 and a link 13a1-6a4d-59de-373c to Turner Turnbull.
    cat = catalogue_id(fow, "Late-War - D-Day: American")
    holder_path = None
    for f in fow.formations():
        if f.catalogue_id != cat:
            continue
        roster = fow.minimal_legal_roster(f)
        for s in roster.forces[0].walk():
            node = _node(fow, roster, s)
            if node is not None and any(o.rel[-2:] == ("30b3-a53c-63c5-996f", "be7f-3e6a-9560-3178")
                                        for o in node.options):
                holder_path = s
                break
        if holder_path is not None:
            break
    assert holder_path is not None
    pick(fow, roster, holder_path, "30b3-a53c-63c5-996f::be7f-3e6a-9560-3178")
    assert fow.evaluate(roster).legal
    pick(fow, roster, holder_path, "30b3-a53c-63c5-996f::13a1-6a4d-59de-373c::0dfb-68c2-aa30-55a1")
    assert ("constraint", "f57d-fea2-adc5-804f", "1791-3aa3-d6a0-e951", "max", 1.0, 2.0) in keys(fow.evaluate(roster))


def test_kampfgruppe_hummel_costs_forty_at_least(fow):
    # Bulge German root link ca65-20c9-0622-e7f1 -> 1295-b052-7163-9602 (a card-formation: primary
    # Command Cards, secondary Formations): HQ b4f2-... 1x Tiger 12 - 4 (decrement while inside 1295),
    # two platoons required (8145-... and a508-..., min 1 each) of 2x Tiger 24 - 8: 8 + 16 + 16 = 40.
    f = formation(fow, "Late-War - Bulge: German", "ca65-20c9-0622-e7f1::1295-b052-7163-9602")
    assert f.kind == "secondary"
    assert fow.minimal_legal_roster(f).costs[PTS] == 40.0


def test_formation_options_change_the_price(fow):
    # Wittmann 4327-23c2-c75b-841e costs 12 and is shown only inside 95b1-3ebc-6eb1-e20f (Tiger SS
    # Tank Company, D-Day Waffen-SS). NCO Shortage 4e69-d686-c5e8-4657 takes 2 off the HQ f2bf-43e6-15d8-e022
    # of the Bagration Armoured Panzergrenadier Company 2e76-a3c9-629f-8931. Division LeClerc
    # 16a5-8a76-cbea-0604 adds 1 to the HQ and to each platoon link of a737-0df8-44fc-aed4 (D-Day American).
    cases = [("Late-War - D-Day: Waffen SS", "43cf-7dcd-1142-83d4::95b1-3ebc-6eb1-e20f", "4327-23c2-c75b-841e", None),
             ("Late-War - Bagration: German", "d575-fa77-7562-670d::2e76-a3c9-629f-8931", "4e69-d686-c5e8-4657", -2),
             ("Late-War - D-Day: American", "49fa-053a-3e8f-736c::a737-0df8-44fc-aed4", "16a5-8a76-cbea-0604", None)]
    for cat, path, option_id, delta in cases:
        f = formation(fow, cat, path)
        roster = fow.minimal_legal_roster(f)
        base = roster.costs[PTS]
        company = holder_of(roster, path)
        units = len(company.children)
        node = _node(fow, roster, company)
        opt = next(o for o in node.options if o.node.id == option_id)
        pick(fow, roster, company, "::".join(opt.rel))
        v = fow.evaluate(roster)
        # NCO Shortage also makes the hidden "20th" links (-> 2334-5748-ef13-90d9, -2 pts, min/max 0 set to 1
        # by 668e-3fed-cb1b-86a2 / 154b-8e81-205e-a5c4) visible and required under each unit size offering one
        twentieth = [x for x in v.violations if x.constraint_id == "668e-3fed-cb1b-86a2"]
        assert all(x.type == "min" and x.limit == 1 for x in twentieth)
        for x in twentieth:
            holder = next(s for s in roster.forces[0].walk() if s.id == x.at)
            pick(fow, roster, holder, x.owner_path.rsplit("::", 2)[-2] + "::2334-5748-ef13-90d9")
        v = fow.evaluate(roster)
        assert v.legal, (option_id, [x.message for x in v.violations])
        expected = {"4327-23c2-c75b-841e": 12, "4e69-d686-c5e8-4657": -2 - 2 * len(twentieth),
                    "16a5-8a76-cbea-0604": units}[option_id]
        assert v.totals[PTS] - base == expected, option_id
        if delta is not None:  # the option's own headline price: the HQ's decrement
            assert expected + 2 * len(twentieth) == delta


def test_wittmann_is_hidden_outside_the_tiger_company(fow):
    # 4327-23c2-c75b-841e is hidden="true" and only set visible when its parent is 95b1-3ebc-6eb1-e20f.
    f = formation(fow, "Late-War - D-Day: Waffen SS", "d575-fa77-7562-670d::2e76-a3c9-629f-8931")
    roster = fow.minimal_legal_roster(f)
    company = holder_of(roster, f.path)
    opt = next(o for o in _node(fow, roster, company).options if o.node.id == "4327-23c2-c75b-841e")
    pick(fow, roster, company, "::".join(opt.rel))
    assert {(x.kind, x.owner_id) for x in fow.evaluate(roster).violations} == {("hidden", "4327-23c2-c75b-841e")}


def test_rommel_is_a_force_card_under_the_root_command_cards_entry(fow):
    # MW Afrika Korps: root link 87f3-67bc-84c4-de9b -> 27ab-4f27-5703-a40f (Command Cards, 0 pts) holds
    # group link 6f72-91d7-7a09-7ca3 with Erwin Rommel 2f85-9941-dddc-4594 at 6 pts; the cheapest Panzer
    # III Tank Company 55c7-84f0-094e-4c6f::912e-3dba-2ff4-ab44 is 28, so the two together are 34.
    roster = fow.minimal_legal_roster(formation(fow, "Mid-War - Afrika Korps",
                                                "55c7-84f0-094e-4c6f::912e-3dba-2ff4-ab44"))
    assert roster.costs[PTS] == 28
    cards = pick(fow, roster, None, "87f3-67bc-84c4-de9b::27ab-4f27-5703-a40f")
    rommel = pick(fow, roster, cards, "6f72-91d7-7a09-7ca3::2f85-9941-dddc-4594")
    v = fow.evaluate(roster)
    assert v.legal and v.totals[PTS] == 34
    assert rommel.entry_group_id == "87f3-67bc-84c4-de9b::6f72-91d7-7a09-7ca3::2737-1965-b711-c6c4"


def test_a_warrior_is_one_per_force(fow):
    # gst shared entry Warrior 3bf7-7a62-ca18-c39d: max 1 per force counting nested selections
    # (a065-acf0-6a9f-9660). Warrior characters link it; two of them anywhere in the force break it.
    for f in fow.formations(include_secondary=False):
        roster = fow.minimal_legal_roster(f)
        b = fow.builder(f.catalogue_id)
        for s in list(roster.forces[0].walk()):
            node = _node(fow, roster, s)
            chars = [o for o in node.options if any(w.node.id == "3bf7-7a62-ca18-c39d" for w in o.node.options)]
            for o in chars:
                chain = _chain(roster, s)
                got = b.fill([oracle.Selection(entry_id=x.entry_id, number=x.number) for x in chain], o)
                if got is None:
                    continue
                s.children.append(oracle.clone(got[0]))
                one = fow.evaluate(roster)
                if not one.legal:
                    s.children.pop()
                    continue
                s.children.append(oracle.clone(got[0]))
                two = fow.evaluate(roster)
                assert ("constraint", "a065-acf0-6a9f-9660", "3bf7-7a62-ca18-c39d", "max", 1.0, 2.0) in keys(two)
                return
    pytest.fail("no Warrior character could be added to a minimal roster")


def _chain(roster, target):
    def walk(sels, trail):
        for s in sels:
            if s is target:
                return trail + [s]
            got = walk(s.children, trail + [s])
            if got:
                return got
        return None
    return walk(roster.forces[0].selections, [])


def test_screaming_meemies_are_limited_per_roster(fow):
    # D-Day German: the card d9fb-4b82-ba51-8703 (group 7993-1487-acf2-a6b4 of a Support entry) links
    # 8d2-743-b5ce-981e -> 9d1d-59e9-6756-e3c5 with max 1 per roster counting nested selections
    # (f067-7e2b-aaf7-147a). One support entry holding it is legal, two are not.
    cat = catalogue_id(fow, "Late-War - D-Day: German")
    b = fow.builder(cat)
    holder = next(o for o in b.root.options if any(x.node.id == "d9fb-4b82-ba51-8703" for x in o.node.options))
    roster = any_minimal(fow, "Late-War - D-Day: German")
    card = next(o for o in holder.node.options if o.node.id == "d9fb-4b82-ba51-8703")
    meemies = next(o for o in card.node.options if o.rel[-2:] == ("8d2-743-b5ce-981e", "9d1d-59e9-6756-e3c5"))
    support = b.build_path([], [holder, card, meemies])
    roster.forces[0].selections.append(oracle.clone(support))
    one = fow.evaluate(roster)
    assert one.legal, [x.message for x in one.violations]
    roster.forces[0].selections.append(oracle.clone(support))
    assert ("constraint", "f067-7e2b-aaf7-147a", "9d1d-59e9-6756-e3c5", "max", 1.0, 2.0) in keys(fow.evaluate(roster))


# --------------------------------------------------------------------------- the whole library
def test_every_formation_has_a_minimal_legal_roster_but_the_jeep_box(fow):
    started = time.perf_counter()
    found, impossible = {}, {}
    for f in fow.formations():
        try:
            found[f] = fow.minimal_legal_roster(f)
        except NoRoster as e:
            impossible[f.path] = e.reason
    elapsed = time.perf_counter() - started
    print(f"\n{len(found)} minimal rosters in {elapsed:.2f} s; impossible: {impossible}")
    for roster in found.values():
        assert fow.evaluate(roster).legal
    assert set(impossible) == {"4707-0d40-eb06-f74f"}
    # the Jeep box: link 8925-891f-13f9-7d5c asks for 2 of 50b6-66c5-eeec-0b38, which allows 1
    assert "8925-891f-13f9-7d5c" in impossible["4707-0d40-eb06-f74f"]
    assert "50b6-66c5-eeec-0b38" in impossible["4707-0d40-eb06-f74f"]


def test_a_support_links_force_wide_max_does_not_count_a_formations_own_platoons(fow):
    # Brave Romania: the support link d5e1-d7aa-850d-c123 (T-38 Light Tank Platoon) has a shared max 1 over
    # the force's child selections; it limits the support platoons taken through it, not the three the
    # T-38 Light Tank Company must hold.
    company = formation(fow, "Mid-War - Brave Romania", "1493-c334-2410-34cc")
    roster = fow.minimal_legal_roster(company)
    assert fow.evaluate(roster).legal
    add_filled(fow, roster, "d5e1-d7aa-850d-c123::9807-8c56-2102-1b01")
    bad = [v for v in fow.evaluate(roster).violations if v.kind == "constraint"]
    assert [(v.constraint_id, v.limit, v.actual) for v in bad] == [("ac27-6e0a-37ad-4c3f", 1.0, 4.0)]


def test_the_only_static_contradiction_in_the_library_is_the_jeep_box(fow):
    found = fow.data_contradictions()
    assert len(found) == 1
    assert "8925-891f-13f9-7d5c" in found[0] and "0da9-22aa-cdcf-0099" in found[0] and "7266-e6ba-9826-97a9" in found[0]


def test_no_single_formation_random_roster_is_cheaper_than_the_minimal_one(fow):
    cheapest = {}
    for seed in range(40):
        r = fow.random_legal_roster(random.Random(seed), formations=(1, 1), support=(0, 0), cards=(0, 0), moves=(3, 8))
        roots = r.forces[0].selections
        forms = [s for s in roots if any(c[0] == FORMATIONS for c in s.categories)]
        if len(forms) != 1 or len(roots) != 1:
            continue
        ref = formation(fow, r.forces[0].catalogue_name, forms[0].entry_id)
        cheapest.setdefault(ref, fow.minimal_legal_roster(ref).costs[PTS])
        assert r.costs[PTS] >= cheapest[ref], ref
    assert len(cheapest) >= 10


def test_random_rosters_are_legal_varied_and_the_same_for_the_same_seed(fow):
    seen = {"formations>1": 0, "support": 0, "cards": 0, "number>1": 0, "depth>=4": 0, "card sub-choice": 0}
    sup, cards = fow.category_id("Support Units"), fow.category_id("Command Cards")
    for seed in range(30):
        r = fow.random_legal_roster(random.Random(seed))
        assert fow.evaluate(r).legal
        roots = r.forces[0].selections
        prim = [next((c[0] for c in s.categories if c[2]), None) for s in roots]
        seen["formations>1"] += prim.count(FORMATIONS) > 1
        seen["support"] += sup in prim
        seen["cards"] += cards in prim
        seen["number>1"] += any(s.number > 1 for s in r.forces[0].walk())
        seen["depth>=4"] += any(_depth(s) >= 4 for s in roots)
    bulge = catalogue_id(fow, "Late-War - Bulge: German")  # where most root cards have choices of their own
    for seed in range(10):
        r = fow.random_legal_roster(random.Random(seed), catalogue_id=bulge, cards=(1, 2))
        assert fow.evaluate(r).legal
        seen["card sub-choice"] += any(
            any(c[0] == cards and c[2] for c in s.categories) and any(c.children for c in s.children)
            for s in r.forces[0].selections)
    assert all(seen.values()), seen
    again = [oracle.write_ros(fow.random_legal_roster(random.Random(7))) for _ in range(2)]
    assert again[0] == again[1]


def _depth(s):
    return 1 + max((_depth(c) for c in s.children), default=0)


def test_each_mutation_breaks_exactly_the_rule_it_names(fow):
    kinds = set()
    for seed in range(12):
        r = fow.random_legal_roster(random.Random(100 + seed))
        for m in fow.mutations(r, random.Random(seed)):
            v = fow.evaluate(m.roster)
            assert len(v.violations) == 1
            got = v.violations[0]
            assert got.key() == m.expected.key()
            kinds.add(m.kind)
            if m.kind in ("over-max", "group-max", "force-limit"):
                assert got.type == "max" and got.actual > got.limit
            elif m.kind == "under-min":
                assert got.type == "min" and got.actual < got.limit
            else:
                assert got.kind == "hidden"
    assert {"over-max", "under-min", "hidden", "group-max", "force-limit"} <= kinds


def test_what_the_oracle_does_not_evaluate_is_reported(fow):
    report = fow.unevaluated()
    whats = {u.what for u in report}
    assert any("set name" in w for w in whats)
    assert any("profile" in w for w in whats)
    # a selection with a 'set name' modifier reports it in its verdict
    roster = fow.minimal_legal_roster(formation(fow, "Late-War - D-Day: German", "4a01-4c43-eb9a-4e71"))
    assert any(u.what.startswith("modifier set name") for u in fow.evaluate(roster).unevaluated)
