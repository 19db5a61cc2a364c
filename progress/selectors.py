"""Reads of the progress app. Each selector states how many queries it runs."""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection
from django.db.models import Count, Exists, F, OuterRef, Sum
from django.utils import timezone

from lessons.models import Lesson, Quest
from progress import boards
from progress.models import LearnerDayXP, LearnerStats, LessonCompletion, Level

LEADERBOARD_SIZE = 50
LEADERBOARD_MARGIN = 10
# Runs of whole UTC days ending today, not calendar weeks or months: a fresh week never starts
# empty. Whole days, so the Redis boards can be unions of per-day buckets.
LEADERBOARD_PERIODS: dict[str, timedelta | None] = {
    "week": timedelta(days=7),
    "month": timedelta(days=30),
    "all": None,
}


class QuestNotFound(Exception):
    """No quest has this slug."""


@dataclass(frozen=True)
class LevelStep:
    number: int
    name: str
    xp_required: int


def level_curve() -> list[LevelStep]:
    """The level curve, lowest first (1 query). Read each time: editing it re-levels everyone."""
    return [
        LevelStep(number, name, xp_required)
        for number, name, xp_required in Level.objects.order_by("xp_required").values_list(
            "number", "name", "xp_required"
        )
    ]


def level_progress(*, xp: int, curve: list[LevelStep]) -> dict[str, Any]:
    """Where `xp` stands on the curve (no query): level, XP into it, XP to the next one."""
    current = LevelStep(0, "", 0)
    following: LevelStep | None = None
    for step in curve:
        if step.xp_required <= xp:
            current = step
        else:
            following = step
            break
    return {
        "level": {"number": current.number, "name": current.name},
        "xp_into_level": xp - current.xp_required,
        "xp_for_level": following.xp_required - current.xp_required if following else 0,
        "xp_to_go": following.xp_required - xp if following else 0,
        "next_level": (
            {
                "number": following.number,
                "name": following.name,
                "xp_required": following.xp_required,
            }
            if following
            else None
        ),
    }


def xp_total(*, user_id: int) -> int:
    """The learner's XP total, consistent with the ledger (1 query)."""
    total = LearnerStats.objects.filter(pk=user_id).values_list("xp_total", flat=True).first()
    return total or 0


def level_for_user(*, user_id: int) -> dict[str, Any]:
    """{"number", "name", "xp"} of the learner's level on the current curve (2 queries)."""
    xp = xp_total(user_id=user_id)
    level = level_progress(xp=xp, curve=level_curve())["level"]
    return {**level, "xp": xp}


def completed_lesson_ids(
    *, user_id: int, quest_id: int | None = None, quest_slug: str | None = None
) -> set[int]:
    """Ids of every lesson the learner completed, drafts included, optionally of one quest
    (by id or slug; 1 query)."""
    completions = LessonCompletion.objects.filter(user_id=user_id)
    if quest_id is not None:
        completions = completions.filter(lesson__quest_id=quest_id)
    if quest_slug is not None:
        completions = completions.filter(lesson__quest__slug=quest_slug)
    return set(completions.values_list("lesson_id", flat=True))


def count_completed_lessons(*, user_id: int, quest_id: int | None = None) -> int:
    """How many published lessons the learner completed, optionally of one quest (1 query)."""
    completions = LessonCompletion.objects.filter(user_id=user_id, lesson__published=True)
    if quest_id is not None:
        completions = completions.filter(lesson__quest_id=quest_id)
    return completions.count()


def percent_complete(*, done: int, total: int) -> int:
    """0-100, rounded down: 100 only when every lesson is done (no query)."""
    return 100 * done // total if total else 0


def quest_percent(*, user_id: int, quest_id: int) -> int:
    """Percent (0-100, rounded down) of the quest's published lessons completed (1 query)."""
    counts = (
        Lesson.objects.published()
        .filter(quest_id=quest_id)
        .aggregate(
            total=Count("id"),
            done=Count("id", filter=Exists(_completion_of(user_id=user_id))),
        )
    )
    return percent_complete(done=counts["done"], total=counts["total"])


def _completion_of(*, user_id: int):
    return LessonCompletion.objects.filter(user_id=user_id, lesson_id=OuterRef("pk"))


