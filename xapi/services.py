"""Learning records: store a statement when something happens, send them to the LRS in
batches. Off (nothing stored) while XAPI_LRS_URL is unset."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import requests
from django.conf import settings
from django.db import transaction
from django.db.models import F

from achievements import events as achievement_events
from exercises import events as exercise_events
from exercises import selectors as exercise_selectors
from learning_platform import clock
from lessons import selectors as lesson_selectors
from progress import events as progress_events
from progress import selectors as progress_selectors
from reviews import events as review_events
from xapi import statements
from xapi.models import Statement

logger = logging.getLogger(__name__)

BATCH_SIZE = 200
LRS_TIMEOUT = 10
XAPI_VERSION = "1.0.3"


class LrsUnavailable(Exception):
    """The LRS did not take a batch for a reason that may pass: the statements wait."""


@dataclass(frozen=True)
class Sent:
    stored: int
    conflicts: int


def enabled() -> bool:
    return bool(settings.XAPI_LRS_URL)


def _row(
    source: str, key: str, *, user_id: int, build: Callable[..., dict[str, Any]], **facts: Any
) -> Statement:
    """The statement `build(...)` makes of `facts`, its id uuid5 of the row it records
    (`<source>:<key>`), its actor the learner's account on this site."""
    statement = statements.statement_id(source, key)
    body = build(statement=statement, site=settings.FRONTEND_URL, user_id=user_id, **facts)
    return Statement(
        id=statement, user_id=user_id, verb=body["verb"]["display"]["en-US"], body=body
    )


def record_check_answer(event: exercise_events.CheckAnswered) -> None:
    """Store the `answered` statement of an answer to a lesson's check, and the lesson's
    `completed` one when it passed the lesson's last check; the sender goes after commit."""
    if not enabled():
        return
    slug = lesson_selectors.lesson_slug(lesson_id=event.lesson_id) or str(event.lesson_id)
    rows = [
        _row(
            "exercises_checkanswer",
            f"{event.user_id}:{event.check_id}:{event.answered_at.isoformat()}",
            user_id=event.user_id,
            build=statements.answered,
            check_id=event.check_id,
            lesson_slug=slug,
            correct=event.correct,
            first_try=event.first_try,
            at=event.answered_at,
            duration_ms=event.duration_ms,
        )
    ]
    if event.correct and not event.passed_before:
        standings = exercise_selectors.lesson_check_standings(
            user_id=event.user_id, lesson_id=event.lesson_id
        )
        if standings and all(standing["passed"] for standing in standings):
            rows.append(
                _row(
                    "progress_lessoncompletion",
                    f"{event.user_id}:{event.lesson_id}",
                    user_id=event.user_id,
                    build=statements.completed,
                    lesson_slug=slug,
                    at=event.answered_at,
                )
            )
    _store(rows)


def record_review(event: review_events.ReviewAnswered) -> None:
    """Store the `answered` statement of a due review card answered (its review log row)."""
    if not enabled():
        return
    slug = lesson_selectors.lesson_slug(lesson_id=event.lesson_id) or str(event.lesson_id)
    _store(
        [
            _row(
                "reviews_reviewlog",
                str(event.log_id),
                user_id=event.user_id,
                build=statements.answered,
                check_id=event.check_id,
                lesson_slug=slug,
                correct=event.correct,
                review_rating=event.rating,
                at=event.reviewed_at,
                duration_ms=event.duration_ms,
            )
        ]
    )


def record_unlocks(event: achievement_events.AchievementsUnlocked) -> None:
    """Store an `earned` statement for each achievement unlocked (its unlock row, unique per
    learner and achievement)."""
    if not enabled():
        return
    _store(
        [
            _row(
                "achievements_achievementunlock",
                f"{unlock.user_id}:{unlock.achievement_id}",
                user_id=unlock.user_id,
                build=statements.earned_achievement,
                slug=unlock.slug,
                title=unlock.title,
                at=unlock.unlocked_at,
            )
            for unlock in event.unlocks
        ]
    )


