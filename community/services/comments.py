"""Writes of comments: post, edit, delete, moderate, re-render."""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from community import events, selectors
from community.models import COMMENT_MAX_LENGTH, Comment
from community.services.fanout import withdraw_comment_notifications
from learning_platform import clock, versioned
from learning_platform.errors import InvalidField, NotAllowed
from learning_platform.markdown import render_markdown
from lessons.selectors import Lesson, lesson_slugs


class InvalidComment(InvalidField):
    """A comment's body or the comment it answers is not acceptable (`errors` names the field)."""


class NotCommentAuthor(NotAllowed):
    pass


def post_comment(
    *, author: User, lesson: Lesson, body: str, parent_id: int | None = None
) -> Comment:
    """Post a comment on `lesson`, or a reply in the thread of comment `parent_id`.

    A reply to a reply joins the same thread (threads are one level deep) and answers that
    reply's author. The comment answered must belong to the same lesson and be up (not
    hidden, not in a hidden thread, not deleted). After commit,
    followers are notified and the author's achievements re-evaluated, both by tasks.
    """
    # community.tasks imports the services: the task module is loaded when first used.
    from community import tasks

    body = _clean_body(body)
    # Rendered before any lock is taken: the lock on the thread's head is held for writes only.
    body_html = render_markdown(body, profile="comment")
    parent = reply_to = None
    if parent_id is not None:
        reply_to = (
            Comment.objects.select_related("parent")
            .filter(pk=parent_id, lesson=lesson)
            .visible()
            .first()
        )
        if reply_to is None:
            raise InvalidComment("parent", "No such comment on this lesson.")
        # `visible()` already ruled out a hidden thread; a thread whose first comment was
        # deleted stays open to replies to its replies.
        parent = reply_to.parent or reply_to
    with transaction.atomic():
        if parent is not None:
            # The thread's head, locked: a concurrent delete of it (which checks for replies
            # under the same lock) waits for this reply, or this reply sees it gone.
            parent = Comment.objects.select_for_update().filter(pk=parent.pk).first()
            if parent is None or parent.is_hidden:
                raise InvalidComment("parent", "No such comment on this lesson.")
        comment = Comment.objects.create(
            lesson=lesson,
            author=author,
            parent=parent,
            reply_to=reply_to,
            body=body,
            body_html=body_html,
        )
        # celery-types types a shared_task as Celery's Task; the app's is a DjangoTask.
        tasks.notify_about_comment.delay_on_commit(comment.id)  # type: ignore[attr-defined]
        events.comment_posted.announce(
            events.CommentPosted(user_id=author.id, comment_id=comment.id)
        )
    return comment


def edit_comment(*, comment: Comment, editor: User, body: str) -> Comment:
    """Replace the body of `editor`'s own comment and mark it edited.

    Serialized with a delete of the same comment by a row lock: an edit that comes second to a
    delete raises CommentNotFound (the API's 404), never writes a body into a "[deleted]" stub.
    """
    check_author(comment=comment, user=editor)
    body = _clean_body(body)
    # Rendered before the lock, so a slow render never holds the row.
    body_html = render_markdown(body, profile="comment")
    with transaction.atomic():
        comment = _lock_up_comment(pk=comment.pk)
        comment.body = body
        comment.body_html = body_html
        comment.edited_at = clock.now()
        comment.save(update_fields=["body", "body_html", "edited_at"])
    return comment


def delete_comment(*, comment: Comment, actor: User) -> Comment | None:
    """Delete `actor`'s own comment.

    A top-level comment with replies stays as a "[deleted]" stub with its body cleared, so
    the thread holds together; anything else is removed, and a stub left without replies
    goes with its last one. Returns the stub, or None when the row is gone. A comment already
    deleted (by a concurrent request) raises CommentNotFound.
    """
    check_author(comment=comment, user=actor)
    with transaction.atomic():
        # Its text leaves the followers' notifications and unsent digests, stub or not.
        withdraw_comment_notifications(comment_ids=[comment.pk])
        # Lock the thread's head, as a reply being posted does, so no reply slips in between
        # the check for replies and the delete; then the comment itself, which an edit locks.
        # Always head first: the same order everywhere, so no two requests deadlock.
        if comment.parent_id is not None:
            Comment.objects.select_for_update().filter(pk=comment.parent_id).first()
        comment = _lock_up_comment(pk=comment.pk)
        if comment.parent_id is None and comment.replies.exists():
            comment.is_deleted = True
            comment.deleted_at = clock.now()
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


def _lock_up_comment(*, pk: int) -> Comment:
    """The comment `pk`, locked for this transaction, if it is still up (not deleted, not
    hidden); CommentNotFound otherwise. Call inside transaction.atomic()."""
    comment: Comment | None = Comment.objects.select_for_update().filter(pk=pk).shown().first()
    if comment is None:
        raise selectors.CommentNotFound("No such comment.")
    return comment


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
        slugs = lesson_slugs(lesson_ids={c.lesson_id for c in changed})
        versioned.bump(*(selectors.discussion_version_key(slug) for slug in slugs))
    return len(changed)


def hide_comment(*, comment: Comment, reason: str = "") -> Comment:
    """Staff moderation: hide a comment (and with a top-level one, its whole thread).

    What was hidden leaves every follower's notifications and the digests not sent yet (issue
    41): the text stays only in the admin. Showing it again brings no notification back."""
    with transaction.atomic():
        comment.is_hidden = True
        comment.hidden_reason = reason[:200]
        comment.hidden_at = clock.now()
        comment.save(update_fields=["is_hidden", "hidden_reason", "hidden_at"])
        taken_down = [comment.pk]
        if comment.parent_id is None:
            taken_down += list(comment.replies.values_list("pk", flat=True))
        withdraw_comment_notifications(comment_ids=taken_down)
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
        raise InvalidComment("body", "A comment cannot be empty.")
    if any(
        len(line) - len(line.lstrip(" \t>-*+0123456789.)")) > MAX_NESTING_PREFIX
        for line in body.splitlines()
    ):
        raise InvalidComment("body", "Lists or quotes are nested too deeply.")
    if len(body) > COMMENT_MAX_LENGTH:
        raise InvalidComment("body", f"A comment has at most {COMMENT_MAX_LENGTH} characters.")
    return body


def check_author(*, comment: Comment, user: User) -> None:
    """Only a comment's author may change it (NotCommentAuthor otherwise)."""
    if comment.author_id != user.id:
        raise NotCommentAuthor("Only the author may change this comment.")
