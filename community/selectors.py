"""Reads of comments, follows, notifications and issue reports."""

from __future__ import annotations

from django.db.models import Count

from community.models import Comment, IssueReport


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
    rows = (
        Comment.objects.visible()
        .filter(lesson_id__in=lesson_ids)
        .order_by()
        .values("lesson_id")
        .annotate(n=Count("id"))
        .values_list("lesson_id", "n")
    )
    return dict(rows)
