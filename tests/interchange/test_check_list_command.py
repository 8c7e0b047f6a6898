"""check_list: the report on the command line, with exit codes 0 (legal), 1 (not legal), 2 (unreadable)."""
import json

import pytest
from django.core.management import CommandError, call_command

from ..rules.listdocs import formation, listdoc, tank_company, unit

pytestmark = pytest.mark.usefixtures("test_books")


def run(tmp_path, content, *args, capsys):
    path = tmp_path / "list.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    code = 0
    try:
        call_command("check_list", str(path), *args)
    except SystemExit as exc:
        code = exc.code
    except CommandError as exc:
        return exc.returncode, str(exc)
    return code, capsys.readouterr().out


def test_a_legal_list_exits_0_and_prints_its_points(tmp_path, capsys):
    code, out = run(tmp_path, listdoc(tank_company()), capsys=capsys)
    assert code == 0
    assert "Points: 21 / 100" in out and "LEGAL: 0 error(s), 0 warning(s)" in out


def test_an_illegal_list_exits_1_and_prints_each_issue_with_its_fix_and_rule(tmp_path, capsys):
    doc = listdoc(formation("F1", unit("F1/hq", "HQ1", "1x"), unit("F1/b2", "TNK", "3x")))
    code, out = run(tmp_path, doc, capsys=capsys)
    assert code == 1
    assert "NOT LEGAL: 1 error(s)" in out
    assert "ERROR   fow.black_box.missing at /formations/0 [F1/b1]" in out
    assert "Fix: Add one unit from: Tank Platoon, Heavy Tank Platoon." in out
    assert "Rule: Black boxes are compulsory" in out


def test_json_output_carries_the_whole_report(tmp_path, capsys):
    doc = listdoc(formation("F1", unit("F1/hq", "HQ1", "1x"), unit("F1/b2", "TNK", "3x")))
    code, out = run(tmp_path, doc, "--format", "json", capsys=capsys)
    data = json.loads(out)
    assert code == 1 and data["legal"] is False and data["total_points"] == 12
    assert data["issues"][0]["code"] == "fow.black_box.missing"
    assert data["issues"][0]["pointer"] == "/formations/0" and data["issues"][0]["rule"]["name"]


@pytest.mark.parametrize("content, expected", [
    ("{not json", "not valid JSON"),
    ('{"format": "armybuilder-list"}', "/: 'version' is a required property"),
])
def test_an_unreadable_file_exits_2_with_the_reason(tmp_path, capsys, content, expected):
    code, out = run(tmp_path, content, capsys=capsys)
    assert code == 2 and expected in out


def test_a_missing_file_exits_2(capsys):
    with pytest.raises(CommandError) as raised:
        call_command("check_list", "/nonexistent/list.json")
    assert raised.value.returncode == 2 and "cannot read the file" in str(raised.value)


def test_unknown_references_exit_2_in_json_mode_with_pointers(tmp_path, capsys):
    doc = listdoc(formation("F9"))
    code, out = run(tmp_path, doc, "--format", "json", capsys=capsys)
    assert code == 2
    assert json.loads(out)["problems"] == [{"pointer": "/formations/0/formation",
                                            "message": "unknown formation 'F9' in Test Book Germany"}]
