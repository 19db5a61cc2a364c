"""Reads of comments, follows and issue reports."""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypedDict

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from accounts.models import Requester, User

# The limits the web app states (pages/web_rules.py).
from community.models import COMMENT_MAX_LENGTH as COMMENT_MAX_LENGTH
from community.models import REPORT_MESSAGE_MAX_LENGTH as REPORT_MESSAGE_MAX_LENGTH
from community.models import Comment, IssueReport, LessonSubscription
from learning_platform.errors import NotFound
from lessons.selectors import Lesson, visible_lessons


class CommentNotFound(NotFound):
    pass


class ReportNotFound(NotFound):
    pass


def count_comments_posted_by_user(*, user_ids: list[int]) -> dict[int, int]:
    """count_comments_posted for many learners in one query (absent: none)."""
    return dict(
        Comment.objects.filter(author_id__in=user_ids, is_deleted=False, is_hidden=False)
        .values("author_id")
        .annotate(posted=Count("id"))
        .values_list("author_id", "posted")
    )


def count_accepted_reports_by_user(*, user_ids: list[int]) -> dict[int, int]:
    """count_accepted_reports for many learners in one query (absent: none)."""
    return dict(
        IssueReport.objects.filter(reporter_id__in=user_ids, status=IssueReport.Status.RESOLVED)
        .values("reporter_id")
        .annotate(accepted=Count("id"))
        .values_list("reporter_id", "accepted")
    )


def count_comments_posted(*, user_id: int) -> int:
    """Comments and replies by the learner that are still up (neither deleted nor hidden)."""
    return Comment.objects.filter(author_id=user_id, is_deleted=False, is_hidden=False).count()


def count_accepted_reports(*, user_id: int) -> int:
    """Issue reports by the learner that staff resolved (a resolved report is an accepted one)."""
    return IssueReport.objects.filter(
        reporter_id=user_id, status=IssueReport.Status.RESOLVED
    ).count()


def comment_counts_for_lessons(*, lesson_ids: list[int]) -> dict[int, int]:
    """Visible comments and replies per lesson, in one query. Lessons without any are absent."""
    if not lesson_ids:
        return {}
    return dict(
        Comment.objects.visible()
        .filter(lesson_id__in=lesson_ids)
        .order_by()
        .values("lesson_id")
        .annotate(n=Count("id"))
        .values_list("lesson_id", "n")
    )


# --- Comments -------------------------------------------------------------------------------

# How many replies a top-level comment embeds in the list; the rest are at its replies URL.
EMBEDDED_REPLIES = 3


def _visible_replies() -> QuerySet[Comment]:
    # Replies of a listed thread: the thread itself is known to be up.
    return Comment.objects.shown()


def _with_authors(comments: QuerySet[Comment]) -> QuerySet[Comment]:
    return comments.select_related("author", "lesson", "reply_to__author")


def comment_threads(*, lesson_id: int, newest_first: bool = False) -> QuerySet[Comment]:
    """The visible top-level comments of a lesson, each with `reply_count` (visible replies)
    and `embedded_replies` (its first EMBEDDED_REPLIES visible replies, oldest first).

    A "[deleted]" comment is listed only while it still has visible replies. The queryset and
    its prefetch run a fixed number of queries whatever the number of comments and replies.
    """
    reply_count = (
        _visible_replies()
        .filter(parent=OuterRef("pk"))
        .order_by()
        .values("parent")
        .annotate(n=Count("id"))
        .values("n")
    )
    order = ("-created_at", "-id") if newest_first else ("created_at", "id")
    return (
        _with_authors(Comment.objects.filter(lesson_id=lesson_id, parent__isnull=True))
        .filter(is_hidden=False)
        .annotate(reply_count=Coalesce(Subquery(reply_count), 0))
        .filter(Q(is_deleted=False) | Q(reply_count__gt=0))
        .prefetch_related(
            Prefetch(
                "replies",
                queryset=_with_authors(_visible_replies()).order_by("created_at", "id")[
                    :EMBEDDED_REPLIES
                ],
                to_attr="embedded_replies",
            )
        )
        .order_by(*order)
    )


def thread_replies(*, parent: Comment) -> QuerySet[Comment]:
    """Every visible reply in `parent`'s thread, oldest first."""
    return _with_authors(_visible_replies().filter(parent=parent)).order_by("created_at", "id")


