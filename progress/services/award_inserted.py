"""XP paid for the rows another app inserts, in the statement that inserts them (PostgreSQL).

Another app's insert that earns XP (an achievement's unlock earns its bonus) would otherwise
cost two statements: its INSERT, then award_xp_once. Here the caller's `INSERT ... RETURNING
user_id, source_id, amount` becomes the first CTE of award_once's statement: what it inserted
is paid through the ledger (its constraint keeps "once per source") with the learner's stats
row and day written as award_xp_once writes them, all in one statement. The caller owns its
SQL and its tables; progress only reads the three columns it returns. SQLite has no
data-modifying CTEs: there the insert runs alone and its rows are paid through `_LearnerWriter`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import connection, transaction
from django.utils import timezone

from progress.services.award_once import (
    StandingAfterAward,
    _after_the_statement,
    _award_ctes,
    _award_through_writers,
    _standing,
)
from progress.services.ledger import _Award


@dataclass(frozen=True)
class InsertedAndPaid:
    """What award_xp_once_for_inserted did for one learner."""

    # The source ids (in order) of the caller's rows inserted now, paid or not (an amount of 0 pays
    # nothing, but the caller still needs to know its row went in).
    inserted: tuple[int, ...]
    # Those of them whose award went into the ledger now.
    paid: tuple[int, ...]
    # The learner's standing after all of `paid`; None when nothing was paid.
    standing: StandingAfterAward | None


# `inserted` is the caller's statement; `input` what of it pays (a positive amount). The
# result has one row per inserted row, with its amount paid (NULL: nothing) and its
# learner's standing when they were paid.
_INSERTED_SQL = """
SELECT inserted.user_id, inserted.source_id, award.amount, stats.xp_total,
    stats.streak_current, stats.exercises_passed, stats.last_active_day, new_day.day, today.day
FROM inserted
    LEFT JOIN award ON award.user_id = inserted.user_id AND award.source_id = inserted.source_id
    LEFT JOIN stats ON stats.user_id = inserted.user_id
    LEFT JOIN today ON today.user_id = inserted.user_id
    LEFT JOIN new_day ON new_day.user_id = inserted.user_id
"""


def award_xp_once_for_inserted(
    *, source_type: str, inserted_sql: str, params: list | tuple
) -> dict[int, InsertedAndPaid]:
    """Run the caller's `inserted_sql`, an `INSERT ... RETURNING user_id, source_id, amount`
    (with `params`), and pay each row it returns `amount` XP of `source_type` once, as
    award_xp_once does, in the same statement on PostgreSQL. Returns, for each learner with a
    row inserted, the sources inserted, those paid and their standing after.

    The statement takes the caller's rows' keys before the paid learners' stats row locks:
    callers should hold those locks already (a pass's evaluation does: the pass was just paid)
    to keep the order every progress write follows, lock first. The caller's transaction then
    holds them until it ends. Counts "exercise" sources in `exercises_passed`, like
    award_xp_once.
    """
    now = timezone.now()
    _Award(source_type, 0, 0, now)  # validates the source type
    with transaction.atomic(savepoint=False):
        if connection.vendor != "postgresql":
            return _through_writers(source_type, inserted_sql, params, now)
        # Joined, not formatted: the caller's SQL may hold braces.
        sql = (
            "WITH inserted (user_id, source_id, amount) AS (\n"  # noqa: S608 - the caller's SQL
            + inserted_sql
            + "\n), input (user_id, source_type, source_id, amount) AS (\n"
            "    SELECT user_id::bigint, %s::varchar, source_id::bigint, amount::integer\n"
            "    FROM inserted WHERE amount > 0\n)," + _award_ctes() + _INSERTED_SQL
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [*params, source_type, now, now, now, now])
            rows = cursor.fetchall()
        _after_the_statement([(row[0], row[2]) for row in rows if row[2] is not None], now)
        # Inside the transaction: a streak may be recounted (a write) under the row lock.
        return _results(rows)


def _results(rows: list[tuple]) -> dict[int, InsertedAndPaid]:
    inserted: dict[int, list[int]] = {}
    paid: dict[int, list[int]] = {}
    standings: dict[int, StandingAfterAward] = {}
    recounted: dict[int, int] = {}
    for user_id, source_id, amount_paid, *stats in rows:
        inserted.setdefault(user_id, []).append(int(source_id))
        if amount_paid is not None:
            paid.setdefault(user_id, []).append(int(source_id))
            if user_id not in standings:
                standings[user_id] = _standing(user_id, stats, recounted)
    return {
        user_id: InsertedAndPaid(
            inserted=tuple(sorted(sources)),
            paid=tuple(sorted(paid.get(user_id, ()))),
            standing=standings.get(user_id),
        )
        for user_id, sources in inserted.items()
    }


def _through_writers(
    source_type: str, inserted_sql: str, params: list | tuple, now: datetime
) -> dict[int, InsertedAndPaid]:
    """SQLite: the caller's insert alone, then its rows paid through `_LearnerWriter`."""
    with connection.cursor() as cursor:
        cursor.execute(inserted_sql, params)
        rows = cursor.fetchall()
    awards = [(int(u), source_type, int(s), int(a)) for u, s, a in rows if a and a > 0]
    paid = _award_through_writers(awards, now) if awards else {}
    results: dict[int, InsertedAndPaid] = {}
    for user_id, source_id, _amount in rows:
        before = results.get(user_id, InsertedAndPaid(inserted=(), paid=(), standing=None))
        standing = paid.get((user_id, source_type, int(source_id)))
        results[user_id] = InsertedAndPaid(
            inserted=(*before.inserted, int(source_id)),
            paid=(*before.paid, int(source_id)) if standing else before.paid,
            standing=standing or before.standing,
        )
    return {
        user_id: InsertedAndPaid(
            inserted=tuple(sorted(r.inserted)), paid=tuple(sorted(r.paid)), standing=r.standing
        )
        for user_id, r in results.items()
    }
