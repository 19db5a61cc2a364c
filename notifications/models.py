"""Notifications: in-app notifications and the e-mails that carry them.

The tables were created by the community app and keep their names (`community_notification`,
`community_emaildelivery`): the models moved, the data did not.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from learning_platform import clock


class EmailState(models.TextChoices):
    NOT_WANTED = "none", "In-app only"
    PENDING = "pending", "Waiting for the next e-mail"
    BATCHED = "batched", "In an e-mail"
    SKIPPED = "skipped", "Not e-mailed (the learner turned e-mails off)"


class Notification(models.Model):
    """An in-app notification. At most one per (recipient, dedupe_key)."""

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=40)
    title = models.CharField(max_length=200)
    body = models.TextField(blank=True)
    url = models.CharField(max_length=500, blank=True)
    data = models.JSONField(default=dict, blank=True)
    dedupe_key = models.CharField(max_length=200)
    created_at = models.DateTimeField(default=clock.now, editable=False)
    read_at = models.DateTimeField(null=True, blank=True)
    email_state = models.CharField(
        max_length=10, choices=EmailState.choices, default=EmailState.NOT_WANTED
    )
    email_delivery = models.ForeignKey(
        "EmailDelivery",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="notifications",
    )

    class Meta:
        db_table = "community_notification"
        ordering = ("-created_at", "-id")
        constraints = [
            models.UniqueConstraint(
                fields=["recipient", "dedupe_key"], name="community_notification_dedupe"
            ),
        ]
        indexes = [
            models.Index(fields=["recipient", "-created_at", "-id"]),
            models.Index(
                fields=["recipient"],
                condition=Q(read_at__isnull=True),
                name="community_notif_unread_idx",
            ),
            models.Index(
                fields=["recipient", "id"],
                condition=Q(email_state="pending"),
                name="community_notif_pending_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.recipient_id}: {self.title}"


class EmailDelivery(models.Model):
    """One e-mail the platform means to send, recorded before it is sent.

    `key` names what the e-mail is about (a digest starting at a given notification, one
    report's resolution) and is unique, so however often a task runs, each e-mail exists once.
    `sent_at` is set once the mail server accepted it; `claimed_until` is a short lease that
    keeps two workers from sending the same row at the same time.
    """

    key = models.CharField(max_length=200, unique=True)
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="email_deliveries",
    )
    to_address = models.EmailField()
    subject = models.CharField(max_length=200)
    text_body = models.TextField()
    html_body = models.TextField(blank=True)
    unsubscribe_url = models.CharField(max_length=1000, blank=True)
    created_at = models.DateTimeField(default=clock.now, editable=False)
    claimed_until = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # Given up: the message cannot be built (a malformed header) or every attempt failed. No
    # task or sweep tries it again; staff see it in the admin.
    failed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "community_emaildelivery"
        verbose_name_plural = "e-mail deliveries"
        ordering = ("-created_at", "-id")
        indexes = [
            models.Index(
                fields=["created_at"],
                condition=Q(sent_at__isnull=True),
                name="community_delivery_unsent_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.key} to {self.to_address}"


class PushSubscription(models.Model):
    """A browser's Web Push subscription (PushManager.subscribe): where the push service takes
    messages for one device, and the keys they are encrypted with. The endpoint is unique: a
    browser that signs in as someone else moves its subscription to them."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(default=clock.now, editable=False)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"push to {self.user_id} via {self.endpoint[:60]}"


class PushDelivery(models.Model):
    """One notification pushed to one subscription, recorded when the push service took it:
    unique, so a retried task never shows a learner the same notification twice."""

    notification = models.ForeignKey(
        Notification, on_delete=models.CASCADE, related_name="push_deliveries"
    )
    subscription = models.ForeignKey(
        PushSubscription, on_delete=models.CASCADE, related_name="deliveries"
    )
    sent_at = models.DateTimeField(default=clock.now)

    class Meta:
        verbose_name_plural = "push deliveries"
        constraints = [
            models.UniqueConstraint(
                fields=["notification", "subscription"], name="notifications_push_once"
            ),
        ]

    def __str__(self) -> str:
        return f"notification {self.notification_id} to subscription {self.subscription_id}"