def _streak(
    *, current: int, best: int, last_active_day: date | None, today: date
) -> dict[str, int]:
    # A run is still alive on the day after its last active day (today may yet count).
    alive = last_active_day is not None and last_active_day >= today - timedelta(days=1)
    return {"current": current if alive else 0, "best": best}


def standing_for_user(*, user_id: int) -> dict[str, Any]:
    """{"xp_total", "streak": {"current", "best"}} in one query: what rules measure most."""
    row = (
        LearnerStats.objects.filter(pk=user_id)
        .values("xp_total", "streak_current", "streak_best", "last_active_day", "user__time_zone")
        .first()
    )
    if row is None:
        return {"xp_total": 0, "streak": {"current": 0, "best": 0}}
    streak = _streak(
        current=row["streak_current"],
        best=row["streak_best"],
        last_active_day=row["last_active_day"],
        today=today_in(row["user__time_zone"]),
    )
    return {"xp_total": row["xp_total"], "streak": streak}


def standings_for_users(*, user_ids: list[int]) -> dict[int, dict[str, Any]]:
    """standing_for_user for many learners in one query; learners without stats stand at 0."""
    rows = LearnerStats.objects.filter(user_id__in=user_ids).values(
        "user_id", "xp_total", "streak_current", "streak_best", "last_active_day", "user__time_zone"
    )
    zero = {"xp_total": 0, "streak": {"current": 0, "best": 0}}
    standings = dict.fromkeys(user_ids, zero)
    for row in rows:
        standings[row["user_id"]] = {
            "xp_total": row["xp_total"],
            "streak": _streak(
                current=row["streak_current"],
                best=row["streak_best"],
                last_active_day=row["last_active_day"],
                today=today_in(row["user__time_zone"]),
            ),
        }
    return standings


def count_completed_lessons_by_user(
    *, user_ids: list[int], quest_id: int | None = None
) -> dict[int, int]:
    """count_completed_lessons for many learners in one query (absent: none)."""
    completions = LessonCompletion.objects.filter(user_id__in=user_ids, lesson__published=True)
    if quest_id is not None:
        completions = completions.filter(lesson__quest_id=quest_id)
    return dict(
        completions.values("user_id").annotate(done=Count("id")).values_list("user_id", "done")
    )


def quest_percents_by_user(*, user_ids: list[int], quest_id: int) -> dict[int, int]:
    """quest_percent for many learners (2 queries)."""
    total = Lesson.objects.published().filter(quest_id=quest_id).count()
    done = count_completed_lessons_by_user(user_ids=user_ids, quest_id=quest_id)
    return {
        user_id: percent_complete(done=done.get(user_id, 0), total=total) for user_id in user_ids
    }


def completed_lesson_ids_by_user(
    *, user_ids: list[int], lesson_ids: set[int]
) -> dict[int, set[int]]:
    """Which of `lesson_ids` each learner completed, for many learners in one query."""
    completed: dict[int, set[int]] = {user_id: set() for user_id in user_ids}
    rows = LessonCompletion.objects.filter(user_id__in=user_ids, lesson_id__in=lesson_ids)
    for user_id, lesson_id in rows.values_list("user_id", "lesson_id"):
        completed[user_id].add(lesson_id)
    return completed


def streak_for_user(*, user_id: int) -> dict[str, int]:
    """{"current", "best"}: runs of consecutive active days in the learner's time zone
    (1 query)."""
    return standing_for_user(user_id=user_id)["streak"]


def today_in(time_zone: str | tzinfo) -> date:
    """Today's date where the learner is: streaks and cached headers turn over at their
    midnight."""
    zone = zoneinfo.ZoneInfo(time_zone) if isinstance(time_zone, str) else time_zone
    return timezone.localtime(timezone.now(), zone).date()


@dataclass(frozen=True)
class ProgressSummary:
    body: dict[str, Any]
    sync_seq: int


def quest_exists(*, slug: str) -> bool:
    """(1 query)"""
    return Quest.objects.filter(slug=slug).exists()


