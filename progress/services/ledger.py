"""The XP ledger and the learner's stats row: every progress write for a learner goes
through `_LearnerWriter`, which first locks that learner's `LearnerStats` row, so two requests
of one learner apply one after the other and the totals, the streak and the sync sequence never
interleave. The unique constraints on the ledger and on completions are the last word on "at
most once", whatever reaches the database.
"""

from __future__ import annotations

import zoneinfo
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import partial
from typing import Any

from django.db import connection, transaction
from django.db.models import Case, DateTimeField, F, Value, When
from django.utils import timezone

from learning_platform.db import insert_ignoring_conflicts, update_rows
from progress import boards, summary_cache
from progress.models import ActivityDay, LearnerStats, LessonCompletion, XPAward

# Streaks count only days the server could witness: activity that reached it within this long
# of when it happened. Older offline history still counts for lessons and XP, not for the
# streak (or the achievements measured by it); otherwise a new account could sync a year of
# back-dated events and hold a year-long streak at once.
STREAK_WITNESS_WINDOW = timedelta(hours=48)


@dataclass(frozen=True)
class _Award:
    source_type: str
    source_id: int
    amount: int
    awarded_at: datetime

    def __post_init__(self) -> None:
        if self.source_type not in XPAward.Source.values:
            raise ValueError(f"Unknown XP source type {self.source_type!r}.")
        if self.amount < 0:
            raise ValueError("XP amounts are never negative.")


