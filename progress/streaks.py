"""The streak rule: when a day of activity carries a run of active days on. The writes
(`progress.services`) count runs with it; the reads (`progress.selectors`) say with it whether
a run still stands today. A new rule (a streak freeze, a weekly streak) is a change here.

Days are the learner's local days, and a change of time zone must not make a day twice: in
Pacific/Kiritimati (UTC+14) it is often already tomorrow, so completing a lesson in UTC and
another after switching would count two days within seconds. `day_of_activity` holds the rule:
a later day begins only once real time allows it, and `run_stands` asks the same rule
whether a run is still alive."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo


def continues_run(previous: date, day: date) -> bool:
    """Whether activity on `day` carries on the run whose last active day was `previous`."""
    return day - previous == timedelta(days=1)


def streak_runs(
    days: list[date], *, current: int = 0, best: int = 0, previous: date | None = None
) -> tuple[int, int]:
    """(length of the run ending on the last day, longest run) of sorted distinct active days,
    continuing runs that stood at `current`/`best` after the day `previous`."""
    for d in days:
        current = current + 1 if previous is not None and continues_run(previous, d) else 1
        best = max(best, current)
        previous = d
    return current, best


def day_start(day: date, zone: ZoneInfo) -> datetime:
    """The instant `day` begins in `zone` (its first midnight, or the end of a gap that skips it),
    in UTC: arithmetic on datetimes of one zone is wall-clock time, blind to the zone's changes."""
    return datetime.combine(day, time(), tzinfo=zone).astimezone(UTC)


def day_of_activity(
    at: datetime, *, zone: ZoneInfo, last: date | None, last_start: datetime | None
) -> tuple[date, datetime | None]:
    """(the day activity at the instant `at` counts on, the instant the learner's last active day
    began afterwards), for a learner in `zone` whose last active day was `last`, begun at
    `last_start` (None: no limit, rows from before this rule).

    The local date `d` of `at` counts when it is after `last` and real time has run on from
    `last_start` by as long as the days from `last` to `d` last in `zone`: a learner who keeps
    their zone is never held back (DST and every other change of the zone's clock included).
    After a move east it may not have: the activity counts on the latest day real time allows,
    for a hop within one real day `last` itself, so no new day. The new day begins at its
    midnight, or later if real time says so (a day never begins before the previous one did plus
    its length): after a move east the days keep the old zone's bounds until the run breaks. A date before `last` (a move west, or offline activity synced late) counts on
    that date only if `at` is before `last_start`, when it did happen before the last day
    began; otherwise on `last`.
    """
    d = at.astimezone(zone).date()
    if last is None or last_start is None:
        return d, day_start(d, zone) if last is None or d > last else last_start
    if d < last:
        return (d if at < last_start else last), last_start
    if d == last or at < last_start:
        return last, last_start
    base = day_start(last, zone)
    if (
        d - last > timedelta(days=1)
        and last_start + (day_start(last + timedelta(days=2), zone) - base) <= at
    ):
        # The run is broken whichever day this counts on: a new one begins with this zone's days.
        return d, day_start(d, zone)
    # Walks back at most a day or two: a zone's offset differs from another's by under 27 hours.
    while d > last and last_start + (day_start(d, zone) - base) > at:
        d -= timedelta(days=1)
    if d == last:
        return last, last_start
    return d, max(day_start(d, zone), last_start + (day_start(d, zone) - base))


def run_stands(
    at: datetime, *, zone: ZoneInfo, last: date | None, last_start: datetime | None
) -> bool:
    """Whether the run whose last active day was `last` (begun at `last_start`) still stands at
    the instant `at`: activity then would count on that day or carry the run on. What the reads
    show, so that a learner who moved zone sees the run the next activity would continue."""
    if last is None:
        return False
    day, _ = day_of_activity(at, zone=zone, last=last, last_start=last_start)
    return day <= last or continues_run(last, day)
