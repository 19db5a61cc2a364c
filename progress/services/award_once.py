"""One XP award and the learner's stats row written together, in one statement where the
database can (PostgreSQL): the hot path of a learner's first pass of an exercise, and of the
achievement bonus it may unlock.

The statement is a data-modifying CTE: the award goes into the ledger with ON CONFLICT DO
NOTHING (the ledger's constraint keeps "once per source"), and only when it went in are the
learner's activity day inserted and their stats row upserted from it (INSERT ... ON CONFLICT
DO UPDATE, which takes the row's lock, the per-learner lock every progress write takes first),
returning the new totals. The ledger's trigger keeps the per-day rollup in the same statement.
SQLite has no data-modifying CTEs: there the same goes through `_LearnerWriter`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import cache, partial

from django.db import connection, transaction
from django.utils import timezone

from progress import boards, summary_cache
from progress.models import ActivityDay, LearnerStats, XPAward
from progress.services.ledger import _Award, _LearnerWriter, streak_runs


@dataclass(frozen=True)
class StandingAfterAward:
    """The learner's totals right after an award, read under their row lock."""

    xp_total: int
    streak_current: int
    exercises_passed: int


def award_xp_once(
    *, user_id: int, source_type: str, source_id: int, amount: int
) -> StandingAfterAward | None:
    """award_xp earned now, returning the learner's new standing; None when this source had
    paid already (nothing changed).

    On PostgreSQL one statement (see the module); the caller's transaction then holds the
    learner's row lock until it ends. Counts "exercise" sources in `exercises_passed`. The
    learner's day is today in their time zone: a new day extends or restarts the streak; a day
    before their last active one (their time zone moved west) has all their days counted again.
    """
    paid = award_xp_once_to_many(awards=[(user_id, source_type, source_id, amount)])
    return paid.get((user_id, source_type, source_id))


def award_xp_once_to_many(
    *, awards: list[tuple[int, str, int, int]]
) -> dict[tuple[int, str, int], StandingAfterAward]:
    """award_xp_once of several (user_id, source_type, source_id, amount), earned now, in one
    statement on PostgreSQL however many learners: each learner's stats row is written once,
    with all of their awards. Returns, for each award paid now, its learner's standing after
    all of theirs; those that had paid already are left out."""
    if not awards:
        return {}
    now = timezone.now()
    for _user_id, source_type, source_id, amount in awards:
        _Award(source_type, source_id, amount, now)  # validates
    with transaction.atomic(savepoint=False):
        if connection.vendor != "postgresql":
            return _award_through_writers(awards, now)
        paid = _award_in_one_statement(awards, now)
        amounts = {(u, t, i): amount for u, t, i, amount in awards}
        _after_the_statement([(key[0], amounts[key]) for key in paid], now)
    return paid


def _after_the_statement(paid: list[tuple[int, int]], now: datetime) -> None:
    """What `_LearnerWriter` does after its writes, for the (user_id, amount) paid by one
    statement: the learners' headers and the boards follow."""
    if not paid:
        return
    xp_by_learner: dict[int, dict[date, int]] = {}
    day = now.astimezone(UTC).date()
    for user_id, amount in paid:
        xp_by_learner.setdefault(user_id, {day: 0})[day] += amount
    summary_cache.note_learners_changed(sorted(xp_by_learner))
    if boards.enabled():
        transaction.on_commit(
            partial(boards.record_awards_of_learners, xp_by_learner=xp_by_learner)
        )


# Streak of a stats row `s` after activity on EXCLUDED.last_active_day, the learner's today:
# the run goes on after yesterday, starts again after a gap, stays on the same day. (A day
# before the last active one is recounted from all days afterwards: `_recount_streak`.)
_NEW_STREAK = """CASE
    WHEN s.last_active_day IS NULL OR s.last_active_day < EXCLUDED.last_active_day - 1 THEN 1
    WHEN s.last_active_day = EXCLUDED.last_active_day - 1 THEN s.streak_current + 1
    ELSE s.streak_current END"""

