"""Database statements the ORM cannot express, shared by the apps; docs/architecture.md "Where
SQL text remains" lists each with the figure that keeps it."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

import orjson
from django.db import connection, connections, models
from psycopg.types.json import Jsonb

_T = TypeVar("_T")


def insert_ignoring_conflicts(
    model: type[models.Model],
    *,
    fields: Sequence[str],
    rows: Sequence[Sequence[Any]],
    conflict_fields: Sequence[str],
    returning: Sequence[str],
) -> list[tuple[Any, ...]]:
    """INSERT ... ON CONFLICT (conflict_fields) DO NOTHING RETURNING: the rows that went in.

    Django's bulk_create(ignore_conflicts=True) cannot say which rows were inserted, and a
    caller that pays or reports exactly once must know (the XP ledger, the activity days, the
    unlocks): telling them apart afterwards would cost a read per table and race its writers.
    PostgreSQL and SQLite (3.35+) both speak this statement. Values are given per model field
    name and adapted like the ORM would.
    """
    if not rows:
        return []
    ops = connection.ops
    meta = model._meta
    model_fields = [_field(model, name) for name in fields]

    def column(name: str) -> str:
        return ops.quote_name(str(_field(model, name).column))

    params: list[Any] = []
    for row in rows:
        params += [
            field.get_db_prep_save(value, connection)
            for field, value in zip(model_fields, row, strict=True)
        ]
    placeholders = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = (
        f"INSERT INTO {ops.quote_name(meta.db_table)} "  # noqa: S608 - identifiers from _meta
        f"({', '.join(column(name) for name in fields)}) "
        f"VALUES {', '.join([placeholders] * len(rows))} "
        f"ON CONFLICT ({', '.join(column(name) for name in conflict_fields)}) DO NOTHING "
        f"RETURNING {', '.join(column(name) for name in returning)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [tuple(row) for row in cursor.fetchall()]


# Tables whose size grows with the number of learners: no learner-facing read may scan them
# (checked by learning_platform/tests/test_query_plans.py and bench/scale). Filled by the apps
# that own them, from their AppConfig.ready() (`grows_with_learners`).
TABLES_THAT_GROW_WITH_LEARNERS: set[str] = set()


def grows_with_learners(*models: type[models.Model]) -> None:
    """Note that these models' tables grow with the number of learners."""
    TABLES_THAT_GROW_WITH_LEARNERS.update(model._meta.db_table for model in models)


def sequentially_scanned_tables(sql: str, *, using: str = "default") -> list[str]:
    """The tables PostgreSQL's plan for `sql` (a complete statement, parameters inlined) reads
    with a Seq Scan, sequential scans disabled: what remains then has no index to use.

    For tests and benchmarks checking that hot queries stay bounded as tables grow. SQL text:
    it explains statements captured as text, under a planner setting the ORM cannot set.
    """

    def scans(node: dict[str, Any]) -> list[str]:
        found = [node["Relation Name"]] if node.get("Node Type") == "Seq Scan" else []
        for child in node.get("Plans", []):
            found += scans(child)
        return found

    with connections[using].cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")
        try:
            cursor.execute("EXPLAIN (FORMAT JSON) " + sql.replace("%", "%%"), [])
            (plan,) = cursor.fetchone()
        finally:
            cursor.execute("RESET enable_seqscan")
    if isinstance(plan, str):
        plan = json.loads(plan)
    return scans(plan[0]["Plan"])


def update_rows(
    model: type[models.Model],
    *,
    keys: Sequence[str],
    fields: Sequence[str],
    rows: Sequence[Sequence[Any]],
    where: str = "",
    where_params: Sequence[Any] = (),
    returning: str = "",
) -> list[tuple[Any, ...]]:
    """UPDATE ... FROM (VALUES ...): set `fields` of many rows, each found by its `keys`, in one
    statement. `rows` are (*key values, *field values); `where` adds a condition (SQL, its
    values in `where_params`), `returning` a RETURNING list, whose rows are returned.

    Django's bulk_update builds a CASE per field with a branch per row, and an ORM update per
    row costs a round trip each. bench/bench_sql.py, the XP ledger's stats rows: 0.32 ms for 1
    learner and 14 ms for 500 with this statement, 1.6 ms and 348 ms with bulk_update. Values are adapted by
    their fields, as the ORM would. The rows' values are named column1, column2, ... On
    PostgreSQL they travel as one array per column (`unnest`): the statement's text is the same
    for any number of rows, so the driver converts it once and the server prepares it once,
    where a VALUES list of a placeholder per value was a new statement for every batch size.
    One row (a grade on its own), and SQLite, take a VALUES list: for one row it is the
    cheaper plan.
    """
    if not rows:
        return []
    ops = connection.ops
    meta = model._meta
    table = ops.quote_name(meta.db_table)
    key_fields = [_field(model, name) for name in keys]
    model_fields = [_field(model, name) for name in fields]
    every_field = key_fields + model_fields

    def assigned(fields: list[_Field], start: int, joiner: str, prefix: str = "") -> str:
        return joiner.join(
            f"{prefix}{ops.quote_name(str(field.column))} = v.column{position}"
            for position, field in enumerate(fields, start=start)
        )

    prepared = [
        [field.get_db_prep_save(v, connection) for field, v in zip(every_field, row, strict=True)]
        for row in rows
    ]
    params: list[Any] = []
    # PostgreSQL: many rows as arrays; one row, typed (a NULL alone in its column is text).
    as_arrays, typed_values = for_vendor(postgresql=(len(rows) > 1, True), sqlite=(False, False))
    if as_arrays:
        arrays = []
        for field, column in zip(every_field, zip(*prepared, strict=True), strict=True):
            array, param = _postgres_array(field, list(column))
            arrays.append(array)
            params.append(param)
        names = ", ".join(f"column{position}" for position in range(1, len(every_field) + 1))
        source = f"unnest({', '.join(arrays)}) AS v ({names})"
    else:
        prepared = [[_with_json_text(value) for value in row] for row in prepared]
        if typed_values:
            typed = [f"CAST(%s AS {field.db_type(connection)})" for field in every_field]
        else:
            typed = ["%s"] * len(every_field)
        placeholders = "(" + ", ".join(typed) + ")"
        source = f"(VALUES {', '.join([placeholders] * len(rows))}) AS v"
        params = [value for row in prepared for value in row]
    sql = (
        f"UPDATE {table} SET {assigned(model_fields, len(keys) + 1, ', ')} "  # noqa: S608
        f"FROM {source} "
        f"WHERE {assigned(key_fields, 1, ' AND ', prefix=f'{table}.')}"
        + (f" AND {where}" if where else "")
        + (f" RETURNING {returning}" if returning else "")
    )
    params += where_params
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [tuple(row) for row in cursor.fetchall()] if returning else []


