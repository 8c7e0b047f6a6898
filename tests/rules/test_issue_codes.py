"""The issue-code registry (armybuilder/rules/issue_codes.py): every code a constant with its severity, rule
reference and wording; its reference page; and that nothing reports a code the registry does not hold,
read from the source and seen in real checks."""
from __future__ import annotations

import ast
import io
import os
import re
import string
from contextlib import redirect_stdout
from dataclasses import replace
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from armybuilder.rules import issue_codes as ic
from armybuilder.rules.issue_codes import (
    ERROR,
    REGISTRY,
    WARNING,
    BattleScribeCodes,
    DiagramCodes,
    IssueCode,
    Registry,
)
from armybuilder.rules.issue_codes_doc import COMMAND, document, main

from .issue_wording import worded_by, wording_problems

ROOT = Path(settings.BASE_DIR)
SOURCE = ROOT / "armybuilder"
REGISTRY_FILE = SOURCE / "rules" / "issue_codes.py"
DIGESTS = ROOT.parent / "shared" / "rules"
CODE_SHAPE = re.compile(rf"^({'|'.join(ic.SYSTEMS)})\.[a-z0-9_]+\.[a-z0-9_]+$")


def _example(code="fow.example.problem", **kw) -> IssueCode:
    return IssueCode(code, **{"severity": ERROR, "rule": "a test", "message": "{unit} is wrong.", **kw})


# -- the registry ----------------------------------------------------------------------------------------
def test_a_code_is_found_by_its_string_and_is_the_constant_of_that_name():
    found = ic.lookup("fow.black_box.missing")
    assert found is ic.FOW_BLACK_BOX_MISSING
    assert found.code == "fow.black_box.missing" and found.severity == ERROR and found.system == "fow"
    assert "fow.black_box.missing" in REGISTRY and "fow.black_box.absent" not in REGISTRY


def test_an_unknown_code_is_refused_saying_where_the_codes_are_listed():
    with pytest.raises(KeyError, match="docs/issue-codes.md"):
        ic.lookup("fow.black_box.absent")


def test_a_code_defined_twice_is_refused():
    with pytest.raises(ValueError, match="'fow.example.problem' is defined twice"):
        Registry([_example(), _example(message="Something else.")])
    with pytest.raises(TypeError):
        Registry(["fow.example.problem"])


def test_every_constant_is_named_after_its_code_and_the_registry_holds_each_once():
    named = ic.constants()
    for name, code in named.items():
        assert name == code.code.upper().replace(".", "_"), (name, code.code)
    assert sorted(c.code for c in named.values()) == sorted(REGISTRY.codes())
    assert len(set(REGISTRY.codes())) == len(REGISTRY) == len(named)


@pytest.mark.parametrize("bad", ["black_box.missing", "fow.missing", "FOW.Black_box.missing", "nope.box.missing",
                                 "fow.black box.missing"])
def test_a_code_names_a_known_system_a_subject_and_a_problem(bad):
    with pytest.raises(ValueError, match="is not an issue code"):
        _example(bad)


def test_a_code_needs_a_known_severity_a_rule_and_a_message():
    with pytest.raises(ValueError, match="severity"):
        _example(severity="fatal")
    with pytest.raises(ValueError, match="where the rule comes from"):
        _example(rule="")
    with pytest.raises(ValueError, match="a message template is required"):
        _example(message={})


@pytest.mark.parametrize("placeholder", ["pointer", "form", "rule", "fix", "box"])
def test_a_template_may_not_use_a_word_that_reporting_takes_as_a_keyword(placeholder):
    with pytest.raises(ValueError, match="reserved"):
        _example(message=f"{{{placeholder}}} is wrong.")
    with pytest.raises(ValueError, match="reserved"):
        _example(fix=f"Change {{{placeholder}}}.")


def test_a_template_takes_plain_names_only():
    with pytest.raises(ValueError, match="plain names"):
        _example(message="{unit.name} is wrong.")
    with pytest.raises(ValueError, match="plain names"):
        _example(message="{count:>3} units.")


def test_a_message_is_filled_from_its_form_with_exactly_its_placeholders():
    code = ic.FOW_CARD_TARGET_MISSING
    assert code.message("listed", card="Tiger Ace", wanted="unit") == \
        "Tiger Ace must be given to a unit in the force; it has none."
    assert code.message(card="Tiger Ace", wanted="unit") == "Tiger Ace must be given to a unit; it has none."
    with pytest.raises(TypeError, match=r"takes \['card', 'wanted'\], was given \['card'\]"):
        code.message(card="Tiger Ace")
    with pytest.raises(TypeError, match="was given"):
        code.message(card="Tiger Ace", wanted="unit", unit="x")
    with pytest.raises(KeyError, match="no message form 'nowhere'"):
        code.message("nowhere", card="Tiger Ace", wanted="unit")


