"""Writes of the progress app: the XP ledger, lesson completions, streaks and device sync.

Every write for a learner first locks that learner's `LearnerStats` row (see `_LearnerWriter`),
so two requests of one learner apply one after the other and the totals, the streak and the
sync sequence never interleave. The unique constraints on the ledger and on completions are
the last word on "at most once", whatever reaches the database.
"""

from __future__ import annotations

import uuid
import zoneinfo
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from functools import partial
from typing import Any

from django.db import connection, transaction
from django.db.models import Case, DateTimeField, F, OuterRef, Subquery, Value, When
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from accounts.models import User
from learning_platform.db import insert_ignoring_conflicts, update_rows
from lessons.models import Lesson
from progress import boards, events, selectors, summary_cache
from progress.models import ActivityDay, LearnerStats, LessonCompletion, XPAward

MAX_SYNC_EVENTS = 500
# A device clock a little ahead of ours is not lying about the future.
ALLOWED_CLOCK_SKEW = timedelta(minutes=5)
# Progress kept on a device before its learner signed up syncs on sign-in; anything older
# than this before the account existed is a broken clock or a forged event.
OFFLINE_HISTORY_LIMIT = timedelta(days=365)
# Streaks count only days the server could witness: activity that reached it within this long
# of when it happened. Older offline history still counts for lessons and XP, not for the
# streak (or the achievements measured by it); otherwise a new account could sync a year of
# back-dated events and hold a year-long streak at once.
STREAK_WITNESS_WINDOW = timedelta(hours=48)
SYNC_EVENT_TYPES = frozenset({"lesson_completed"})


class LessonNotFound(Exception):
    """No published lesson has this slug."""


class TooManyEvents(Exception):
    """A sync batch above MAX_SYNC_EVENTS."""


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
        """Write the stats row: XP total, streak, sync sequence."""
        changes: dict[str, Any] = {}
        if self._xp_delta:
            changes["xp_total"] = F("xp_total") + self._xp_delta
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
        written = ("xp_total", "streak_current", "streak_best", "last_active_day", "updated_at")
        update_rows(
            LearnerStats,
            keys=["user"],
            fields=written,
            rows=[(row.user_id, *(getattr(row, name) for name in written)) for row in changed],
        )
        for row in recount:  # their runs are counted again from all their days
            writer = _LearnerWriter(user_id=row.user_id, time_zone=row.user.time_zone)
            writer._days = {writer._day(now)}
            writer.flush()
        summary_cache.note_learners_changed(sorted(paid))
        if paid and boards.enabled():
            xp_by_learner = {user_id: {now.astimezone(UTC).date(): amount} for user_id in paid}
            transaction.on_commit(
                partial(boards.record_awards_of_learners, xp_by_learner=xp_by_learner)
            )
    return paid


def _announce_completions(*, user_id: int) -> list[dict[str, Any]]:
    """Tell the apps above progress, inside the open transaction; what it unlocked."""
    unlocked = events.lessons_completed.announce(events.LessonsCompleted(user_id=user_id))
    return [item for items in unlocked for item in items]


@dataclass(frozen=True)
class CompletionOutcome:
    lesson_slug: str
    created: bool
    completed_at: datetime
    xp_awarded: int
    xp_total: int
    level_before: dict[str, Any]
    level_after: dict[str, Any]
    new_achievements: list[dict[str, Any]] = field(default_factory=list)

    @property
    def level_up(self) -> bool:
        return self.level_after["number"] > self.level_before["number"]


def complete_lesson(*, user: User, lesson_slug: str) -> CompletionOutcome:
    """Mark a published lesson completed by the learner, once.

    The first call records the completion, pays the lesson's XP and unlocks what it earns;
    later calls change nothing and report `created=False`, `xp_awarded=0`.
    Raises LessonNotFound for unknown and draft lessons.
    """
    lesson = Lesson.objects.published().filter(slug=lesson_slug).values("id", "xp").first()
    if lesson is None:
        raise LessonNotFound(lesson_slug)
    curve = selectors.level_curve()
    now = timezone.now()
    with transaction.atomic(savepoint=False):
        writer = _LearnerWriter(user_id=user.pk, time_zone=user.time_zone)
        xp_before = writer.stats.xp_total
        created = bool(writer.complete_lessons({lesson["id"]: now}, device_id=""))
        if created:
            awarded = writer.award([_Award(XPAward.Source.LESSON, lesson["id"], lesson["xp"], now)])
            writer.flush()
            new_achievements = _announce_completions(user_id=user.pk)
            completed_at = now
            xp_awarded = sum(a.amount for a in awarded)
            xp_after = selectors.xp_total(user_id=user.pk)
        else:
            completed_at = LessonCompletion.objects.values_list("completed_at", flat=True).get(
                user_id=user.pk, lesson_id=lesson["id"]
            )
            new_achievements, xp_awarded, xp_after = [], 0, xp_before
    return CompletionOutcome(
        lesson_slug=lesson_slug,
        created=created,
        completed_at=completed_at,
        xp_awarded=xp_awarded,
        xp_total=xp_after,
        level_before=selectors.level_progress(xp=xp_before, curve=curve)["level"],
        level_after=selectors.level_progress(xp=xp_after, curve=curve)["level"],
        new_achievements=new_achievements,
    )


@dataclass(frozen=True)
class _LessonEvent:
    event_id: str
    lesson_slug: str
    occurred_at: datetime


@dataclass(frozen=True)
class SyncOutcome:
    rejected: list[dict[str, Any]]
    new_achievements: list[dict[str, Any]]
    lessons_added: int
    xp_awarded: int


