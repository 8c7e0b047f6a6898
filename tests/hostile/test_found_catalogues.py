"""Regression tests: malformed catalogues crashed import_battlescribe, and a Flames of War-like .gst changed
the shared fow4 system (issue 15)."""
import io

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from handbooks.models import GameSystem, Handbook, Nation, ProfileType
from tests.battlescribe.conftest import CAT, GST


def _import(*paths):
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("import_battlescribe", *map(str, paths), stdout=out, stderr=err)
    except CommandError as exc:
        return exc, out.getvalue()
    return None, out.getvalue()


def _folder(tmp_path, name, gst, cat):
    folder = tmp_path / name
    folder.mkdir()
    (folder / "system.gst").write_text(gst, encoding="utf-8")
    (folder / "book.cat").write_text(cat, encoding="utf-8")
    return folder


@pytest.fixture
def systems_loaded(db):
    call_command("load_handbooks", str(settings.HANDBOOK_DATA_DIR / "systems"), verbosity=0)


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["NaN", "inf", "-Infinity", "9" * 5000, "1e400", "12abc"])
def test_a_catalogue_revision_that_is_no_number_imports_as_revision_1_instead_of_crashing(tmp_path, systems_loaded,
                                                                                         value):
    folder = _folder(tmp_path, "nan", GST, CAT.replace('revision="4"', f'revision="{value}"', 1))
    error, out = _import(folder)
    assert error is None, out
    assert Handbook.objects.get(code="cat-1").revision == 1


@pytest.mark.django_db
def test_a_catalogue_nested_100000_deep_is_refused_with_where_and_writes_nothing(tmp_path, systems_loaded):
    deep = "<selectionEntries>" + "<selectionEntry id='x' name='x' type='unit'><selectionEntries>" * 50_000 + \
        "</selectionEntries></selectionEntry>" * 50_000 + "</selectionEntries>"
    cat = CAT.replace("<entryLinks>", deep + "<entryLinks>", 1)
    folder = _folder(tmp_path, "deep", GST, cat)
    before = Handbook.objects.count()
    error, out = _import(folder)
    assert error is not None and error.returncode == 2
    assert "book.cat: elements nested more than 200 levels deep" in out
    assert Handbook.objects.count() == before


@pytest.mark.django_db
def test_importing_a_flames_of_war_like_gst_adds_to_the_shared_fow4_system_but_changes_nothing_in_it(
        tmp_path, systems_loaded):
    fow4 = GameSystem.objects.get(code="fow4")
    before_nations = {n.code: (n.name, n.side) for n in Nation.objects.filter(system=fow4)}
    before_types = {p.code: (p.name, p.applies_to, p.order) for p in ProfileType.objects.filter(system=fow4)}
    before_system = (fow4.name, fow4.description, fow4.uses_points)
    error, out = _import(_folder(tmp_path, "first", GST, CAT))
    assert error is None, out
    after_first = {p.code: p.name for p in ProfileType.objects.filter(system=fow4)}
    # Another FoW-like game system reuses the profile type id with another name, and another nation name.
    other_gst = GST.replace('id="gs-1" name="Mini FoW"', 'id="gs-other" name="Someone Else\'s Game"').replace(
        'name="Tank Unit"', 'name="Renamed By Another Game"')
    other_cat = CAT.replace('id="cat-1" name="Mid-War - Test German"', 'id="cat-9" name="Mid-War - Test Hungarian"')
    error, out = _import(_folder(tmp_path, "second", other_gst, other_cat.replace('gameSystemId="gs-1"',
                                                                                 'gameSystemId="gs-other"')))
    assert error is None, out
    fow4.refresh_from_db()
    assert (fow4.name, fow4.description, fow4.uses_points) == before_system
    for code, values in before_nations.items():
        nation = Nation.objects.get(system=fow4, code=code)
        assert (nation.name, nation.side) == values
    for code, values in before_types.items():
        ptype = ProfileType.objects.get(system=fow4, code=code)
        assert (ptype.name, ptype.applies_to, ptype.order) == values
    assert ProfileType.objects.get(system=fow4, code="pt-tank").name == after_first["pt-tank"] == "Tank Unit"
