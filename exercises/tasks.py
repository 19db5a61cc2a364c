"""Grading runs here, in a worker, never in a request."""

from __future__ import annotations

from celery import Task, shared_task
from django.conf import settings

from exercises.services import pipeline, queueing

# Under the broker's visibility timeout, so a running grade is never handed out twice.
_TIME_LIMIT = queueing.grading_time_limit()


@shared_task(
    bind=True,
    name="exercises.grade_submission",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=max(1, _TIME_LIMIT - 1),
    time_limit=_TIME_LIMIT,
    autoretry_for=(pipeline.GraderCrashed,),
    max_retries=pipeline.MAX_GRADING_ATTEMPTS,
    retry_backoff=2,
    retry_backoff_max=settings.CELERY_RETRY_BACKOFF_MAX,
    retry_jitter=True,
)
def grade_submission(self: Task[..., str], submission_id: int) -> str:
    """Grade one submission; idempotent (a graded or invalid submission is left as it is)."""
    # The broker delivers a message again when the worker that took it is gone.
    redelivered = bool((self.request.delivery_info or {}).get("redelivered"))
    return pipeline.grade_submission(submission_id=submission_id, redelivered=redelivered)


@shared_task(name="exercises.requeue_stale_submissions", acks_late=True)
def requeue_stale_submissions() -> int:
    """Periodic: enqueue again the submissions left queued or grading for too long."""
    return queueing.requeue_stale_submissions()