def _rejection(event_id: Any, reason: str, detail: str) -> dict[str, Any]:
    return {
        "id": event_id if isinstance(event_id, str) else None,
        "reason": reason,
        "detail": detail,
    }


def _parse_event(raw: Any, *, now: datetime, not_before: datetime) -> _LessonEvent | dict[str, Any]:
    """A well-formed lesson event, or the rejection saying why not."""
    if not isinstance(raw, dict):
        return _rejection(None, "malformed", "An event is a JSON object.")
    raw_id = raw.get("id")
    try:
        event_id = str(uuid.UUID(raw_id)) if isinstance(raw_id, str) else None
    except ValueError:
        event_id = None
    if event_id is None:
        return _rejection(raw_id, "malformed", "id must be a UUID.")
    if raw.get("type") not in SYNC_EVENT_TYPES:
        return _rejection(
            raw_id, "malformed", f"type must be one of: {', '.join(SYNC_EVENT_TYPES)}."
        )
    slug = raw.get("lesson")
    if not isinstance(slug, str) or not slug or len(slug) > 100:
        return _rejection(raw_id, "malformed", "lesson must be a lesson slug.")
    raw_time = raw.get("occurred_at")
    try:
        occurred_at = parse_datetime(raw_time) if isinstance(raw_time, str) else None
    except ValueError:
        occurred_at = None
    if occurred_at is None:
        return _rejection(raw_id, "malformed", "occurred_at must be an ISO 8601 date and time.")
    if timezone.is_naive(occurred_at):
        return _rejection(raw_id, "malformed", "occurred_at needs a UTC offset, e.g. Z.")
    try:
        occurred_at = occurred_at.astimezone(UTC)
    except OverflowError:  # e.g. 0001-01-01T00:00:00+14:00 falls before year 1 in UTC
        return _rejection(raw_id, "malformed", "occurred_at is out of range.")
    if occurred_at < not_before:
        return _rejection(raw_id, "too_old", "occurred_at is long before this account existed.")
    if occurred_at > now + ALLOWED_CLOCK_SKEW:
        return _rejection(raw_id, "future_time", "occurred_at is in the future.")
    return _LessonEvent(event_id=event_id, lesson_slug=slug, occurred_at=occurred_at)


def sync_progress(*, user: User, device_id: str, events: list[Any]) -> SyncOutcome:
    """Merge a device's events into the learner's progress.

    Completions are a grow-only set and the earliest valid time of a lesson wins; XP comes from
    the server's own rules. Replaying a batch, or two devices sending the same events at once,
    changes nothing the second time. Each bad event is rejected with a reason
    (malformed, future_time, unknown_lesson, draft_lesson) and the rest still applies.
    Raises TooManyEvents above MAX_SYNC_EVENTS.
    """
    if len(events) > MAX_SYNC_EVENTS:
        raise TooManyEvents(len(events))
    now = timezone.now()
    rejected: list[dict[str, Any]] = []
    parsed: list[_LessonEvent] = []
    for raw in events:
        outcome = _parse_event(raw, now=now, not_before=user.date_joined - OFFLINE_HISTORY_LIMIT)
        if isinstance(outcome, _LessonEvent):
            parsed.append(outcome)
        else:
            rejected.append(outcome)

    with transaction.atomic(savepoint=False):
        writer = _LearnerWriter(user_id=user.pk, time_zone=user.time_zone)
        # The lessons, each with the learner's recorded completion time, read under the lock.
        lessons = {
            row["slug"]: row
            for row in Lesson.objects.filter(slug__in={e.lesson_slug for e in parsed})
            .annotate(
                completed_at=Subquery(
                    LessonCompletion.objects.filter(
                        user_id=user.pk, lesson_id=OuterRef("pk")
                    ).values("completed_at")[:1]
                )
            )
            .values("id", "slug", "xp", "published", "completed_at")
        }
        earliest: dict[int, datetime] = {}
        for event in parsed:
            lesson = lessons.get(event.lesson_slug)
            if lesson is None:
                rejected.append(_rejection(event.event_id, "unknown_lesson", "No such lesson."))
            elif not lesson["published"]:
                rejected.append(
                    _rejection(event.event_id, "draft_lesson", "The lesson is a draft.")
                )
            else:
                known = earliest.get(lesson["id"])
                earliest[lesson["id"]] = min(known or event.occurred_at, event.occurred_at)
        created = writer.complete_lessons(
            earliest,
            device_id=device_id,
            existing={
                row["id"]: row["completed_at"]
                for row in lessons.values()
                if row["completed_at"] is not None
            },
        )
        # Every valid completion is owed its XP, not only the new ones: the ledger knows what
        # was paid already.
        xp_by_lesson = {row["id"]: row["xp"] for row in lessons.values()}
        awarded = writer.award(
            _Award(XPAward.Source.LESSON, lesson_id, xp_by_lesson[lesson_id], at)
            for lesson_id, at in sorted(earliest.items())
        )
        writer.flush()
        new_achievements = _announce_completions(user_id=user.pk)
    return SyncOutcome(
        rejected=rejected,
        new_achievements=new_achievements,
        lessons_added=len(created),
        xp_awarded=sum(a.amount for a in awarded),
    )


def note_progress_changed(*, user_id: int) -> None:
    """Tell the progress app that something its header counts changed for this learner (an
    achievement unlocked without XP), so its cached header is rebuilt on the next read."""
    summary_cache.note_learner_changed(user_id)


def note_progress_changed_of_learners(*, user_ids: list[int]) -> None:
    """note_progress_changed for many learners at once."""
    summary_cache.note_learners_changed(user_ids)
