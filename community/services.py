"""Writes of the community app: comments, follows, notifications, e-mails, issue reports.

Errors a learner can cause are DRF exceptions (the API renders them); everything that must
not happen twice (a notification, an e-mail) is settled by a unique constraint.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from rest_framework.exceptions import NotFound, ValidationError

from community import events, selectors
from community.models import (
    COMMENT_MAX_LENGTH,
    REPORT_MESSAGE_MAX_LENGTH,
    Comment,
    EmailDelivery,
    EmailState,
    IssueReport,
    LessonSubscription,
    Notification,
)
from learning_platform import page_cache
from learning_platform.markdown import render_markdown
from learning_platform.text import single_line
from lessons.selectors import lesson_slugs

logger = logging.getLogger(__name__)

# How long one worker may hold an e-mail before another may try it (longer than a task may run).
SEND_LEASE = timedelta(minutes=5)
EXCERPT_LENGTH = 200


class NotificationKind:
    COMMENT_REPLY = "comment_reply"
    LESSON_COMMENT = "lesson_comment"
    REPORT_RESOLVED = "report_resolved"


# --- Notifications --------------------------------------------------------------------------


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


def mark_notification_read(*, user, notification_id: int) -> Notification:
    """Mark one of `user`'s notifications read (idempotent). Someone else's: 404."""
    notification = selectors.notifications_for(user=user).filter(pk=notification_id).first()
    if notification is None:
        raise NotFound("No such notification.")
    if notification.read_at is None:
        notification.read_at = timezone.now()
        Notification.objects.filter(pk=notification.pk, read_at__isnull=True).update(
            read_at=notification.read_at
        )
    return notification


def mark_all_notifications_read(*, user) -> int:
    """Mark every unread notification of `user` read; returns how many changed."""
    return Notification.objects.filter(recipient=user, read_at__isnull=True).update(
        read_at=timezone.now()
    )


# --- Comments -------------------------------------------------------------------------------


def post_comment(*, author, lesson, body: str, parent_id: int | None = None) -> Comment:
    """Post a comment on `lesson`, or a reply in the thread of comment `parent_id`.

    A reply to a reply joins the same thread (threads are one level deep) and answers that
    reply's author. The comment answered must belong to the same lesson and be up (not
    hidden, not in a hidden thread, not deleted). After commit,
    followers are notified and the author's achievements re-evaluated, both by tasks.
    """
    from community import tasks

    body = _clean_body(body)
    parent = reply_to = None
    if parent_id is not None:
        reply_to = (
            Comment.objects.select_related("parent")
            .filter(pk=parent_id, lesson=lesson)
            .visible()
            .first()
        )
        if reply_to is None:
            raise ValidationError({"parent": ["No such comment on this lesson."]})
        # `visible()` already ruled out a hidden thread; a thread whose first comment was
        # deleted stays open to replies to its replies.
        parent = reply_to.parent or reply_to
    with transaction.atomic():
        if parent is not None:
            # The thread's head, locked: a concurrent delete of it (which checks for replies
            # under the same lock) waits for this reply, or this reply sees it gone.
            parent = Comment.objects.select_for_update().filter(pk=parent.pk).first()
            if parent is None or parent.is_hidden:
                raise ValidationError({"parent": ["No such comment on this lesson."]})
        comment = Comment.objects.create(
            lesson=lesson,
            author=author,
            parent=parent,
            reply_to=reply_to,
            body=body,
            body_html=render_markdown(body, profile="comment"),
        )
        tasks.notify_about_comment.delay_on_commit(comment.id)
        events.comment_posted.announce(
            events.CommentPosted(user_id=author.id, comment_id=comment.id)
        )
    return comment


def edit_comment(*, comment: Comment, editor, body: str) -> Comment:
    """Replace the body of `editor`'s own comment and mark it edited."""
    check_author(comment=comment, user=editor)
    comment.body = _clean_body(body)
    comment.body_html = render_markdown(comment.body, profile="comment")
    comment.edited_at = timezone.now()
    comment.save(update_fields=["body", "body_html", "edited_at"])
    return comment


