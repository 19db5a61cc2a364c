"""Background work of the notifications app. Each task takes ids, calls one service, is
idempotent. The task names keep the `community.` prefix they were published under: queued
messages and the beat schedule name them."""

from __future__ import annotations

from smtplib import SMTPException

from celery import shared_task
from django.db import OperationalError
from pywebpush import WebPushException
from requests import RequestException

from learning_platform.tasks import retrying
from notifications import push, services

# A mail server that is down or refuses for a while: retry with growing, jittered delays, each
# under the broker's visibility timeout; after the last one the e-mail waits, unsent, for the
# periodic sweep (send_overdue_emails), which tries it again every minute.
MAIL_ERRORS = (SMTPException, OSError, OperationalError)
MAIL_RETRY = retrying(*MAIL_ERRORS, max_retries=10, backoff=30)


@shared_task(name="community.send_notification_emails", **MAIL_RETRY)
def send_notification_emails(user_id: int) -> None:
    """Send the user one e-mail covering all their notifications not e-mailed yet."""
    services.send_notification_emails(user_id=user_id)


@shared_task(name="notifications.send_notification_emails_to", **MAIL_RETRY)
def send_notification_emails_to(user_ids: list[int]) -> None:
    """Send each of these users one e-mail of their notifications not e-mailed yet. One task
    for many: a league's close tells a cohort at once. A retry sends only what is still
    unsent, so the users already served get nothing twice."""
    for user_id in user_ids:
        services.send_notification_emails(user_id=user_id)


@shared_task(name="community.send_email_delivery", **MAIL_RETRY)
def send_email_delivery(delivery_id: int) -> None:
    """Send one recorded e-mail unless it was sent already."""
    services.send_email_delivery(delivery_id=delivery_id)


@shared_task(name="community.send_overdue_emails")
def send_overdue_emails() -> None:
    """Periodic (every minute): enqueue the digests now due, and e-mails whose own task was
    lost or gave up."""
    user_ids, delivery_ids = services.overdue_email_work()
    for user_id in user_ids:
        send_notification_emails.delay(user_id)
    for delivery_id in delivery_ids:
        send_email_delivery.delay(delivery_id)


# A push service that is down or throttling (5xx, 429, a timeout): retried like the mail server.
# After the last retry the devices not reached miss this notification; it is still in the app.
PUSH_RETRY = retrying(
    WebPushException, RequestException, OperationalError, max_retries=5, backoff=30
)


@shared_task(name="notifications.send_push_notification", **PUSH_RETRY)
def send_push_notification(notification_id: int) -> None:
    """Push one notification to its recipient's devices not yet served."""
    push.send_push_notification(notification_id=notification_id)
