"""The XP-per-learner-and-day rollup (LearnerDayXP), kept by a trigger on the XP ledger.

A trigger, not application code, so every insert into the ledger (services, a bulk load, a
hand-written INSERT) updates the rollup in the same statement, and no code path adds a query
for it. PostgreSQL runs one statement-level trigger per INSERT (its transition table holds
only the rows actually inserted, not those ON CONFLICT skipped); SQLite one per row. Days are
UTC days, as the leaderboards count them.
"""

from __future__ import annotations

from typing import Any

LEDGER = "progress_xpaward"
ROLLUP = "progress_learnerdayxp"

_POSTGRES_INSTALL = [
    """
    CREATE OR REPLACE FUNCTION progress_xpaward_rollup() RETURNS trigger AS $$
    BEGIN
        INSERT INTO progress_learnerdayxp (user_id, day, xp)
        SELECT user_id, (awarded_at AT TIME ZONE 'UTC')::date, SUM(amount)
        FROM new_awards GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (user_id, day) DO UPDATE SET xp = progress_learnerdayxp.xp + EXCLUDED.xp;
        RETURN NULL;
    END
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER progress_xpaward_rollup AFTER INSERT ON progress_xpaward
    REFERENCING NEW TABLE AS new_awards
    FOR EACH STATEMENT EXECUTE FUNCTION progress_xpaward_rollup()
    """,
]
_POSTGRES_DROP = [
    "DROP TRIGGER IF EXISTS progress_xpaward_rollup ON progress_xpaward",
    "DROP FUNCTION IF EXISTS progress_xpaward_rollup()",
]
_SQLITE_INSTALL = [
    """
    CREATE TRIGGER progress_xpaward_rollup AFTER INSERT ON progress_xpaward BEGIN
        INSERT INTO progress_learnerdayxp (user_id, day, xp)
        VALUES (NEW.user_id, date(NEW.awarded_at), NEW.amount)
        ON CONFLICT (user_id, day) DO UPDATE SET xp = xp + excluded.xp;
    END
    """
]
_SQLITE_DROP = ["DROP TRIGGER IF EXISTS progress_xpaward_rollup"]

_UTC_DAY = {"postgresql": "(awarded_at AT TIME ZONE 'UTC')::date", "sqlite": "date(awarded_at)"}


def _run(connection: Any, statements: list[str]) -> None:
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def install_trigger(connection: Any) -> None:
    _run(connection, _POSTGRES_INSTALL if connection.vendor == "postgresql" else _SQLITE_INSTALL)


def drop_trigger(connection: Any) -> None:
    _run(connection, _POSTGRES_DROP if connection.vendor == "postgresql" else _SQLITE_DROP)


def refill_from_ledger(connection: Any) -> int:
    """Recompute the whole rollup from the ledger; returns the number of rows.

    On PostgreSQL the ledger is locked against inserts meanwhile (SHARE mode: reads go on), so
    no award lands between the delete and the refill; call it inside a transaction.
    """
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"LOCK TABLE {LEDGER} IN SHARE MODE")
        cursor.execute(f"DELETE FROM {ROLLUP}")  # noqa: S608 - constant table names
        cursor.execute(
            f"INSERT INTO {ROLLUP} (user_id, day, xp) "  # noqa: S608 - constant table names
            f"SELECT user_id, {_UTC_DAY[connection.vendor]}, SUM(amount) FROM {LEDGER} "
            "GROUP BY 1, 2"
        )
        return cursor.rowcount