# The award's CTEs after `input (user_id, source_type, source_id, amount)`, the awards asked
# for; their parameters: now, four times.
_AWARD_CTES = """
today AS (
    SELECT u.id AS user_id, (%s::timestamptz AT TIME ZONE u.time_zone)::date AS day
    FROM {user} AS u WHERE u.id IN (SELECT user_id FROM input)
), award AS (
    INSERT INTO {ledger} (user_id, source_type, source_id, amount, awarded_at, created_at)
    SELECT user_id, source_type, source_id, amount, %s, %s FROM input
    ORDER BY user_id, source_type, source_id
    ON CONFLICT (user_id, source_type, source_id) DO NOTHING
    RETURNING user_id, source_type, source_id, amount
), paid AS (
    SELECT user_id, SUM(amount) AS amount,
        COUNT(*) FILTER (WHERE source_type = 'exercise') AS exercises
    FROM award GROUP BY user_id
), new_day AS (
    INSERT INTO {days} (user_id, day)
    SELECT paid.user_id, today.day FROM paid JOIN today USING (user_id)
    ON CONFLICT (user_id, day) DO NOTHING
    RETURNING user_id, day
), stats AS (
    INSERT INTO {stats} AS s (
        user_id, xp_total, exercises_passed, streak_current, streak_best, last_active_day,
        sync_seq, updated_at
    )
    SELECT paid.user_id, paid.amount, paid.exercises, 1, 1, today.day, 0, %s
    FROM paid JOIN today USING (user_id)
    ORDER BY paid.user_id
    ON CONFLICT (user_id) DO UPDATE SET
        xp_total = s.xp_total + EXCLUDED.xp_total,
        exercises_passed = s.exercises_passed + EXCLUDED.exercises_passed,
        streak_current = {new_streak},
        streak_best = GREATEST(s.streak_best, {new_streak}),
        last_active_day = GREATEST(s.last_active_day, EXCLUDED.last_active_day),
        updated_at = EXCLUDED.updated_at
    RETURNING user_id, xp_total, streak_current, exercises_passed, last_active_day
)
"""


@cache
def _award_ctes() -> str:
    """_AWARD_CTES with its tables' names, formatted once per process (PostgreSQL's quoting;
    it runs on every award)."""
    quote = connection.ops.quote_name
    return _AWARD_CTES.format(
        user=quote(LearnerStats._meta.get_field("user").related_model._meta.db_table),
        ledger=quote(XPAward._meta.db_table),
        days=quote(ActivityDay._meta.db_table),
        stats=quote(LearnerStats._meta.db_table),
        new_streak=_NEW_STREAK,
    )


_AWARD_INPUT = (
    "WITH input (user_id, source_type, source_id, amount) AS ("
    "SELECT * FROM unnest(%s::bigint[], %s::varchar[], %s::bigint[], %s::integer[])),"
)
_AWARD_RESULT = """
SELECT award.user_id, award.source_type, award.source_id, stats.xp_total,
    stats.streak_current, stats.exercises_passed, stats.last_active_day, new_day.day, today.day
FROM award JOIN stats USING (user_id) JOIN today USING (user_id)
    LEFT JOIN new_day USING (user_id)
"""


def _award_in_one_statement(
    awards: list[tuple[int, str, int, int]], now: datetime
) -> dict[tuple[int, str, int], StandingAfterAward]:
    sql = _AWARD_INPUT + _award_ctes() + _AWARD_RESULT
    # One array per column: the statement's text is the same however many awards it pays.
    params = [list(column) for column in zip(*awards, strict=True)] + [now, now, now, now]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    paid: dict[tuple[int, str, int], StandingAfterAward] = {}
    recounted: dict[int, int] = {}
    for user_id, source_type, source_id, *stats in rows:
        paid[(user_id, source_type, int(source_id))] = _standing(user_id, stats, recounted)
    return paid


def _standing(user_id: int, stats: list, recounted: dict[int, int]) -> StandingAfterAward:
    """The standing from the statement's stats columns (xp_total, streak_current,
    exercises_passed, last_active_day, the new day or None, today), the streak recounted
    (once per learner, kept in `recounted`) when today was before the last active day."""
    xp, streak, exercises, last_day, new_day, today = stats
    if new_day is not None and today < last_day:
        if user_id not in recounted:
            recounted[user_id] = _recount_streak(user_id)
        streak = recounted[user_id]
    return StandingAfterAward(xp_total=xp, streak_current=streak, exercises_passed=exercises)


def _recount_streak(user_id: int) -> int:
    """Count the learner's runs again from all their days (a day before the last active one
    was added: it can join or bridge runs). Returns the current run."""
    days: list[date] = list(
        ActivityDay.objects.filter(user_id=user_id).order_by("day").values_list("day", flat=True)
    )
    current, best = streak_runs(days)
    LearnerStats.objects.filter(pk=user_id).update(
        streak_current=current, streak_best=best, last_active_day=days[-1]
    )
    return current


def _award_through_writers(
    awards: list[tuple[int, str, int, int]], now: datetime
) -> dict[tuple[int, str, int], StandingAfterAward]:
    """The same, one learner at a time (in id order), through `_LearnerWriter`."""
    by_learner: dict[int, list[_Award]] = {}
    for user_id, source_type, source_id, amount in awards:
        by_learner.setdefault(user_id, []).append(_Award(source_type, source_id, amount, now))
    paid: dict[tuple[int, str, int], StandingAfterAward] = {}
    for user_id in sorted(by_learner):
        writer = _LearnerWriter(user_id=user_id)
        inserted = writer.award(by_learner[user_id])
        writer.flush()
        stats = writer.stats
        for award in inserted:
            paid[(user_id, award.source_type, award.source_id)] = StandingAfterAward(
                xp_total=stats.xp_total,
                streak_current=stats.streak_current,
                exercises_passed=stats.exercises_passed,
            )
    return paid