def test_an_issue_takes_its_code_severity_and_wording_from_the_registry():
    code = ic.OWW2_OFF_TABLE_NO_OBSERVATION_POST
    issue = code.issue("/formations/0/units/1", fix=code.fix(), unit="Howitzers")
    assert (issue.code, issue.severity, issue.pointer, issue.fix) == (
        "oww2.off_table.no_observation_post", WARNING, "/formations/0/units/1",
        "Buy an Observation Post, or plan to deploy it on the table.")
    assert issue.message.startswith("Howitzers can only fire from off the table")


def test_a_report_refuses_a_code_given_as_a_string():
    from armybuilder.rules.report import Report

    with pytest.raises(TypeError, match="IssueCode constant"):
        Report(system="fow4").add("fow.black_box.missing", "/formations/0")


def test_a_system_set_for_the_shared_checks_must_have_every_form_they_use():
    fow = ic.diagram_codes("fow")
    fields = {name: getattr(fow, name) for name in fow.__dataclass_fields__}
    with pytest.raises(ValueError, match="hq_missing: fow.box.too_few lacks the message form"):
        DiagramCodes(**{**fields, "hq_missing": ic.FOW_BOX_TOO_FEW})
    bs = ic.battlescribe_codes("bs")
    fields = {name: getattr(bs, name) for name in bs.__dataclass_fields__}
    with pytest.raises(ValueError, match="not_offered: bs.option.hidden lacks"):
        BattleScribeCodes(**{**fields, "not_offered": ic.BS_OPTION_HIDDEN})


@pytest.mark.parametrize("prefix", sorted(ic.DIAGRAM_CODES))
def test_each_system_reports_the_shared_diagram_checks_under_its_own_codes(prefix):
    codes = ic.diagram_codes(prefix)
    for name in codes.__dataclass_fields__:
        code = getattr(codes, name)
        assert code is None or code.system == prefix, (name, code)


@pytest.mark.parametrize("prefix", sorted(ic.BATTLESCRIBE_CODES))
def test_each_system_reports_the_battlescribe_verdict_under_its_own_codes(prefix):
    codes = ic.battlescribe_codes(prefix)
    assert all(getattr(codes, name).system == prefix for name in codes.__dataclass_fields__)


def test_an_unknown_system_prefix_has_no_shared_codes():
    with pytest.raises(KeyError, match="'chess'"):
        ic.diagram_codes("chess")
    with pytest.raises(KeyError, match="'chess'"):
        ic.battlescribe_codes("chess")


# -- the reference page ------------------------------------------------------------------------------------
def test_the_committed_reference_page_is_what_the_generator_writes():
    committed = (ROOT / ic.DOC_PATH).read_text(encoding="utf-8")
    assert committed == document(), f"{ic.DOC_PATH} is out of date: run .venv/bin/{COMMAND}"


def test_the_reference_page_lists_every_code_with_its_severity_under_its_system():
    rows = {}
    heading = None
    for line in (ROOT / ic.DOC_PATH).read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            heading = line
        match = re.match(r"^\| `([a-z0-9_.]+)` \| (\w+) \|", line)
        if match:
            rows[match[1]] = (match[2], heading)
    assert sorted(rows) == sorted(REGISTRY.codes())
    for code in REGISTRY:
        severity, heading = rows[code.code]
        assert severity == code.severity
        assert heading.startswith(f"## {ic.SYSTEMS[code.system]} ")
    assert COMMAND in (ROOT / ic.DOC_PATH).read_text(encoding="utf-8")


def test_the_generator_writes_the_page_where_told_prints_it_otherwise_and_refuses_options(tmp_path, capsys):
    target = tmp_path / "codes.md"
    assert main([str(target)]) == 0
    assert target.read_text(encoding="utf-8") == document()
    assert main([]) == 0
    assert capsys.readouterr().out.endswith(document())
    assert main(["--help"]) == 2
    assert "usage" in capsys.readouterr().err
    assert main([str(tmp_path / "missing" / "codes.md")]) == 1
    assert "cannot write" in capsys.readouterr().err


