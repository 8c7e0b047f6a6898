"""Allied Formations for imported books: our allies table, given to each book at import, shown in the
report, and offered only from books of the same source and period."""
from pathlib import Path

import pytest
from django.conf import settings

from armybuilder.interchange.battlescribe.allies import AlliesTableError, read_allies_table
from armybuilder.lists import services as s
from armybuilder.lists.selectors import army_list_force
from armybuilder.rules import check
from armybuilder.web.selectors import allied_handbooks
from handbooks.models import Handbook
from handbooks.services import handbooks_load_paths

AFRIKA = "1db5-94f0-8315-42a2"


def write(tmp_path, text: str) -> Path:
    path = tmp_path / "allies.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_project_table_reads_and_lets_the_afrika_korps_ally_with_italy():
    table = read_allies_table()
    assert "italy" in table.allies_of("Mid-War", "germany")
    assert "germany" in table.allies_of("Mid-War", "italy")
    assert table.allies_of("Mid-War", "soviet-union") == ()
    assert table.allies_of("Early-War", "germany") == ()


@pytest.mark.parametrize("text, where", [
    ("version: 2\nperiods: {}\n", "'version: 1'"),
    ("version: 1\nperiods: [Mid-War]\n", "'periods' must map"),
    ("version: 1\nperiods:\n  Mid-War:\n    germany: italy\n", "periods.Mid-War.germany: must be a list"),
    ("version: 1\nperiods:\n  Mid-War:\n    germany: [germany]\n", "cannot ally with itself"),
    ("version: 1\nperiods:\n  Mid-War: [\n", "line"),
])
def test_a_malformed_table_says_what_is_wrong_and_where(tmp_path, text, where):
    path = write(tmp_path, text)
    with pytest.raises(AlliesTableError) as caught:
        read_allies_table(path)
    assert str(path) in str(caught.value) and where in str(caught.value)


@pytest.mark.bsdata
def test_each_imported_book_gets_the_allies_of_its_period_and_nation_and_the_report_says_so(real_library):
    docs = {rep.source: (rep, doc) for rep, doc in real_library.documents}
    rep, afrika = docs["MW - Afrika Korps.cat"]
    assert afrika["period"] == "Mid-War" and afrika["nation"] == "germany"
    assert set(afrika["allied_nations"]) == {"italy", "hungary", "romania", "finland"}
    assert docs["MW - Avanti.cat"][1]["allied_nations"] == ["germany"]
    assert docs["LW - D-Day_British.cat"][1]["allied_nations"] == ["usa"]
    assert docs["LW - Berlin_Soviet.cat"][1]["allied_nations"] == []
    lines = real_library.report.lines()
    at = next(i for i, line in enumerate(lines) if "MW - Afrika Korps.cat" in line)
    assert lines[at + 1] == "  allies (allies.yaml, Mid-War): italy, hungary, romania, finland"


@pytest.mark.bsdata
def test_an_edited_table_changes_the_allies_of_the_next_import(bsdata_dir, tmp_path):
    from armybuilder.interchange.battlescribe import map_library

    path = write(tmp_path, "version: 1\nperiods:\n  Mid-War:\n    germany: [soviet-union]\n")
    mapped = map_library([bsdata_dir], allies=path)
    afrika = next(doc for rep, doc in mapped.documents if rep.source == "MW - Afrika Korps.cat")
    avanti = next(doc for rep, doc in mapped.documents if rep.source == "MW - Avanti.cat")
    assert afrika["allied_nations"] == ["soviet-union"] and avanti["allied_nations"] == []


@pytest.mark.bsdata
def test_a_broken_table_stops_the_import_before_anything_is_written(bsdata_dir, tmp_path):
    from armybuilder.interchange.battlescribe import map_library

    mapped = map_library([bsdata_dir], allies=write(tmp_path, "periods: 3\n"))
    assert mapped.report.read_errors and "allies.yaml" in mapped.report.read_errors[0]


@pytest.mark.bsdata
def test_real_and_sample_books_never_see_each_other_as_allies(library_in_db, db, player):
    assert all(r.ok for r in handbooks_load_paths([Path(settings.HANDBOOK_DATA_DIR) / "fow4"]))
    real = Handbook.objects.get(code=AFRIKA, is_current=True)
    sample = Handbook.objects.get(code="sample-afrika-korps", is_current=True)
    real_list = s.army_list_create(owner=player, handbook=real, name="real", points_limit=100)
    sample_list = s.army_list_create(owner=player, handbook=sample, name="sample", points_limit=100)
    real_allies = {b.name for b in allied_handbooks(real_list)}
    sample_allies = {b.name for b in allied_handbooks(sample_list)}
    assert "Mid-War - Avanti" in real_allies
    assert all(Handbook.objects.get(name=n, is_current=True).source == "battlescribe" for n in real_allies)
    assert not any("Late-War" in n for n in real_allies)  # same period only
    assert sample_allies == {"Sample Italian Bersaglieri (illustrative)"}


