"""The admin's "how each lesson is doing": completions by week, per lesson, where learners
stopped."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from django.db import connection
from django.db.models import Count

from learning_platform import clock
from lessons import selectors as lessons
from progress.models import LessonCompletion


def completions_by_week(*, lesson_ids: list[int], since: datetime) -> dict[date, int]:
    """Completions of these lessons in each week from `since` (a Monday 00:00 UTC) to now,
    keyed by the week's Monday (one query).

    One counted range per week rather than a GROUP BY of a truncated date: each count is a
    range of the (lesson, completed_at) index, with no per-row date arithmetic or sort.
    """
    # SQL text: the ORM counts weeks only as filtered aggregates over one scan.
    # bench/bench_analytics.py (20,000 learners): 33.4 ms with this SQL, 92.7 ms with the ORM's.
    weeks = weeks_from(since)
    if not lesson_ids or not weeks:
        return {}
    table = LessonCompletion._meta.db_table
    ids = ", ".join(["%s"] * len(lesson_ids))
    count = (
        f"(SELECT COUNT(*) FROM {table} WHERE lesson_id IN ({ids})"  # noqa: S608 - table from _meta
        " AND completed_at >= %s AND completed_at < %s)"
    )
    params: list[Any] = []
    for week in weeks:
        params += [*lesson_ids, week, week + timedelta(weeks=1)]
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join([count] * len(weeks)), params)
        counts = cursor.fetchone()
    return {week.date(): n for week, n in zip(weeks, counts, strict=True) if n}


def weeks_from(since: datetime) -> list[datetime]:
    """The start of each week from `since` to now (no query)."""
    now = clock.now()
    weeks: list[datetime] = []
    start = since
    while start <= now:
        weeks.append(start)
        start += timedelta(weeks=1)
    return weeks


def completion_counts(*, lesson_ids: list[int]) -> dict[int, int]:
    """How many learners completed each of these lessons (one query)."""
    rows = (
        LessonCompletion.objects.filter(lesson_id__in=lesson_ids)
        .values("lesson_id")
        .annotate(count=Count("*"))
        .order_by()
    )
    return {row["lesson_id"]: row["count"] for row in rows}


def furthest_lesson_counts(*, quest_id: int) -> dict[int, int]:
    """For each lesson of the quest, how many learners have it as the furthest lesson (in
    quest order) they completed: where they stopped, so far (one query)."""
    # SQL text: the ORM cannot group by an aggregate, so its version counts in Python.
    # bench/bench_analytics.py (20,000 learners): 47.9 ms with this SQL, 62.7 ms with the ORM's.
    # (position, id) is the quest's order; folded into one number so MAX finds the furthest.
    scale = 10**12
    completions = LessonCompletion._meta.db_table
    names = lessons.sql_names()
    sql = f"""
        SELECT furthest, COUNT(*) FROM (
            SELECT MAX(lesson.{names["lesson_position"]} * {scale} + lesson.{names["lesson_id"]})
                AS furthest
            FROM {completions} AS completion
            JOIN {names["lesson"]} AS lesson ON lesson.{names["lesson_id"]} = completion.lesson_id
            WHERE lesson.{names["lesson_quest"]} = %s
            GROUP BY completion.user_id
        ) AS per_learner
        GROUP BY furthest
    """  # noqa: S608 - names from _meta (lessons' from its selectors)
    with connection.cursor() as cursor:
        cursor.execute(sql, [quest_id])
        return {int(key) % scale: count for key, count in cursor.fetchall()}
