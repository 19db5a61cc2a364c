"""Background work of the community app. Each task takes ids, calls one service, is idempotent.

The e-mails these tasks lead to are sent by the notifications app's tasks.
"""

from __future__ import annotations

from celery import shared_task

from community.services import fanout, reports
from learning_platform.tasks import DB_RETRY
from notifications.tasks import MAIL_RETRY


@shared_task(name="community.notify_about_comment", **DB_RETRY)
def notify_about_comment(comment_id: int) -> None:
    """Create the in-app notifications for a new comment (the digest e-mails follow)."""
    fanout.notify_about_comment(comment_id=comment_id)


@shared_task(name="community.notify_report_resolved", **MAIL_RETRY)
def notify_report_resolved(report_id: int) -> None:
    """Tell a reporter their issue report was resolved (in-app and/or e-mail)."""
    reports.notify_report_resolved(report_id=report_id)