def delete_comment(*, comment: Comment, actor) -> Comment | None:
    """Delete `actor`'s own comment.

    A top-level comment with replies stays as a "[deleted]" stub with its body cleared, so
    the thread holds together; anything else is removed, and a stub left without replies
    goes with its last one. Returns the stub, or None when the row is gone.
    """
    check_author(comment=comment, user=actor)
    with transaction.atomic():
        # Lock the thread's head, as a reply being posted does, so no reply slips in between
        # the check for replies and the delete.
        head = (
            Comment.objects.select_for_update().filter(pk=comment.parent_id or comment.pk).first()
        )
        if head is None:
            return None
        if comment.parent_id is None:
            comment = head
        if comment.parent_id is None and comment.replies.exists():
            comment.is_deleted = True
            comment.deleted_at = timezone.now()
            comment.body = comment.body_html = ""
            comment.save(update_fields=["is_deleted", "deleted_at", "body", "body_html"])
            return comment
        parent_id = comment.parent_id
        comment.delete()
        if parent_id is not None:
            Comment.objects.filter(pk=parent_id, is_deleted=True).exclude(
                replies__isnull=False
            ).delete()
    return None


def rerender_comment_html(*, batch_size: int = 500) -> int:
    """Render every comment's Markdown again and store what changed (after the renderer or the
    sanitizer's rules changed). Returns how many comments changed."""
    changed: list[Comment] = []
    for comment in Comment.objects.only("id", "lesson_id", "body", "body_html").iterator(
        chunk_size=500
    ):
        html = render_markdown(comment.body, profile="comment") if comment.body else ""
        if html != comment.body_html:
            comment.body_html = html
            changed.append(comment)
    with transaction.atomic():
        Comment.objects.bulk_update(changed, ["body_html"], batch_size=batch_size)
        for slug in lesson_slugs(lesson_ids={c.lesson_id for c in changed}):
            page_cache.note_discussion_changed(lesson_slug=slug)
    return len(changed)


def hide_comment(*, comment: Comment, reason: str = "") -> Comment:
    """Staff moderation: hide a comment (and with a top-level one, its whole thread)."""
    comment.is_hidden = True
    comment.hidden_reason = reason[:200]
    comment.hidden_at = timezone.now()
    comment.save(update_fields=["is_hidden", "hidden_reason", "hidden_at"])
    return comment


def unhide_comment(*, comment: Comment) -> Comment:
    comment.is_hidden = False
    comment.hidden_reason = ""
    comment.hidden_at = None
    comment.save(update_fields=["is_hidden", "hidden_reason", "hidden_at"])
    return comment


_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))
MAX_NESTING_PREFIX = 200  # characters of list or quote markers before a line's text


def _clean_body(body: str) -> str:
    body = body.strip()
    if not body.translate(_INVISIBLE).strip():
        raise ValidationError({"body": ["A comment cannot be empty."]})
    if any(
        len(line) - len(line.lstrip(" \t>-*+0123456789.)")) > MAX_NESTING_PREFIX
        for line in body.splitlines()
    ):
        raise ValidationError({"body": ["Lists or quotes are nested too deeply."]})
    if len(body) > COMMENT_MAX_LENGTH:
        raise ValidationError({"body": [f"A comment has at most {COMMENT_MAX_LENGTH} characters."]})
    return body


def check_author(*, comment: Comment, user) -> None:
    from rest_framework.exceptions import PermissionDenied

    if comment.author_id != user.id:
        raise PermissionDenied("Only the author may change this comment.")


# --- Follows --------------------------------------------------------------------------------


def set_lesson_subscription(*, user, lesson, subscribed: bool) -> LessonSubscription:
    """Record the learner's explicit choice to follow (or not) the comments of `lesson`."""
    subscription, _ = LessonSubscription.objects.update_or_create(
        user=user, lesson=lesson, defaults={"subscribed": subscribed}
    )
    return subscription


# --- Fan-out of a new comment ---------------------------------------------------------------


