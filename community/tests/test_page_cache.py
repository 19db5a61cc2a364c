"""A lesson's first page of comments, cached: updated on every post, edit, delete and hide;
each reader's own `is_author`; a fixed number of queries cold and none warm."""

import pytest
from django.urls import reverse

from accounts.tests.factories import UserFactory
from community.models import Comment
from community.tests.factories import CommentFactory, ReplyFactory
from lessons.services import set_published
from lessons.tests.factories import LessonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def lesson():
    return LessonFactory(slug="attention")


URL = "/api/v1/lessons/attention/comments/"


def bodies(response) -> list[str]:
    return [thread["body"] for thread in response.json()["results"]]


# The lesson, the page's count, its threads with authors and reply counts, embedded replies.
COLD_QUERIES = 4


@pytest.mark.parametrize(("threads", "replies"), [(1, 1), (10, 3), (25, 3)])
@pytest.mark.parametrize("signed", [False, True])
def test_first_page_runs_four_queries_cold_and_none_warm(
    client_for, api_client, user, lesson, threads, replies, signed, django_assert_num_queries
):
    for _ in range(threads):
        ReplyFactory.create_batch(replies, parent=CommentFactory(lesson=lesson))
    client = client_for(user) if signed else api_client

    with django_assert_num_queries(COLD_QUERIES):
        cold = client.get(URL)
    with django_assert_num_queries(0):
        warm = client.get(URL)

    assert cold.status_code == warm.status_code == 200
    assert warm.json() == cold.json()
    assert len(warm.json()["results"]) == min(threads, 20)


def test_the_cached_page_reads_exactly_as_the_uncached_one(api_client, lesson, settings):
    for _ in range(22):
        ReplyFactory.create_batch(4, parent=CommentFactory(lesson=lesson, body="*Hi* `x`"))
    api_client.get(URL)

    cached = api_client.get(URL).json()
    settings.PAGE_CACHE = False
    built = api_client.get(URL).json()

    assert cached == built
    assert cached["next"] == "http://testserver/api/v1/lessons/attention/comments/?page=2"
    assert cached["results"][0]["replies_url"].startswith("http://testserver/api/v1/comments/")


def test_is_author_is_each_readers_own(client_for, api_client, lesson):
    mine, theirs = UserFactory(), UserFactory()
    CommentFactory(lesson=lesson, author=mine)
    ReplyFactory(parent=CommentFactory(lesson=lesson, author=theirs), author=mine)

    def flags(client):
        return [
            (t["is_author"], [r["is_author"] for r in t["replies"]])
            for t in client.get(URL).json()["results"]
        ]

    assert flags(client_for(mine)) == [(True, []), (False, [True])]
    assert flags(client_for(theirs)) == [(False, []), (True, [False])]
    assert flags(api_client) == [(False, []), (False, [False])]


def test_a_posted_comment_shows_on_the_next_read(client_for, api_client, user, lesson):
    CommentFactory(lesson=lesson, body="First.")
    assert bodies(api_client.get(URL)) == ["First."]

    assert client_for(user).post(URL, {"body": "Second **one**."}).status_code == 201

    read = api_client.get(URL).json()
    assert [t["body"] for t in read["results"]] == ["First.", "Second **one**."]
    assert read["results"][1]["body_html"] == "<p>Second <strong>one</strong>.</p>"


def test_a_posted_reply_shows_on_the_next_read(client_for, api_client, user, lesson):
    top = CommentFactory(lesson=lesson)
    api_client.get(URL)

    client_for(user).post(URL, {"body": "A reply.", "parent": top.id})

    thread = api_client.get(URL).json()["results"][0]
    assert thread["reply_count"] == 1
    assert [r["body"] for r in thread["replies"]] == ["A reply."]


def test_an_edit_shows_on_the_next_read_and_stores_its_html(client_for, api_client, user, lesson):
    comment = CommentFactory(lesson=lesson, author=user, body="Before.")
    api_client.get(URL)

    client_for(user).patch(f"/api/v1/comments/{comment.id}/", {"body": "After _edit_."})

    thread = api_client.get(URL).json()["results"][0]
    assert thread["body_html"] == "<p>After <em>edit</em>.</p>"
    assert thread["is_edited"] is True
    assert Comment.objects.get(pk=comment.id).body_html == "<p>After <em>edit</em>.</p>"


def test_a_delete_shows_on_the_next_read(client_for, api_client, user, lesson):
    comment = CommentFactory(lesson=lesson, author=user)
    assert len(bodies(api_client.get(URL))) == 1

    client_for(user).delete(f"/api/v1/comments/{comment.id}/")

    assert bodies(api_client.get(URL)) == []


def test_a_deleted_stub_shows_as_deleted_on_the_next_read(client_for, api_client, user, lesson):
    top = CommentFactory(lesson=lesson, author=user)
    ReplyFactory(parent=top)
    api_client.get(URL)

    client_for(user).delete(f"/api/v1/comments/{top.id}/")

    thread = api_client.get(URL).json()["results"][0]
    assert (thread["body"], thread["body_html"]) == ("[deleted]", "<p>[deleted]</p>")
    assert thread["author"] is None


def test_hiding_in_the_admin_shows_on_the_next_read(client, api_client, lesson):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    hidden, kept = CommentFactory(lesson=lesson), CommentFactory(lesson=lesson)
    assert len(bodies(api_client.get(URL))) == 2

    client.post(
        reverse("admin:community_comment_change", args=[hidden.id]),
        {"is_hidden": "on", "hidden_reason": "off-topic"},
    )

    assert [t["id"] for t in api_client.get(URL).json()["results"]] == [kept.id]


def test_the_hide_action_and_unhide_action_show_on_the_next_read(client, api_client, lesson):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    comment = CommentFactory(lesson=lesson)
    api_client.get(URL)
    changelist = reverse("admin:community_comment_changelist")

    client.post(
        changelist, {"action": "hide_comments", "_selected_action": [comment.id], "post": "yes"}
    )
    assert bodies(api_client.get(URL)) == []

    client.post(
        changelist, {"action": "unhide_comments", "_selected_action": [comment.id], "post": "yes"}
    )
    assert len(bodies(api_client.get(URL))) == 1


def test_comments_of_a_lesson_unpublished_after_caching_are_404(
    client_for, api_client, user, lesson
):
    CommentFactory(lesson=lesson)
    api_client.get(URL)

    set_published(lesson_ids=[lesson.id], published=False)

    assert api_client.get(URL).status_code == 404
    assert client_for(user).get(URL).status_code == 404
    assert client_for(UserFactory(is_staff=True)).get(URL).status_code == 200
