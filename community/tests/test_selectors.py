import pytest

from community import selectors
from community.models import IssueReport
from community.tests.factories import CommentFactory, IssueReportFactory, ReplyFactory
from lessons.tests.factories import LessonFactory

pytestmark = pytest.mark.django_db


def test_count_comments_posted_counts_comments_and_replies_still_up(user):
    CommentFactory(author=user)
    ReplyFactory(author=user)
    CommentFactory(author=user, is_hidden=True)
    CommentFactory(author=user, is_deleted=True, body="")
    CommentFactory()  # someone else's

    assert selectors.count_comments_posted(user_id=user.id) == 2


def test_count_accepted_reports_counts_only_resolved_reports_of_the_learner(user):
    IssueReportFactory(
        reporter=user, status=IssueReport.Status.RESOLVED, resolved_at="2026-01-01T00:00Z"
    )
    IssueReportFactory(
        reporter=user, status=IssueReport.Status.REJECTED, resolved_at="2026-01-01T00:00Z"
    )
    IssueReportFactory(reporter=user, status=IssueReport.Status.TRIAGED)
    IssueReportFactory(status=IssueReport.Status.RESOLVED, resolved_at="2026-01-01T00:00Z")

    assert selectors.count_accepted_reports(user_id=user.id) == 1


def test_comment_counts_for_lessons_counts_visible_comments_in_one_query(
    django_assert_num_queries,
):
    first, second, quiet = LessonFactory(), LessonFactory(), LessonFactory()
    top = CommentFactory(lesson=first)
    ReplyFactory(parent=top)
    CommentFactory(lesson=first, is_hidden=True)
    hidden_thread = CommentFactory(lesson=second, is_hidden=True)
    ReplyFactory(parent=hidden_thread)  # invisible with its hidden parent
    CommentFactory(lesson=second, is_deleted=True, body="")
    CommentFactory(lesson=second)

    with django_assert_num_queries(1):
        counts = selectors.comment_counts_for_lessons(lesson_ids=[first.id, second.id, quiet.id])

    assert counts == {first.id: 2, second.id: 1}


def test_comment_counts_for_no_lessons_runs_no_query(django_assert_num_queries):
    with django_assert_num_queries(0):
        assert selectors.comment_counts_for_lessons(lesson_ids=[]) == {}
