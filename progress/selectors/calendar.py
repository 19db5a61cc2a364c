"""The learner's activity calendar: XP per day, goal met, freeze used, for the last weeks."""

from __future__ import annotations

import zoneinfo
from datetime import date, timedelta
from typing import TypedDict

from django.db.models import Sum
from django.db.models.functions import TruncDate

from progress.models import ActivityDay, FrozenDay, XPAward
from progress.selectors.learners import today_in
from progress.streaks import day_start

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
    """The days of the last CALENDAR_WEEKS weeks (today included, in the learner's zone) on
    which the learner earned XP, met their goal or had a streak freeze used, oldest first
    (3 queries)."""
    zone = zoneinfo.ZoneInfo(time_zone)
    last_day = today_in(zone)
    first_day = last_day - timedelta(weeks=CALENDAR_WEEKS) + timedelta(days=1)
    xp_by_day = dict(
        XPAward.objects.filter(user_id=user_id, awarded_at__gte=day_start(first_day, zone))
        .annotate(day=TruncDate("awarded_at", tzinfo=zone))
        .values("day")
        .annotate(xp=Sum("amount"))
        .order_by()
        .values_list("day", "xp")
    )
    goal_met = set(
        ActivityDay.objects.filter(user_id=user_id, day__gte=first_day, goal_met=True).values_list(
            "day", flat=True
        )
    )
    frozen = set(
        FrozenDay.objects.filter(user_id=user_id, day__gte=first_day).values_list("day", flat=True)
    )
    # Every query starts at first_day; a day after today (in this zone) is left out.
    days = sorted(d for d in xp_by_day.keys() | goal_met | frozen if d <= last_day)
    return {
        "first_day": first_day,
        "last_day": last_day,
        "days": [
            {"day": d, "xp": xp_by_day.get(d, 0), "goal_met": d in goal_met, "frozen": d in frozen}
            for d in days
        ],
    }
