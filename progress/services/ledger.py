"""The XP ledger and the learners' stats rows: every progress write goes through
`_LearnerWriter`, which first locks the stats rows of the learners it writes for, so two
writes of one learner apply one after the other and the totals, the streak and the sync
sequence never interleave. The unique constraints on the ledger and on completions are the
last word on "at most once", whatever reaches the database.

The same statements run on PostgreSQL and SQLite (3.35+): INSERT ... ON CONFLICT, with
RETURNING where the caller must know which rows went in.
"""

from __future__ import annotations

import zoneinfo
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import partial, reduce
from operator import or_

from django.db import connection, transaction
from django.db.models import Case, DateTimeField, Q, Value, When

from learning_platform import clock
from learning_platform.db import insert_ignoring_conflicts, update_rows
from progress import boards, events, summary_cache
from progress.models import ActivityDay, FrozenDay, LearnerStats, LessonCompletion, XPAward
from progress.periods import week_of
from progress.selectors.learners import Outage, outage_days, platform_outages
from progress.services.stats_rows import LockedStats, lock_stats
from progress.streaks import Run, day_of_activity, day_start, extend_run

# Streaks count only days the server could witness: activity that reached it within this long
# of when it happened. Older offline history still counts for lessons and XP, not for the
# streak (or the achievements measured by it); otherwise a new account could sync a year of
# back-dated events and hold a year-long streak at once.
STREAK_WITNESS_WINDOW = timedelta(hours=48)

# What counts as an exercise passed: a graded table, or a lesson's check answered right.
PASS_SOURCES = frozenset({XPAward.Source.EXERCISE, XPAward.Source.CHECK})

# (user_id, source_type, source_id): what the ledger pays at most once.
AwardKey = tuple[int, str, int]


@dataclass(frozen=True)
class Award:
    """`amount` XP for the learner, from one source (paid at most once), earned at
    `awarded_at` (default now)."""

    user_id: int
    source_type: str
    source_id: int
    amount: int
    awarded_at: datetime = field(default_factory=clock.now)

    def __post_init__(self) -> None:
        if self.source_type not in XPAward.Source.values:
            raise ValueError(f"Unknown XP source type {self.source_type!r}.")
        if self.amount < 0:
            raise ValueError("XP amounts are never negative.")

    @property
    def key(self) -> AwardKey:
        return (self.user_id, self.source_type, self.source_id)


@dataclass(frozen=True)
class StandingAfterAward:
    """The learner's totals right after an award, read under their row lock."""

    xp_total: int
    streak_current: int
    exercises_passed: int


def lock_learner(*, user_id: int) -> None:
    """Take the learner's progress lock (the one `award_xp` takes first) until the transaction
    ends, so that no XP of theirs is paid meanwhile: for another app's write that reads their
    XP and must not miss an award."""
    lock_stats(user_ids=[user_id], now=clock.now())


def award_xp(*, awards: Iterable[Award]) -> dict[AwardKey, StandingAfterAward]:
    """Append the awards to the ledger, each at most once per (learner, source); the one way XP
    is paid.

    Returns, for each award paid now, its learner's standing after all of theirs; those that
    had paid already are left out. In one transaction (the caller's, if open), the learners'
    stats rows locked in id order (the order any two writers agree on): each learner's total
    grows by exactly what went in, "exercise" and "check" sources count in `exercises_passed`,
    and each award is stored with the learner's day it counts on
    (`progress.streaks.day_of_activity`), which counts for the streak. Four statements however
    many learners: lock, ledger, new days, stats (three when no day is new).
    """
    batch = list(awards)
    if not batch:
        return {}
    # No savepoint: nothing here is caught and retried, an error fails the caller's transaction.
    with transaction.atomic(savepoint=False):
        writer = _LearnerWriter(user_ids=[a.user_id for a in batch])
        paid = writer.award(batch)
        writer.flush()
    return {a.key: writer.standing(a.user_id) for a in paid}


