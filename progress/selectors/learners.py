"""What each learner has done: completions, percentages, XP standing and streaks, for one
learner or a batch."""

from __future__ import annotations

import functools
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, TypedDict

from django.db.models import Count, Exists, Max, OuterRef, QuerySet

from learning_platform import clock
from lessons import selectors as lessons
from progress.models import (
    LearnerPeriodXP,
    LearnerStats,
    LessonCompletion,
    PlatformOutage,
    XPAward,
)
from progress.periods import week_of
from progress.streaks import day_of_activity, day_start, streak_state


def completed_lesson_ids(
    *, user_id: int, quest_id: int | None = None, quest_slug: str | None = None
) -> set[int]:
    """Ids of every lesson the learner completed, drafts included, optionally of one quest
    (by id or slug; 1 query)."""
    completions = LessonCompletion.objects.filter(user_id=user_id)
    if quest_id is not None or quest_slug is not None:
        completions = completions.filter(
            lesson_id__in=lessons.lesson_ids(quest_id=quest_id, quest_slug=quest_slug)
        )
    return set(completions.values_list("lesson_id", flat=True))


def count_completed_lessons(*, user_id: int, quest_id: int | None = None) -> int:
    """How many published lessons the learner completed, optionally of one quest (1 query)."""
    completions = LessonCompletion.objects.filter(
        user_id=user_id,
        lesson_id__in=lessons.lesson_ids(quest_id=quest_id, published_only=True),
    )
    return completions.count()


def percent_complete(*, done: int, total: int) -> int:
    """0-100, rounded down: 100 only when every lesson is done (no query)."""
    return 100 * done // total if total else 0


def quest_percent(*, user_id: int, quest_id: int) -> int:
    """Percent (0-100, rounded down) of the quest's published lessons completed (1 query)."""
    counts = (
        lessons.published_lessons()
        .filter(quest_id=quest_id)
        .aggregate(
            total=Count("id"),
            done=Count("id", filter=Exists(_completion_of(user_id=user_id))),
        )
    )
    return percent_complete(done=counts["done"], total=counts["total"])


def _completion_of(*, user_id: int) -> QuerySet[LessonCompletion]:
    return LessonCompletion.objects.filter(user_id=user_id, lesson_id=OuterRef("pk"))


def _streak(
    *,
    current: int,
    best: int,
    last_active_day: date | None,
    last_active_day_start: datetime | None,
    time_zone: str | zoneinfo.ZoneInfo,
    freezes: int = 0,
    outages: Callable[[], list[Outage]] = lambda: platform_outages(),
) -> dict[str, Any]:
    """{"current", "best", "today", "freezes"}: the run shows while it still stands
    (`progress.streaks.streak_state`, today's state). `outages` is asked only when days were
    missed."""
    zone = _zone(time_zone)
    state = streak_state(
        clock.now(),
        zone=zone,
        last=last_active_day,
        last_start=last_active_day_start,
        freezes=freezes,
        forgiven_between=lambda first, last: outage_days(
            outages=outages(), zone=zone, first=first, last=last
        ),
    )
    return {
        "current": current if state != "none" else 0,
        "best": best,
        "today": state,
        "freezes": freezes,
    }


def daily_goal(
    *,
    goal: int | None,
    day_xp: int,
    last_active_day: date | None,
    last_active_day_start: datetime | None,
    time_zone: str | zoneinfo.ZoneInfo,
    chosen: bool,
) -> dict[str, Any]:
    """{"xp": the goal or None, "xp_today", "met", "chosen"}: the XP of the last active day counts while
    activity now would still count on that day (the writes' rule, `day_of_activity`)."""
    xp_today = 0
    if last_active_day is not None:
        day, _ = day_of_activity(
            clock.now(),
            zone=_zone(time_zone),
            last=last_active_day,
            last_start=last_active_day_start,
        )
        xp_today = day_xp if day <= last_active_day else 0
    return {
        "xp": goal,
        "xp_today": xp_today,
        "met": goal is not None and xp_today >= goal,
        "chosen": chosen,
    }


_STANDING_FIELDS = (
    "xp_total",
    "streak_current",
    "streak_best",
    "last_active_day",
    "last_active_day_start",
    "freezes_held",
    "user__time_zone",
)


def _standing(row: dict[str, Any], outages: Callable[[], list[Outage]]) -> dict[str, Any]:
    streak = _streak(
        current=row["streak_current"],
        best=row["streak_best"],
        last_active_day=row["last_active_day"],
        last_active_day_start=row["last_active_day_start"],
        time_zone=row["user__time_zone"],
        freezes=row["freezes_held"],
        outages=outages,
    )
    return {"xp_total": row["xp_total"], "streak": streak}


NO_STREAK = {"current": 0, "best": 0, "today": "none", "freezes": 0}


# (starts_at, ends_at) of a recorded platform outage.
Outage = tuple[datetime, datetime]


def platform_outages() -> list[Outage]:
    """Every recorded outage (1 query; operators record a handful a year)."""
    return list(PlatformOutage.objects.values_list("starts_at", "ends_at"))


