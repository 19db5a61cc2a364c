"""Periodic work on lessons."""

from __future__ import annotations

import logging

from celery import shared_task

from lessons import live_drafts, services

logger = logging.getLogger(__name__)


@shared_task(name="lessons.publish_due_lessons")
def publish_due_lessons() -> int:
    """Periodic: publish the lessons whose "publish at" has come, and the drafts of live
    lessons whose time has come (idempotent). Returns how many of both."""
    published = services.publish_due_lessons()
    drafts, refused = live_drafts.publish_due_live_drafts()
    if refused:
        # Not an error of the task: an editor changed the live lesson after scheduling.
        logger.warning("scheduled drafts not published, live lesson changed since: %s", refused)
    return published + drafts
