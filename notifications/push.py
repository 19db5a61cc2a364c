"""Web Push (issue 38): a notification shown by the learner's browser even when the app is not
open, on the devices where they allowed it. Used for the daily reminders.

The browser subscribes with the server's VAPID public key and gives us its push service's
endpoint and keys (`save_subscription`). Sending (`send_push_notification`, run by a task)
encrypts the notification for each of the learner's subscriptions and posts it with a VAPID
signature, through pywebpush. Only WEBPUSH_VAPID_PRIVATE_KEY is configured: the public key is
derived from it, so the two can never disagree.

At most once per notification and device: a `PushDelivery` row (unique) is written before the
push is posted and removed again when the post fails, so a retried or doubled task skips the
devices already served. A worker dying between the two loses that one push; the in-app
notification is still there.
"""

from __future__ import annotations

import base64
import json
from email.utils import parseaddr
from functools import cache

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.db import IntegrityError, transaction
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from learning_platform import clock
from learning_platform.errors import Conflict
from notifications.models import Notification, PushDelivery, PushSubscription

# A reminder says how many hours are left in the learner's day: a push service holding it
# longer than this (the device was off) drops it rather than show a stale count.
PUSH_TTL_SECONDS = 60 * 60
PUSH_TIMEOUT_SECONDS = 10
# The push service no longer knows this subscription (the learner revoked it or the browser
# dropped it): it is deleted, never tried again.
GONE_STATUSES = frozenset({404, 410})


class PushNotConfigured(Conflict):
    code = "push_not_configured"
    default_detail = "This server sends no push notifications (no VAPID key is set)."


def push_enabled() -> bool:
    return bool(settings.WEBPUSH_VAPID_PRIVATE_KEY)


@cache
def _vapid(private_key: str) -> Vapid02:
    return Vapid02.from_string(private_key=private_key)


def vapid_subject() -> str:
    """Whom push services contact about this sender: WEBPUSH_VAPID_SUBJECT, else the address
    the platform's e-mails come from."""
    return settings.WEBPUSH_VAPID_SUBJECT or f"mailto:{parseaddr(settings.DEFAULT_FROM_EMAIL)[1]}"


def configuration_error() -> str | None:
    """Why the push settings cannot sign a push, or None (also when push is off)."""
    if not push_enabled():
        return None
    try:
        _vapid(settings.WEBPUSH_VAPID_PRIVATE_KEY).sign(
            {"sub": vapid_subject(), "aud": "https://push.example.com", "exp": 0}
        )
    except Exception as error:  # py_vapid raises several kinds for a bad key or subject
        return str(error) or type(error).__name__
    return None


def public_key() -> str | None:
    """The VAPID public key browsers subscribe with (applicationServerKey: base64url of the
    uncompressed P-256 point), or None when push is not configured."""
    if not push_enabled():
        return None
    point = _vapid(settings.WEBPUSH_VAPID_PRIVATE_KEY).public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode()


def save_subscription(*, user_id: int, endpoint: str, p256dh: str, auth: str) -> bool:
    """Keep this browser's subscription for the user; True when it is new. The endpoint is the
    device: saving it again updates its keys, and a browser now signed in as someone else
    moves it to them (one device never receives another learner's reminders)."""
    if not push_enabled():
        raise PushNotConfigured()
    _, created = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user_id": user_id, "p256dh": p256dh, "auth": auth}
    )
    return created


def remove_subscription(*, user_id: int, endpoint: str) -> bool:
    """Forget this browser's subscription (the learner turned push off here); True when there
    was one of theirs."""
    deleted, _ = PushSubscription.objects.filter(user_id=user_id, endpoint=endpoint).delete()
    return deleted > 0


def push_after_commit(*, notification_id: int) -> None:
    """Once the current transaction commits, push the notification to the recipient's devices
    by a task (nothing when push is not configured)."""
    if not push_enabled():
        return
    # The app's own tasks module imports this one.
    from notifications import tasks

    tasks.send_push_notification.delay_on_commit(notification_id)  # type: ignore[attr-defined]


def send_push_notification(*, notification_id: int) -> int:
    """Push the notification to each of its recipient's subscriptions not yet served; returns
    how many took it. A push service error other than "gone" propagates (the task retries
    with backoff) after the devices served so far are recorded."""
    notification = Notification.objects.filter(pk=notification_id).first()
    if notification is None or not push_enabled():
        return 0
    payload = json.dumps(
        {
            "title": notification.title,
            "body": notification.body,
            "url": notification.url or "/",
            "tag": f"{notification.kind}:{notification.pk}",
        }
    )
    subscriptions = PushSubscription.objects.filter(user_id=notification.recipient_id).exclude(
        deliveries__notification_id=notification_id
    )
    sent = 0
    for subscription in subscriptions:
        if _claim(notification_id, subscription) and _post(notification_id, subscription, payload):
            sent += 1
    return sent


def _claim(notification_id: int, subscription: PushSubscription) -> bool:
    try:
        with transaction.atomic():
            PushDelivery.objects.create(notification_id=notification_id, subscription=subscription)
    except IntegrityError:
        return False  # another run has it
    return True


def _post(notification_id: int, subscription: PushSubscription, payload: str) -> bool:
    try:
        webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=payload,
            vapid_private_key=_vapid(settings.WEBPUSH_VAPID_PRIVATE_KEY),
            vapid_claims={"sub": vapid_subject()},
            ttl=PUSH_TTL_SECONDS,
            timeout=PUSH_TIMEOUT_SECONDS,
        )
    except Exception as error:
        if isinstance(error, WebPushException) and error.status_code in GONE_STATUSES:
            subscription.delete()  # its deliveries with it
            return False
        # Not sent: the claim goes, so the retry serves this device.
        PushDelivery.objects.filter(
            notification_id=notification_id, subscription=subscription
        ).delete()
        raise
    PushSubscription.objects.filter(pk=subscription.pk).update(last_sent_at=clock.now())
    return True