# -- rule references ---------------------------------------------------------------------------------------
def _digest_sections(path: Path) -> dict[str, str]:
    """'§1.4' -> the section's text (to the next heading of the same or a higher level)."""
    sections, stack = {}, []
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, start=1):
        match = re.match(r"^(#{2,3}) (\d+(?:\.\d+)?)\.? ", line)
        if match:
            stack.append((match[2], number))
    for i, (section, start) in enumerate(stack):
        depth = section.count(".")
        end = next((n for s, n in stack[i + 1:] if s.count(".") <= depth), len(lines) + 1)
        sections[f"§{section}"] = "\n".join(f"{n}:{lines[n - 1]}" for n in range(start, end))
    return sections


def _cited_lines(text: str) -> set[int]:
    """Seed lines a text cites: L672, L671-679, 003:L67 (ranges in full)."""
    out = set()
    for start, end in re.findall(r"L(\d+)(?:[-–]L?(\d+))?", text):
        out.update(range(int(start), int(end or start) + 1))
    return out


def test_every_digest_section_a_code_cites_exists_and_holds_the_lines_cited():
    if not DIGESTS.is_dir():
        if os.environ.get("ARMYBUILDER_REQUIRE_BSDATA") == "1":
            pytest.fail(f"the rules digests are not at {DIGESTS}")
        pytest.skip(f"the rules digests (shared notes, not part of the project) are not at {DIGESTS}")
    checked = digest_lines = seed_lines = 0
    for code in REGISTRY:
        cited = r"digest ([\w-]+\.md) (§[\d.]+(?:, §[\d.]+)*)(, lines [\d, -]+)?"
        for digest, sections, cited_lines in re.findall(cited, code.rule):
            found = _digest_sections(DIGESTS / digest)
            texts = []
            for section in re.findall(r"§[\d.]+", sections):
                assert section in found, f"{code.code}: {digest} has no section {section}"
                texts.append(found[section])
            # The seed lines before the digest's name must be cited in the sections named.
            before = code.rule.split(f"digest {digest}")[0].rstrip(" ;(").rsplit(";", 1)[-1]
            seed_lines += bool(_cited_lines(before))
            missing = _cited_lines(before) - _cited_lines("\n".join(texts))
            assert not missing, f"{code.code}: {digest} {sections} do not cite line(s) {sorted(missing)}"
            if cited_lines:  # lines of the digest file itself
                numbers = {int(n) for n in re.findall(r"\d+", cited_lines)}
                spans = {int(row.split(":", 1)[0]) for text in texts for row in text.splitlines()}
                assert numbers <= spans, f"{code.code}: {digest} lines {sorted(numbers - spans)} are outside {sections}"
            checked += 1
            digest_lines += bool(cited_lines)
    assert checked > 50 and digest_lines >= 3 and seed_lines > 30


# -- the source: codes only from the registry ----------------------------------------------------------------
def _modules(folder: Path = SOURCE):
    for path in sorted(folder.rglob("*.py")):
        if "migrations" not in path.parts:
            yield path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _docstrings(tree) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _shape(node: ast.JoinedStr) -> str:
    return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)


BUILT_CODE = re.compile(r"^(?:\{\}|[a-z0-9_])+(?:\.(?:\{\}|[a-z0-9_])+)+$")
PREFIX_NAMES = {"P", "PREFIX", "prefix"}  # what a system's prefix is called where it is kept


def test_no_issue_code_is_spelt_or_built_outside_the_registry():
    codes = set(REGISTRY.codes())
    tails = {c.split(".", 1)[1] for c in codes}
    found = []
    for path, tree in _modules():
        if path == REGISTRY_FILE:
            continue
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                text = node.value
                if text in codes or text in tails or text.lstrip(".") in tails or CODE_SHAPE.match(text):
                    found.append(f"{where}: {text!r}")
            elif isinstance(node, ast.JoinedStr):
                shape = _shape(node)
                first = node.values[0]
                by_prefix = isinstance(first, ast.FormattedValue) and (
                    getattr(first.value, "id", None) in PREFIX_NAMES
                    or getattr(first.value, "attr", None) in PREFIX_NAMES)
                if "{}" in shape and BUILT_CODE.match(shape) and (
                        shape.count(".") >= 2 or by_prefix or shape.split(".", 1)[0] in ic.SYSTEMS
                        or any(shape.endswith("." + t) for t in tails)):
                    found.append(f"{where}: f-string {shape!r}")
    assert not found, "issue codes spelt or built outside issue_codes.py:\n" + "\n".join(found)


