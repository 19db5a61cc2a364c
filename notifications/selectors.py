"""Reads of notifications and e-mail deliveries."""

from __future__ import annotations

from datetime import datetime

from django.db.models import QuerySet

from accounts.models import User
from notifications.models import EmailDelivery, EmailState, Notification

# A delivery that failed this often is marked failed (`failed_at`), for a person to look at.
MAX_DELIVERY_ATTEMPTS = 20


def notifications_for(*, user: User, unread_only: bool = False) -> QuerySet[Notification]:
    """The learner's own notifications, newest first."""
    notifications = Notification.objects.filter(recipient=user).order_by("-created_at", "-id")
    if unread_only:
        notifications = notifications.filter(read_at__isnull=True)
    return notifications


def unread_notification_count(*, user: User) -> int:
    return Notification.objects.filter(recipient=user, read_at__isnull=True).count()


def unsent_delivery_ids(*, recipient_id: int) -> list[int]:
    return list(
        EmailDelivery.objects.filter(
            recipient_id=recipient_id, sent_at__isnull=True, failed_at__isnull=True
        )
        .order_by("id")
        .values_list("id", flat=True)
    )


def users_with_overdue_notifications(*, before: datetime, limit: int) -> list[int]:
    """Users with notifications waiting for an e-mail since before `before`, or with a
    per-user e-mail left unsent since then."""
    waiting = Notification.objects.filter(
        email_state=EmailState.PENDING, created_at__lt=before
    ).values_list("recipient_id", flat=True)
    stuck = EmailDelivery.objects.filter(
        recipient__isnull=False,
        sent_at__isnull=True,
        failed_at__isnull=True,
        created_at__lt=before,
    ).values_list("recipient_id", flat=True)
    return sorted(set(waiting.distinct()[:limit]) | set(stuck.distinct()[:limit]))[:limit]


def overdue_anonymous_delivery_ids(*, before: datetime, limit: int) -> list[int]:
    return list(
        EmailDelivery.objects.filter(
            recipient__isnull=True,
            sent_at__isnull=True,
            failed_at__isnull=True,
            created_at__lt=before,
        )
        .order_by("id")
        .values_list("id", flat=True)[:limit]
    )
