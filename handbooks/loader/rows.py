"""Insert many rows of one model with one statement, their keys reserved up front.

A BattleScribe library is ~50,000 handbook rows. ``bulk_create`` spends most of an import building a model
instance per row and compiling every value of it; here a row is a plain tuple in the table's column order,
each column converted the way its field would convert it (``int`` for integers, ``str`` for text, the
field's own JSON adaptation), and the whole table goes to the database as one statement (``executemany``
of an INSERT; ``COPY`` on PostgreSQL). Keys are
reserved before the insert (one query), so children can point at their parents without reading anything
back. The number of queries per table is fixed whatever the number of rows.

Callers must be inside a transaction: on SQLite the reservation reads the highest key under the write lock
the transaction holds (``transaction_mode`` IMMEDIATE, and the handbook row is written first); on
PostgreSQL the keys come from the table's own sequence, which is safe with concurrent writers.
"""
from __future__ import annotations

import functools
import json
import operator

import orjson
from django.db import connection, models


def _text(value):
    return value if value is None or value.__class__ is str else str(value)


def _integer(value):
    return value if value is None or value.__class__ is int else int(value)


def _json_text(value) -> str:
    """``json.dumps(value)`` as equal JSON, encoded by orjson (several times faster on a catalogue document of
    megabytes): compact, and non-ASCII text as UTF-8 rather than ``\\u`` escapes, which every JSON reader (and
    SQLite's and PostgreSQL's JSON functions) reads back the same. What orjson will not encode as
    ``json.dumps`` would (a key that is not text, an integer beyond 64 bits, a lone surrogate, a value that
    is no JSON at all) goes to ``json.dumps``, which converts it or refuses it as it did before."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(value)


def _json(value):
    """A JSONField's parameter without a field encoder (None is SQL NULL)."""
    return None if value is None else _json_text(value)


def _json_column(values) -> list:
    """:func:`_json` of every value, with orjson called inline: a column of thousands of ``extra`` dicts
    spends as much in two Python calls per value as in orjson. The same text as ``_json`` for each."""
    dumps = orjson.dumps
    try:
        return [None if v is None else dumps(v).decode() for v in values]
    except TypeError:  # a value orjson will not encode: each as _json_text takes it
        return [_json(v) for v in values]


_AS_INT = {False: 0, True: 1, None: None}.get  # a bool (or None) as the integer SQLite stores it


class _Boolean:
    """A boolean column's converter: a bool (or None) as it is, anything else as the field's own
    ``get_prep_value`` makes it ("true", 0, ... as the model would accept them). On SQLite a bool is sent as
    the integer SQLite stores it as: the driver binds an int straight away, but looks for an adapter for a
    bool first (about 3,000 instructions each)."""

    __slots__ = ("prep", "exact", "as_int")

    def __init__(self, prep, *, as_int: bool = False):
        self.prep, self.as_int = prep, as_int
        self.exact = None if as_int else bool  # the class a value needs no converting from (see _exact)

    def __call__(self, value):
        if value is None:
            return None
        value = value if value.__class__ is bool else self.prep(value)
        return int(value) if self.as_int and value is not None else value

    def column(self, values) -> list:
        """Every value as ``self`` makes it; a column of bools (and None) as SQLite's integers at once."""
        if self.as_int and set(map(type, values)) <= _BOOLS:
            return list(map(_AS_INT, values))
        return [self(v) for v in values]


_MISSING = object()
_NONE = type(None)
_BOOLS = {bool, _NONE}
_EXACT = {_text: str, _integer: int}  # converters that hand a value of this very class back unchanged


def _exact(convert) -> type | None:
    """The class whose values ``convert`` hands back unchanged (None: it may change any value)."""
    return _EXACT.get(convert) or getattr(convert, "exact", None)

_INTEGERS = {"IntegerField", "BigIntegerField", "SmallIntegerField", "PositiveIntegerField",
             "PositiveBigIntegerField", "PositiveSmallIntegerField", "AutoField", "BigAutoField", "SmallAutoField"}
