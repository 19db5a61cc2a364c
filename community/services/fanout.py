"""The fan-out of a new comment: who hears about it, told through notifications.services."""

from __future__ import annotations

from django.db import transaction

from community import selectors
from community.models import Comment
from learning_platform.markdown import markdown_as_text
from notifications.services import (
    NewNotification,
    create_notifications,
    withdraw_notifications,
)

EXCERPT_LENGTH = 200


class NotificationKind:
    COMMENT_REPLY = "comment_reply"
    LESSON_COMMENT = "lesson_comment"
    REPORT_RESOLVED = "report_resolved"


def comment_notification_key(comment_id: int) -> str:
    """The dedupe key of every notification about comment `comment_id` (one per recipient)."""
    return f"comment:{comment_id}"


def withdraw_comment_notifications(*, comment_ids: list[int]) -> int:
    """The comments were taken down (hidden, deleted): their text leaves every follower's
    notifications and the digests not sent yet (notifications.services)."""
    return withdraw_notifications(dedupe_keys=[comment_notification_key(i) for i in comment_ids])


def notify_about_comment(*, comment_id: int) -> list[int]:
    """Notify the followers of the comment's lesson (never its author), once each.

    The author of the comment answered gets a "replied to your comment" notification, the
    other followers a "new comment" one; both carry the dedupe key `comment:<id>`, so running
    this twice creates nothing new. Returns the ids of the recipients who take e-mails: their
    notifications wait (`pending`) for the digest the periodic sweep sends once the oldest has
    waited COMMUNITY_DIGEST_WINDOW_SECONDS (no task waits with a countdown: one longer than the
    broker's visibility timeout is delivered twice).
    """
    with transaction.atomic():
        # The thread's head, then the comment, locked (the order every writer takes): a hide or
        # delete made meanwhile waits until these notifications exist, then withdraws them; one
        # made before is seen below, and nothing is created.
        head_id = Comment.objects.filter(pk=comment_id).values_list("parent_id", flat=True).first()
        locked = [pk for pk in (head_id, comment_id) if pk is not None]
        list(Comment.objects.select_for_update().filter(pk__in=locked).order_by("pk").values("pk"))
        return _notify_followers(comment_id=comment_id)


def _notify_followers(*, comment_id: int) -> list[int]:
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
    body = excerpt(comment.body, markdown=True)
    url = f"/lessons/{lesson.slug}#comment-{comment.id}"
    # `lesson_id` is also what the digest offers to stop following (FOLLOWED_TOPIC_KEY).
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
            NewNotification(
                recipient_id=recipient_id,
                kind=kind,
                title=title,
                body=body,
                url=url,
                data=data,
                dedupe_key=comment_notification_key(comment.id),
                email=wants_email,
            )
        )
        if wants_email:
            emailed.append(recipient_id)
    create_notifications(notifications=notifications)
    return emailed


def excerpt(text: str, *, markdown: bool) -> str:
    """The start of a learner's text as plain text on one line, for a notification and the
    e-mail that carries it: Markdown (a comment) as its reader sees it, without `**` or
    backticks; other text as written."""
    text = markdown_as_text(text) if markdown else " ".join(text.split())
    return text if len(text) <= EXCERPT_LENGTH else text[: EXCERPT_LENGTH - 1] + "…"
