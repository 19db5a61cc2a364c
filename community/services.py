"""Writes of the community app: comments, follows, notifications, e-mails, issue reports."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from community.models import EmailState, Notification


def create_notification(
    *,
    recipient_id: int,
    kind: str,
    title: str,
    body: str = "",
    url: str = "",
    dedupe_key: str,
    data: dict[str, Any] | None = None,
    email: bool = False,
) -> Notification | None:
    """Create one in-app notification, at most once per (recipient, dedupe_key).

    Returns the new notification, or None when one with that key already existed (the
    unique constraint decides, so concurrent callers cannot both create it). With
    `email=True` it also waits for the recipient's next notification e-mail (if they take
    e-mails); the caller schedules `community.send_notification_emails`.
    """
    try:
        with transaction.atomic():
            return Notification.objects.create(
                recipient_id=recipient_id,
                kind=kind,
                title=title[:200],
                body=body,
                url=url[:500],
                data=data or {},
                dedupe_key=dedupe_key,
                email_state=EmailState.PENDING if email else EmailState.NOT_WANTED,
            )
    except IntegrityError:
        if Notification.objects.filter(recipient_id=recipient_id, dedupe_key=dedupe_key).exists():
            return None
        raise
