"""Exact query counts of community's command endpoints: posting a comment or a reply, and
reporting an issue signed in or signed out.

The request's own queries, the same on SQLite and PostgreSQL; the notifications and the
achievement evaluation they queue run after the commit (as tasks) and are not part of the
answer's cost.
"""

import pytest

from community.tests.factories import CommentFactory
from lessons.tests.factories import LessonFactory, ProseBlockFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def lesson():
    return LessonFactory()


def comments_url(lesson) -> str:
    return f"/api/v1/lessons/{lesson.slug}/comments/"


def reports_url(lesson) -> str:
    return f"/api/v1/lessons/{lesson.slug}/reports/"


def test_posting_a_comment_runs_five_queries(user_client, lesson, django_assert_num_queries):
    # the lesson, the insert in a savepoint (3), the comment as answered
    with django_assert_num_queries(5):
        response = user_client.post(comments_url(lesson), {"body": "Why d_model?"})

    assert response.status_code == 201


def test_posting_a_reply_runs_seven_queries(user_client, lesson, django_assert_num_queries):
    top = CommentFactory(lesson=lesson)

    # the lesson, the parent, in a savepoint the parent again and the insert (4), the reply as
    # answered
    with django_assert_num_queries(7):
        response = user_client.post(comments_url(lesson), {"body": "agreed", "parent": top.id})

    assert response.status_code == 201


def test_reporting_an_issue_signed_in_runs_three_queries(
    user_client, lesson, django_assert_num_queries
):
    block = ProseBlockFactory(lesson=lesson)

    # the lesson, the block, the insert
    with django_assert_num_queries(3):
        response = user_client.post(
            reports_url(lesson), {"kind": "typo", "message": "'teh'", "block": block.id}
        )

    assert response.status_code == 201


def test_reporting_an_issue_signed_out_runs_two_queries(
    api_client, lesson, django_assert_num_queries
):
    # the lesson, the insert
    with django_assert_num_queries(2):
        response = api_client.post(
            reports_url(lesson),
            {"kind": "broken_link", "message": "Link 2 is dead", "contact_email": "a@b.example"},
        )

    assert response.status_code == 201