def for_vendor(*, postgresql: _T, sqlite: _T, using: str = "default") -> _T:
    """The PostgreSQL or the SQLite variant of a statement, fragment or choice, for the
    database in use: apps and this module write both where the two differ, and only this
    function asks which one it is talking to (the one vendor branch of the project's code)."""
    return postgresql if connections[using].vendor == "postgresql" else sqlite


def aware_datetime(value: datetime | None) -> datetime | None:
    """A datetime read by a raw query (after the field's `to_python`): SQLite hands back a naive
    one, in UTC."""
    return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value


def estimated_row_count(model: type[models.Model], *, using: str = "default") -> int:
    """The planner's estimate of the table's rows (PostgreSQL's `pg_class.reltuples`, kept by
    ANALYZE and autovacuum): no scan, whatever the size. 0 where there is no estimate. SQL
    text: a catalog table, which no model maps."""
    connection = connections[using]
    if not for_vendor(postgresql=True, sqlite=False, using=using):
        return 0
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT reltuples::bigint FROM pg_class WHERE oid = %s::regclass",
            [connection.ops.quote_name(model._meta.db_table)],
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def lock_against_writes(model: type[models.Model]) -> None:
    """Until the transaction ends, others may read the model's table but not write it
    (PostgreSQL's SHARE lock; on SQLite the open write transaction holds the database). SQL
    text: the ORM locks rows (select_for_update), never a table."""
    table = connection.ops.quote_name(model._meta.db_table)
    statement = for_vendor(postgresql=f"LOCK TABLE {table} IN SHARE MODE", sqlite="")
    if statement:
        with connection.cursor() as cursor:
            cursor.execute(statement)


def asynchronous_commit_column() -> str:
    """A column to add to a statement's RETURNING list so that its transaction commits without
    waiting for its WAL to reach the disk (PostgreSQL; elsewhere nothing).

    For writes derived from data stored durably already (a grade, from its submission): a
    database crash could lose the last fraction of a second of them, and their work is done
    again (the sweep grades again, with the same result and no second award: the XP ledger
    pays once). Otherwise every grade would wait for a disk flush or two, which costs more
    than the grading itself. The setting rides in the statement (local to its transaction),
    so it costs no round trip and never outlives the transaction.
    """
    return for_vendor(postgresql=", set_config('synchronous_commit', 'off', true)", sqlite="")


if TYPE_CHECKING:
    _Field = models.Field[Any, Any]


def _field(model: type[models.Model], name: str) -> _Field:
    """The model's concrete field `name` (with a column)."""
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field) or not field.column:
        raise ValueError(f"{model.__name__}.{name} is not a field with a column.")
    return field


def _postgres_array(field: _Field, values: list[Any]) -> tuple[str, Any]:
    """The SQL of an array of `field`'s type holding `values` (adapted by the field), and its
    parameter. JSON documents go as one text, a line each, split and parsed by the server: as
    an array of jsonb the driver would escape every quote of every document in Python."""
    if values and all(isinstance(value, Jsonb) for value in values):
        lines = [json_text(value.obj, value.dumps) for value in values]
        # A document's JSON has no raw line break unless it is indented.
        if not any("\n" in line for line in lines):
            return "CAST(string_to_array(%s, E'\\n') AS jsonb[])", "\n".join(lines)
    return f"CAST(%s AS {field.db_type(connection)}[])", values


def _with_json_text(value: Any) -> Any:
    """A JSON parameter written by `json_text` (orjson where it writes the same)."""
    if isinstance(value, Jsonb):
        # psycopg types dumps as giving str or bytes; Django's JSON fields give json.dumps: str.
        return Jsonb(value.obj, dumps=partial(json_text, dumps=value.dumps))  # type: ignore[arg-type]
    return value


# What json.dumps refuses (datetimes, dataclasses, subclasses of str or int), orjson refuses
# too, so that a value fails, or passes through its field's encoder, exactly as it would
# through the ORM.
_ORJSON_LIKE_JSON_DUMPS = (
    orjson.OPT_NON_STR_KEYS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)


def json_text(value: Any, dumps: Callable[[Any], str] | None = None) -> str:
    """`value` as JSON text, as `dumps` (a JSON field's; json.dumps when None) writes it.

    For plain json.dumps, orjson writes the same document (without the optional spaces) in a
    sixth of the time: a grade's per-cell feedback is the largest value the grader writes."""
    if dumps is None or dumps is json.dumps:
        try:
            return orjson.dumps(value, option=_ORJSON_LIKE_JSON_DUMPS).decode()
        except TypeError:  # orjson.JSONEncodeError: json.dumps says why, or writes it
            pass
    return (dumps or json.dumps)(value)