class _LearnerWriter:
    """Writes for some learners inside a transaction, holding the locks on their stats rows.

    Collects the XP and activity days it adds and writes the stats rows once, in `flush()`.
    """

    def __init__(self, *, user_ids: Iterable[int]) -> None:
        if not connection.in_atomic_block:
            raise RuntimeError("_LearnerWriter needs an open transaction.")
        self.now = clock.now()
        self.stats = lock_stats(user_ids=sorted(set(user_ids)), now=self.now)
        # Per learner: the days of this writer's instants (decided once, `_days_of`), the last
        # day and its start as the instants decided so far leave them, and the start of each
        # new day.
        self._day_at: dict[int, dict[datetime, date]] = defaultdict(dict)
        self._walk: dict[int, tuple[date | None, datetime | None]] = {}
        self._day_starts: dict[int, dict[date, datetime | None]] = defaultdict(dict)
        # Per learner: the XP of each day the activity that counts for the streak and the daily
        # goal is on.
        self._active_days_xp: dict[int, dict[date, int]] = defaultdict(lambda: defaultdict(int))
        self._xp_by_day: dict[int, dict[date, int]] = defaultdict(lambda: defaultdict(int))
        self._changed: set[int] = set()
        self._witnessed_since = self.now - STREAK_WITNESS_WINDOW
        self._outages: list[Outage] | None = None

    def standing(self, user_id: int) -> StandingAfterAward:
        stats = self.stats[user_id]
        return StandingAfterAward(
            xp_total=stats.xp_total,
            streak_current=stats.streak_current,
            exercises_passed=stats.exercises_passed,
        )

    def award(self, awards: Iterable[Award]) -> list[Award]:
        """Append the awards the ledger does not hold yet; returns the ones appended."""
        unique = {a.key: a for a in awards}
        if not unique:
            return []
        # Each award's day, decided before it is written (one that the ledger held already
        # walks the days along as well: nothing here knows which ones it held).
        instants: dict[int, list[datetime]] = defaultdict(list)
        for a in unique.values():
            instants[a.user_id].append(a.awarded_at)
        day_at = {user_id: self._days_of(user_id, times) for user_id, times in instants.items()}
        inserted = [
            unique[(user_id, source_type, int(source_id))]
            for user_id, source_type, source_id in insert_ignoring_conflicts(
                XPAward,
                fields=(
                    "user",
                    "source_type",
                    "source_id",
                    "amount",
                    "awarded_at",
                    "day",
                    "created_at",
                ),
                rows=[
                    (
                        a.user_id,
                        a.source_type,
                        a.source_id,
                        a.amount,
                        a.awarded_at,
                        day_at[a.user_id][a.awarded_at],
                        self.now,
                    )
                    for a in sorted(unique.values(), key=lambda a: a.key)
                ],
                conflict_fields=("user", "source_type", "source_id"),
                returning=("user", "source_type", "source_id"),
            )
        ]
        paid: list[events.XpPaid] = []
        latest_week_before = {
            a.user_id: self.stats[a.user_id].latest_week_with_xp for a in inserted
        }
        for a in inserted:
            stats = self.stats[a.user_id]
            before = stats.xp_total
            stats.xp_total += a.amount
            paid.append(
                events.XpPaid(
                    user_id=a.user_id,
                    source_type=a.source_type,
                    source_id=a.source_id,
                    awarded_at=a.awarded_at,
                    xp_before=before,
                    xp_after=stats.xp_total,
                    day=day_at[a.user_id][a.awarded_at],
                    time_zone=stats.time_zone,
                    latest_week_with_xp=latest_week_before[a.user_id],
                )
            )
            if a.amount > 0:
                week = week_of(day_at[a.user_id][a.awarded_at])[0]
                if stats.latest_week_with_xp is None or week > stats.latest_week_with_xp:
                    stats.latest_week_with_xp = week
            stats.exercises_passed += a.source_type in PASS_SOURCES
            self._xp_by_day[a.user_id][day_at[a.user_id][a.awarded_at]] += a.amount
            self._note_active(a.user_id, [(a.awarded_at, a.amount)])
        if paid:
            events.xp_paid.announce(events.XpAwardsPaid(awards=tuple(paid)))
        return inserted

    def complete_lessons(
        self,
        *,
        user_id: int,
        times: dict[int, datetime],
        device_id: str,
        existing: dict[int, datetime] | None = None,
    ) -> set[int]:
        """Record completions (lesson id -> time); the earliest time of a lesson wins.

        `existing` (lesson id -> recorded time), when the caller read it under this lock,
        saves a query. Returns the ids of the lessons completed for the first time.
        """
        if not times:
            return set()
        if existing is None:
            existing = dict(
                LessonCompletion.objects.filter(user_id=user_id, lesson_id__in=times).values_list(
                    "lesson_id", "completed_at"
                )
            )
        seq = self.stats[user_id].sync_seq + 1
        created = {lesson_id for lesson_id in times if lesson_id not in existing}
        if created:
            # The lock means nobody else inserts for this learner now; ignore_conflicts only
            # keeps a writer that bypassed it from failing the batch.
            LessonCompletion.objects.bulk_create(
                [
                    LessonCompletion(
                        user_id=user_id,
                        lesson_id=lesson_id,
                        completed_at=times[lesson_id],
                        device_id=device_id,
                        seq=seq,
                    )
                    for lesson_id in sorted(created)
                ],
                ignore_conflicts=True,
            )
        earlier = {
            lesson_id: at
            for lesson_id, at in times.items()
            if lesson_id in existing and at < existing[lesson_id]
        }
        if earlier:
            LessonCompletion.objects.filter(user_id=user_id, lesson_id__in=earlier).update(
                completed_at=Case(
                    *(
                        When(lesson_id=lesson_id, then=Value(at))
                        for lesson_id, at in earlier.items()
                    ),
                    output_field=DateTimeField(),
                ),
                device_id=device_id,
                seq=seq,
            )
        if created or earlier:
            self.stats[user_id].sync_seq = seq
            self._changed.add(user_id)
            self._note_active(user_id, [(times[i], 0) for i in created | earlier.keys()])
        return created

    def flush(self) -> None:
        """Write the changed stats rows (XP total, exercises passed, streak, sync sequence) in
        one statement; `stats` holds the values written (the rows are locked: nobody else
        changes them meanwhile). The learners' headers and the boards follow."""
        self._count_days()
        changed = sorted(self._changed | self._xp_by_day.keys())
        written = (
            "xp_total",
            "exercises_passed",
            "streak_current",
            "streak_best",
            "last_active_day",
            "last_active_day_start",
            "day_xp",
            "freezes_held",
            "sync_seq",
            "updated_at",
        )
        rows = []
        for user_id in changed:
            stats = self.stats[user_id]
            rows.append((user_id, *(getattr(stats, name) for name in written[:-1]), self.now))
        update_rows(LearnerStats, keys=["user"], fields=written, rows=rows)
        summary_cache.note_learners_changed(changed)
        if self._xp_by_day and boards.enabled():
            xp_by_learner = {u: dict(by_day) for u, by_day in self._xp_by_day.items()}
            transaction.on_commit(
                partial(boards.record_awards_of_learners, xp_by_learner=xp_by_learner)
            )
        self._active_days_xp.clear()
        self._xp_by_day.clear()
        self._changed.clear()

    def _note_active(self, user_id: int, activity: Iterable[tuple[datetime, int]]) -> None:
        """Activity the server witnessed counts for the streak and the daily goal
        (STREAK_WITNESS_WINDOW), on its day (`_days_of`)."""
        witnessed = [(at, xp) for at, xp in activity if at >= self._witnessed_since]
        day_at = self._days_of(user_id, [at for at, _ in witnessed])
        for at, xp in witnessed:
            self._active_days_xp[user_id][day_at[at]] += xp

    def _days_of(self, user_id: int, instants: Iterable[datetime]) -> dict[datetime, date]:
        """The learner's day each instant counts on, by the one rule
        (`progress.streaks.day_of_activity`), decided once in this writer: in time order, from
        the last active day as the instants decided before left it. An instant the server did
        not witness (STREAK_WITNESS_WINDOW) counts from the stored last day and moves no day
        along: it is history, not today's activity."""
        stats = self.stats[user_id]
        zone = zoneinfo.ZoneInfo(stats.time_zone)
        stored = (stats.last_active_day, stats.last_active_day_start)
        last, start = self._walk.get(user_id, stored)
        decided = self._day_at[user_id]
        for at in sorted(set(instants) - decided.keys()):
            if at < self._witnessed_since:
                decided[at], _ = day_of_activity(
                    at, zone=zone, last=stored[0], last_start=stored[1]
                )
                continue
            day, start = day_of_activity(at, zone=zone, last=last, last_start=start)
            if last is None or day > last:
                last = day
                self._day_starts[user_id][day] = start
            decided[at] = day
        self._walk[user_id] = (last, start)
        return {at: decided[at] for at in instants}

    def _active_days(self, user_id: int) -> dict[date, int]:
        """The days the learner's witnessed activity counts on, with the XP each gained; moves
        the stats' last active day start along with them."""
        stats = self.stats[user_id]
        days = self._active_days_xp[user_id]
        newest = max(days, default=None)
        if newest is not None and (stats.last_active_day is None or newest > stats.last_active_day):
            zone = zoneinfo.ZoneInfo(stats.time_zone)
            stats.last_active_day_start = self._day_starts[user_id].get(
                newest, day_start(newest, zone)
            )
        return days

    def _count_days(self) -> None:
        """Store the new active days (one statement for every learner) and count the runs
        (`progress.streaks`): days after the last active one go on from it; a day before it
        can join or bridge runs, so that learner's runs are counted again from all their days.
        The XP of the last active day grows, and a day whose XP reaches the learner's daily
        goal is marked (one more statement, on the award that reaches it)."""
        active = {user_id: self._active_days(user_id) for user_id in sorted(self._active_days_xp)}
        goals_met = [self._add_day_xp(user_id, days) for user_id, days in active.items()]
        candidates = [
            (user_id, day)
            for user_id, days in active.items()
            for day in sorted(days)
            if day != self.stats[user_id].last_active_day
        ]
        if candidates:
            self._insert_days(candidates)
        reached = [Q(user_id=user_id, day=day) for user_id, day in filter(None, goals_met)]
        if reached:
            ActivityDay.objects.filter(reduce(or_, reached)).update(goal_met=True)

    def _add_day_xp(self, user_id: int, days: dict[date, int]) -> tuple[int, date] | None:
        """Add the XP of the learner's last active day (as it will be once `days` are in) to
        `day_xp`; (learner, day) when it reaches their daily goal now."""
        if not days:
            return None
        stats = self.stats[user_id]
        last = stats.last_active_day
        newest = max(days)
        if last is not None and newest <= last:
            before, newest = stats.day_xp, last
        else:
            before = 0
        stats.day_xp = before + days.get(newest, 0)
        self._changed.add(user_id)
        goal = stats.daily_goal
        return (user_id, newest) if goal and before < goal <= stats.day_xp else None

    def _insert_days(self, candidates: list[tuple[int, date]]) -> None:
        new_days: dict[int, list[date]] = defaultdict(list)
        as_date = ActivityDay._meta.get_field("day").to_python
        for user_id, day in insert_ignoring_conflicts(
            ActivityDay,
            fields=("user", "day"),
            rows=candidates,
            conflict_fields=("user", "day"),
            returning=("user", "day"),
        ):
            new_days[user_id].append(as_date(day))
        frozen: list[FrozenDay] = []
        for user_id, days in new_days.items():
            stats = self.stats[user_id]
            last = stats.last_active_day
            days.sort()
            if last is not None and days[0] < last:
                # A day before the last: count the runs again from every day, over the days
                # forgiven already (no freeze is used or earned again).
                days = list(
                    ActivityDay.objects.filter(user_id=user_id)
                    .order_by("day")
                    .values_list("day", flat=True)
                )
                forgiven = self._forgiven(stats, days[0], days[-1]) | set(
                    FrozenDay.objects.filter(user_id=user_id).values_list("day", flat=True)
                )
                run = extend_run(days, previous=None, run=Run(), forgiven=forgiven)
            else:
                gaps = last is not None and (days[-1] - last).days > len(days)
                run = extend_run(
                    days,
                    previous=last,
                    run=Run(stats.streak_current, stats.streak_best, stats.freezes_held),
                    forgiven=self._forgiven(stats, last, days[-1]) if gaps and last else (),
                )
                stats.freezes_held = run.freezes
                frozen += [FrozenDay(user_id=user_id, day=day) for day in run.frozen]
            stats.streak_current, stats.streak_best = run.current, run.best
            stats.last_active_day = days[-1]
            self._changed.add(user_id)
        if frozen:
            FrozenDay.objects.bulk_create(frozen, ignore_conflicts=True)

    def _forgiven(self, stats: LockedStats, first: date, last: date) -> set[date]:
        """The days from `first` to `last` the platform's outages forgive (the outages read
        once per writer, when a gap first needs them)."""
        if self._outages is None:
            self._outages = platform_outages()
        zone = zoneinfo.ZoneInfo(stats.time_zone)
        return outage_days(outages=self._outages, zone=zone, first=first, last=last)