def notify_about_comment(*, comment_id: int) -> list[int]:
    """Notify the followers of the comment's lesson (never its author), once each.

    The author of the comment answered gets a "replied to your comment" notification, the
    other followers a "new comment" one; both carry the dedupe key `comment:<id>`, so running
    this twice creates nothing new. Returns the ids of the recipients who take e-mails: their
    notifications wait (`pending`) for the digest the periodic sweep sends once the oldest has
    waited COMMUNITY_DIGEST_WINDOW_SECONDS (no task waits with a countdown: one longer than the
    broker's visibility timeout is delivered twice).
    """
    comment = (
        Comment.objects.select_related("author", "lesson", "reply_to")
        .filter(pk=comment_id)
        .visible()
        .first()
    )
    if comment is None:
        return []
    recipients = selectors.lesson_followers(
        lesson_id=comment.lesson_id, as_of_comment_id=comment.id
    ).exclude(pk=comment.author_id)
    thread_id = comment.parent_id or comment.id
    lesson = comment.lesson
    excerpt = _excerpt(comment.body)
    url = f"/lessons/{lesson.slug}#comment-{comment.id}"
    data = {
        "lesson": lesson.slug,
        "lesson_id": lesson.id,
        "comment_id": comment.id,
        "thread_id": thread_id,
        "author": comment.author.public_name,
    }
    answered_author_id = comment.reply_to.author_id if comment.reply_to else None
    notifications = []
    emailed: list[int] = []
    for recipient_id, wants_email in recipients.values_list("pk", "email_notifications"):
        if recipient_id == answered_author_id:
            kind = NotificationKind.COMMENT_REPLY
            title = f"{comment.author.public_name} replied to your comment on “{lesson.title}”"
        else:
            kind = NotificationKind.LESSON_COMMENT
            verb = "replied in a thread" if comment.parent_id else "commented"
            title = f"{comment.author.public_name} {verb} on “{lesson.title}”"
        notifications.append(
            Notification(
                recipient_id=recipient_id,
                kind=kind,
                title=title[:200],
                body=excerpt,
                url=url,
                data=data,
                dedupe_key=f"comment:{comment.id}",
                email_state=EmailState.PENDING if wants_email else EmailState.NOT_WANTED,
            )
        )
        if wants_email:
            emailed.append(recipient_id)
    Notification.objects.bulk_create(notifications, ignore_conflicts=True)
    return emailed


def digest_window_seconds() -> int:
    return int(getattr(settings, "COMMUNITY_DIGEST_WINDOW_SECONDS", 300))


