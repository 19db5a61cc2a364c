"""Database statements the ORM cannot express, shared by the apps."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection, models


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
    caller that pays or reports exactly once must know. PostgreSQL and SQLite (3.35+) both speak
    this statement. Values are given per model field name and adapted like the ORM would.
    """
    if not rows:
        return []
    ops = connection.ops
    meta = model._meta
    model_fields = [meta.get_field(name) for name in fields]

    def column(name: str) -> str:
        return ops.quote_name(meta.get_field(name).column)

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


# Tables whose size grows with the number of learners: no learner-facing read may scan them.
TABLES_THAT_GROW_WITH_LEARNERS = frozenset(
    {
        "accounts_user",
        "progress_xpaward",
        "progress_lessoncompletion",
        "progress_learnerstats",
        "progress_learnerdayxp",
        "progress_activityday",
        "achievements_achievementunlock",
        "community_comment",
        "exercises_submission",
    }
)


def sequentially_scanned_tables(sql: str, *, using: str = "default") -> list[str]:
    """The tables PostgreSQL's plan for `sql` (a complete statement, parameters inlined) reads
    with a Seq Scan, sequential scans disabled: what remains then has no index to use.

    For tests and benchmarks checking that hot queries stay bounded as tables grow.
    """
    from django.db import connections

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
        import json

        plan = json.loads(plan)
    return scans(plan[0]["Plan"])


def update_rows(
    model: type[models.Model],
    *,
    key: str,
    fields: Sequence[str],
    rows: Sequence[Sequence[Any]],
) -> int:
    """UPDATE ... FROM (VALUES ...): set `fields` of many rows, each found by its `key`, in one
    statement. `rows` are (key value, *field values). Returns the number of rows updated.

    Django's bulk_update builds a CASE per field with a branch per row: for 500 rows, compiling
    it cost seconds. Values are adapted by their fields, as the ORM would. VALUES names its
    columns column1, column2, ... on PostgreSQL and SQLite alike; PostgreSQL types each from
    its field's column type.
    """
    if not rows:
        return 0
    ops = connection.ops
    meta = model._meta
    table = ops.quote_name(meta.db_table)
    key_field = meta.get_field(key)
    model_fields = [meta.get_field(name) for name in fields]

    def value(position: int, field: models.Field) -> str:
        column = f"v.column{position}"
        if connection.vendor == "postgresql":
            return f"CAST({column} AS {field.db_type(connection)})"
        return column

    assignments = ", ".join(
        f"{ops.quote_name(field.column)} = {value(position, field)}"
        for position, field in enumerate(model_fields, start=2)
    )
    placeholders = "(" + ", ".join(["%s"] * (len(fields) + 1)) + ")"
    sql = (
        f"UPDATE {table} SET {assignments} "  # noqa: S608 - identifiers from _meta
        f"FROM (VALUES {', '.join([placeholders] * len(rows))}) AS v "
        f"WHERE {table}.{ops.quote_name(key_field.column)} = {value(1, key_field)}"
    )
    params: list[Any] = []
    for row in rows:
        params.append(key_field.get_db_prep_save(row[0], connection))
        params += [
            field.get_db_prep_save(v, connection)
            for field, v in zip(model_fields, row[1:], strict=True)
        ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount
