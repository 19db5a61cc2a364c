"""Publishing grading tasks, and the sweep that publishes again what nobody grades."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F, Q

from exercises.models import Submission, SubmissionStatus
from learning_platform import broker, clock, outbox

logger = logging.getLogger(__name__)

# Publishing from a request must not hang when Redis is down: a couple of quick tries (none
# after a broker that did not answer in time), then the submission stays queued for the
# periodic sweep.
ENQUEUE_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.1,
    "interval_max": 0.2,
    "errback": outbox.no_retry_after_silence,
}


def grading_time_limit() -> int:
    """The hard time limit of one grade, in seconds.

    Half the time the broker lets a worker hold a message (Redis's visibility timeout,
    RabbitMQ's consumer timeout; at most 30 s), so a grade still running is never handed to a
    second worker, and a grade started longer ago than this is known to be dead.
    """
    return max(2, min(30, broker.ack_timeout() // 2))


def grading_task_id(submission_id: int, enqueued_at: datetime) -> str:
    """The id of the message published for the submission at `enqueued_at`: a batch that
    claims the submission can then revoke that message (`revoke_grading`). A new publish
    (the sweep, a release) stores a new enqueued_at, so its message has a new id."""
    return f"grade-{submission_id}-{enqueued_at.timestamp():.6f}"


def enqueue_grading(*, submission_id: int, enqueued_at: datetime | None = None) -> bool:
    """Publish the grading task; False (logged) when the broker cannot be reached.

    `enqueued_at`, the value stored on the submission with this publish, names the message
    (`grading_task_id`); without it the message has a random id and cannot be revoked.
    Never raises: it runs after commit, where an exception would turn a stored submission
    into an error answer. A submission left unpublished is picked up by the sweep.
    """
    # exercises.tasks imports the services (its task bodies): imported here, when it runs.
    from exercises.tasks import grade_submission as grade_task

    try:
        # No time limits in the message: the worker applies its own (from its settings), the
        # same it uses to tell a dead grade from a running one.
        grade_task.apply_async(
            args=(submission_id,),
            task_id=grading_task_id(submission_id, enqueued_at) if enqueued_at else None,
            # celery-types says int; None is Celery's own "no limit in the message".
            time_limit=None,  # type: ignore[arg-type]
            soft_time_limit=None,  # type: ignore[arg-type]
            retry=True,
            retry_policy=ENQUEUE_RETRY_POLICY,
        )
    except Exception:
        logger.warning(
            "Could not enqueue grading of submission %s; the sweep will retry.",
            submission_id,
            exc_info=True,
        )
        return False
    return True


def revoke_grading(messages: list[tuple[int, datetime]]) -> None:
    """Tell the workers to drop the messages of these (submission id, enqueued_at), claimed
    by a batch: each worker acknowledges a revoked message without running it (Celery keeps
    the ids, a bounded set, for a few hours). Only a saving: a message that runs anyway finds
    its submission claimed, and skips. Never raises."""
    if not messages:
        return
    # exercises.tasks imports the services (its task bodies): imported here, when it runs.
    from exercises.tasks import grade_submission as grade_task

    app = grade_task.app
    try:
        with app.connection_for_write() as connection:
            # Celery's broadcast retries a lost broker forever: the grades must not wait on it.
            connection.ensure_connection(max_retries=1, interval_start=0)
            app.control.revoke(
                [grading_task_id(*message) for message in messages], connection=connection
            )
    except Exception:
        logger.warning("Could not revoke %d grading message(s).", len(messages), exc_info=True)


def requeue_stale_submissions(*, now: datetime | None = None, batch_size: int = 200) -> int:
    """Enqueue again, oldest first and at most `batch_size`, the submissions nobody grades:
    queued longer than SUBMISSION_REQUEUE_AFTER (the broker was down, the message was lost)
    and grading for longer than the grading time limit (the worker died).

    Duplicates are harmless: grading is idempotent. Stops at the first publish that fails.
    Returns how many were enqueued.
    """
    now = now or clock.now()
    not_since = now - settings.SUBMISSION_REQUEUE_AFTER
    started_before = now - timedelta(seconds=grading_time_limit())
    not_enqueued_lately = Q(enqueued_at__lt=not_since) | Q(enqueued_at__isnull=True)
    stale = Submission.objects.filter(
        not_enqueued_lately,
        Q(status=SubmissionStatus.QUEUED)
        | Q(status=SubmissionStatus.GRADING, grading_started_at__lt=started_before),
    )
    oldest_first = stale.order_by(F("enqueued_at").asc(nulls_first=True), "id")
    ids = list(oldest_first.values_list("id", flat=True)[:batch_size])
    enqueued = []
    for submission_id in ids:
        if not enqueue_grading(submission_id=submission_id, enqueued_at=now):
            break
        enqueued.append(submission_id)
    if enqueued:
        Submission.objects.filter(id__in=enqueued).update(enqueued_at=now)
        logger.info("Re-enqueued %d stale submission(s).", len(enqueued))
    return len(enqueued)