_TEXTS = {"CharField", "TextField", "SlugField"}


def _converter(field: models.Field):
    """How a value of ``field`` becomes a database parameter, as ``get_db_prep_save`` would make it."""
    if field.is_relation:
        return _integer if field.target_field.get_internal_type() in _INTEGERS else None
    kind = field.get_internal_type()
    if kind in _INTEGERS:
        return _integer
    if kind in _TEXTS:
        return _text
    if kind == "BooleanField":
        return _Boolean(field.get_prep_value, as_int=connection.vendor == "sqlite")
    if kind == "JSONField":
        # What JSONField.get_db_prep_save does with a plain value (None is SQL NULL), without its checks
        # for expressions. PostgreSQL gets the JSON text psycopg's Jsonb would send, for COPY (insert_sql).
        # Without a field encoder the text is orjson's (_json_text), equal JSON.
        if field.encoder is None:
            return _json
        if connection.vendor == "postgresql":
            dumps = functools.partial(json.dumps, cls=field.encoder)
            return lambda value: None if value is None else dumps(value)
        adapt, encoder = connection.ops.adapt_json_value, field.encoder
        return lambda value: None if value is None else adapt(value, encoder)
    return lambda value: field.get_db_prep_save(value, connection)


def _column_converter(convert, exact):
    """How a whole column of values becomes parameters, each as ``convert`` makes it."""
    if convert is _json:
        return _json_column
    if isinstance(convert, _Boolean):
        return convert.column
    return lambda values: [v if v.__class__ is exact else convert(v) for v in values]


