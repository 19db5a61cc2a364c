"""Learning records: store a statement when something happens, send them to the LRS in
batches. Off (nothing stored) while XAPI_LRS_URL is unset."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import requests
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from exercises import events as exercise_events
from exercises import selectors as exercise_selectors
from lessons import selectors as lesson_selectors
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


def record_check_answer(event: exercise_events.CheckAnswered) -> None:
    """Store the `answered` statement of an answer to a lesson's check, and the lesson's
    `completed` one when it passed the lesson's last check; the sender goes after commit."""
    if not enabled():
        return
    site = settings.FRONTEND_URL
    slug = lesson_selectors.lesson_slug(lesson_id=event.lesson_id) or str(event.lesson_id)
    key = f"{event.user_id}:{event.check_id}:{event.answered_at.isoformat()}"
    answered_id = statements.statement_id("exercises_checkanswer", key)
    rows = [
        Statement(
            id=answered_id,
            user_id=event.user_id,
            verb="answered",
            body=statements.answered(
                statement=answered_id,
                site=site,
                user_id=event.user_id,
                check_id=event.check_id,
                lesson_slug=slug,
                correct=event.correct,
                first_try=event.first_try,
                at=event.answered_at,
                duration_ms=event.duration_ms,
            ),
        )
    ]
    if event.correct and not event.passed_before:
        standings = exercise_selectors.lesson_check_standings(
            user_id=event.user_id, lesson_id=event.lesson_id
        )
        if standings and all(standing["passed"] for standing in standings):
            completed_id = statements.statement_id(
                "progress_lessoncompletion", f"{event.user_id}:{event.lesson_id}"
            )
            rows.append(
                Statement(
                    id=completed_id,
                    user_id=event.user_id,
                    verb="completed",
                    body=statements.completed(
                        statement=completed_id,
                        site=site,
                        user_id=event.user_id,
                        lesson_slug=slug,
                        at=event.answered_at,
                    ),
                )
            )
    # The primary key stores each statement once: an answer announced again adds nothing.
    Statement.objects.bulk_create(rows, ignore_conflicts=True)
    # xapi.tasks imports the services: the task module is loaded when first used.
    from xapi import tasks

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
            sent_at=timezone.now(), last_error=""
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
                sent_at=timezone.now(), last_error=f"409: {response.text[:500]}"
            )
            continue
        if not response.ok:
            raise LrsUnavailable(f"{response.status_code}: {response.text[:500]}")
        stored += 1
        Statement.objects.filter(pk=row.pk).update(sent_at=timezone.now(), last_error="")
    return Sent(stored, conflicts)


def unsent_count() -> int:
    return Statement.objects.filter(sent_at__isnull=True).count()