def _excerpt(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= EXCERPT_LENGTH else text[: EXCERPT_LENGTH - 1] + "…"


# --- E-mail ---------------------------------------------------------------------------------

UNSUBSCRIBE_SALT = "community.unsubscribe"
# A link whose token is forged, expired or names nothing any more: 404, it names no resource.
INVALID_UNSUBSCRIBE_LINK = "This unsubscribe link is invalid or has expired."


def make_unsubscribe_token(*, user_id: int, lesson_id: int | None = None) -> str:
    """A signed token (no sign-in needed) that stops e-mails, or following one lesson."""
    payload: dict[str, int] = {"u": user_id}
    if lesson_id is not None:
        payload["l"] = lesson_id
    return signing.TimestampSigner(salt=UNSUBSCRIBE_SALT).sign_object(payload)


def read_unsubscribe_token(*, token: str) -> dict[str, int]:
    """The token's payload {"u": user id, "l": lesson id (optional)}; invalid or expired: 404."""
    max_age = getattr(settings, "COMMUNITY_UNSUBSCRIBE_MAX_AGE", timedelta(days=365))
    try:
        payload = signing.TimestampSigner(salt=UNSUBSCRIBE_SALT).unsign_object(
            token, max_age=max_age
        )
    except signing.BadSignature:
        raise NotFound(INVALID_UNSUBSCRIBE_LINK) from None
    if not isinstance(payload, dict) or not isinstance(payload.get("u"), int):
        raise NotFound(INVALID_UNSUBSCRIBE_LINK)
    return payload


def unsubscribe_url(*, user_id: int, lesson_id: int | None = None) -> str:
    token = make_unsubscribe_token(user_id=user_id, lesson_id=lesson_id)
    return settings.PUBLIC_API_URL + reverse("community-unsubscribe", kwargs={"token": token})


def unsubscribe(*, token: str) -> dict[str, Any]:
    """Act on a one-click unsubscribe token: stop following one lesson, or stop all e-mails.

    Idempotent. Returns what was done, as {"scope": "lesson"|"email", "lesson": slug|None}.
    """
    from accounts.services import update_profile

    scope = unsubscribe_scope(token=token)
    user = scope["user"]
    if scope["lesson"] is not None:
        set_lesson_subscription(user=user, lesson=scope["lesson_obj"], subscribed=False)
    elif user.email_notifications:
        update_profile(user=user, email_notifications=False)
    return {"scope": scope["scope"], "lesson": scope["lesson"]}


def unsubscribe_scope(*, token: str) -> dict[str, Any]:
    """What a token would unsubscribe from, without doing it (404 when it names nothing)."""
    from accounts.models import User
    from lessons.models import Lesson

    payload = read_unsubscribe_token(token=token)
    user = User.objects.filter(pk=payload["u"]).first()
    if user is None:
        raise NotFound(INVALID_UNSUBSCRIBE_LINK)
    lesson = found = None
    if "l" in payload:
        found = Lesson.objects.filter(pk=payload["l"]).first()
        if found is None:
            raise NotFound("This lesson no longer exists.")
        lesson = {"id": found.id, "slug": found.slug, "title": found.title}
    return {
        "scope": "lesson" if lesson else "email",
        "user": user,
        "lesson": lesson,
        "lesson_obj": found,
    }


def prepare_notification_digest(*, user_id: int) -> EmailDelivery | None:
    """Gather the user's notifications waiting for an e-mail into one e-mail, recorded unsent.

    The delivery's key is `digest:<user>:<first notification id>`, unique, so two runs racing
    over the same notifications record one e-mail; the notifications move to it in the same
    transaction. Users who turned e-mails off get their waiting notifications marked skipped.
    Returns the new delivery, or None when there was nothing (left) to gather.
    """
    from accounts.models import User

    with transaction.atomic():
        user = User.objects.filter(pk=user_id).first()
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


def _compose_digest(*, delivery: EmailDelivery, user, items: list[Notification]) -> None:
    lessons: dict[int, dict[str, str]] = {}
    for item in items:
        lesson_id = item.data.get("lesson_id")
        if isinstance(lesson_id, int) and lesson_id not in lessons:
            lessons[lesson_id] = {
                "slug": item.data.get("lesson", ""),
                "unfollow_url": unsubscribe_url(user_id=user.id, lesson_id=lesson_id),
            }
    entries = [
        {
            "title": item.title,
            "body": item.body,
            "url": _absolute_frontend_url(item.url),
            "unfollow_url": lessons.get(item.data.get("lesson_id"), {}).get("unfollow_url", ""),
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
    delivery.text_body = render_to_string("community/email/notification_digest.txt", context)
    delivery.html_body = render_to_string("community/email/notification_digest.html", context)


def _absolute_frontend_url(url: str) -> str:
    if not url or url.startswith(("http://", "https://")):
        return url
    return f"{settings.FRONTEND_URL}/{url.lstrip('/')}"


def send_email_delivery(*, delivery_id: int) -> bool:
    """Send one recorded e-mail unless it was sent already; True when this call sent it.

    A short lease keeps two workers from sending the same e-mail at once. A mail-server error
    releases the lease and propagates (the task retries with backoff); the record stays unsent,
    so nothing is lost. An e-mail is sent at most once unless a worker dies between the mail
    server accepting it and the row being marked sent.
    """
    now = timezone.now()
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
        EmailDelivery.objects.filter(pk=delivery_id).update(
            claimed_until=None, failed_at=timezone.now(), last_error=_error_text(exc)
        )
        return False
    except Exception as exc:
        exhausted = delivery.attempts >= selectors.MAX_DELIVERY_ATTEMPTS
        EmailDelivery.objects.filter(pk=delivery_id).update(
            claimed_until=None,
            last_error=_error_text(exc),
            failed_at=timezone.now() if exhausted else None,
        )
        raise
    EmailDelivery.objects.filter(pk=delivery_id).update(
        sent_at=timezone.now(), claimed_until=None, last_error=""
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
    cutoff = timezone.now() - timedelta(seconds=digest_window_seconds())
    return (
        selectors.users_with_overdue_notifications(before=cutoff, limit=limit),
        selectors.overdue_anonymous_delivery_ids(before=cutoff, limit=limit),
    )


# --- Issue reports --------------------------------------------------------------------------


def submit_report(
    *,
    lesson,
    reporter,
    kind: str,
    message: str,
    block_id: int | None = None,
    contact_email: str = "",
    honeypot: str = "",
) -> IssueReport:
    """File an issue report on `lesson`. `reporter` is None when signed out; only then is a
    contact e-mail kept. A block reference must name a block of this lesson.

    A filled-in `honeypot` (a form field people never see) marks a bot: the report it gets
    back looks filed but is not stored, so the bot learns nothing."""
    if kind not in IssueReport.Kind.values:
        raise ValidationError({"kind": [f"One of: {', '.join(IssueReport.Kind.values)}."]})
    message = message.strip()
    if not message or len(message) > REPORT_MESSAGE_MAX_LENGTH:
        raise ValidationError(
            {"message": [f"Between 1 and {REPORT_MESSAGE_MAX_LENGTH} characters."]}
        )
    if honeypot:
        return IssueReport(lesson=lesson, kind=kind, message=message, created_at=timezone.now())
    block = None
    if block_id is not None:
        block = lesson.blocks.filter(pk=block_id).first()
        if block is None:
            raise ValidationError({"block": ["No such block in this lesson."]})
    return IssueReport.objects.create(
        lesson=lesson,
        reporter=reporter,
        contact_email="" if reporter else contact_email,
        kind=kind,
        message=message,
        block=block,
        block_position=block.position if block else None,
    )


def assign_reports(*, report_ids: list[int], assignee) -> int:
    """Give these reports to `assignee` (a staff member); return how many were assigned."""
    return IssueReport.objects.filter(pk__in=report_ids).update(assignee=assignee)


def triage_report(*, report: IssueReport, assignee=None) -> IssueReport:
    """Move a report to triaged (optionally assigning it)."""
    return change_report_status(report=report, status=IssueReport.Status.TRIAGED, assignee=assignee)


def resolve_report(*, report: IssueReport) -> IssueReport:
    """Resolve a report as accepted: the reporter hears about it and it counts for them."""
    return change_report_status(report=report, status=IssueReport.Status.RESOLVED)


def reject_report(*, report: IssueReport) -> IssueReport:
    return change_report_status(report=report, status=IssueReport.Status.REJECTED)


def change_report_status(*, report: IssueReport, status: str, assignee=None) -> IssueReport:
    """Set a report's status, keeping `resolved_at` in step.

    Becoming resolved (accepted) notifies the reporter and re-evaluates their achievements,
    both by tasks after commit; the notification's dedupe key makes a second resolve silent.
    """
    from community import tasks

    with transaction.atomic():
        report = IssueReport.objects.select_for_update().get(pk=report.pk)
        previous = report.status
        report.status = status
        if assignee is not None:
            report.assignee = assignee
        closed = (IssueReport.Status.RESOLVED, IssueReport.Status.REJECTED)
        if status in closed and previous not in closed:
            report.resolved_at = timezone.now()
        elif status not in closed:
            report.resolved_at = None
        report.save(update_fields=["status", "assignee", "resolved_at", "updated_at"])
        if status == IssueReport.Status.RESOLVED and previous != status:
            report_id, reporter_id = report.pk, report.reporter_id
            tasks.notify_report_resolved.delay_on_commit(report_id)
            if reporter_id is not None:
                events.report_accepted.announce(
                    events.ReportAccepted(user_id=reporter_id, report_id=report_id)
                )
    return report


def notify_report_resolved(*, report_id: int) -> None:
    """Tell the reporter their report was resolved: in-app plus e-mail when signed in (as they
    chose), e-mail to the contact address when signed out. Idempotent."""
    from community import tasks

    report = IssueReport.objects.select_related("lesson", "reporter").filter(pk=report_id).first()
    if report is None or report.status != IssueReport.Status.RESOLVED:
        return
    lesson = report.lesson
    title = f"Thanks! Your report on “{lesson.title}” was resolved"
    body = f"{report.get_kind_display()}: {_excerpt(report.message)}"
    if report.reporter is not None:
        created = create_notification(
            recipient_id=report.reporter_id,
            kind=NotificationKind.REPORT_RESOLVED,
            title=title,
            body=body,
            url=f"/lessons/{lesson.slug}",
            dedupe_key=f"report:{report.pk}:resolved",
            data={"lesson": lesson.slug, "lesson_id": lesson.id, "report_id": report.pk},
            email=report.reporter.email_notifications,
        )
        if created is not None and created.email_state == EmailState.PENDING:
            tasks.send_notification_emails.delay_on_commit(report.reporter_id)
        return
    if not report.contact_email:
        return
    context = {
        "report": report,
        "lesson": lesson,
        "lesson_url": _absolute_frontend_url(f"/lessons/{lesson.slug}"),
    }
    delivery, _ = EmailDelivery.objects.get_or_create(
        key=f"report:{report.pk}:resolved",
        defaults={
            "to_address": report.contact_email,
            "subject": title[:200],
            "text_body": render_to_string("community/email/report_resolved.txt", context),
            "html_body": render_to_string("community/email/report_resolved.html", context),
        },
    )
    send_email_delivery(delivery_id=delivery.pk)