def _is_report_add(call: ast.Call) -> bool:
    func = call.func
    return (isinstance(func, ast.Attribute) and func.attr == "add" and isinstance(func.value, ast.Name)
            and func.value.id == "report")


def test_issues_are_made_only_from_registered_codes():
    problems = []
    for path, tree in _modules():
        if path == REGISTRY_FILE:
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name in ("Issue", "IssueCode") and path.name != "report.py":
                problems.append(f"{where}: {name}(...) outside the registry")
            if _is_report_add(node) or name == "issue":
                first = node.args[0] if node.args else None
                if not isinstance(first, (ast.Name, ast.Attribute)) and name != "issue":
                    problems.append(f"{where}: the code is {ast.unparse(first) if first else 'missing'}")
    assert not problems, "\n".join(problems)


class _Resolver(ast.NodeVisitor):
    """Calls of ``report.add`` / ``code.fix`` / ``code.issue`` whose code is a registry constant, named
    directly (``c.FOW_X``, ``FOW_X``) or through a local assigned from one just before."""

    def __init__(self, constants: dict):
        self.constants = constants
        self.calls = []
        self.local = {}

    def _constant(self, node):
        if isinstance(node, ast.Attribute) and node.attr in self.constants:
            return self.constants[node.attr]
        if isinstance(node, ast.Name):
            return self.constants.get(node.id) or self.local.get(node.id)
        return None

    def visit_FunctionDef(self, node):
        saved, self.local = self.local, {}
        self.generic_visit(node)
        self.local = saved

    def visit_Assign(self, node):
        self.generic_visit(node)
        for target in node.targets:
            if isinstance(target, ast.Name):
                found = self._constant(node.value)
                if found is not None:
                    self.local[target.id] = found
                else:
                    self.local.pop(target.id, None)

    def visit_For(self, node):
        if isinstance(node.target, ast.Tuple):  # for level, code in (("chq", c.WAF_…), …): not one constant
            for element in node.target.elts:
                if isinstance(element, ast.Name):
                    self.local.pop(element.id, None)
        self.generic_visit(node)

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if not isinstance(func, ast.Attribute):
            return
        if _is_report_add(node) and node.args:
            code, kind = self._constant(node.args[0]), "message"
        elif func.attr in ("fix", "message", "issue"):
            code, kind = self._constant(func.value), "fix" if func.attr == "fix" else "message"
        else:
            return
        if code is None or any(k.arg is None for k in node.keywords):
            return
        form_node = next((k.value for k in node.keywords if k.arg == "form"), None)
        if kind == "fix" or func.attr == "message":
            form_node = node.args[0] if node.args else None
        if form_node is not None and not isinstance(form_node, ast.Constant):
            self.calls.append((node, code, kind, None))  # a form chosen at run time: every form is possible
            return
        values = {k.arg for k in node.keywords} - {"form", "rule", "fix", "box"}
        self.calls.append((node, code, kind, (form_node.value if form_node is not None else "", values)))


def test_the_values_given_with_a_code_are_the_placeholders_of_its_form():
    constants = ic.constants()
    checked, problems = 0, []
    for path, tree in _modules():
        if path == REGISTRY_FILE:
            continue
        resolver = _Resolver(constants)
        resolver.visit(tree)
        for node, code, kind, given in resolver.calls:
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            templates = code.messages if kind == "message" else code.fixes
            if given is None:
                continue
            form, values = given
            if form not in templates:
                problems.append(f"{where}: {code.code} has no {kind} form {form!r}")
                continue
            wanted = {name for _, name, _, _ in string.Formatter().parse(templates[form]) if name}
            if values != wanted:
                problems.append(f"{where}: {code.code} {kind} {form!r} takes {sorted(wanted)}, given {sorted(values)}")
            checked += 1
    assert not problems, "\n".join(problems)
    assert checked > 75  # the calls this test could resolve to one constant and form


def test_every_registered_code_is_reported_somewhere():
    names, attributes = set(), set()
    for path, tree in _modules():
        if path == REGISTRY_FILE:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, ast.Attribute):
                attributes.add(node.attr)
    reachable = set()
    for sets in (ic.DIAGRAM_CODES, ic.BATTLESCRIBE_CODES):
        for codes in sets.values():
            reachable |= {getattr(codes, f) for f in codes.__dataclass_fields__ if f in attributes}
    unused = [name for name, code in ic.constants().items()
              if name not in names and name not in attributes and code not in reachable]
    assert not unused, f"registered but never reported: {unused}"


