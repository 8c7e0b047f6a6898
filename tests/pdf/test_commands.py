"""render_roster and verify_roster from the command line: exit codes and clear messages, never a traceback."""
import json

import pytest
from django.core.management import CommandError, call_command

from armybuilder.services.printing.codes import list_code

from .conftest import desert_fox


@pytest.fixture
def list_file(tmp_path, legal_doc):
    path = tmp_path / "desert-fox.json"
    path.write_text(json.dumps(legal_doc, indent=2), encoding="utf-8")
    return path


def exit_code(*args) -> int:
    try:
        call_command(*args)
    except CommandError as exc:
        return exc.returncode
    except SystemExit as exc:
        return exc.code
    return 0


def test_render_roster_writes_a_pdf_with_cards_player_and_event(list_file, tmp_path, read_pdf, capsys):
    out = tmp_path / "roster.pdf"
    call_command("render_roster", str(list_file), "-o", str(out), "--player", "Erwin R.", "--event", "Tobruk Open")
    pdf = read_pdf(out.read_bytes())
    assert len(pdf) == 4
    assert "Erwin R." in pdf.pages[0] and "Tobruk Open" in pdf.pages[0]
    assert f"Wrote {out}" in capsys.readouterr().out


def test_render_roster_prints_the_roster_alone_on_letter_paper_when_asked(list_file, tmp_path, read_pdf):
    out = tmp_path / "roster.pdf"
    call_command("render_roster", str(list_file), "-o", str(out), "--no-cards", "--paper", "letter")
    pdf = read_pdf(out.read_bytes())
    assert len(pdf) == 2 and pdf.size_mm(0) == (216, 279)


def test_render_roster_prints_the_same_code_that_verify_roster_accepts(list_file, tmp_path, read_pdf, capsys):
    out = tmp_path / "roster.pdf"
    call_command("render_roster", str(list_file), "-o", str(out))
    code = list_code(desert_fox())
    assert f"Verification code {code}" in read_pdf(out.read_bytes()).pages[0]
    assert exit_code("verify_roster", code, str(list_file)) == 0
    assert "Match" in capsys.readouterr().out


@pytest.mark.parametrize("content, message", [
    (b"{not json", "not valid JSON"),
    (b"\xff\xfe\x00", "not UTF-8"),
    (json.dumps({"format": "armybuilder-list", "version": 1}).encode(), "/"),
])
def test_render_roster_refuses_an_unreadable_list_with_exit_code_2(tmp_path, sample_books, content, message):
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    with pytest.raises(CommandError, match=message) as caught:
        call_command("render_roster", str(bad), "-o", str(tmp_path / "x.pdf"))
    assert caught.value.returncode == 2
    assert not (tmp_path / "x.pdf").exists()


def test_render_roster_refuses_a_list_whose_units_do_not_exist(tmp_path, sample_books):
    doc = desert_fox()
    doc["formations"][0]["units"][0]["unit"] = "SG999"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(CommandError, match="not a usable list") as caught:
        call_command("render_roster", str(bad), "-o", str(tmp_path / "x.pdf"))
    assert caught.value.returncode == 2


def test_render_roster_says_when_the_file_is_missing(tmp_path, db):
    with pytest.raises(CommandError, match="cannot read the file") as caught:
        call_command("render_roster", str(tmp_path / "missing.json"), "-o", str(tmp_path / "x.pdf"))
    assert caught.value.returncode == 2


def test_verify_roster_exits_1_when_the_list_has_changed(list_file, capsys):
    code = list_code(desert_fox())
    doc = desert_fox()
    doc["formations"][0]["units"][1]["size"] = "four-tanks"
    list_file.write_text(json.dumps(doc))
    assert exit_code("verify_roster", code, str(list_file)) == 1
    assert "No match" in capsys.readouterr().out


def test_verify_roster_accepts_the_code_typed_in_lower_case_with_spaces(list_file):
    code = list_code(desert_fox()).replace("-", " ").lower()
    assert exit_code("verify_roster", code, str(list_file)) == 0


def test_verify_roster_does_not_need_the_lists_books_to_be_loaded(tmp_path, db):
    path = tmp_path / "list.json"
    path.write_text(json.dumps(desert_fox()))
    assert exit_code("verify_roster", list_code(desert_fox()), str(path)) == 0


@pytest.mark.parametrize("content", [b"", b"[1, 2", b'{"format": "something-else"}'])
def test_verify_roster_exits_2_on_an_unreadable_file(tmp_path, db, content):
    path = tmp_path / "list.json"
    path.write_bytes(content)
    assert exit_code("verify_roster", "3F2A-91C0-7B4E", str(path)) == 2


def test_verify_roster_exits_2_on_a_malformed_code(list_file):
    with pytest.raises(CommandError, match="is not a verification code") as caught:
        call_command("verify_roster", "12345", str(list_file))
    assert caught.value.returncode == 2
