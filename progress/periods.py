"""The game's periods: calendar weeks (Monday to Sunday) and calendar months of learners' days.

A day here is a learner's day (`progress.streaks.day_of_activity`, stored on each award as
`XPAward.day`); these functions only group days. They are the one place that says what a week
and a month are: the boards, their Redis keys, the API's bounds and the analytics' weekly
series all ask them.
"""

from __future__ import annotations

import calendar
from datetime import date, timedelta

PERIODS = ("week", "month")


def week_of(day: date) -> tuple[date, date]:
    """The calendar week holding `day`: its Monday and its Sunday (ISO 8601)."""
    monday = day - timedelta(days=day.weekday())
    return monday, monday + timedelta(days=6)


def month_of(day: date) -> tuple[date, date]:
    """The calendar month holding `day`: its first and last day."""
    last = calendar.monthrange(day.year, day.month)[1]
    return day.replace(day=1), day.replace(day=last)


def period_of(period: str, day: date) -> tuple[date, date]:
    """The `period` ("week" or "month") holding `day`: its first and last day. Raises KeyError
    for another period."""
    return {"week": week_of, "month": month_of}[period](day)


def days_between(first: date, last: date) -> list[date]:
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]