def test_every_code_a_test_names_is_registered():
    named = set()
    for path, tree in _modules(ROOT / "tests"):
        if path.name == Path(__file__).name:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE_SHAPE.match(node.value):
                named.add(node.value)
    assert len(named) > 40
    assert sorted(named - set(REGISTRY.codes())) == []


# -- real checks: what they report comes from the registry -----------------------------------------------------
def _docs_for(book, system: str):
    """Lists that break the book's rules in as many ways as its data allows: empty, boxes overfilled and
    unfilled, sizes missing, options beyond their limits, units in the wrong boxes, cards on wrong targets,
    an unknown variant, years outside every date, a one-point limit."""
    from tests.rules.listdocs import card as card_doc
    from tests.rules.listdocs import formation as formation_doc
    from tests.rules.listdocs import listdoc
    from tests.rules.listdocs import unit as unit_doc

    ref = {"book": book.code, "system": system}

    def first_unit(box):
        return next((c.unit for c in box.choices if c.unit and c.unit in book.units), None)

    def picked(box, unit_code, *, with_size=True, upgrades=()):
        unit = book.units[unit_code]
        size = unit.sizes[0].code if with_size and unit.sizes else None
        return unit_doc(box.code, unit_code, size, *upgrades, letter="A")

    formations = list(book.formations.values())
    yield listdoc(points_limit=1, **ref)
    yield listdoc(points_limit=1, variant="no-such-variant", **ref)
    some_unit = next(iter(book.units), None)
    for formation in formations[:12]:
        boxes = [b for b in formation.boxes if first_unit(b)]
        yield listdoc(formation_doc(formation.code), points_limit=1, **ref)
        yield listdoc(formation_doc(formation.code), formation_doc(formation.code, allied=True), **ref)
        over = [picked(b, first_unit(b), with_size=False) for b in boxes for _ in range(b.max_picks + 1)][:80]
        yield listdoc(formation_doc(formation.code, *over), points_limit=1, year=1900, **ref)
        full = []
        for box in boxes:
            unit = book.units[first_unit(box)]
            options = [(u.code, u.max_quantity + 1) for g in unit.groups for u in g.upgrades][:40]
            full.append(picked(box, unit.code, upgrades=options))
        yield listdoc(formation_doc(formation.code, *full), year=2100, **ref)
        full_doc = formation_doc(formation.code, *full[:1])
        yield listdoc(full_doc, formation_doc(formation.code, *full[:1], parent="/formations/0",
                                              via_box=boxes[0].code if boxes else formation.code), **ref)
        if some_unit and boxes:
            stranger = next((u for u in book.units if all(c.unit != u for c in boxes[0].choices)), None)
            if stranger:
                yield listdoc(formation_doc(formation.code, unit_doc(boxes[0].code, stranger, None)), **ref)
        support = [b for b in book.boxes.values() if b.formation is None and first_unit(b)]
        if boxes:
            yield listdoc(formation_doc(formation.code), support=[picked(boxes[0], first_unit(boxes[0]))], **ref)
        if support:
            yield listdoc(formation_doc(formation.code, *full),
                          support=[picked(b, first_unit(b)) for b in support for _ in range(b.max_picks + 1)][:80],
                          **ref)
        for other in formations:
            if other.code != formation.code and other.boxes and boxes:
                box = other.boxes[0]
                if first_unit(box):
                    yield listdoc(formation_doc(formation.code, picked(box, first_unit(box))), **ref)
                break
    if formations:
        target = formations[0]
        cards = list(book.cards.values())[:20]
        with_targets = [card_doc(c.code, "/formations/0") for c in cards] + \
                       [card_doc(c.code, "/formations/0/units/0") for c in cards] + \
                       [card_doc(c.code) for c in cards for _ in range((c.max_per_force or 1) + 1)]
        boxes = [b for b in target.boxes if first_unit(b)]
        units = [picked(b, first_unit(b)) for b in boxes]
        yield listdoc(formation_doc(target.code, *units), cards=with_targets[:80], points_limit=1, **ref)


def _check_all(docs) -> set:
    from armybuilder.lists.listjson.document import ListDocumentError
    from armybuilder.lists.selectors import list_document_report

    seen = set()
    for doc in docs:
        try:
            _, report = list_document_report(doc)
        except ListDocumentError:
            continue
        seen |= {(i.code, i.severity, i.message, i.fix) for i in report.issues}
    return seen


def _books(system: str):
    from armybuilder.lists.catalog import handbook_data
    from handbooks.models import Handbook

    for handbook in Handbook.objects.filter(system__code=system).order_by("code", "revision"):
        yield handbook_data(handbook.pk)


