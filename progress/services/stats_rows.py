"""The learners' stats rows as the ledger's writer locks and reads them (`lock_stats`): one
statement creates the missing rows, takes every row's lock and reads them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db import connection

from learning_platform.db import aware_datetime
from progress.models import LearnerPeriodXP, LearnerStats


@dataclass
class LockedStats:
    """A learner's stats row as locked and read, changed in memory until `flush()`."""

    user_id: int
    xp_total: int
    exercises_passed: int
    streak_current: int
    streak_best: int
    last_active_day: date | None
    last_active_day_start: datetime | None
    sync_seq: int
    time_zone: str
    daily_goal: int | None
    day_xp: int
    freezes_held: int
    # The Monday of the latest week the learner earned XP in (None: never), as the ledger's
    # per-period rollup held it when locked; the writer moves it on as it pays.
    latest_week_with_xp: date | None


# The Monday of the learner's latest week with XP, from the ledger's per-period rollup: a
# subscriber to `xp_paid` (the leagues) knows a first XP of a week without a query of its own.
# The bench sets it to NULL to time an award without it (bench/scale_leagues.py).
LATEST_WEEK_WITH_XP = """(SELECT p.starts FROM {period_xp} AS p
     WHERE p.user_id = {stats}.user_id AND p.period = 'week' AND p.xp > 0
     ORDER BY p.starts DESC LIMIT 1)"""
# Creates the rows that are missing, takes every row's lock (ON CONFLICT DO UPDATE locks the row
# it meets, and rows are met in the order given) and reads them, in one statement.
# SQL text: bulk_create(update_conflicts=True) returns only the keys, so the rows and the time
# zone would cost a second statement: progress/tests/test_services.py holds award_xp to 3
# (lock, ledger, stats).
_LOCK_SQL = """INSERT INTO {stats} (user_id, xp_total, exercises_passed, streak_current,
    streak_best, sync_seq, updated_at)
VALUES {rows}
ON CONFLICT (user_id) DO UPDATE SET updated_at = {stats}.updated_at
RETURNING user_id, xp_total, exercises_passed, streak_current, streak_best, last_active_day,
    last_active_day_start, sync_seq, (SELECT u.time_zone FROM {user} AS u WHERE u.id = user_id),
    daily_goal, day_xp, freezes_held, {latest_week}"""


def lock_stats(*, user_ids: list[int], now: datetime) -> dict[int, LockedStats]:
    """The learners' stats rows (ids in order), created where missing, locked until the
    transaction ends."""
    quote = connection.ops.quote_name
    tables = {
        "stats": quote(LearnerStats._meta.db_table),
        "user": quote(LearnerStats._meta.get_field("user").related_model._meta.db_table),
        "period_xp": quote(LearnerPeriodXP._meta.db_table),
    }
    sql = _LOCK_SQL.format(
        **tables,
        latest_week=LATEST_WEEK_WITH_XP.format(**tables),
        rows=", ".join(["(%s, 0, 0, 0, 0, 0, %s)"] * len(user_ids)),
    )
    stamp = LearnerStats._meta.get_field("updated_at").get_db_prep_save(now, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, [value for u in user_ids for value in (u, stamp)])
        rows = cursor.fetchall()
    as_date = LearnerStats._meta.get_field("last_active_day").to_python
    as_datetime = LearnerStats._meta.get_field("last_active_day_start").to_python
    return {
        user_id: LockedStats(
            user_id=user_id,
            xp_total=xp_total,
            exercises_passed=exercises_passed,
            streak_current=streak_current,
            streak_best=streak_best,
            last_active_day=as_date(last_active_day),
            last_active_day_start=aware_datetime(as_datetime(last_active_day_start)),
            sync_seq=sync_seq,
            time_zone=time_zone,
            daily_goal=daily_goal,
            day_xp=day_xp,
            freezes_held=freezes_held,
            latest_week_with_xp=as_date(latest_week_with_xp),
        )
        for (
            user_id,
            xp_total,
            exercises_passed,
            streak_current,
            streak_best,
            last_active_day,
            last_active_day_start,
            sync_seq,
            time_zone,
            daily_goal,
            day_xp,
            freezes_held,
            latest_week_with_xp,
        ) in rows
    }
