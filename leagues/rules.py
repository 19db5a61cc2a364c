"""The league's rules as pure functions of numbers and dates: tiers, moves, zone bands, idling.

Nothing here reads the database; the services and the simulation test ask these functions.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from progress.periods import week_of
from progress.streaks import day_start

TIERS = ("Bronze", "Silver", "Gold", "Sapphire", "Diamond")
LOWEST, HIGHEST = 0, len(TIERS) - 1
COHORT_SIZE = 30
PROMOTED = 7
PROMOTED_FROM_LOWEST = 10
DEMOTED = 5
# A cohort keeps the UTC offset of the learner who opened it; it takes learners within this
# many minutes of it, so any two members are at most twice as far apart (3 hours).
BAND_MINUTES = 90
# Whole weeks without XP that cost a tier (one tier per whole run of this many).
IDLE_WEEKS = 4
# A cohort closes this long after its week ended in the zone of its member to the far west:
# awards being written at midnight commit within it.
CLOSE_MARGIN = timedelta(minutes=15)


def tier_name(tier: int) -> str:
    return TIERS[tier]


def week_start(day: date) -> date:
    """The Monday of the calendar week holding `day` (`progress.periods.week_of`)."""
    return week_of(day)[0]


def week_ends_at(week: date, zone: ZoneInfo) -> datetime:
    """The instant the week starting on Monday `week` ends in `zone`: the next Monday's start."""
    return day_start(week + timedelta(days=7), zone)


def offset_minutes(zone: ZoneInfo, at: datetime) -> int:
    """The zone's UTC offset at `at`, in minutes east of UTC."""
    offset = at.astimezone(zone).utcoffset()
    return int(offset.total_seconds() // 60) if offset is not None else 0


def in_band(anchor: int, offset: int) -> bool:
    """Whether a learner at `offset` may join a cohort anchored at `anchor` (minutes)."""
    return abs(offset - anchor) <= BAND_MINUTES


def tiers_after(*, tier: int, members: int) -> list[int]:
    """Each member's tier after the week, by final position (best first): the first 7 (10 from
    the lowest tier, none from the highest) move up, then the last 5 of those left move down
    (none from the lowest tier)."""
    up = (
        0 if tier == HIGHEST else min(members, PROMOTED_FROM_LOWEST if tier == LOWEST else PROMOTED)
    )
    down = 0 if tier == LOWEST else min(DEMOTED, members - up)
    return [tier + 1] * up + [tier] * (members - up - down) + [tier - 1] * down


def lines(*, tier: int, members: int) -> tuple[int | None, int | None]:
    """(the last position that moves up, the first position that moves down), None for none."""
    after = tiers_after(tier=tier, members=members)
    up = sum(1 for t in after if t > tier)
    down = sum(1 for t in after if t < tier)
    return (up or None), (members - down + 1 if down else None)


def idle_weeks(*, last_week: date | None, week: date) -> int:
    """Whole weeks between the last week the learner was placed in and `week` (both Mondays)."""
    if last_week is None or week <= last_week:
        return 0
    return (week - last_week).days // 7 - 1


def tier_after_idling(*, tier: int, last_week: date | None, week: date) -> int:
    """The learner's tier in `week` after the idle weeks since `last_week`: one tier lower for
    each whole run of IDLE_WEEKS weeks without XP, never below the lowest."""
    return max(LOWEST, tier - idle_weeks(last_week=last_week, week=week) // IDLE_WEEKS)