def progress_summary(*, user: Any, quest_slug: str | None = None) -> ProgressSummary:
    """The progress page header for one quest (default: the demo quest): level, XP, lessons,
    achievements, streak (4 queries: stats, curve, the quest's lessons with the learner's
    completions, achievements; 5 for a quest without published lessons).

    `sync_seq` is read before the completions, so a cursor made from it never runs ahead of
    the state it comes with. Raises QuestNotFound for a named quest that does not exist; a
    missing demo quest (no curriculum loaded yet) reads as a quest with no lessons.
    """
    from achievements import selectors as achievements_selectors

    slug = quest_slug or settings.DEMO_QUEST_SLUG
    stats, curve, rows = _summary_rows(user_id=user.pk, quest_slug=slug)
    # No lesson: a quest with none published (5th query), or none at all.
    if not rows and quest_slug is not None and not quest_exists(slug=quest_slug):
        raise QuestNotFound(quest_slug)
    slugs = [slug for slug, _ in rows]
    completed = [slug for slug, done in rows if done]
    xp = stats["xp_total"]
    achievements_unlocked, achievements_total = achievements_selectors.unlocked_and_total(
        user_id=user.pk
    )
    body = {
        "quest": slug,
        **level_progress(xp=xp, curve=curve),
        "xp": xp,
        "lessons_completed": len(completed),
        "lessons_total": len(slugs),
        "percent_complete": percent_complete(done=len(completed), total=len(slugs)),
        "achievements_unlocked": achievements_unlocked,
        "achievements_total": achievements_total,
        "streak": _streak(
            current=stats["streak_current"],
            best=stats["streak_best"],
            last_active_day=stats["last_active_day"],
            today=today_in(user.tzinfo),
        ),
        "completed_lessons": completed,
    }
    return ProgressSummary(body=body, sync_seq=stats["sync_seq"])


_NO_STATS = {
    "xp_total": 0,
    "streak_current": 0,
    "streak_best": 0,
    "last_active_day": None,
    "sync_seq": 0,
}


# Placeholders are table names from the models' _meta; values always go as parameters.
_STATS_SQL = (
    "SELECT xp_total, streak_current, streak_best, last_active_day, sync_seq "
    "FROM {stats} WHERE user_id = %s"
)
_CURVE_SQL = "SELECT number, name, xp_required FROM {level} ORDER BY xp_required"
_LESSONS_SQL = (
    "SELECT l.slug, EXISTS (SELECT 1 FROM {completion} c "
    "WHERE c.lesson_id = l.id AND c.user_id = %s) "
    "FROM {lesson} l JOIN {quest} q ON q.id = l.quest_id "
    "WHERE q.slug = %s AND l.published "
    "ORDER BY l.position, l.id"
)


def _summary_rows(
    *, user_id: int, quest_slug: str
) -> tuple[dict[str, Any], list[LevelStep], list[tuple[str, bool]]]:
    """The learner's stats, the curve, and the quest's published lessons each with whether the
    learner completed it (3 queries), in plain SQL.

    This is the hottest read of the app, and here the ORM's query building costs ten times the
    database's work (measured: 1.6 ms of CPU against 0.15 ms per request).
    """
    tables = {
        "stats": LearnerStats._meta.db_table,
        "level": Level._meta.db_table,
        "lesson": Lesson._meta.db_table,
        "quest": Quest._meta.db_table,
        "completion": LessonCompletion._meta.db_table,
    }
    with connection.cursor() as cursor:
        cursor.execute(_STATS_SQL.format(**tables), [user_id])
        row = cursor.fetchone()
        stats = dict(zip(_NO_STATS, row, strict=True)) if row else dict(_NO_STATS)
        if isinstance(stats["last_active_day"], str):  # SQLite answers dates as text
            stats["last_active_day"] = date.fromisoformat(stats["last_active_day"])
        cursor.execute(_CURVE_SQL.format(**tables))
        curve = [LevelStep(*step) for step in cursor.fetchall()]
        cursor.execute(_LESSONS_SQL.format(**tables), [user_id, quest_slug])
        rows = [(lesson_slug, bool(done)) for lesson_slug, done in cursor.fetchall()]
    return stats, curve, rows


def completions_changed_by_other_devices(
    *, user_id: int, device_id: str, after_seq: int, up_to_seq: int
) -> list[dict[str, Any]]:
    """Completions another device (or the web) added or moved earlier between two sync
    positions (1 query)."""
    return list(
        LessonCompletion.objects.filter(user_id=user_id, seq__gt=after_seq, seq__lte=up_to_seq)
        .exclude(device_id=device_id)
        .order_by("seq", "id")
        .values("completed_at", "device_id", lesson_slug=F("lesson__slug"))
    )


