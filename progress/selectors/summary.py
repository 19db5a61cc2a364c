"""The progress page header (`/me/progress`) and what a device gets back from a sync."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection

from learning_platform.db import aware_datetime
from learning_platform.errors import NotFound
from lessons import selectors as lessons
from progress import events
from progress.cursors import encode_cursor
from progress.models import LearnerStats, LessonCompletion
from progress.selectors.learners import (
    _streak,
    completions_changed_by_other_devices,
    daily_goal,
    percent_complete,
)
from progress.selectors.levels import LevelStep, level_curve, level_progress


class QuestNotFound(NotFound):
    """No quest has this slug."""

    default_detail = "No quest with this slug."


@dataclass(frozen=True)
class ProgressSummary:
    body: dict[str, Any]
    sync_seq: int


def quest_exists(*, slug: str) -> bool:
    """(1 query)"""
    return lessons.quest_exists(slug=slug)


def progress_summary(*, user: Any, quest_slug: str | None = None) -> ProgressSummary:
    """The progress page header for one quest (default: the demo quest): level, XP, lessons,
    achievements, streak (4 queries: stats, curve, the quest's lessons with the learner's
    completions, the achievements' counts (through events.header_counts); 5 for a quest without published lessons).

    `sync_seq` is read before the completions, so a cursor made from it never runs ahead of
    the state it comes with. Raises QuestNotFound for a named quest that does not exist; a
    missing demo quest (no curriculum loaded yet) reads as a quest with no lessons.
    """
    slug = quest_slug or settings.DEMO_QUEST_SLUG
    stats, curve, rows = _summary_rows(user_id=user.pk, quest_slug=slug)
    # No lesson: a quest with none published (5th query), or none at all.
    if not rows and quest_slug is not None and not quest_exists(slug=quest_slug):
        raise QuestNotFound()
    slugs = [slug for slug, _ in rows]
    completed = [slug for slug, done in rows if done]
    xp = stats["xp_total"]
    body = {
        "quest": slug,
        **level_progress(xp=xp, curve=curve),
        "xp": xp,
        "lessons_completed": len(completed),
        "lessons_total": len(slugs),
        "percent_complete": percent_complete(done=len(completed), total=len(slugs)),
        # What the apps above progress count for the header (events.header_counts); 0
        # until one answers.
        "achievements_unlocked": 0,
        "achievements_total": 0,
        "streak": _streak(
            current=stats["streak_current"],
            best=stats["streak_best"],
            last_active_day=stats["last_active_day"],
            last_active_day_start=stats["last_active_day_start"],
            time_zone=user.tzinfo,
            freezes=stats["freezes_held"],
        ),
        "daily_goal": daily_goal(
            goal=stats["daily_goal"],
            day_xp=stats["day_xp"],
            last_active_day=stats["last_active_day"],
            last_active_day_start=stats["last_active_day_start"],
            time_zone=user.tzinfo,
            chosen=stats["daily_goal_chosen"],
        ),
        "completed_lessons": completed,
    }
    for counts in events.header_counts.announce(events.HeaderAsked(user_id=user.pk)):
        body.update(counts)
    return ProgressSummary(body=body, sync_seq=stats["sync_seq"])


_NO_STATS: dict[str, Any] = {
    "xp_total": 0,
    "streak_current": 0,
    "streak_best": 0,
    "last_active_day": None,
    "last_active_day_start": None,
    "sync_seq": 0,
    "daily_goal": None,
    "day_xp": 0,
    "freezes_held": 0,
    "daily_goal_chosen": False,
}


# Placeholders are table and column names from the models' _meta (lessons' from its
# selectors); values always go as parameters.
_STATS_SQL = (
    "SELECT xp_total, streak_current, streak_best, last_active_day, last_active_day_start, "
    "sync_seq, daily_goal, day_xp, freezes_held, daily_goal_chosen "
    "FROM {stats} WHERE user_id = %s"
)
_LESSONS_SQL = (
    "SELECT l.{lesson_slug}, EXISTS (SELECT 1 FROM {completion} c "
    "WHERE c.lesson_id = l.{lesson_id} AND c.user_id = %s) "
    "FROM {lesson} l JOIN {quest} q ON q.{quest_id} = l.{lesson_quest} "
    "WHERE q.{quest_slug} = %s AND l.{lesson_published} "
    "ORDER BY l.{lesson_position}, l.{lesson_id}"
)


def _summary_rows(
    *, user_id: int, quest_slug: str
) -> tuple[dict[str, Any], list[LevelStep], list[tuple[str, bool]]]:
    """The learner's stats, the curve, and the quest's published lessons each with whether the
    learner completed it (3 queries)."""
    # SQL text: every progress write's next header and every sync's answer build it.
    # bench/bench_sql.py: /me/progress uncached 2.49 ms with this SQL, 4.12 ms with the ORM's
    # (0.09 and 0.05 of /healthz).
    tables = {
        **lessons.sql_names(),
        "stats": connection.ops.quote_name(LearnerStats._meta.db_table),
        "completion": connection.ops.quote_name(LessonCompletion._meta.db_table),
    }
    with connection.cursor() as cursor:
        cursor.execute(_STATS_SQL.format(**tables), [user_id])
        row = cursor.fetchone()
        stats = dict(zip(_NO_STATS, row, strict=True)) if row else dict(_NO_STATS)
        # SQLite answers dates and datetimes as text, datetimes naive (in UTC).
        stats["last_active_day"] = _field("last_active_day").to_python(stats["last_active_day"])
        stats["last_active_day_start"] = aware_datetime(
            _field("last_active_day_start").to_python(stats["last_active_day_start"])
        )
        curve = level_curve()
        cursor.execute(_LESSONS_SQL.format(**tables), [user_id, quest_slug])
        rows = [(lesson_slug, bool(done)) for lesson_slug, done in cursor.fetchall()]
    return stats, curve, rows


def _field(name: str) -> Any:
    return LearnerStats._meta.get_field(name)


def state_after_sync(
    *, user: Any, device_id: str, quest_slug: str | None, after_seq: int | None
) -> dict[str, Any]:
    """What a device gets back from a sync: the progress header, a new `cursor`, and given the
    device's previous cursor position, the `changes` other devices made since (5-6 queries).
    Raises QuestNotFound for a named quest that does not exist."""
    summary = progress_summary(user=user, quest_slug=quest_slug)
    changes = (
        completions_changed_by_other_devices(
            user_id=user.pk, device_id=device_id, after_seq=after_seq, up_to_seq=summary.sync_seq
        )
        if after_seq is not None
        else []
    )
    return {**summary.body, "cursor": encode_cursor(summary.sync_seq), "changes": changes}
