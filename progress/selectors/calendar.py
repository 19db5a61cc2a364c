"""The learner's activity calendar: XP per day, goal met, freeze used, for the last weeks."""

from __future__ import annotations

import zoneinfo
from datetime import date, timedelta
from typing import TypedDict

from django.db.models import BooleanField, Sum, Value

from learning_platform import clock
from progress.models import ActivityDay, FrozenDay, LearnerStats, XPAward
from progress.streaks import day_of_activity

CALENDAR_WEEKS = 12


class CalendarDay(TypedDict):
    day: date
    xp: int
    goal_met: bool
    frozen: bool


class Calendar(TypedDict):
    first_day: date
    last_day: date
    days: list[CalendarDay]


def activity_calendar(*, user_id: int, time_zone: str) -> Calendar:
    """The days of the last CALENDAR_WEEKS weeks on which the learner earned XP, met their
    goal or had a streak freeze used, oldest first (3 queries). Every day is the one stored
    when the activity happened (`XPAward.day`, `ActivityDay`, `FrozenDay`); today is the day
    activity now would count on (`progress.streaks.day_of_activity`), so after a change of zone
    the calendar still ends on the learner's last active day."""
    last, start = LearnerStats.objects.filter(pk=user_id).values_list(
        "last_active_day", "last_active_day_start"
    ).first() or (None, None)
    last_day, _ = day_of_activity(
        clock.now(), zone=zoneinfo.ZoneInfo(time_zone), last=last, last_start=start
    )
    first_day = last_day - timedelta(weeks=CALENDAR_WEEKS) + timedelta(days=1)
    xp_by_day: dict[date, int] = {
        day: xp
        for day, xp in XPAward.objects.filter(
            user_id=user_id, day__gte=first_day, day__lte=last_day
        )
        .values("day")
        .annotate(xp=Sum("amount"))
        .order_by()
        .values_list("day", "xp")
        if day is not None  # never, by the filter: for the type
    }
    goal_met: set[date] = set()
    frozen: set[date] = set()
    marked = ActivityDay.objects.filter(user_id=user_id, day__gte=first_day, goal_met=True)
    freezes = FrozenDay.objects.filter(user_id=user_id, day__gte=first_day)
    for day, was_frozen in (
        marked.annotate(frozen=Value(False, output_field=BooleanField()))
        .order_by()
        .values_list("day", "frozen")
        .union(
            freezes.annotate(frozen=Value(True, output_field=BooleanField()))
            .order_by()
            .values_list("day", "frozen"),
            all=True,
        )
    ):
        (frozen if was_frozen else goal_met).add(day)
    # Every query starts at first_day; a day after today is left out.
    days = sorted(d for d in xp_by_day.keys() | goal_met | frozen if d <= last_day)
    return {
        "first_day": first_day,
        "last_day": last_day,
        "days": [
            {"day": d, "xp": xp_by_day.get(d, 0), "goal_met": d in goal_met, "frozen": d in frozen}
            for d in days
        ],
    }
