"""Writes of the notifications app: in-app notifications, e-mails, digests, unsubscribe links.

Callers say what to tell whom (kind, title, body, url, dedupe key, data); this app knows
nothing of what the notification is about. Everything that must not happen twice (a
notification, an e-mail) is settled by a unique constraint.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.models import User
from accounts.services import update_profile
from learning_platform import clock, metrics
from learning_platform.errors import NotFound
from learning_platform.text import single_line
from notifications import events, selectors
from notifications.models import EmailDelivery, EmailState, Notification

logger = logging.getLogger(__name__)

# How long one worker may hold an e-mail before another may try it (longer than a task may run).
SEND_LEASE = timedelta(minutes=5)

# The `data` key naming what a notification is about that its recipient may stop following
# (callers put the followed topic's id there; the digest links each entry to its unfollow link).
FOLLOWED_TOPIC_KEY = "lesson_id"


class NotificationNotFound(NotFound):
    pass


class InvalidUnsubscribeLink(NotFound):
    pass


# --- In-app notifications -------------------------------------------------------------------


@dataclass(frozen=True)
class NewNotification:
    """One notification to create (see create_notifications)."""

    recipient_id: int
    kind: str
    title: str
    dedupe_key: str
    body: str = ""
    url: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    email: bool = False


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
    e-mails); the caller schedules it with `send_emails_after_commit`.
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


def create_notifications(*, notifications: list[NewNotification]) -> None:
    """Create many notifications in one query; one whose (recipient, dedupe_key) exists
    already is skipped. Those with `email=True` wait for the periodic digest sweep."""
    Notification.objects.bulk_create(
        [
            Notification(
                recipient_id=new.recipient_id,
                kind=new.kind,
                title=new.title[:200],
                body=new.body,
                url=new.url[:500],
                data=new.data,
                dedupe_key=new.dedupe_key,
                email_state=EmailState.PENDING if new.email else EmailState.NOT_WANTED,
            )
            for new in notifications
        ],
        ignore_conflicts=True,
    )


def withdraw_notifications(*, dedupe_keys: list[str]) -> int:
    """Take back the notifications with these keys, whoever they went to (what they told of
    was taken down: a hidden or deleted comment), and their text with them: each is deleted,
    and an e-mail holding any of them that is not sent yet is composed again from the rest,
    or dropped when none is left. Returns how many were withdrawn.

    An e-mail a worker is sending at this moment (under its lease) goes as it was; should
    that attempt fail, the next one sends what is left (each attempt reads the row afresh)."""
    if not dedupe_keys:
        return 0
    with transaction.atomic():
        withdrawn = Notification.objects.filter(dedupe_key__in=dedupe_keys)
        delivery_ids = set(
            withdrawn.filter(email_delivery__isnull=False).values_list("email_delivery", flat=True)
        )
        count: int = withdrawn.delete()[0]
        unsent = (
            EmailDelivery.objects.select_for_update(of=("self",))
            .select_related("recipient")
            .filter(pk__in=delivery_ids, sent_at__isnull=True, failed_at__isnull=True)
        )
        for delivery in unsent:
            items = list(delivery.notifications.order_by("id"))
            if not items or delivery.recipient is None:
                delivery.delete()
                continue
            _compose_digest(delivery=delivery, user=delivery.recipient, items=items)
            delivery.save(update_fields=["subject", "text_body", "html_body", "unsubscribe_url"])
    return count


def mark_notification_read(*, user: User, notification_id: int) -> Notification:
    """Mark one of `user`'s notifications read (idempotent). Someone else's: not found."""
    notification = selectors.notifications_for(user=user).filter(pk=notification_id).first()
    if notification is None:
        raise NotificationNotFound("No such notification.")
    if notification.read_at is None:
        notification.read_at = clock.now()
        Notification.objects.filter(pk=notification.pk, read_at__isnull=True).update(
            read_at=notification.read_at
        )
    return notification


def mark_all_notifications_read(*, user: User) -> int:
    """Mark every unread notification of `user` read; returns how many changed."""
    return Notification.objects.filter(recipient=user, read_at__isnull=True).update(
        read_at=clock.now()
    )


# --- Unsubscribe links ----------------------------------------------------------------------

# The salt signed into every link already sent: changing it would break them.
UNSUBSCRIBE_SALT = "community.unsubscribe"
# A link whose token is forged, expired or names nothing any more: 404, it names no resource.
INVALID_UNSUBSCRIBE_LINK = "This unsubscribe link is invalid or has expired."


def make_unsubscribe_token(
    *, user_id: int, lesson_id: int | None = None, reminders: bool = False
) -> str:
    """A signed token (no sign-in needed) that stops e-mails, following one topic (a
    lesson's comments, see notifications.events), or the daily reminders."""
    payload: dict[str, int] = {"u": user_id}
    if lesson_id is not None:
        payload["l"] = lesson_id
    if reminders:
        payload["r"] = 1
    return signing.TimestampSigner(salt=UNSUBSCRIBE_SALT).sign_object(payload)


def read_unsubscribe_token(*, token: str) -> dict[str, int]:
    """The token's payload {"u": user id, "l": topic id (optional)}; invalid or expired:
    InvalidUnsubscribeLink."""
    max_age = getattr(settings, "COMMUNITY_UNSUBSCRIBE_MAX_AGE", timedelta(days=365))
    try:
        payload = signing.TimestampSigner(salt=UNSUBSCRIBE_SALT).unsign_object(
            token, max_age=max_age
        )
    except signing.BadSignature:
        raise InvalidUnsubscribeLink(INVALID_UNSUBSCRIBE_LINK) from None
    if not isinstance(payload, dict) or not isinstance(payload.get("u"), int):
        raise InvalidUnsubscribeLink(INVALID_UNSUBSCRIBE_LINK)
    return payload


def unsubscribe_url(*, user_id: int, lesson_id: int | None = None, reminders: bool = False) -> str:
    token = make_unsubscribe_token(user_id=user_id, lesson_id=lesson_id, reminders=reminders)
    path = reverse("community-unsubscribe", kwargs={"token": token})
    return f"{settings.PUBLIC_API_URL}{path}"


def unsubscribe(*, token: str) -> dict[str, Any]:
    """Act on a one-click unsubscribe token: stop following one topic, the daily reminders, or
    all e-mails.

    Idempotent. Returns what was done, as {"scope": "lesson"|"reminders"|"email", "lesson":
    {...}|None}.
    """
    scope = unsubscribe_scope(token=token)
    user = scope["user"]
    if scope["scope"] == "reminders":
        if user.reminder_time is not None:
            update_profile(user=user, reminder_time=None)
    elif scope["lesson"] is not None:
        events.unfollow_topic.announce(
            events.FollowedTopic(user_id=user.id, topic_id=scope["lesson"]["id"])
        )
    elif user.email_notifications:
        update_profile(user=user, email_notifications=False)
    return {"scope": scope["scope"], "lesson": scope["lesson"]}


def unsubscribe_scope(*, token: str) -> dict[str, Any]:
    """What a token would unsubscribe from, without doing it (not found when it names
    nothing). The topic a scoped token names is described by its owner (notifications.events).
    """
    payload = read_unsubscribe_token(token=token)
    user = get_user_model().objects.filter(pk=payload["u"]).first()
    if user is None:
        raise InvalidUnsubscribeLink(INVALID_UNSUBSCRIBE_LINK)
    topic = None
    if "l" in payload:
        asked = events.FollowedTopic(user_id=user.id, topic_id=payload["l"])
        topic = next(filter(None, events.describe_followed_topic.announce(asked)), None)
        if topic is None:
            raise InvalidUnsubscribeLink(INVALID_UNSUBSCRIBE_LINK)
    if topic is None and payload.get("r"):
        return {"scope": "reminders", "user": user, "lesson": None}
    return {"scope": "lesson" if topic else "email", "user": user, "lesson": topic}


# --- E-mail ---------------------------------------------------------------------------------


def absolute_frontend_url(url: str) -> str:
    """A path in the web app as a link an e-mail can carry."""
    if not url or url.startswith(("http://", "https://")):
        return url
    return f"{settings.FRONTEND_URL}/{url.lstrip('/')}"


def send_emails_after_commit(*, user_id: int) -> None:
    """Once the current transaction commits, send the user's waiting notifications (and any
    e-mail of theirs still unsent) by a task."""
    # The app's own tasks module imports this one.
    from notifications import tasks

    # celery-types types a shared_task as Celery's Task; the app's is a DjangoTask.
    tasks.send_notification_emails.delay_on_commit(user_id)  # type: ignore[attr-defined]


def send_many_emails_after_commit(*, user_ids: list[int]) -> None:
    """`send_emails_after_commit` for many users by one task: one outbox row and one publish
    instead of one each (a league's close tells thousands of cohorts)."""
    from notifications import tasks

    if user_ids:
        tasks.send_notification_emails_to.delay_on_commit(user_ids)  # type: ignore[attr-defined]


def send_email(
    *,
    key: str,
    to_address: str,
    subject: str,
    text_body: str,
    html_body: str,
    recipient_id: int | None = None,
    unsubscribe_url: str = "",
) -> bool:
    """Record one e-mail to an address (no account needed) under `key`, unique, and send it
    unless it was sent already; True when this call sent it. A second call with the same
    key records nothing new. `unsubscribe_url`: its one-click List-Unsubscribe link."""
    delivery, _ = EmailDelivery.objects.get_or_create(
        key=key,
        defaults={
            "to_address": to_address,
            "subject": subject[:200],
            "text_body": text_body,
            "html_body": html_body,
            "recipient_id": recipient_id,
            "unsubscribe_url": unsubscribe_url,
        },
    )
    return send_email_delivery(delivery_id=delivery.pk)


def prepare_notification_digest(*, user_id: int) -> EmailDelivery | None:
    """Gather the user's notifications waiting for an e-mail into one e-mail, recorded unsent.

    The delivery's key is `digest:<user>:<first notification id>`, unique, so two runs racing
    over the same notifications record one e-mail; the notifications move to it in the same
    transaction. Users who turned e-mails off get their waiting notifications marked skipped.
    Returns the new delivery, or None when there was nothing (left) to gather.
    """
    with transaction.atomic():
        user = get_user_model().objects.filter(pk=user_id).first()
        if user is None:
            return None
        pending = Notification.objects.filter(recipient_id=user_id, email_state=EmailState.PENDING)
        if not (user.is_active and user.email_notifications and user.email):
            pending.update(email_state=EmailState.SKIPPED)
            return None
        first_id = pending.order_by("id").values_list("id", flat=True).first()
        if first_id is None:
            return None
        try:
            with transaction.atomic():
                delivery = EmailDelivery.objects.create(
                    key=f"digest:{user_id}:{first_id}",
                    recipient=user,
                    to_address=user.email,
                    subject="",
                    text_body="",
                )
        except IntegrityError:
            return None
        pending.update(email_state=EmailState.BATCHED, email_delivery=delivery)
        items = list(delivery.notifications.order_by("id"))
        if not items:
            delivery.delete()
            return None
        _compose_digest(delivery=delivery, user=user, items=items)
        delivery.save(update_fields=["subject", "text_body", "html_body", "unsubscribe_url"])
    return delivery


def _compose_digest(*, delivery: EmailDelivery, user: User, items: list[Notification]) -> None:
    unfollow_urls: dict[int, str] = {}
    for item in items:
        topic_id = item.data.get(FOLLOWED_TOPIC_KEY)
        if isinstance(topic_id, int) and topic_id not in unfollow_urls:
            unfollow_urls[topic_id] = unsubscribe_url(user_id=user.id, lesson_id=topic_id)
    entries = [
        {
            "title": item.title,
            "body": item.body,
            "url": absolute_frontend_url(item.url),
            "unfollow_url": unfollow_urls.get(item.data.get(FOLLOWED_TOPIC_KEY), ""),
        }
        for item in items
    ]
    count = len(items)
    delivery.subject = single_line(
        items[0].title if count == 1 else f"{count} new notifications on Learning Platform",
        max_length=200,
    )
    delivery.unsubscribe_url = unsubscribe_url(user_id=user.id)
    context = {
        "user": user,
        "entries": entries,
        "count": count,
        "unsubscribe_url": delivery.unsubscribe_url,
        "settings_url": f"{settings.FRONTEND_URL}/settings",
    }
    delivery.text_body = render_to_string("notifications/email/notification_digest.txt", context)
    delivery.html_body = render_to_string("notifications/email/notification_digest.html", context)


def send_email_delivery(*, delivery_id: int) -> bool:
    """Send one recorded e-mail unless it was sent already; True when this call sent it.

    A short lease keeps two workers from sending the same e-mail at once. A mail-server error
    releases the lease and propagates (the task retries with backoff); the record stays unsent,
    so nothing is lost. An e-mail is sent at most once unless a worker dies between the mail
    server accepting it and the row being marked sent.
    """
    now = clock.now()
    claimed = (
        EmailDelivery.objects.filter(pk=delivery_id, sent_at__isnull=True, failed_at__isnull=True)
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
        .update(claimed_until=now + SEND_LEASE, attempts=F("attempts") + 1)
    )
    if not claimed:
        return False
    delivery = EmailDelivery.objects.get(pk=delivery_id)
    headers = {}
    if delivery.unsubscribe_url:
        headers["List-Unsubscribe"] = f"<{delivery.unsubscribe_url}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message = EmailMultiAlternatives(
        subject=single_line(delivery.subject),
        body=delivery.text_body,
        to=[delivery.to_address],
        headers=headers,
    )
    if delivery.html_body:
        message.attach_alternative(delivery.html_body, "text/html")
    try:
        message.send()
    except ValueError as exc:
        # The message itself is malformed (BadHeaderError, an invalid address): no retry can
        # send it. Give it up so the ones after it still go out.
        logger.error("E-mail delivery %s cannot be sent; marked failed", delivery_id, exc_info=True)
        metrics.EMAILS_FAILED.labels("given_up").inc()
        EmailDelivery.objects.filter(pk=delivery_id).update(
            claimed_until=None, failed_at=clock.now(), last_error=_error_text(exc)
        )
        return False
    except Exception as exc:
        exhausted = delivery.attempts >= selectors.MAX_DELIVERY_ATTEMPTS
        metrics.EMAILS_FAILED.labels("given_up" if exhausted else "will_retry").inc()
        EmailDelivery.objects.filter(pk=delivery_id).update(
            claimed_until=None,
            last_error=_error_text(exc),
            failed_at=clock.now() if exhausted else None,
        )
        raise
    EmailDelivery.objects.filter(pk=delivery_id).update(
        sent_at=clock.now(), claimed_until=None, last_error=""
    )
    return True