class _LearnerWriter:
    """One learner's writes inside a transaction, holding the lock on their stats row.

    Collects the XP and activity days it adds and writes the stats row once, in `flush()`.
    """

    def __init__(self, *, user_id: int, time_zone: str | None = None) -> None:
        if not connection.in_atomic_block:
            raise RuntimeError("_LearnerWriter needs an open transaction.")
        self.user_id = user_id
        self.stats = _lock_stats(user_id=user_id, with_user=time_zone is None)
        self.tzinfo = zoneinfo.ZoneInfo(time_zone or self.stats.user.time_zone)
        self._xp_delta = 0
        self._exercises_delta = 0
        self._days: set[date] = set()
        self._completions_changed = False
        self.seq = self.stats.sync_seq + 1
        self._witnessed_since = timezone.now() - STREAK_WITNESS_WINDOW

    def award(self, awards: Iterable[_Award]) -> list[_Award]:
        """Append the awards the ledger does not hold yet; returns the ones appended."""
        unique = {(a.source_type, a.source_id): a for a in awards}
        if not unique:
            return []
        inserted = [unique[key] for key in _insert_awards(user_id=self.user_id, awards=unique)]
        if inserted and boards.enabled():
            xp_by_day: dict[date, int] = defaultdict(int)
            for a in inserted:
                xp_by_day[a.awarded_at.astimezone(UTC).date()] += a.amount
            transaction.on_commit(
                partial(boards.record_awards, user_id=self.user_id, xp_by_day=dict(xp_by_day))
            )
        self._xp_delta += sum(a.amount for a in inserted)
        self._exercises_delta += sum(a.source_type == XPAward.Source.EXERCISE for a in inserted)
        self._note_active(a.awarded_at for a in inserted)
        return inserted

    def complete_lessons(
        self,
        times: dict[int, datetime],
        *,
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
                LessonCompletion.objects.filter(
                    user_id=self.user_id, lesson_id__in=times
                ).values_list("lesson_id", "completed_at")
            )
        created = {lesson_id for lesson_id in times if lesson_id not in existing}
        if created:
            # The lock means nobody else inserts for this learner now; ignore_conflicts only
            # keeps a writer that bypassed it from failing the batch.
            LessonCompletion.objects.bulk_create(
                [
                    LessonCompletion(
                        user_id=self.user_id,
                        lesson_id=lesson_id,
                        completed_at=times[lesson_id],
                        device_id=device_id,
                        seq=self.seq,
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
            LessonCompletion.objects.filter(user_id=self.user_id, lesson_id__in=earlier).update(
                completed_at=Case(
                    *(
                        When(lesson_id=lesson_id, then=Value(at))
                        for lesson_id, at in earlier.items()
                    ),
                    output_field=DateTimeField(),
                ),
                device_id=device_id,
                seq=self.seq,
            )
        if created or earlier:
            self._completions_changed = True
            self._note_active(times[i] for i in created | earlier.keys())
        return created

    def flush(self) -> None:
        """Write the stats row: XP total, exercises passed, streak, sync sequence. `stats`
        holds the values written (the row is locked: nobody else changes them meanwhile)."""
        changes: dict[str, Any] = {}
        if self._xp_delta:
            changes["xp_total"] = F("xp_total") + self._xp_delta
            self.stats.xp_total += self._xp_delta
        if self._exercises_delta:
            changes["exercises_passed"] = F("exercises_passed") + self._exercises_delta
            self.stats.exercises_passed += self._exercises_delta
        if self._days:
            changes.update(self._streak_changes(self._days))
        if self._completions_changed:
            changes["sync_seq"] = self.seq
        if changes:
            LearnerStats.objects.filter(pk=self.user_id).update(
                **changes, updated_at=timezone.now()
            )
            summary_cache.note_learner_changed(self.user_id)
        self._xp_delta = 0
        self._exercises_delta = 0
        self._days = set()
        self._completions_changed = False

    def _note_active(self, times: Iterable[datetime]) -> None:
        """Days of activity the server witnessed count for the streak (STREAK_WITNESS_WINDOW)."""
        self._days.update(
            timezone.localtime(at, self.tzinfo).date()
            for at in times
            if at >= self._witnessed_since
        )

    def _streak_changes(self, days: set[date]) -> dict[str, Any]:
        stats = self.stats
        last = stats.last_active_day
        earlier = {d for d in days if last is not None and d < last}
        later = sorted(d for d in days if last is None or d > last)
        if earlier:
            known = set(
                ActivityDay.objects.filter(user_id=self.user_id, day__in=earlier).values_list(
                    "day", flat=True
                )
            )
            earlier -= known
        new_days = sorted(earlier) + later
        if not new_days:
            return {}
        ActivityDay.objects.bulk_create(
            [ActivityDay(user_id=self.user_id, day=d) for d in new_days], ignore_conflicts=True
        )
        if earlier:
            # A day before the last active one can join or bridge runs: count them all again.
            all_days = list(
                ActivityDay.objects.filter(user_id=self.user_id)
                .order_by("day")
                .values_list("day", flat=True)
            )
            current, best = streak_runs(all_days)
            last = all_days[-1]
        else:
            current, best = streak_runs(
                later, current=stats.streak_current, best=stats.streak_best, previous=last
            )
            last = later[-1]
        stats.streak_current, stats.streak_best, stats.last_active_day = current, best, last
        return {"streak_current": current, "streak_best": best, "last_active_day": last}


def streak_runs(
    days: list[date], *, current: int = 0, best: int = 0, previous: date | None = None
) -> tuple[int, int]:
    """(length of the run ending on the last day, longest run) of sorted distinct days,
    continuing runs that stood at `current`/`best` after the day `previous`."""
    for d in days:
        current = current + 1 if previous is not None and d - previous == timedelta(days=1) else 1
        best = max(best, current)
        previous = d
    return current, best


def _lock_stats(*, user_id: int, with_user: bool) -> LearnerStats:
    """The learner's stats row, locked FOR UPDATE; created first if it is their first write."""
    stats = LearnerStats.objects.select_for_update(of=("self",))
    if with_user:
        stats = stats.select_related("user")
    row = stats.filter(user_id=user_id).first()
    if row is None:
        # Two first writes at once: one inserts, the other's insert is ignored; both then
        # queue on the row lock.
        LearnerStats.objects.bulk_create([LearnerStats(user_id=user_id)], ignore_conflicts=True)
        row = stats.get(user_id=user_id)
    return row


def _insert_awards(*, user_id: int, awards: dict[tuple[str, int], _Award]) -> list[tuple[str, int]]:
    """The keys of the awards actually inserted: the total must grow by exactly those."""
    now = timezone.now()
    inserted = insert_ignoring_conflicts(
        XPAward,
        fields=("user", "source_type", "source_id", "amount", "awarded_at", "created_at"),
        rows=[
            (user_id, a.source_type, a.source_id, a.amount, a.awarded_at, now)
            for a in awards.values()
        ],
        conflict_fields=("user", "source_type", "source_id"),
        returning=("source_type", "source_id"),
    )
    return [(source_type, int(source_id)) for source_type, source_id in inserted]


def award_xp(
    *,
    user_id: int,
    source_type: str,
    source_id: int,
    amount: int,
    awarded_at: datetime | None = None,
) -> bool:
    """Append one XP award to the ledger, at most once per (learner, source).

    Returns True when newly awarded, False when this source already paid. The learner's total
    grows by `amount` in the same transaction, only when the row went in; the day it was earned
    (`awarded_at`, default now, in the learner's time zone) counts as active for the streak.
    Safe under concurrency: a unique constraint decides, the learner's row lock orders.
    """
    award = _Award(source_type, source_id, amount, awarded_at or timezone.now())
    # No savepoint: nothing here is caught and retried, an error fails the caller's transaction.
    with transaction.atomic(savepoint=False):
        writer = _LearnerWriter(user_id=user_id)
        inserted = writer.award([award])
        writer.flush()
    return bool(inserted)


def award_xp_batch(*, user_id: int, awards: Iterable[tuple[str, int, int]]) -> set[tuple[str, int]]:
    """award_xp for several (source_type, source_id, amount) at once, earned now, in one
    transaction and three queries. Returns the (source_type, source_id) newly awarded."""
    now = timezone.now()
    batch = [_Award(t, i, amount, now) for t, i, amount in awards]
    with transaction.atomic(savepoint=False):
        writer = _LearnerWriter(user_id=user_id)
        inserted = writer.award(batch)
        writer.flush()
    return {(a.source_type, a.source_id) for a in inserted}


def award_xp_to_learners(
    *, user_ids: Iterable[int], source_type: str, source_id: int, amount: int
) -> set[int]:
    """award_xp of one source to many learners at once, earned now (a retroactive achievement's
    bonus), in a constant number of statements however many learners: their stats rows are
    created where missing and locked in id order (the order any two batches agree on), the
    awards go in with one INSERT ... ON CONFLICT DO NOTHING, totals and streaks are written in
    one UPDATE. Each learner is paid at most once (the ledger's constraint). Returns the ids of
    the learners paid now."""
    ids = sorted(set(user_ids))
    now = timezone.now()
    _Award(source_type, source_id, amount, now)  # validates
    if not ids:
        return set()
    with transaction.atomic(savepoint=False):
        LearnerStats.objects.bulk_create(
            [LearnerStats(user_id=user_id) for user_id in ids], ignore_conflicts=True
        )
        stats = list(
            LearnerStats.objects.select_for_update(of=("self",))
            .select_related("user")
            .filter(user_id__in=ids)
            .order_by("user_id")
        )
        paid = {
            user_id
            for (user_id,) in insert_ignoring_conflicts(
                XPAward,
                fields=("user", "source_type", "source_id", "amount", "awarded_at", "created_at"),
                rows=[(user_id, source_type, source_id, amount, now, now) for user_id in ids],
                conflict_fields=("user", "source_type", "source_id"),
                returning=("user",),
            )
        }
        changed, new_days, recount = [], [], []
        for row in stats:
            if row.user_id not in paid:
                continue
            day = timezone.localtime(now, zoneinfo.ZoneInfo(row.user.time_zone)).date()
            row.xp_total += amount  # safe: the row is locked
            row.exercises_passed += source_type == XPAward.Source.EXERCISE
            row.updated_at = now
            last = row.last_active_day
            if last is None or day > last:
                row.streak_current, row.streak_best = streak_runs(
                    [day], current=row.streak_current, best=row.streak_best, previous=last
                )
                row.last_active_day = day
                new_days.append(ActivityDay(user_id=row.user_id, day=day))
            elif day < last:  # a time zone moved west of its last active day: rare
                recount.append(row)
            changed.append(row)
        ActivityDay.objects.bulk_create(new_days, ignore_conflicts=True)
        written = (
            "xp_total",
            "exercises_passed",
            "streak_current",
            "streak_best",
            "last_active_day",
            "updated_at",
        )
        update_rows(
            LearnerStats,
            keys=["user"],
            fields=written,
            rows=[(row.user_id, *(getattr(row, name) for name in written)) for row in changed],
        )
        for row in recount:  # their runs are counted again from all their days
            writer = _LearnerWriter(user_id=row.user_id, time_zone=row.user.time_zone)
            writer._days = {timezone.localtime(now, writer.tzinfo).date()}
            writer.flush()
        summary_cache.note_learners_changed(sorted(paid))
        if paid and boards.enabled():
            xp_by_learner = {user_id: {now.astimezone(UTC).date(): amount} for user_id in paid}
            transaction.on_commit(
                partial(boards.record_awards_of_learners, xp_by_learner=xp_by_learner)
            )
    return paid