def state_after_sync(
    *, user: Any, device_id: str, quest_slug: str | None, after_seq: int | None
) -> dict[str, Any]:
    """What a device gets back from a sync: the progress header, a new `cursor`, and given the
    device's previous cursor position, the `changes` other devices made since (5-6 queries).
    Raises QuestNotFound for a named quest that does not exist."""
    from progress.cursors import encode_cursor

    summary = progress_summary(user=user, quest_slug=quest_slug)
    changes = (
        completions_changed_by_other_devices(
            user_id=user.pk, device_id=device_id, after_seq=after_seq, up_to_seq=summary.sync_seq
        )
        if after_seq is not None
        else []
    )
    return {**summary.body, "cursor": encode_cursor(summary.sync_seq), "changes": changes}


def leaderboard_first_day(*, period: str, today: date) -> date | None:
    """The first UTC day a period counts (None: all time). Raises KeyError for an unknown
    period."""
    window = LEADERBOARD_PERIODS[period]
    return today - window + timedelta(days=1) if window is not None else None


def leaderboard(*, period: str, viewer: Any | None) -> dict[str, Any]:
    """Top learners by XP earned in the period, plus the viewer's own rank.

    Periods are whole UTC days: the week is today and the 6 days before it, the month today and
    the 29 before. Learners who opted out (`show_on_leaderboard=False`) and inactive accounts
    never appear; a viewer who opted out still learns where they would stand. Ranks are
    competition ranks (equal XP, equal rank; equal XP listed by ascending id). Raises KeyError
    for an unknown period.

    From the Redis boards when they are on (1 query: the names of the top; 2 for a viewer who
    opted out), else, or when Redis cannot answer, from SQL over the XP-per-day rollup
    (at most 3 queries).
    """
    first_day = leaderboard_first_day(period=period, today=boards.utc_today())
    since = datetime.combine(first_day, time(), UTC) if first_day is not None else None
    if boards.enabled():
        try:
            rows, me = _leaderboard_from_redis(period=period, viewer=viewer, first_day=first_day)
        except boards.BoardUnavailable:
            pass
        else:
            return {"period": period, "since": since, "entries": rows, "me": me}
    rows, me = _leaderboard_from_sql(viewer=viewer, first_day=first_day)
    return {"period": period, "since": since, "entries": rows, "me": me}


def _on_leaderboard(viewer: Any) -> bool:
    return bool(viewer.show_on_leaderboard and viewer.is_active)


def _ranked(rows: list[dict[str, Any]], *, viewer: Any | None) -> list[dict[str, Any]]:
    """Entries with competition ranks, from rows sorted by XP (best first)."""
    entries = []
    rank = 0
    for position, row in enumerate(rows, start=1):
        if position == 1 or row["xp"] != rows[position - 2]["xp"]:
            rank = position
        entries.append(
            {
                "rank": rank,
                "user_id": row["user_id"],
                "display_name": _public_name(row["display_name"], row["handle"]),
                "xp": row["xp"],
                "is_me": viewer is not None and row["user_id"] == viewer.pk,
            }
        )
    return entries


def _me_in(entries: list[dict[str, Any]]) -> dict[str, Any] | None:
    mine = next((e for e in entries if e["is_me"]), None)
    return {"rank": mine["rank"], "xp": mine["xp"], "on_leaderboard": True} if mine else None


def _xp_since(*, user_id: int, first_day: date | None) -> int:
    """The learner's XP from `first_day` on (all time: None), from the rollup (1 query)."""
    if first_day is None:
        return xp_total(user_id=user_id)
    total = LearnerDayXP.objects.filter(user_id=user_id, day__gte=first_day).aggregate(
        xp=Sum("xp")
    )["xp"]
    return total or 0


def _visible_names(*, user_ids: list[int]) -> dict[int, tuple[str, str]]:
    """(display name, public handle) of those of the learners who may appear on a board (1 query,
    by primary key). Plain SQL: on the board's hot path the ORM's compiling cost more than the
    query."""
    from django.contrib.auth import get_user_model

    if not user_ids:
        return {}
    table = connection.ops.quote_name(get_user_model()._meta.db_table)
    placeholders = ", ".join(["%s"] * len(user_ids))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, display_name, public_handle FROM {table} "  # noqa: S608 - name from _meta
            f"WHERE id IN ({placeholders}) AND is_active AND show_on_leaderboard",
            user_ids,
        )
        return {pk: (display_name, handle) for pk, display_name, handle in cursor.fetchall()}


