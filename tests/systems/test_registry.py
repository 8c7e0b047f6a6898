"""The registry of game systems: every system module is in it, everything it names exists, unknown codes
get a clear message, and no code outside armybuilder/systems compares system codes."""
import ast
import importlib
import pkgutil
import re
from dataclasses import replace
from pathlib import Path

import pytest
from django.conf import settings
from django.template.loader import get_template

import armybuilder.systems as systems_package
from armybuilder.interchange.battlescribe.system import base_system_doc
from armybuilder.lists.listjson.document import schema
from armybuilder.rules import engine
from armybuilder.services.printing.context import CARD_LAYOUTS
from armybuilder.systems import (
    GameSystem,
    UnknownSystem,
    system_for,
    system_for_mapping,
    system_get,
    system_register,
    system_registered,
    system_unregister,
    systems_all,
    systems_with_mapping,
)
from armybuilder.systems.base import BUILDER_SECTIONS
from armybuilder.systems.figures import generic_groups

from . import toy_rules
from .toy import TOY

ROOT = Path(settings.BASE_DIR)
PACKAGE = Path(systems_package.__file__).parent
SYSTEM_DATA = ROOT / "handbooks" / "data" / "systems"


def system_modules():
    """Every module of armybuilder/systems that defines a game system (``SYSTEM``)."""
    for info in pkgutil.iter_modules([str(PACKAGE)]):
        module = importlib.import_module(f"armybuilder.systems.{info.name}")
        if isinstance(getattr(module, "SYSTEM", None), GameSystem):
            yield module


def test_every_system_module_is_registered_under_its_code():
    modules = list(system_modules())
    assert len(modules) == len(list(SYSTEM_DATA.glob("*.yaml")))  # one module per bundled system file
    for module in modules:
        assert system_get(module.SYSTEM.code) is module.SYSTEM
    assert {s.code for s in systems_all()} == {m.SYSTEM.code for m in modules}


