"""The streak rule: when a day of activity carries a run of active days on. The writes
(`progress.services`) count runs with it; the reads (`progress.selectors`) say with it whether
a run still stands today. A new rule (a weekly streak, another way to forgive) is a change here.

A run goes on from one active day to the next, and over days missed between them when each is
forgiven: a day the platform itself was down (`PlatformOutage`, recorded by operators), or a
day covered by a streak freeze the learner held. Freezes are earned, one for each
`FREEZE_EVERY` days a run reaches, at most `MAX_FREEZES` held, and used automatically: all the
missed days of a gap or none (a gap too long for the freezes held breaks the run, and keeps
them).

Days are the learner's local days, and a change of time zone must not make a day twice: in
Pacific/Kiritimati (UTC+14) it is often already tomorrow, so completing a lesson in UTC and
another after switching would count two days within seconds. `day_of_activity` holds the rule:
a later day begins only once real time allows it, and `streak_state` asks the same rule
whether a run is still alive."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

FREEZE_EVERY = 7
MAX_FREEZES = 2


def missed_days(previous: date, day: date, *, forgiven: Collection[date] = ()) -> list[date]:
    """The days between `previous` and `day` (both active) that nothing forgives."""
    between = (previous + timedelta(days=n) for n in range(1, (day - previous).days))
    return [d for d in between if d not in forgiven]


def continues_run(
    previous: date, day: date, *, forgiven: Collection[date] = (), freezes: int = 0
) -> bool:
    """Whether activity on `day` carries on the run whose last active day was `previous`: the
    days missed between them are forgiven, or few enough for the `freezes` held."""
    return day > previous and len(missed_days(previous, day, forgiven=forgiven)) <= freezes


@dataclass
class Run:
    """A learner's run after some active days: its length, the longest, the freezes held and
    the days on which freezes were used now."""

    current: int = 0
    best: int = 0
    freezes: int = 0
    frozen: list[date] = field(default_factory=list)


def extend_run(
    days: list[date], *, previous: date | None, run: Run, forgiven: Collection[date] = ()
) -> Run:
    """`run` (which ended on `previous`) carried over the sorted distinct active `days`, all
    after `previous`: freezes used on the days they forgive, and earned."""
    current, best, freezes, frozen = run.current, run.best, run.freezes, list(run.frozen)
    for d in days:
        if previous is not None and continues_run(previous, d, forgiven=forgiven, freezes=freezes):
            used = missed_days(previous, d, forgiven=forgiven)
            freezes -= len(used)
            frozen += used
            current += 1
        else:
            current = 1
        if current % FREEZE_EVERY == 0:
            freezes = min(MAX_FREEZES, freezes + 1)
        best = max(best, current)
        previous = d
    return Run(current=current, best=best, freezes=freezes, frozen=frozen)


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


def streak_state(
    at: datetime,
    *,
    zone: ZoneInfo,
    last: date | None,
    last_start: datetime | None,
    freezes: int = 0,
    forgiven_between: Callable[[date, date], Collection[date]] = lambda first, last: (),
) -> str:
    """Where the run whose last active day was `last` (begun at `last_start`) stands at the
    instant `at`, by the writes' rule (after a move east the next activity may count on the day
    before today): "done" (activity now counts on the last active day), "to_do" (activity now
    carries the run on), "frozen" (it would, by using freezes held on the days missed), "none"
    (no run stands). `forgiven_between(first, last)`: the outage days in that range, asked
    only when days were missed."""
    if last is None:
        return "none"
    day, _ = day_of_activity(at, zone=zone, last=last, last_start=last_start)
    if day <= last:
        return "done"
    gap = (day - last).days > 1
    forgiven = forgiven_between(last + timedelta(days=1), day - timedelta(days=1)) if gap else ()
    if not continues_run(last, day, forgiven=forgiven, freezes=freezes):
        return "none"
    return "frozen" if missed_days(last, day, forgiven=forgiven) else "to_do"
