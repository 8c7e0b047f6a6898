"""The bulk row writer's conversions (handbooks/loader/rows.py): the fast paths give what the plain ones give."""
import json

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from handbooks import models as m
from handbooks.loader.rows import Table, _json_column, _json_text
from handbooks.loader.write import _ordered

pytestmark = pytest.mark.django_db


def _params(table: Table, values: dict) -> dict:
    return dict(zip(table.names, table.row(values), strict=True))


def test_a_row_giving_every_column_is_converted_as_column_by_column():
    table = Table(m.UnitEntry)
    values = {name: table.defaults[name] for name in table.names}
    values.update({"handbook_id": 7, "code": 12, "name": "Tiger", "order": "3", "independent": 1,
                   "keywords": ["Tank", "Überschwer"], "extra": {"ids": ["é"], "n": 1.5}})
    row = table.row(values)
    assert row == table._row(values)
    params = dict(zip(table.names, row, strict=True))
    assert params["code"] == "12" and params["order"] == 3
    assert params["independent"] == 1 and params["independent"].__class__ in (bool, int)  # see the test below
    assert json.loads(params["keywords"]) == ["Tank", "Überschwer"]
    assert json.loads(params["extra"]) == {"ids": ["é"], "n": 1.5}


def test_a_row_leaving_columns_out_takes_their_defaults():
    table = Table(m.UnitEntry)
    params = _params(table, {"handbook_id": 7, "code": "tiger", "name": "Tiger"})
    assert params["code"] == "tiger" and params["description"] == "" and params["order"] == 0
    assert json.loads(params["keywords"]) == [] and json.loads(params["extra"]) == {}
    assert params["available_from"] is None


@pytest.mark.parametrize("value", [
    {"name": "Panzerkampfwagen VI “Tiger”", "list": [1, 2.5, -3, None, True, False], "nested": {"a": {"b": []}}},
    ["ü", "\u2014", "😀", "plain"],
    {"z": 1, "a": 2, "m": 3},  # key order is kept
    1e-7,
    "",
])
def test_json_text_is_the_json_json_dumps_writes(value):
    text = _json_text(value)
    assert json.loads(text) == json.loads(json.dumps(value))
    if isinstance(value, dict):
        assert list(json.loads(text)) == list(value)


@pytest.mark.parametrize("value", [{1: "a", 2: "b"}, {"big": 2 ** 70}, {"s": "\ud800"}])
def test_what_orjson_refuses_is_written_by_json_dumps(value):
    assert _json_text(value) == json.dumps(value)


def test_what_is_no_json_is_refused_as_before():
    with pytest.raises(TypeError):
        _json_text({"s": {1, 2}})


@pytest.mark.parametrize("value", [True, False, 1, 0, "True", "f", "1", "0"])
def test_a_boolean_column_takes_a_bool_as_it_is_and_converts_the_rest_as_the_field_does(value):
    table = Table(m.UnitEntry)
    field = m.UnitEntry._meta.get_field("independent")
    values = {name: table.defaults[name] for name in table.names}
    values.update({"handbook_id": 7, "code": "tiger", "name": "Tiger", "independent": value})
    fast, slow = _params(table, values), dict(zip(table.names, table._row(values), strict=True))
    assert fast == slow
    expected = value in (True, 1, "True", "1")
    assert field.get_prep_value(value) is expected
    # SQLite is sent the integer it stores (see the test below), other databases the bool.
    assert fast["independent"] is (int(expected) if connection.vendor == "sqlite" else expected)


def test_a_boolean_column_refuses_what_the_field_refuses_on_both_paths():
    table = Table(m.UnitEntry)
    values = {name: table.defaults[name] for name in table.names}
    values.update({"handbook_id": 7, "code": "tiger", "name": "Tiger", "independent": "yes"})
    with pytest.raises(ValidationError):
        table.row(values)
    with pytest.raises(ValidationError):
        table._row(values)


def test_many_rows_are_converted_as_each_row_alone():
    table = Table(m.UnitEntry)
    full = {name: table.defaults[name] for name in table.names}
    rows = [
        {**full, "handbook_id": 1, "code": "a", "name": "Tiger", "independent": True, "extra": {"n": 1}},
        {**full, "handbook_id": "2", "code": 3, "name": "Panther", "order": "4", "independent": 0},
        {**full, "handbook_id": 3, "code": "c", "name": "Puma", "observer_source_id": None, "keywords": ["Ü"]},
    ]
    assert table.rows(rows) == [table.row(r) for r in rows]
    assert table.rows(rows, [7, 8, 9]) == [(k, *table.row(r)) for k, r in zip([7, 8, 9], rows, strict=True)]
    # A row that leaves a column out takes its default, whichever way the rows are made.
    partial = [*rows, {"handbook_id": 4, "code": "d", "name": "Lynx"}]
    assert table.rows(partial) == [table._row(r) for r in partial]
    assert table.rows([]) == []
    with pytest.raises(ValueError):
        table.rows(rows, [1, 2])


