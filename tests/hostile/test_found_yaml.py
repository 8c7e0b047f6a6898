"""Regression tests: YAML alias bombs and other hostile data files in load_handbooks (issue 15: an 800-byte
file used 5.6 GB, a 12.7 KB file 6.0 GB, another printed 1.9 GB of error text, a 10^6-element file was
accepted and wrote 8 MB of JSON into the database)."""
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from handbooks.loader.parse import MAX_NODES
from handbooks.models import Handbook

from .hostile_inputs import billion_laughs_yaml, many_problems_yaml, million_elements_yaml, wide_alias_yaml


def _load(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(CommandError) as raised:
        call_command("load_handbooks", str(path), stdout=io.StringIO(), stderr=err)
    return raised.value, err.getvalue()


@pytest.mark.django_db
def test_an_800_byte_alias_bomb_is_refused_at_once(tmp_path, books):
    text = billion_laughs_yaml()
    assert len(text) < 900
    error, err = _load(tmp_path, "bomb.yaml", text)
    assert error.returncode == 2
    assert f"more than {MAX_NODES} values once its aliases are expanded" in err
    assert Handbook.objects.filter(code="bomb").count() == 0


@pytest.mark.django_db
def test_a_12_kb_file_of_wide_aliases_is_refused(tmp_path, books):
    text = wide_alias_yaml()
    assert 10_000 < len(text) < 14_000
    error, err = _load(tmp_path, "wide.yaml", text)
    assert "once its aliases are expanded" in err and error.returncode == 2


@pytest.mark.django_db
def test_a_file_with_a_million_elements_is_refused_and_writes_nothing(tmp_path, books):
    before = Handbook.objects.count()
    _error, err = _load(tmp_path, "million.yaml", million_elements_yaml())
    assert f"more than {MAX_NODES} values in one file" in err
    assert Handbook.objects.count() == before


@pytest.mark.django_db
def test_a_file_with_a_million_problems_prints_a_hundred_short_lines_and_a_count(tmp_path, books):
    _error, err = _load(tmp_path, "problems.yaml", many_problems_yaml(2_000))
    lines = err.splitlines()
    assert len(lines) <= 103
    assert "more problem(s) not shown" in lines[-1] or "more problem(s) not shown" in err
    assert len(err) < 60_000


@pytest.mark.django_db
def test_a_recursive_alias_is_refused(tmp_path, books):
    _error, err = _load(tmp_path, "loop.yaml", "kind: handbook\nloop: &a [*a]\n")
    assert "an alias refers to a value that contains it" in err


@pytest.mark.django_db
def test_the_bundled_files_with_their_few_aliases_still_load(db):
    call_command("load_handbooks", verbosity=0)
    assert Handbook.objects.filter(code="sample-afrika-korps").exists()
