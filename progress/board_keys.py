"""The names of the leaderboards' Redis keys and members, and when the keys expire
(progress/boards.py keeps the boards under them)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from datetime import time as day_time

from django.conf import settings

from learning_platform import clock
from progress.periods import PERIODS, days_between, period_of

MEMBER_BASE = 10**15
# Day keys outlive the longest period (a month: 31 days) and the zones around it by a margin.
DAY_KEY_DAYS = 35
# A period's board outlives its last day by this many UTC days: the last zone's Sunday ends
# 12 hours after UTC's.
PERIOD_KEY_MARGIN_DAYS = 2


def member(user_id: int) -> str:
    return str(MEMBER_BASE - user_id)


def user_id_of(value: bytes | str) -> int:
    return MEMBER_BASE - int(value)


def _key(*parts: str) -> str:
    # The {lb} hash tag keeps every key in one Redis Cluster slot (scripts touch several).
    return f"{settings.LEADERBOARD_KEY_PREFIX}:{{lb}}:" + ":".join(parts)


def day_key(day: date) -> str:
    return _key("day", day.isoformat())


def period_key(period: str, day: date) -> str:
    """The key of the `period` board holding `day` ("all": the all-time board)."""
    return _key(period, period_of(period, day)[0].isoformat()) if period in PERIODS else _key("all")


def period_days(period: str, day: date) -> list[date]:
    """Every day of the `period` holding `day`."""
    return days_between(*period_of(period, day))


def _period_expiry(period: str, day: date) -> int:
    return _end_of(period_of(period, day)[1], days_after=PERIOD_KEY_MARGIN_DAYS)


def _boards_around(today: date) -> list[tuple[str, date]]:
    """(period, a day of it) of each period board that may be read now: the periods of
    yesterday, today and tomorrow in UTC, which hold every zone's today."""
    seen: dict[str, tuple[str, date]] = {}
    for day in (today - timedelta(days=1), today, today + timedelta(days=1)):
        for period in PERIODS:
            seen.setdefault(period_key(period, day), (period, day))
    return list(seen.values())


def utc_today() -> date:
    return clock.now().date()


def _end_of(day: date, *, days_after: int = 0) -> int:
    return int(datetime.combine(day + timedelta(days=days_after + 1), day_time(), UTC).timestamp())
