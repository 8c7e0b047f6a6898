import base64
import copy
import re
from urllib.parse import unquote

import pytest

from armybuilder.services.printing.codes import (
    BadCode,
    canonical_json,
    code_matches,
    list_code,
    normalize_code,
    qr_svg_data_uri,
)

from .conftest import desert_fox


def test_a_code_is_twelve_hex_digits_in_three_groups():
    assert re.fullmatch(r"[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}", list_code(desert_fox()))


def test_the_code_is_the_start_of_the_sha256_of_the_canonical_json():
    import hashlib

    doc = desert_fox()
    digest = hashlib.sha256(canonical_json(doc).encode("utf-8")).hexdigest()
    assert list_code(doc).replace("-", "").lower() == digest[:12]


def test_canonical_json_sorts_keys_and_keeps_non_ascii_text():
    assert canonical_json({"b": 1, "a": "Schürzen"}) == '{"a":"Schürzen","b":1}'


def test_key_order_and_whitespace_do_not_change_the_code():
    doc = desert_fox()
    shuffled = dict(reversed(list(copy.deepcopy(doc).items())))
    assert list_code(shuffled) == list_code(doc)


@pytest.mark.parametrize("change", [
    lambda d: d.update(name="Desert Fox 2"),
    lambda d: d.update(points_limit=101),
    lambda d: d["formations"][0]["units"][1].update(size="four-tanks"),
    lambda d: d["formations"][0]["units"][3]["upgrades"][1].update(quantity=1),
    lambda d: d["cards"].pop(),
])
def test_any_change_to_the_list_changes_the_code(change):
    doc = desert_fox()
    changed = copy.deepcopy(doc)
    change(changed)
    assert list_code(changed) != list_code(doc)


@pytest.mark.parametrize("typed", ["3f2a-91c0-7b4e", "3F2A 91C0 7B4E", " 3f2a91c07b4e ", "3F2A-91C0-7B4E"])
def test_a_code_is_accepted_in_any_case_with_or_without_separators(typed):
    assert normalize_code(typed) == "3F2A-91C0-7B4E"


@pytest.mark.parametrize("typed", ["", "3F2A-91C0", "3F2A-91C0-7B4E-00", "3F2A-91C0-7B4G", "<script>"])
def test_a_malformed_code_is_refused_with_a_clear_message(typed):
    with pytest.raises(BadCode, match="is not a verification code"):
        normalize_code(typed)


def test_code_matches_only_its_own_list():
    doc = desert_fox()
    other = copy.deepcopy(doc)
    other["name"] = "Somebody else's list"
    assert code_matches(list_code(doc).lower(), doc)
    assert not code_matches(list_code(doc), other)


def test_the_qr_code_is_an_svg_data_uri():
    uri = qr_svg_data_uri("https://example.org/s/123/")
    assert uri.startswith("data:image/svg+xml")
    payload = uri.split(",", 1)[1]
    svg = base64.b64decode(payload).decode() if ";base64" in uri.split(",", 1)[0] else unquote(payload)
    assert "<svg" in svg and "<path" in svg
