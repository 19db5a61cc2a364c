"""Periodic work on lessons."""

from __future__ import annotations

from celery import shared_task

from lessons import services


@shared_task(name="lessons.publish_due_lessons")
def publish_due_lessons() -> int:
    """Periodic: publish the lessons whose "publish at" has come (idempotent)."""
    return services.publish_due_lessons()