def _leaderboard_from_redis(
    *, period: str, viewer: Any | None, first_day: date | None
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    viewer_xp = None
    if viewer is not None and not _on_leaderboard(viewer):
        viewer_xp = _xp_since(user_id=viewer.pk, first_day=first_day)
    board = boards.read(
        period=period,
        # A few more than shown: a learner hidden since the last rebuild by a bulk update
        # (no signal) is dropped here rather than shown.
        count=LEADERBOARD_SIZE + LEADERBOARD_MARGIN,
        viewer_id=viewer.pk if viewer is not None else None,
        viewer_xp=viewer_xp,
    )
    names = _visible_names(user_ids=[user_id for user_id, _ in board.top])
    rows = [
        {
            "user_id": user_id,
            "xp": xp,
            "display_name": names[user_id][0],
            "handle": names[user_id][1],
        }
        for user_id, xp in board.top
        if user_id in names
    ][:LEADERBOARD_SIZE]
    entries = _ranked(rows, viewer=viewer)
    if viewer is None:
        return entries, None
    me = _me_in(entries) or {
        "rank": board.ahead_of_viewer + 1,
        "xp": board.viewer_xp,
        "on_leaderboard": _on_leaderboard(viewer),
    }
    return entries, me


def _leaderboard_from_sql(
    *, viewer: Any | None, first_day: date | None
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    visible_users = {"user__show_on_leaderboard": True, "user__is_active": True}
    names = {"display_name": F("user__display_name"), "handle": F("user__public_handle")}
    if first_day is None:
        visible = (
            LearnerStats.objects.filter(xp_total__gt=0, **visible_users)
            .annotate(xp=F("xp_total"))
            .values("user_id", "xp")
        )
        top = visible.values("user_id", "xp", **names)
    else:
        days = LearnerDayXP.objects.filter(day__gte=first_day, **visible_users)
        visible = days.values("user_id").annotate(xp=Sum("xp"))
        top = days.values("user_id", **names).annotate(xp=Sum("xp"))
    rows = list(top.order_by("-xp", "user_id")[:LEADERBOARD_SIZE])
    entries = _ranked(rows, viewer=viewer)
    if viewer is None:
        return entries, None
    me = _me_in(entries)
    if me is None:
        my_xp = _xp_since(user_id=viewer.pk, first_day=first_day)
        ahead = visible.filter(xp__gt=my_xp).exclude(user_id=viewer.pk).count()
        me = {"rank": ahead + 1, "xp": my_xp, "on_leaderboard": _on_leaderboard(viewer)}
    return entries, me


class _Named(NamedTuple):
    display_name: str
    public_handle: str


def _public_name(display_name: str, handle: str) -> str:
    from django.contrib.auth import get_user_model

    # The accounts app decides what a learner's public name is; its rule is applied to the two
    # fields it reads, without building a model instance per entry (a third of the board's
    # CPU).
    return get_user_model().public_name.fget(_Named(display_name, handle))


# --- Analytics (the admin's "how each lesson is doing") -------------------------------------


def completions_by_week(*, lesson_ids: list[int], since: datetime) -> dict[date, int]:
    """Completions of these lessons in each week from `since` (a Monday 00:00 UTC) to now,
    keyed by the week's Monday (one query).

    One counted range per week rather than a GROUP BY of a truncated date: each count is a
    range of the (lesson, completed_at) index, with no per-row date arithmetic or sort.
    """
    now = timezone.now()
    weeks: list[datetime] = []
    start = since
    while start <= now:
        weeks.append(start)
        start += timedelta(weeks=1)
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
    # (position, id) is the quest's order; folded into one number so MAX finds the furthest.
    scale = 10**12
    completions = LessonCompletion._meta.db_table
    lessons = Lesson._meta.db_table
    sql = f"""
        SELECT furthest, COUNT(*) FROM (
            SELECT MAX(lesson.position * {scale} + lesson.id) AS furthest
            FROM {completions} AS completion
            JOIN {lessons} AS lesson ON lesson.id = completion.lesson_id
            WHERE lesson.quest_id = %s
            GROUP BY completion.user_id
        ) AS per_learner
        GROUP BY furthest
    """  # noqa: S608 - table names from _meta
    with connection.cursor() as cursor:
        cursor.execute(sql, [quest_id])
        return {int(key) % scale: count for key, count in cursor.fetchall()}
