"""Every example list in docs/examples is legal according to check_list."""
import json
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

EXAMPLES = sorted((Path(settings.BASE_DIR) / "docs" / "examples").glob("*.json"))


def test_there_is_an_example_for_every_system():
    systems = {json.loads(p.read_text())["system"] for p in EXAMPLES}
    assert systems == {"fow4", "oww2", "hof", "waf"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_the_example_list_is_legal(sample_data, path, capsys):
    call_command("check_list", str(path))  # exits 1 (SystemExit) when not legal
    out = capsys.readouterr().out
    assert "LEGAL: 0 error(s)" in out and json.loads(path.read_text())["name"] in out