class Table:
    """The insertable columns of a model (or a many-to-many through model), in a fixed order."""

    def __init__(self, model: type[models.Model], columns: list[str] | None = None, *, with_key: bool = True):
        meta = model._meta
        fields = [f for f in meta.concrete_fields if not f.primary_key]
        if columns is not None:
            by_name = {f.attname: f for f in fields}
            fields = [by_name[c] for c in columns]
        self.model, self.with_key = model, with_key
        self.names = [f.attname for f in fields]
        self.db_columns = ([meta.pk.column] if with_key else []) + [f.column for f in fields]
        self.sql = insert_sql(meta.db_table, self.db_columns)
        self._sql_without: dict[tuple[int, ...], str] = {}  # kept columns -> the statement writing only them
        # Columns that are NULL when left out of an INSERT (no default in the database), by position.
        self._nullable = frozenset(i + with_key for i, f in enumerate(fields)
                                   if f.null and f.db_default is models.NOT_PROVIDED)
        self.fields = fields
        self.converters = [_converter(f) for f in fields]
        # A column the row does not give takes the field's default (as a model instance would), converted once.
        self.defaults = {}
        for f, convert in zip(fields, self.converters, strict=False):
            default = f.get_default()
            self.defaults[f.attname] = convert(default) if convert is not None else default
        # (name, converter, the class a value needs no converting from, default) per column, for row().
        self.columns = [(name, convert, _exact(convert), self.defaults[name])
                        for name, convert in zip(self.names, self.converters, strict=False)]
        # For a row that gives every column (the writer's usually do): all its values read at once, then only the
        # columns with a converter looked at, in place. The same parameters as _row gives.
        self._every = operator.itemgetter(*self.names) if len(self.names) > 1 else None
        self._convert = [(i, convert, _exact(convert)) for i, convert in enumerate(self.converters)
                         if convert is not None]
        # Per converted column: the classes whose values (with None, which every converter here keeps as
        # it is) it leaves unchanged, and how the whole column is converted otherwise.
        self._convert_columns = [(i, {exact, _NONE} if exact is not None else None, _column_converter(convert, exact))
                                 for i, convert, exact in self._convert]

    def row(self, values: dict) -> tuple:
        """One row as a tuple of database parameters from ``values`` (attribute name -> value)."""
        every = self._every
        if every is None:
            return self._row(values)
        try:
            out = list(every(values))
        except KeyError:  # a column it does not give takes the field's default
            return self._row(values)
        for i, convert, exact in self._convert:
            value = out[i]
            if value.__class__ is not exact:
                out[i] = convert(value)
        return tuple(out)

    def rows(self, values: list[dict] | list[tuple], keys: list[int] | None = None) -> list[tuple]:
        """Many rows as :meth:`row` makes each (rows given as tuples in column order as their dicts would
        be), with its key first when ``keys`` are given; converted column by column, and a column whose
        values are all of the class it takes is not looked at value by value."""
        columns = self._columns(values, keys)
        return list(zip(*columns, strict=True)) if columns else []

    def statement(self, values: list[dict] | list[tuple], keys: list[int] | None = None) -> tuple[str, list[tuple]]:
        """The statement that inserts these rows and its parameters. On SQLite a column that is NULL in every
        row is left out of it (it is NULL by default): the driver binds None only after looking for an
        adapter for it, which costs more than the rest of the value's way into the table."""
        columns = self._columns(values, keys)
        if not columns:
            return self.sql, []
        if connection.vendor != "sqlite":
            return self.sql, list(zip(*columns, strict=True))
        nullable = self._nullable
        kept = tuple(i for i, column in enumerate(columns)
                     if not (column[0] is None and i in nullable and set(map(type, column)) == {_NONE}))
        if not kept or len(kept) == len(columns):
            return self.sql, list(zip(*columns, strict=True))
        sql = self._sql_without.get(kept)
        if sql is None:
            sql = self._sql_without[kept] = insert_sql(self.model._meta.db_table, [self.db_columns[i] for i in kept])
        return sql, list(zip(*(columns[i] for i in kept), strict=True))

    def _columns(self, values: list[dict] | list[tuple], keys: list[int] | None) -> list:
        """The rows' parameters as columns (the key column first when ``keys`` are given)."""
        if keys is not None and len(keys) != len(values):
            raise ValueError(f"{len(values)} rows but {len(keys)} keys")
        if not values:
            return []
        every = self._every
        try:
            if values[0].__class__ is tuple:
                made = self._in_order(values)
            elif every is None:
                raise KeyError
            else:
                made = list(map(every, values))
        except KeyError:  # a row that leaves columns out (or a table of one column): row by row
            made = [self.row(v) for v in values]
            columns: list = list(zip(*made, strict=True))
        else:
            columns = list(zip(*made, strict=True))
            for i, unchanged, convert_column in self._convert_columns:
                column = columns[i]
                if unchanged is not None and set(map(type, column)) <= unchanged:
                    continue
                columns[i] = convert_column(column)
        if keys is not None:
            columns.insert(0, keys)
        return columns

    def _in_order(self, values: list[tuple]) -> list[tuple]:
        """Rows given as tuples, each a value for every column in the order of :attr:`names` (a writer's
        large tables: building a dict per row and reading it back costs as much as the rest of the way to
        the statement). They are converted as the same rows given as dicts would be."""
        if set(map(type, values)) != {tuple} or set(map(len, values)) != {len(self.names)}:
            raise ValueError(f"rows of {self.model.__name__} must all be tuples of its {len(self.names)} columns")
        return values

    def _row(self, values: dict) -> tuple:
        out = []
        append = out.append
        missing = _MISSING
        for name, convert, exact, default in self.columns:
            value = values.get(name, missing)
            if value is missing:
                append(default)
            elif value.__class__ is exact or convert is None:
                append(value)  # already what the column takes (an int for an integer, a str for text)
            else:
                append(convert(value))
        return tuple(out)