def record_levels_reached(event: progress_events.XpAwardsPaid) -> None:
    """Store an `earned` statement for each level an award lifted a learner to. A level is
    read off the ledger row that crossed its threshold (unique per learner and XP source),
    so the same crossing always has the same id; a level is not stored as a row of its own."""
    if not enabled():
        return
    curve = progress_selectors.level_curve()
    _store(
        [
            _row(
                "progress_xpaward",
                f"{paid.user_id}:{paid.source_type}:{paid.source_id}:level-{level.number}",
                user_id=paid.user_id,
                build=statements.earned_level,
                number=level.number,
                name=level.name,
                xp_total=paid.xp_after,
                at=paid.awarded_at,
            )
            for paid in event.awards
            for level in progress_selectors.levels_crossed(
                xp_before=paid.xp_before, xp_after=paid.xp_after, curve=curve
            )
        ]
    )


def _store(rows: list[Statement]) -> None:
    """Keep the statements and send them after commit. The primary key stores each once: an
    event announced again adds nothing."""
    if not rows:
        return
    Statement.objects.bulk_create(rows, ignore_conflicts=True)
    # xapi.tasks imports the services: the task module is loaded when first used.
    from xapi import tasks

    # celery-types types a shared_task as Celery's Task; the app's is a DjangoTask.
    tasks.send_statements.delay_on_commit()  # type: ignore[attr-defined]


def _post(batch: list[dict[str, Any]]) -> requests.Response:
    auth = None
    if settings.XAPI_LRS_USERNAME:
        auth = (settings.XAPI_LRS_USERNAME, settings.XAPI_LRS_PASSWORD)
    try:
        return requests.post(
            settings.XAPI_LRS_URL.rstrip("/") + "/statements",
            json=batch,
            auth=auth,
            headers={"X-Experience-API-Version": XAPI_VERSION},
            timeout=LRS_TIMEOUT,
        )
    except requests.RequestException as error:
        raise LrsUnavailable(str(error)) from error


def send_statements(*, batch_size: int = BATCH_SIZE) -> Sent:
    """Send the oldest unsent statements, one batch; each is marked sent once the LRS has it.
    A batch refused with 409 (a statement the LRS holds with other content) is sent again one
    by one, and each conflict is logged once and not retried. Raises LrsUnavailable when the
    LRS is down or fails: the statements stay unsent, none is lost."""
    if not enabled():
        return Sent(0, 0)
    with transaction.atomic():
        rows = list(
            Statement.objects.select_for_update(skip_locked=True)
            .filter(sent_at__isnull=True)
            .order_by("created_at", "id")[:batch_size]
        )
        if not rows:
            return Sent(0, 0)
        Statement.objects.filter(pk__in=[r.pk for r in rows]).update(attempts=F("attempts") + 1)
        response = _post([row.body for row in rows])
        if response.status_code == 409:
            return _send_one_by_one(rows)
        if not response.ok:
            raise LrsUnavailable(f"{response.status_code}: {response.text[:500]}")
        Statement.objects.filter(pk__in=[r.pk for r in rows]).update(
            sent_at=clock.now(), last_error=""
        )
    return Sent(len(rows), 0)


def _send_one_by_one(rows: list[Statement]) -> Sent:
    stored = conflicts = 0
    for row in rows:
        response = _post([row.body])
        if response.status_code == 409:
            conflicts += 1
            logger.warning("xapi statement %s conflicts with the LRS's copy: not resent", row.pk)
            Statement.objects.filter(pk=row.pk).update(
                sent_at=clock.now(), last_error=f"409: {response.text[:500]}"
            )
            continue
        if not response.ok:
            raise LrsUnavailable(f"{response.status_code}: {response.text[:500]}")
        stored += 1
        Statement.objects.filter(pk=row.pk).update(sent_at=clock.now(), last_error="")
    return Sent(stored, conflicts)


def unsent_count() -> int:
    return Statement.objects.filter(sent_at__isnull=True).count()