def _error_text(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}"[:500]


def send_notification_emails(*, user_id: int) -> int:
    """Gather the user's waiting notifications into one e-mail and send every e-mail of theirs
    still unsent (including earlier ones a mail-server failure held back). Returns how many
    were sent by this call.

    One e-mail failing never holds back the others: each is tried, and the first mail-server
    error is raised only afterwards (the task then retries the ones still unsent).
    """
    prepare_notification_digest(user_id=user_id)
    sent = 0
    first_error: Exception | None = None
    for delivery_id in selectors.unsent_delivery_ids(recipient_id=user_id):
        try:
            sent += send_email_delivery(delivery_id=delivery_id)
        except Exception as exc:
            first_error = first_error or exc
    if first_error is not None:
        raise first_error
    return sent


def overdue_email_work(*, limit: int = 500) -> tuple[list[int], list[int]]:
    """The periodic sweep's work: users whose digest is due (a notification waited the digest
    window) or who have an e-mail left unsent, and sign-out deliveries left unsent (their own
    task was lost or gave up). Returns (user ids, delivery ids)."""
    cutoff = clock.now() - timedelta(seconds=settings.COMMUNITY_DIGEST_WINDOW_SECONDS)
    return (
        selectors.users_with_overdue_notifications(before=cutoff, limit=limit),
        selectors.overdue_anonymous_delivery_ids(before=cutoff, limit=limit),
    )