def get_visible_comment(*, pk: int, user: Requester) -> Comment:
    """A comment that is up (neither hidden nor in a hidden thread, nor deleted), on a lesson
    `user` may see (CommentNotFound otherwise)."""
    comments = Comment.objects.visible().filter(lesson__in=visible_lessons(user=user))
    comment = _with_authors(comments).filter(pk=pk).first()
    if comment is None:
        raise CommentNotFound("No such comment.")
    return comment


def get_visible_thread(*, pk: int, user: Requester) -> Comment:
    """A thread's top-level comment, "[deleted]" included but not hidden, on a lesson `user`
    may see (CommentNotFound otherwise)."""
    parent = Comment.objects.filter(
        pk=pk, lesson__in=visible_lessons(user=user), parent__isnull=True, is_hidden=False
    ).first()
    if parent is None:
        raise CommentNotFound("No such thread.")
    return parent


# --- Follows --------------------------------------------------------------------------------


def lesson_followers(*, lesson_id: int, as_of_comment_id: int | None = None) -> QuerySet[User]:
    """Active learners who follow the lesson (see the rule in community.models), one query.

    With `as_of_comment_id`, only comments posted before that one make their authors
    followers: a notification task that runs late must not tell later commenters about an
    earlier comment.
    """
    explicit = LessonSubscription.objects.filter(user=OuterRef("pk"), lesson_id=lesson_id)
    commented = Comment.objects.filter(author=OuterRef("pk"), lesson_id=lesson_id, is_deleted=False)
    if as_of_comment_id is not None:
        commented = commented.filter(id__lt=as_of_comment_id)
    return (
        get_user_model()
        .objects.filter(is_active=True)
        .filter(
            Exists(explicit.filter(subscribed=True))
            | (
                Q(reply_notifications=True)
                & Exists(commented)
                & ~Exists(explicit.filter(subscribed=False))
            )
        )
    )


def subscription_state(*, user: User, lesson: Lesson) -> dict[str, Any]:
    """Whether `user` follows `lesson`, why, and what commenting would change:
    {"following", "explicit": True|False|None, "commented", "follows_on_comment"}."""
    explicit = (
        LessonSubscription.objects.filter(user=user, lesson=lesson)
        .values_list("subscribed", flat=True)
        .first()
    )
    commented = Comment.objects.filter(author=user, lesson=lesson, is_deleted=False).exists()
    return {
        "following": lesson_followers(lesson_id=lesson.id).filter(pk=user.pk).exists(),
        "explicit": explicit,
        "commented": commented,
        "follows_on_comment": explicit is None and user.reply_notifications,
    }


# --- Issue reports --------------------------------------------------------------------------


def reports_for(*, user: User) -> QuerySet[IssueReport]:
    """The learner's own reports, newest first."""
    return (
        IssueReport.objects.filter(reporter=user)
        .select_related("lesson")
        .order_by("-created_at", "-id")
    )


def get_report_for(*, user: User, pk: int) -> IssueReport:
    """One of the learner's own reports (ReportNotFound for anyone else's)."""
    report = reports_for(user=user).filter(pk=pk).first()
    if report is None:
        raise ReportNotFound("No such report.")
    return report


OPEN_REPORT_STATUSES = (IssueReport.Status.NEW, IssueReport.Status.TRIAGED)


def open_report_counts(*, lesson_ids: list[int]) -> dict[int, int]:
    """Reports not yet resolved or rejected, per lesson (one query)."""
    return dict(
        IssueReport.objects.filter(lesson_id__in=lesson_ids, status__in=OPEN_REPORT_STATUSES)
        .values("lesson_id")
        .annotate(count=Count("id"))
        .order_by()
        .values_list("lesson_id", "count")
    )


class OpenReport(TypedDict):
    id: int
    kind: str
    status: str
    message: str
    created_at: datetime


def latest_open_reports(*, lesson_id: int, limit: int = 10) -> list[OpenReport]:
    """The lesson's newest open reports (one query)."""
    return list(
        IssueReport.objects.filter(lesson_id=lesson_id, status__in=OPEN_REPORT_STATUSES)
        .order_by("-created_at", "-id")
        .values("id", "kind", "status", "message", "created_at")[:limit]
    )


def report_choice_labels() -> tuple[dict[str, str], dict[str, str]]:
    """How report kinds and statuses read in a page: ({kind: label}, {status: label})."""
    return dict(IssueReport.Kind.choices), dict(IssueReport.Status.choices)


def discussion_version_key(lesson_slug: str) -> str:
    """The cache version of a lesson's discussion (its comment page, its comment count),
    bumped after every change to one of its comments (community.apps)."""
    return f"community:discussion-version:{lesson_slug}"