def reserve_keys(model: type[models.Model], count: int) -> list[int]:
    """``count`` new primary keys for ``model``'s table, in increasing order (one query; none for 0)."""
    if count <= 0:
        return []
    if not connection.in_atomic_block:
        raise RuntimeError("keys can only be reserved inside a transaction")
    meta = model._meta
    table, pk = meta.db_table, meta.pk.column
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                           [quote(table), pk, count])
            return sorted(r[0] for r in cursor.fetchall())
        if connection.vendor == "sqlite":
            # AUTOINCREMENT never reuses a key, not even a deleted row's: start above the table's sequence.
            cursor.execute(f"SELECT MAX(x) FROM (SELECT MAX({quote(pk)}) AS x FROM {quote(table)} "
                           "UNION ALL SELECT seq FROM sqlite_sequence WHERE name = %s)", [table])
        else:
            cursor.execute(f"SELECT MAX({quote(pk)}) FROM {quote(table)}")
        start = (cursor.fetchone()[0] or 0) + 1
    return list(range(start, start + count))


class KeyReserver:
    """Reserves keys for the inserts of one transaction, many books' worth, with one query per table.

    On SQLite the transaction holds the database's write lock from its start (``transaction_mode`` IMMEDIATE),
    so no other connection can add rows until it ends: once a table's first keys are reserved, the next ones
    follow on from them without asking again. On PostgreSQL every reservation takes its keys from the
    table's sequence (one query each), which stays right whatever else writes. Use one reserver inside one
    transaction only, for tables that nothing else in it writes rows to."""

    def __init__(self):
        self._next: dict[type[models.Model], int] = {}

    def reserve(self, model: type[models.Model], count: int) -> list[int]:
        if count <= 0:
            return []
        start = self._next.get(model)
        if start is None or connection.vendor != "sqlite":
            keys = reserve_keys(model, count)
            self._next[model] = keys[-1] + 1
            return keys
        if not connection.in_atomic_block:
            raise RuntimeError("keys can only be reserved inside a transaction")
        self._next[model] = start + count
        return list(range(start, start + count))


def insert_rows(table: Table, rows: list[dict] | list[tuple], keys: list[int] | None = None,
                reserver: KeyReserver | None = None) -> list[int]:
    """Insert ``rows`` (attribute name -> value each, or tuples in the table's column order) into ``table``;
    returns their new keys, in order. ``keys``: keys already reserved for them (when rows must refer to each
    other); otherwise ``reserver`` reserves them (default: one query)."""
    if not rows:
        return []
    if table.with_key and keys is None:
        keys = (reserver.reserve if reserver is not None else reserve_keys)(table.model, len(rows))
    elif table.with_key and len(keys) != len(rows):
        raise ValueError(f"{len(rows)} rows but {len(keys)} keys")
    _execute(*table.statement(rows, keys if table.with_key else None))
    return keys


def insert_sql(db_table: str, columns: list[str]) -> str:
    """The statement that writes rows of ``columns`` into ``db_table``.

    PostgreSQL: ``COPY … FROM STDIN``, the whole table in one statement (``executemany`` there sends one
    INSERT per row); the server converts and checks every value as an INSERT would (an over-long text is
    refused, JSON text becomes jsonb). Elsewhere: an INSERT of one row, run by ``executemany`` over all."""
    quote = connection.ops.quote_name
    names = ", ".join(quote(name) for name in columns)
    if connection.vendor == "postgresql":
        return f"COPY {quote(db_table)} ({names}) FROM STDIN"
    return f"INSERT INTO {quote(db_table)} ({names}) VALUES ({', '.join(['%s'] * len(columns))})"


def _execute(sql: str, rows: list[tuple]) -> None:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Django's debug cursor records it as one query; its errors become Django's, as an insert's do.
            with connection.wrap_database_errors, cursor.copy(sql) as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            cursor.executemany(sql, rows)


def insert_pairs(through: type[models.Model], owner_column: str, target_column: str, pairs: list[tuple]) -> None:
    """Insert many-to-many links (owner key, target key) into a through table, in one statement."""
    if not pairs:
        return
    _execute(insert_sql(through._meta.db_table, [owner_column, target_column]), pairs)