def outage_days(
    *, outages: list[Outage], zone: zoneinfo.ZoneInfo, first: date, last: date
) -> set[date]:
    """The days from `first` to `last` (in `zone`) that overlap one of `outages`."""
    begins, ends = day_start(first, zone), day_start(last + timedelta(days=1), zone)
    days: set[date] = set()
    for starts_at, ends_at in outages:
        if starts_at >= ends or ends_at <= begins:
            continue
        day = max(first, today_in(zone, at=starts_at))
        while day <= last and day_start(day, zone) < ends_at:
            days.add(day)
            day += timedelta(days=1)
    return days


def standing_for_user(*, user_id: int) -> dict[str, Any]:
    """{"xp_total", "streak": {"current", "best"}} in one query: what rules measure most."""
    row = LearnerStats.objects.filter(pk=user_id).values(*_STANDING_FIELDS).first()
    if row is None:
        return {"xp_total": 0, "streak": NO_STREAK}
    return _standing(row, platform_outages)


def standings_for_users(*, user_ids: list[int]) -> dict[int, dict[str, Any]]:
    """standing_for_user for many learners in one query; learners without stats stand at 0."""
    rows = LearnerStats.objects.filter(user_id__in=user_ids).values("user_id", *_STANDING_FIELDS)
    zero = {"xp_total": 0, "streak": NO_STREAK}
    standings = dict.fromkeys(user_ids, zero)
    outages = functools.cache(platform_outages)  # one query for the batch, if any is asked
    for row in rows:
        standings[row["user_id"]] = _standing(row, outages)
    return standings


def days_of_users(*, user_ids: list[int]) -> dict[int, dict[str, Any]]:
    """{"streak": {...}, "daily_goal": {...}} for each learner as the header shows them now
    (one query; learners without stats have neither streak nor goal)."""
    rows = LearnerStats.objects.filter(user_id__in=user_ids).values(
        "user_id", *_STANDING_FIELDS, "daily_goal", "daily_goal_chosen", "day_xp"
    )
    days = {
        user_id: {
            "streak": NO_STREAK,
            "daily_goal": {"xp": None, "xp_today": 0, "met": False, "chosen": False},
        }
        for user_id in user_ids
    }
    outages = functools.cache(platform_outages)
    for row in rows:
        days[row["user_id"]] = {
            "streak": _standing(row, outages)["streak"],
            "daily_goal": daily_goal(
                goal=row["daily_goal"],
                day_xp=row["day_xp"],
                last_active_day=row["last_active_day"],
                last_active_day_start=row["last_active_day_start"],
                time_zone=row["user__time_zone"],
                chosen=row["daily_goal_chosen"],
            ),
        }
    return days


def count_completed_lessons_by_user(
    *, user_ids: list[int], quest_id: int | None = None
) -> dict[int, int]:
    """count_completed_lessons for many learners in one query (absent: none)."""
    completions = LessonCompletion.objects.filter(
        user_id__in=user_ids,
        lesson_id__in=lessons.lesson_ids(quest_id=quest_id, published_only=True),
    )
    return dict(
        completions.values("user_id").annotate(done=Count("id")).values_list("user_id", "done")
    )


def quest_percents_by_user(*, user_ids: list[int], quest_id: int) -> dict[int, int]:
    """quest_percent for many learners (2 queries)."""
    total = lessons.published_lesson_count(quest_id=quest_id)
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


def today_in(time_zone: str | zoneinfo.ZoneInfo, *, at: datetime | None = None) -> date:
    """The date now (or at `at`) where the learner is: the day activity then would count on
    for a learner with no day before (`day_of_activity`). Cached headers turn over at its
    midnight."""
    day, _ = day_of_activity(
        clock.now() if at is None else at, zone=_zone(time_zone), last=None, last_start=None
    )
    return day


def _zone(time_zone: str | zoneinfo.ZoneInfo) -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(time_zone) if isinstance(time_zone, str) else time_zone


class ChangedCompletion(TypedDict):
    completed_at: datetime
    device_id: str
    lesson_slug: str


def completions_changed_by_other_devices(
    *, user_id: int, device_id: str, after_seq: int, up_to_seq: int
) -> list[ChangedCompletion]:
    """Completions another device (or the web) added or moved earlier between two sync
    positions (1 query)."""
    return list(
        LessonCompletion.objects.filter(user_id=user_id, seq__gt=after_seq, seq__lte=up_to_seq)
        .exclude(device_id=device_id)
        .order_by("seq", "id")
        .values("completed_at", "device_id", lesson_slug=lessons.slug_of(OuterRef("lesson_id")))
    )


@dataclass(frozen=True)
class WeekXP:
    """A learner's XP of one calendar week of their days, and the time of its latest award."""

    week: date
    xp: int
    reached_at: datetime


def latest_week_xp(*, user_id: int) -> WeekXP | None:
    """The latest calendar week the learner earned XP in (None: never). Two queries."""
    latest = (
        LearnerPeriodXP.objects.filter(
            user_id=user_id, period=LearnerPeriodXP.Period.WEEK, xp__gt=0
        )
        .order_by("-starts")
        .values_list("starts", "xp")
        .first()
    )
    if latest is None:
        return None
    week, xp = latest
    reached_at = XPAward.objects.filter(
        user_id=user_id, day__range=week_of(week), amount__gt=0
    ).aggregate(at=Max("awarded_at"))["at"]
    return WeekXP(week=week, xp=xp, reached_at=reached_at)