def test_every_bundled_system_file_has_a_registered_system_with_its_name():
    import yaml

    for path in SYSTEM_DATA.glob("*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert system_get(data["code"]).name == data["name"], path.name


def test_every_registered_system_checks_with_the_rules_module_the_engine_uses():
    for system in systems_all():
        assert system.rules is not None and engine.MODULES[system.code] is system.rules
        assert system.code == system.rules.SYSTEM and callable(system.rules.check)


@pytest.mark.parametrize("system", systems_all(), ids=lambda s: s.code)
def test_every_template_the_registry_names_exists(system):
    for name in (system.roster_template, system.card_template):
        assert get_template(name).origin.name.startswith(str(ROOT / "templates"))


@pytest.mark.parametrize("system", systems_all(), ids=lambda s: s.code)
def test_every_card_layout_and_builder_section_named_is_one_the_layers_have(system):
    assert system.card_layout in CARD_LAYOUTS
    assert set(system.builder_sections) <= set(BUILDER_SECTIONS) and system.shows("formations")


def _schema_at(pointer: str) -> dict:
    """The JSON Schema of the list document at a pointer (``*`` for any item of an array)."""
    root = schema()
    node = root
    for part in pointer.strip("/").split("/"):
        if "$ref" in node:
            node = root["$defs"][node["$ref"].rsplit("/", 1)[1]]
        node = node["items"] if part == "*" else node["properties"][part]
    return node


@pytest.mark.parametrize("system", systems_all(), ids=lambda s: s.code)
def test_every_list_extra_is_a_field_of_the_published_list_schema(system):
    for extra in system.list_extras:
        assert _schema_at(extra.pointer), extra.pointer
        assert extra.meaning


def test_the_list_extras_are_exactly_the_fields_the_list_format_gives_one_system():
    documented = (ROOT / "docs" / "list-format.md").read_text(encoding="utf-8")
    pointers = {e.pointer for s in systems_all() for e in s.list_extras}
    fields = {p.rsplit("/", 1)[1] for p in pointers}
    assert fields == {"year", "parent", "via_box", "letter", "outflank"}
    for field in fields:
        assert f"`{field}`" in documented


def test_an_unknown_code_is_refused_with_the_code_and_the_known_ones():
    with pytest.raises(UnknownSystem) as raised:
        system_get("chess")
    message = str(raised.value)
    assert "'chess'" in message
    for system in systems_all():
        assert system.code in message


def test_a_system_imported_from_battlescribe_gets_the_plain_stand_in():
    stand_in = system_for("bs-1234-abcd", "Phalanx")
    assert stand_in.code == "bs-1234-abcd" and stand_in.name == "Phalanx" and stand_in.rules is None
    assert stand_in.figures is generic_groups
    assert not (stand_in.uses_year or stand_in.uses_letters or stand_in.grows_by_options or stand_in.support_hint)
    assert stand_in.battlescribe_mapping is None and stand_in.list_extras == () and stand_in.matchup_tools == ()
    assert system_for("bs-1234-abcd").name == "bs-1234-abcd"
    with pytest.raises(UnknownSystem):
        system_get("bs-1234-abcd")


def test_the_battlescribe_mapping_names_the_system_its_catalogues_are_imported_into():
    # The importer writes catalogues into the system of the Flames of War system file it extends.
    assert system_for_mapping("fow").code == base_system_doc()["code"]
    assert [s.battlescribe_mapping for s in systems_with_mapping()] == ["fow"]
    with pytest.raises(UnknownSystem, match="'warhammer'.*mappings: fow"):
        system_for_mapping("warhammer")


def test_a_code_is_registered_once_and_only_registered_codes_are_unregistered():
    with pytest.raises(ValueError, match="already registered"):
        system_register(replace(system_get("hof")))
    with pytest.raises(UnknownSystem):
        system_unregister("toy")
    with pytest.raises(TypeError):
        system_register("toy")


def test_unregistering_a_system_keeps_a_rules_module_the_engine_had_before():
    engine.register(toy_rules)  # as the built-in rules modules are, before any registry exists
    try:
        system_register(TOY)
        system_unregister("toy")
        assert engine.MODULES["toy"] is toy_rules
        assert system_for("toy").rules is None
    finally:
        engine.unregister("toy")


def test_a_registered_system_is_listed_after_the_built_in_ones_while_registered():
    before = systems_all()
    with system_registered(TOY):
        assert systems_all() == before + (TOY,)
    assert systems_all() == before


@pytest.mark.parametrize("change, problem", [
    ({"rules": toy_rules, "code": "toy2"}, "is for 'toy'"),
    ({"builder_sections": ("support",)}, "starts with 'formations'"),
    ({"builder_sections": ("formations", "matchups")}, "unknown builder section"),
])
def test_a_game_system_that_contradicts_itself_is_refused(change, problem):
    with pytest.raises(ValueError, match=problem):
        replace(TOY, **change)


# -- the rule of issue 16: no code outside armybuilder/systems compares system codes ------------------------------

def test_no_code_outside_the_systems_package_and_the_rules_modules_names_a_system_code():
    codes = "|".join(re.escape(s.code) for s in systems_all())
    quoted = re.compile(rf"""["']({codes})["']""")
    found = []
    for folder in ("armybuilder", "templates"):
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if path.suffix not in (".py", ".html", ".txt") or "/migrations/" in relative:
                continue
            if relative.startswith(("armybuilder/systems/", "armybuilder/rules/")):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if quoted.search(line):
                    found.append(f"{relative}:{number}: {line.strip()}")
    assert found == []


def test_the_systems_package_imports_only_the_rules_engine_and_the_standard_library():
    allowed_roots = {"armybuilder"}
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                root = name.split(".")[0]
                if root in allowed_roots:
                    assert name.startswith("armybuilder.rules"), f"{path.name} imports {name}"
                else:
                    assert root in _stdlib(), f"{path.name} imports {name}"


def _stdlib() -> set:
    import sys

    return set(sys.stdlib_module_names) | {"__future__"}


def test_every_system_lists_its_match_up_tools_with_unique_slugs_and_at_most_one_wizard():
    # Hand count from the rules digests: FoW side by side, OWW2 order cards, HoF parity (a wizard), WAF
    # activation dice and set-up cards.
    expected = {"fow4": {"fow-comparison"}, "oww2": {"order-cards"}, "hof": {"parity"},
                "waf": {"activation-dice", "setup"}}
    for system in systems_all():
        slugs = [tool.slug for tool in system.matchup_tools]
        assert len(slugs) == len(set(slugs)), system.code
        assert sum(tool.wizard for tool in system.matchup_tools) <= 1, system.code
        assert set(slugs) == expected[system.code], system.code