def test_booleans_are_sent_as_the_database_stores_them():
    table = Table(m.UnitEntry)
    params = _params(table, {"handbook_id": 7, "code": "t", "name": "T", "independent": True,
                             "is_observer": "f"})
    if connection.vendor == "sqlite":  # SQLite stores 1 and 0; the driver binds an int without looking further
        assert (params["independent"], params["is_observer"]) == (1, 0)
        assert params["independent"].__class__ is int
    else:
        assert (params["independent"], params["is_observer"]) == (True, False)


def test_a_column_null_in_every_row_is_left_to_the_database_on_sqlite():
    table = Table(m.UnitEntry)
    values = [{"handbook_id": 1, "code": "a", "name": "A", "transport_capacity": None},
              {"handbook_id": 1, "code": "b", "name": "B", "transport_capacity": None, "available_from": 1943}]
    sql, params = table.statement(values, [5, 6])
    columns = [c.strip('"`') for c in sql.split("(", 1)[1].split(")", 1)[0].split(", ")]
    assert len(columns) == len(params[0])
    written = [dict(zip(columns, row, strict=True)) for row in params]
    full = [dict(zip(["id", *table.names], row, strict=True)) for row in table.rows(values, [5, 6])]
    # Every value written is the one the full row has, and what is left out is NULL in every row.
    assert all(w.items() <= f.items() for w, f in zip(written, full, strict=True))
    left_out = set(full[0]) - set(columns)
    assert all(f[c] is None for f in full for c in left_out)
    if connection.vendor == "sqlite":
        assert "transport_capacity" in left_out and "available_from" not in left_out
    else:
        assert not left_out


def test_rows_written_without_their_null_columns_read_back_as_null():
    from django.db import transaction

    from handbooks.loader.rows import insert_rows

    system = m.GameSystem.objects.create(code="sys", name="Sys")
    nation = m.Nation.objects.create(system=system, code="n", name="N")
    book = m.Handbook.objects.create(system=system, code="b", revision=1, name="B", nation=nation)
    with transaction.atomic():
        insert_rows(Table(m.UnitEntry), [{"handbook_id": book.pk, "code": "a", "name": "A",
                                           "transport_capacity": None, "available_from": None}])
    unit = m.UnitEntry.objects.get(code="a")
    assert (unit.transport_capacity, unit.available_from, unit.observer_source_id) == (None, None, None)


def test_rows_given_as_tuples_in_column_order_are_converted_as_their_dicts():
    table = Table(m.Upgrade)
    full = {name: table.defaults[name] for name in table.names}
    dicts = [
        {**full, "group_id": 1, "code": "a", "name": "Skirts", "points": 2, "extra": {"n": 1}},
        {**full, "group_id": "2", "code": 3, "name": "Ü", "available_from": "1943", "available_to": None},
        {**full, "group_id": 3, "code": "c", "name": "MG", "extra": None, "max_quantity": 4},
    ]
    tuples = [tuple(d[name] for name in table.names) for d in dicts]
    assert table.rows(tuples, [7, 8, 9]) == table.rows(dicts, [7, 8, 9])
    assert table.statement(tuples, [7, 8, 9]) == table.statement(dicts, [7, 8, 9])
    with pytest.raises(ValueError):
        table.rows([*tuples, tuples[0][:-1]])
    with pytest.raises(ValueError):
        table.rows([*tuples, dicts[0]])


def test_a_table_of_tuples_must_give_every_column():
    assert _ordered(m.BoxChoice, ("box_id", "unit_id", "formation_id", "option_cost", "max_count", "order"))
    with pytest.raises(ValueError):
        _ordered(m.BoxChoice, ("box_id", "unit_id", "formation_id", "option_cost", "max_count"))


def test_booleans_of_a_column_are_converted_as_each_alone():
    table = Table(m.UnitEntry)
    converter = table.converters[table.names.index("independent")]
    for column in ([True, False, None, True], [True, "f", None, 0]):
        assert converter.column(column) == [converter(v) for v in column]


@pytest.mark.parametrize("column", [[{"a": "Ü"}, None, [], {}], [{"a": 1}, {1: 2}, 2**70, None]])
def test_a_json_column_is_the_text_of_each_value_alone(column):
    assert _json_column(column) == [None if v is None else _json_text(v) for v in column]
