"""Hostile inputs, generated (nothing here is a copied file): bombs, deep and huge documents, odd numbers and
characters, malformed XML and zips, oversize bodies. Each generator returns bytes or text; ``CASES`` names
them by the kind of way in they are aimed at. Sizes are chosen to exceed every limit the project sets while
staying cheap to build."""
import io
import json
import zipfile

MiB = 1024 * 1024


# -- YAML ------------------------------------------------------------------------------------------------------

def billion_laughs_yaml(levels: int = 9) -> str:
    """Nine levels of nine aliases: under 900 bytes, 9^9 (387 million) values once expanded."""
    lines = ['kind: handbook', 'a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, levels):
        prev = f"*a{level - 1}"
        lines.append(f"a{level}: &a{level} [{', '.join([prev] * 9)}]")
    return "\n".join(lines) + "\n"


def wide_alias_yaml() -> str:
    """About 12 KB: one anchored list of 1,000 values repeated by 1,000 aliases (a million values)."""
    values = ", ".join(str(i) for i in range(1_000))
    body = ", ".join(["*big"] * 1_000)
    return f"kind: handbook\nbig: &big [{values}]\nrepeat: [{body}]\n"


def million_elements_yaml() -> str:
    return "kind: handbook\nextra: [" + ",".join("0" for _ in range(1_000_000)) + "]\n"


def many_problems_yaml(count: int) -> str:
    """A handbook whose every unit is wrong, to make the checker find ``count`` problems."""
    units = "\n".join(f"  - {{code: U{i}, name: 'N', bogus_field_{i}: 1}}" for i in range(count))
    return ("kind: handbook\nformat: 1\nsystem: fow4\ncode: many\nname: Many\nnation: germany\n"
            f"units:\n{units}\n")


# -- JSON ------------------------------------------------------------------------------------------------------

def huge_number_json(digits: int = 5_000) -> bytes:
    return b'{"format": "armybuilder-list", "version": 1, "points_limit": ' + b"9" * digits + b"}"


def deep_json(depth: int = 100_000) -> bytes:
    return b"[" * depth + b"]" * depth


def wide_json(items: int = 60_000) -> bytes:
    return json.dumps({"name": "wide", "formations": [{"x": i} for i in range(items)]}).encode()[: 250 * 1024]


JSON_CASES = {
    "huge-number": huge_number_json(),
    "huge-float": b'{"points_limit": 1e999999}',
    "nan": b'{"points_limit": NaN}',
    "deep-nesting": deep_json(),
    "duplicate-keys": b'{"name": "a", "name": "b"}',
    "nul-in-string": b'{"name": "a\\u0000b", "notes": "x"}',
    "lone-surrogate": b'{"name": "\\ud800"}',
    "raw-surrogate-bytes": b'{"name": "\xed\xa0\x80"}',
    "not-utf8": b'\xff\xfe{"a": 1}',
    "huge-string": json.dumps({"name": "X" * 200_000}).encode(),
    "wide-array": wide_json(),
    "not-an-object": b'[1, 2, 3]',
    "truncated": b'{"format": "armybuilder-list", "name": "x',
    "empty": b"",
}


# -- XML and zips ------------------------------------------------------------------------------------------------

def xml_entity_bomb() -> bytes:
    entities = ['<!ENTITY e0 "lol">'] + [f'<!ENTITY e{i} "{("&e" + str(i - 1) + ";") * 10}">' for i in range(1, 10)]
    return ('<?xml version="1.0"?><!DOCTYPE roster [' + "".join(entities) + ']><roster>&e9;</roster>').encode()


def xml_external_entity() -> bytes:
    return b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><roster>&x;</roster>'


def xml_deep(depth: int = 100_000) -> bytes:
    return b"<a>" * depth + b"</a>" * depth


def zip_of(members: dict[str, bytes], compression=zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def zip_bomb() -> bytes:
    """A zip of ~100 KB that says it unpacks to 100 MB of spaces."""
    return zip_of({"roster.ros": b"<roster>" + b" " * (100 * MiB) + b"</roster>"})


def zip_lying_header() -> bytes:
    """A zip whose central directory claims a tiny member that is in truth 20 MB."""
    data = bytearray(zip_of({"roster.ros": b" " * (20 * MiB)}))
    directory = data.rfind(b"PK\x01\x02")
    data[directory + 24:directory + 28] = (10).to_bytes(4, "little")  # uncompressed size in the directory
    return bytes(data)


XML_CASES = {
    "entity-bomb": xml_entity_bomb(),
    "external-entity": xml_external_entity(),
    "deep-nesting": xml_deep(),
    "nan-number": b'<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" id="r" name="n"><costs>'
                  b'<cost name="pts" typeId="pts" value="NaN"/></costs><forces><force id="f" catalogueId="c">'
                  b'<selections><selection id="s" number="NaN"/></selections></force></forces></roster>',
    "huge-number": b'<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" id="r" name="n"><forces>'
                   b'<force id="f" catalogueId="c"><selections><selection id="s" number="' + b"9" * 5000 +
                   b'"/></selections></force></forces></roster>',
    "malformed": b"<roster><forces></roster>",
    "zip-bomb": zip_bomb(),
    "zip-lying-header": zip_lying_header(),
    "zip-path-traversal": zip_of({"../../etc/cron.d/x.ros": b"<roster/>"}),
    "zip-many-members": zip_of({f"{i}.ros": b"<roster/>" for i in range(50)}),
    "zip-truncated": zip_of({"roster.ros": b"<roster/>" * 100})[:60],
    "binary-junk": bytes(range(256)) * 64,
}