@pytest.mark.bsdata
def test_an_allied_formation_from_real_avanti_is_legal_beside_a_real_german_formation(library_in_db, db, player):
    real = Handbook.objects.get(code=AFRIKA, is_current=True)
    avanti = Handbook.objects.get(name="Mid-War - Avanti", is_current=True)
    army = s.army_list_create(owner=player, handbook=real, name="Axis", points_limit=100)
    s.army_list_add_formation(army_list=army, formation_code=next(iter(
        f.code for f in real.formations.all() if f.name == "Panzer III Tank Company")))
    italian = avanti.formations.order_by("pk").first()
    s.army_list_add_formation(army_list=army, formation_code=italian.code, handbook=avanti, allied=True)
    report = check(army_list_force(army))
    codes = {i.code for i in report.issues}
    assert not codes & {"fow.allied.nation_not_permitted", "fow.allied.other_source", "fow.allied.other_period",
                        "fow.force.only_allied"}
    assert any(f.allied for f in army_list_force(army).formations)


@pytest.mark.bsdata
def test_a_sample_formation_cannot_be_added_to_a_real_list(library_in_db, db, player):
    from armybuilder.lists.services import ListOperationError

    assert all(r.ok for r in handbooks_load_paths([Path(settings.HANDBOOK_DATA_DIR) / "fow4"]))
    real = Handbook.objects.get(code=AFRIKA, is_current=True)
    italy = Handbook.objects.get(code="sample-italy", is_current=True)
    army = s.army_list_create(owner=player, handbook=real, name="Mixed", points_limit=100)
    with pytest.raises(ListOperationError, match="allies come from books of the same kind"):
        s.army_list_add_formation(army_list=army, formation_code=italy.formations.first().code, handbook=italy,
                                  allied=True)
    assert not army.formations.exists()


@pytest.fixture
def player(db):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("rommel", password="pw-not-secret-123")


# -- another table on a re-import -----------------------------------------------------------------------
def _two_nations(mini_dir) -> Path:
    """The mini library with a second book, Italian: a nation the German book can take allies from."""
    from .conftest import CAT

    italian = CAT.replace('id="cat-1" name="Mid-War - Test German"', 'id="cat-2" name="Mid-War - Test Italian"')
    assert italian != CAT
    (mini_dir / "mini-italian.cat").write_text(italian, encoding="utf-8")
    return mini_dir


def _current(code: str) -> Handbook:
    return Handbook.objects.get(code=code, is_current=True)


def _allies(code: str) -> list[str]:
    return sorted(_current(code).allied_nations.values_list("code", flat=True))


def _run(*args) -> str:
    import io

    from django.core.management import call_command

    out = io.StringIO()
    call_command("import_battlescribe", *map(str, args), stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_another_allies_table_is_applied_on_a_re_import_of_unchanged_books_and_the_report_says_so(
        mini_dir, systems, tmp_path_factory):
    folder = _two_nations(mini_dir)
    tmp_path = tmp_path_factory.mktemp("tables")
    first = _run(folder)
    assert "created" in first and "NOTE" not in first
    project = _allies("cat-1")  # the project's table: italy among them
    assert "italy" in project and _allies("cat-2") == ["germany"]

    none_for_germany = write(tmp_path, "version: 1\nperiods:\n  Mid-War:\n    italy: [germany]\n")
    again = _run(folder, "--allies", none_for_germany)
    assert "NOTE the allies table (allies.yaml) is not the one the current handbooks were made with" in again
    assert again.count("revised ") == 2
    assert "  allies (allies.yaml, Mid-War): none" in again.splitlines()
    assert _current("cat-1").revision == 2 and _allies("cat-1") == [] and _allies("cat-2") == ["germany"]

    same = _run(folder, "--allies", none_for_germany)  # the same table again: nothing to do
    assert "revised" not in same and "NOTE" not in same and same.count("unchanged ") == 2
    assert _current("cat-1").revision == 2

    back = _run(folder)  # the project's table again: the books get its allies back
    assert "NOTE" in back and back.count("revised ") == 2
    assert _current("cat-1").revision == 3 and _allies("cat-1") == project


@pytest.mark.django_db
def test_a_table_saying_the_same_in_other_words_changes_nothing(mini_dir, systems, tmp_path_factory):
    folder = _two_nations(mini_dir)
    tmp_path = tmp_path_factory.mktemp("tables")
    _run(folder, "--allies", write(tmp_path, "version: 1\nperiods:\n  Mid-War:\n    germany: [italy]\n"))
    reworded = write(tmp_path, "# a comment\nversion: 1\nperiods: {Mid-War: {germany: [italy, italy]}}\n")
    out = _run(folder, "--allies", reworded)
    assert "revised" not in out and out.count("unchanged ") == 2 and _current("cat-1").revision == 1
