"""Merging a device's offline events into the learner's progress."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import OuterRef, Subquery
from rest_framework.exceptions import ValidationError

from accounts.models import User
from learning_platform import clock
from lessons import selectors as lessons
from progress.models import LessonCompletion, XPAward
from progress.services.completions import _announce_completions
from progress.services.ledger import Award, _LearnerWriter
from progress.sync_events import (
    MAX_SYNC_EVENTS,
    SyncEventSerializer,
    TooManyEvents,
    first_error,
)

# A device clock a little ahead of ours is not lying about the future.
ALLOWED_CLOCK_SKEW = timedelta(minutes=5)
# Progress kept on a device before its learner signed up syncs on sign-in; anything older
# than this before the account existed is a broken clock or a forged event.
OFFLINE_HISTORY_LIMIT = timedelta(days=365)


@dataclass(frozen=True)
class _LessonEvent:
    event_id: str
    lesson_slug: str
    occurred_at: datetime


@dataclass(frozen=True)
class SyncOutcome:
    rejected: list[dict[str, Any]]
    new_achievements: list[Mapping[str, Any]]
    lessons_added: int
    xp_awarded: int


def _rejection(event_id: Any, reason: str, detail: str) -> dict[str, Any]:
    return {
        "id": event_id if isinstance(event_id, str) else None,
        "reason": reason,
        "detail": detail,
    }


def _parse_event(
    raw: Any, *, shape: SyncEventSerializer, now: datetime, not_before: datetime
) -> _LessonEvent | dict[str, Any]:
    """A well-formed lesson event, or the rejection saying why not.

    The shape is SyncEventSerializer's (the one definition, also the API's docs), checked one
    event at a time so a bad one is rejected with its reason instead of failing the batch. One
    serializer checks every event of a batch, as DRF's ListSerializer does with its child:
    building one per event would cost more than the rest of the check.
    """
    try:
        data = shape.run_validation(raw)
    except ValidationError as error:
        raw_id = raw.get("id") if isinstance(raw, dict) else None
        return _rejection(raw_id, "malformed", first_error(error.detail))  # type: ignore[arg-type]  # a dict for a Serializer
    occurred_at = data["occurred_at"]
    if occurred_at < not_before:
        return _rejection(raw["id"], "too_old", "occurred_at is long before this account existed.")
    if occurred_at > now + ALLOWED_CLOCK_SKEW:
        return _rejection(raw["id"], "future_time", "occurred_at is in the future.")
    return _LessonEvent(event_id=data["id"], lesson_slug=data["lesson"], occurred_at=occurred_at)


def sync_progress(*, user: User, device_id: str, events: list[Any]) -> SyncOutcome:
    """Merge a device's events into the learner's progress.

    Completions are a grow-only set and the earliest valid time of a lesson wins; XP comes from
    the server's own rules. Replaying a batch, or two devices sending the same events at once,
    changes nothing the second time. Each bad event is rejected with a reason
    (malformed, future_time, unknown_lesson: no such lesson, or a draft, checks_required: a
    lesson with checks is completed by its answers, synced by exercises.services) and the rest
    applies.
    Raises TooManyEvents above MAX_SYNC_EVENTS.
    """
    if len(events) > MAX_SYNC_EVENTS:
        raise TooManyEvents()
    now = clock.now()
    not_before = user.date_joined - OFFLINE_HISTORY_LIMIT
    shape = SyncEventSerializer()
    rejected: list[dict[str, Any]] = []
    parsed: list[_LessonEvent] = []
    for raw in events:
        outcome = _parse_event(raw, shape=shape, now=now, not_before=not_before)
        if isinstance(outcome, _LessonEvent):
            parsed.append(outcome)
        else:
            rejected.append(outcome)

    with transaction.atomic(savepoint=False):
        writer = _LearnerWriter(user_ids=[user.pk])
        # The lessons, each with the learner's recorded completion time, read under the lock.
        rows = {
            row["slug"]: row
            for row in lessons.lesson_rows(
                slugs={e.lesson_slug for e in parsed},
                completed_at=Subquery(
                    LessonCompletion.objects.filter(
                        user_id=user.pk, lesson_id=OuterRef("pk")
                    ).values("completed_at")[:1]
                ),
                checks=lessons.check_count(),
            )
        }
        earliest: dict[int, datetime] = {}
        for event in parsed:
            lesson = rows.get(event.lesson_slug)
            if lesson is None or not lesson["published"]:
                # A draft is answered as an unknown slug: else a sync would tell which
                # unpublished lessons exist (issue 41).
                rejected.append(_rejection(event.event_id, "unknown_lesson", "No such lesson."))
            elif lesson["checks"] and lesson["completed_at"] is None:
                # Its checks complete it and pay its XP: they are synced as answers.
                rejected.append(
                    _rejection(
                        event.event_id,
                        "checks_required",
                        "This lesson is completed by answering its checks.",
                    )
                )
            else:
                known = earliest.get(lesson["id"])
                earliest[lesson["id"]] = min(known or event.occurred_at, event.occurred_at)
        created = writer.complete_lessons(
            user_id=user.pk,
            times=earliest,
            device_id=device_id,
            existing={
                row["id"]: row["completed_at"]
                for row in rows.values()
                if row["completed_at"] is not None
            },
        )
        # Every valid completion is owed its XP, not only the new ones: the ledger knows what
        # was paid already.
        xp_by_lesson = {row["id"]: 0 if row["checks"] else row["xp"] for row in rows.values()}
        awarded = writer.award(
            Award(user.pk, XPAward.Source.LESSON, lesson_id, xp_by_lesson[lesson_id], at)
            for lesson_id, at in sorted(earliest.items())
            if xp_by_lesson[lesson_id]
        )
        writer.flush()
        new_achievements = _announce_completions(user_id=user.pk)
    return SyncOutcome(
        rejected=rejected,
        new_achievements=new_achievements,
        lessons_added=len(created),
        xp_awarded=sum(a.amount for a in awarded),
    )