@pytest.fixture
def every_book(sample_data, test_books, tmp_path):
    """The sample books of every system, the hand-made test books, and a mini catalogue imported from
    BattleScribe (tests/battlescribe/conftest.py)."""
    from tests.battlescribe.conftest import CAT, GST

    (tmp_path / "mini.gst").write_text(GST, encoding="utf-8")
    (tmp_path / "mini.cat").write_text(CAT, encoding="utf-8")
    with redirect_stdout(io.StringIO()):
        call_command("import_battlescribe", str(tmp_path), stdout=io.StringIO())


@pytest.mark.django_db
def test_what_the_checks_report_on_every_book_is_registered_and_worded_from_its_templates(every_book):
    seen = set()
    for system in ("fow4", "oww2", "hof", "waf"):
        for book in _books(system):
            seen |= _check_all(_docs_for(book, system))
    assert wording_problems(seen) == []
    codes = {code for code, *_ in seen}
    # The sweep reaches every system and both kinds of book (hand-made data and imported catalogues).
    for prefix in ("fow", "oww2", "hof", "waf"):
        assert sum(c.startswith(prefix + ".") for c in codes) >= 5, (prefix, sorted(codes))
    assert codes & {"fow.option.too_few", "fow.option.too_many", "fow.limit.per_force", "fow.force.too_few"}
    assert len(codes) >= 60, sorted(codes)


@pytest.mark.django_db
def test_a_list_on_a_system_without_rules_is_reported_with_the_registered_code(test_books):
    from armybuilder.lists.selectors import list_document_report
    from armybuilder.rules import check

    from .listdocs import listdoc, tank_company

    force, _ = list_document_report(listdoc(tank_company()))
    report = check(replace(force, system="chess"))
    assert report.codes() == ["force.system.unsupported"]
    assert wording_problems({(i.code, i.severity, i.message, i.fix) for i in report.issues}) == []
    assert report.issues[0].message == "No rules are known for the system 'chess'."


@pytest.mark.django_db
def test_an_event_pack_that_allows_nothing_reports_registered_codes_worded_from_their_templates(test_books):
    from armybuilder.lists.selectors import list_document_report
    from armybuilder.rules import check
    from armybuilder.rules.event_pack import PackSettings, check_with_pack
    from armybuilder.services.events.services import check_document

    from .listdocs import card, formation, listdoc, tank_company, unit

    ally = formation("IF1", unit("IF1/hq", "IHQ", "1x"), unit("IF1/b1", "IINF", "4x"), allied=True, handbook="tb-italy")
    doc = listdoc(tank_company(), tank_company(), ally, cards=[card("CUNIT", "/formations/0/units/1")])
    force, _ = list_document_report(doc)
    seen = set()
    for pool in (None, 1):
        pack = PackSettings(points_limit=1, formation_limit=1, card_points=pool, books=frozenset({"none"}),
                            nations=frozenset({"none"}), periods=frozenset({"none"}),
                            points_sets=frozenset({"none"}), current_revisions={"tb-germany": 99})
        report = check_with_pack(force, pack, check)
        seen |= {(i.code, i.severity, i.message, i.fix) for i in report.issues}
        unreadable = check_document(listdoc(book="no-such-book"), pack)
        seen |= {(i["code"], i["severity"], i["message"], i["fix"]) for i in unreadable.errors}
    codes = {code for code, *_ in seen}
    assert {c for c in REGISTRY.codes() if c.startswith("event.")} <= codes
    assert wording_problems(seen) == []


def test_wording_checks_find_an_unregistered_code_a_wrong_severity_and_hand_made_words():
    message = ic.FOW_OBSERVER_TOO_MANY.message(unit="Observer", number=2)
    assert wording_problems({("fow.observer.too_many", ERROR, message, "Remove Observer.")}) == []
    assert wording_problems({("fow.observer.too_many", WARNING, message, None)}) == \
        ["fow.observer.too_many: severity 'warning', registered 'error'"]
    assert "not a registered issue code" in wording_problems({("fow.observer.absent", ERROR, message, None)})[0]
    assert "matches none of its templates" in wording_problems({("fow.observer.too_many", ERROR, "Too many.",
                                                                 None)})[0]
    assert "fix" in wording_problems({("fow.observer.too_many", ERROR, message, "Sell it.")})[0]
    assert worded_by("a: b (c)", ["{x}: {y} ({z})"]) and not worded_by("a; b", ["{x}: {y} ({z})"])
