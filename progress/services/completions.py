"""Completing a lesson, and telling the apps above progress about it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction

from accounts.models import User
from learning_platform import clock
from learning_platform.errors import Conflict, NotFound
from lessons import selectors as lessons
from progress import events, selectors
from progress.models import LessonCompletion, XPAward
from progress.services.ledger import Award, _LearnerWriter


class LessonNotFound(NotFound):
    """No published lesson has this slug."""

    default_detail = "No published lesson with this slug."


class ChecksRequired(Conflict):
    """The lesson asks checks: it is completed by passing them, not by saying so."""

    code = "checks_required"
    default_detail = "This lesson is completed by answering its checks."


def _announce_completions(*, user_id: int) -> list[Mapping[str, Any]]:
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
    new_achievements: list[Mapping[str, Any]] = field(default_factory=list)

    @property
    def level_up(self) -> bool:
        return bool(self.level_after["number"] > self.level_before["number"])


def complete_lesson(*, user: User, lesson_slug: str) -> CompletionOutcome:
    """Mark a published lesson completed by the learner, once.

    The first call records the completion, pays the lesson's XP and unlocks what it earns;
    later calls change nothing and report `created=False`, `xp_awarded=0`.
    Raises LessonNotFound for unknown and draft lessons, ChecksRequired for a lesson that asks
    checks (its checks complete it and pay its XP).
    """
    lesson = lessons.published_lesson(slug=lesson_slug)
    if lesson is None:
        raise LessonNotFound()
    if lesson["checks"]:
        raise ChecksRequired()
    curve = selectors.level_curve()
    now = clock.now()
    with transaction.atomic(savepoint=False):
        writer = _LearnerWriter(user_ids=[user.pk])
        xp_before = writer.stats[user.pk].xp_total
        created = bool(
            writer.complete_lessons(user_id=user.pk, times={lesson["id"]: now}, device_id="")
        )
        if created:
            awarded = writer.award(
                [Award(user.pk, XPAward.Source.LESSON, lesson["id"], lesson["xp"], now)]
            )
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


def record_completions(
    *, user_id: int, times: dict[int, datetime], device_id: str = ""
) -> list[Mapping[str, Any]]:
    """Record lessons completed by passing their checks (lesson id -> when), whose XP the checks
    paid; the earliest time of a lesson wins. Returns the achievements this unlocked.

    In the caller's transaction, under the learner's progress lock, like every progress write.
    """
    with transaction.atomic(savepoint=False):
        writer = _LearnerWriter(user_ids=[user_id])
        created = writer.complete_lessons(user_id=user_id, times=times, device_id=device_id)
        writer.flush()
        return _announce_completions(user_id=user_id) if created else []
