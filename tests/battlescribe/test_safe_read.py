"""Reading BattleScribe files treats them as hostile input."""
import io
import zipfile

import pytest
from django.core.management import CommandError, call_command

from armybuilder.interchange.battlescribe import BattleScribeReadError, ReadLimits, read_bytes, read_document
from armybuilder.interchange.battlescribe.safe_read import _read_bounded
from handbooks import models as m

from .conftest import CAT, GST

CAT_NS = "http://www.battlescribe.net/schema/catalogueSchema"


def test_reads_a_game_system(tmp_path):
    path = tmp_path / "x.gst"
    path.write_text(GST, encoding="utf-8")
    doc = read_document(path)
    assert doc.kind == "gameSystem" and doc.root.get("id") == "gs-1"


def test_entity_bomb_is_refused():
    bomb = ('<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
            ' <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n'
            ' <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">\n]>\n'
            f'<catalogue xmlns="{CAT_NS}" id="a" name="&lol3;"/>')
    with pytest.raises(BattleScribeReadError) as exc:
        read_bytes(bomb.encode(), "bomb.cat")
    assert "bomb.cat" in str(exc.value) and "forbidden" in str(exc.value)
    assert exc.value.line == 2


def test_external_entity_is_refused():
    xxe = ('<?xml version="1.0"?>\n<!DOCTYPE c [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
           f'<catalogue xmlns="{CAT_NS}" id="a" name="&xxe;"/>')
    with pytest.raises(BattleScribeReadError, match="forbidden"):
        read_bytes(xxe.encode(), "xxe.cat")


def test_any_dtd_is_refused():
    with pytest.raises(BattleScribeReadError, match="forbidden"):
        read_bytes(f'<!DOCTYPE c><catalogue xmlns="{CAT_NS}" id="a" name="b"/>'.encode(), "dtd.cat")


def test_broken_xml_names_file_and_line():
    broken = f'<?xml version="1.0"?>\n<catalogue xmlns="{CAT_NS}" id="a" name="b">\n  <entryLinks>\n</catalogue>'
    with pytest.raises(BattleScribeReadError) as exc:
        read_bytes(broken.encode(), "broken.cat")
    assert exc.value.source == "broken.cat" and exc.value.line == 4
    assert "broken.cat, line 4" in str(exc.value)


def test_wrong_root_and_kind_are_refused():
    with pytest.raises(BattleScribeReadError, match="not a BattleScribe"):
        read_bytes(b"<html/>", "page.cat")
    with pytest.raises(BattleScribeReadError, match="file name says"):
        read_bytes(GST.encode(), "system.cat", expected="catalogue")


def test_unknown_suffix_and_missing_file(tmp_path):
    with pytest.raises(BattleScribeReadError, match="not a BattleScribe data file"):
        read_document(tmp_path / "notes.txt")
    with pytest.raises(BattleScribeReadError, match="cannot read"):
        read_document(tmp_path / "gone.cat")


def test_file_size_limit(tmp_path):
    path = tmp_path / "big.cat"
    path.write_text(CAT, encoding="utf-8")
    with pytest.raises(BattleScribeReadError, match="limit"):
        read_document(path, limits=ReadLimits(max_xml_bytes=1000))



@pytest.mark.parametrize("size_said", [0, 10, 999])
def test_a_file_longer_than_its_size_said_is_read_whole_and_still_bounded(size_said):
    """A read asks for the size the file's metadata gives, not a buffer of the limit; a file that grew since is
    read to its end all the same, and one that grew past the limit is refused."""
    data = b"x" * 1000
    assert _read_bounded(io.BytesIO(data), 5000, "f.cat", "file", size_said) == data
    assert _read_bounded(io.BytesIO(data), 1000, "f.cat", "file", size_said) == data
    with pytest.raises(BattleScribeReadError, match="larger than the limit of 999"):
        _read_bounded(io.BytesIO(data), 999, "f.cat", "file", size_said)

def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


def test_catz_with_one_member_is_read(tmp_path):
    path = tmp_path / "mini.catz"
    path.write_bytes(_zip({"mini.cat": CAT.encode()}))
    doc = read_document(path)
    assert doc.kind == "catalogue" and doc.source == "mini.catz!mini.cat"


def test_zip_bomb_ratio_is_refused():
    padding = b"<!-- " + b"a" * 5_000_000 + b" -->"
    data = _zip({"bomb.cat": f'<catalogue xmlns="{CAT_NS}" id="a" name="b">'.encode() + padding + b"</catalogue>"})
    with pytest.raises(BattleScribeReadError, match="compression ratio"):
        read_bytes(data, "bomb.catz", zipped=True)


def test_oversized_zip_member_is_refused():
    data = _zip({"big.cat": CAT.encode()})
    with pytest.raises(BattleScribeReadError, match="unpacks to"):
        read_bytes(data, "big.catz", zipped=True, limits=ReadLimits(max_xml_bytes=1000))


def test_zip_must_hold_exactly_one_file():
    with pytest.raises(BattleScribeReadError, match="exactly one"):
        read_bytes(_zip({"a.cat": CAT.encode(), "b.cat": CAT.encode()}), "two.catz", zipped=True)
    many = _zip({f"f{i}.txt": b"x" for i in range(10)})
    with pytest.raises(BattleScribeReadError, match="entries"):
        read_bytes(many, "many.catz", zipped=True)
    with pytest.raises(BattleScribeReadError, match="not a valid zip"):
        read_bytes(b"PK\x03\x04garbage", "bad.catz", zipped=True)


@pytest.mark.django_db
def test_a_broken_file_writes_nothing(mini_dir, systems):
    (mini_dir / "zz-broken.cat").write_text("<catalogue", encoding="utf-8")
    before = (m.Handbook.objects.count(), m.Nation.objects.count(), m.ProfileType.objects.count())
    with pytest.raises(CommandError, match="could not be read"):
        call_command("import_battlescribe", str(mini_dir), stdout=io.StringIO())
    assert (m.Handbook.objects.count(), m.Nation.objects.count(), m.ProfileType.objects.count()) == before
