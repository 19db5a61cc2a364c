import re

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from accounts.tests.factories import UserFactory
from community.models import Comment, IssueReport, LessonSubscription
from community.tests.factories import (
    CommentFactory,
    IssueReportFactory,
    LessonSubscriptionFactory,
    ReplyFactory,
)
from community.tests.xss import XSS_PAYLOADS, assert_harmless
from lessons.tests.factories import LessonFactory, ProseBlockFactory
from notifications.models import Notification

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def comments_url(lesson) -> str:
    return f"/api/v1/lessons/{lesson.slug}/comments/"


def rate_limit(scope: str) -> int:
    return int(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][scope].split("/")[0])


@pytest.fixture
def lesson():
    return LessonFactory()


# --- Reading comments -----------------------------------------------------------------------


def test_anyone_reads_the_comments_of_a_lesson(api_client, lesson):
    CommentFactory(lesson=lesson, body="First!")

    response = api_client.get(comments_url(lesson))

    assert response.status_code == 200
    assert [c["body"] for c in response.json()["results"]] == ["First!"]


def test_comment_list_embeds_first_replies_with_count_and_link(api_client, lesson):
    top = CommentFactory(lesson=lesson)
    replies = [ReplyFactory(parent=top) for _ in range(5)]

    thread = api_client.get(comments_url(lesson)).json()["results"][0]

    assert thread["reply_count"] == 5
    assert [r["id"] for r in thread["replies"]] == [r.id for r in replies[:3]]
    assert thread["replies_url"].endswith(f"/api/v1/comments/{top.id}/replies/")


def test_replies_url_lists_the_whole_thread_oldest_first(api_client, lesson):
    top = CommentFactory(lesson=lesson)
    replies = [ReplyFactory(parent=top) for _ in range(5)]

    response = api_client.get(f"/api/v1/comments/{top.id}/replies/")

    assert [r["id"] for r in response.json()["results"]] == [r.id for r in replies]


def test_comment_list_orders_oldest_first_by_default_and_newest_on_request(api_client, lesson):
    first, second = CommentFactory(lesson=lesson), CommentFactory(lesson=lesson)

    oldest = api_client.get(comments_url(lesson)).json()["results"]
    newest = api_client.get(comments_url(lesson) + "?ordering=newest").json()["results"]

    assert [c["id"] for c in oldest] == [first.id, second.id]
    assert [c["id"] for c in newest] == [second.id, first.id]


def test_comment_list_hides_hidden_comments_and_their_threads(api_client, lesson):
    hidden = CommentFactory(lesson=lesson, is_hidden=True)
    ReplyFactory(parent=hidden)
    shown = CommentFactory(lesson=lesson)
    ReplyFactory(parent=shown, is_hidden=True)

    results = api_client.get(comments_url(lesson)).json()["results"]

    assert [c["id"] for c in results] == [shown.id]
    assert results[0]["reply_count"] == 0
    assert results[0]["replies"] == []
    assert api_client.get(f"/api/v1/comments/{hidden.id}/replies/").status_code == 404


@pytest.mark.parametrize("replies", [1, 10])
def test_comment_list_runs_a_fixed_number_of_queries(
    api_client, lesson, django_assert_num_queries, replies
):
    # given: 2 or 20 threads with 1 or 10 replies each, by different authors
    for _ in range(2 if replies == 1 else 20):
        top = CommentFactory(lesson=lesson)
        for _ in range(replies):
            ReplyFactory(parent=top)

    # lesson, page count, page of threads with authors and reply counts, embedded replies
    with django_assert_num_queries(4):
        response = api_client.get(comments_url(lesson))

    assert response.status_code == 200


def test_comments_of_a_draft_lesson_are_404_for_learners(user_client, lesson):
    draft = LessonFactory(published=False)

    assert user_client.get(comments_url(draft)).status_code == 404
    assert user_client.post(comments_url(draft), {"body": "hi"}).status_code == 404


def test_comments_of_an_unknown_lesson_are_404(api_client):
    assert api_client.get("/api/v1/lessons/no-such-lesson/comments/").status_code == 404


# --- Posting --------------------------------------------------------------------------------


def test_signed_out_visitors_cannot_comment(api_client, lesson):
    response = api_client.post(comments_url(lesson), {"body": "hi"})

    assert response.status_code in (401, 403)
    assert not Comment.objects.exists()


def test_learner_posts_a_comment_with_source_and_html(user_client, user, lesson):
    response = user_client.post(comments_url(lesson), {"body": "Use `softmax` **here**"})

    assert response.status_code == 201
    body = response.json()
    assert body["author"] == {"id": user.id, "name": user.public_name}
    assert body["body"] == "Use `softmax` **here**"
    assert body["body_html"] == "<p>Use <code>softmax</code> <strong>here</strong></p>"
    assert body["is_author"] is True


@pytest.mark.parametrize("payload", XSS_PAYLOADS)
def test_xss_payload_in_a_comment_comes_out_inert(user_client, lesson, payload):
    response = user_client.post(comments_url(lesson), {"body": payload})

    assert response.status_code == 201
    assert_harmless(response.json()["body_html"])
    assert response.json()["body"] == payload.strip()


def test_comment_over_the_length_limit_is_rejected(user_client, lesson):
    response = user_client.post(comments_url(lesson), {"body": "x" * 5001})

    assert response.status_code == 400
    assert "body" in response.json()["errors"]


def test_a_huge_request_body_is_refused_without_a_server_error(user_client, lesson):
    response = user_client.post(comments_url(lesson), {"body": "x" * (2 * 1024 * 1024)})

    assert response.status_code == 413
    assert not Comment.objects.exists()


@pytest.mark.parametrize("body", ["", "   \n  "])
def test_empty_comment_is_rejected(user_client, lesson, body):
    assert user_client.post(comments_url(lesson), {"body": body}).status_code == 400


@pytest.mark.parametrize(("field", "value"), [("body", 5), ("parent", "1"), ("parent", True)])
def test_a_comment_field_of_the_wrong_json_type_is_refused(user_client, lesson, field, value):
    top = CommentFactory(lesson=lesson)
    payload = {"body": "agreed", "parent": top.id, field: value}

    response = user_client.post(comments_url(lesson), payload)

    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert Comment.objects.count() == 1


def test_reply_joins_the_thread_of_its_parent(user_client, lesson):
    top = CommentFactory(lesson=lesson)

    response = user_client.post(comments_url(lesson), {"body": "agreed", "parent": top.id})

    assert response.status_code == 201
    assert response.json()["parent"] == top.id


def test_reply_to_a_reply_attaches_to_the_top_level_comment(user_client, lesson):
    top = CommentFactory(lesson=lesson)
    reply = ReplyFactory(parent=top)

    response = user_client.post(comments_url(lesson), {"body": "re", "parent": reply.id})

    assert response.json()["parent"] == top.id
    assert response.json()["reply_to"]["id"] == reply.id


def test_reply_to_a_comment_of_another_lesson_is_rejected(user_client, lesson):
    elsewhere = CommentFactory()

    response = user_client.post(comments_url(lesson), {"body": "re", "parent": elsewhere.id})

    assert response.status_code == 400
    assert "parent" in response.json()["errors"]


def test_reply_to_a_hidden_comment_is_rejected(user_client, lesson):
    hidden = CommentFactory(lesson=lesson, is_hidden=True)

    response = user_client.post(comments_url(lesson), {"body": "re", "parent": hidden.id})

    assert response.status_code == 400


def test_reply_to_a_reply_in_a_hidden_thread_is_rejected(user_client, lesson):
    reply = ReplyFactory(parent=CommentFactory(lesson=lesson, is_hidden=True))

    response = user_client.post(comments_url(lesson), {"body": "re", "parent": reply.id})

    assert response.status_code == 400


def test_reply_to_a_deleted_comment_is_rejected_but_its_thread_stays_open(user_client, lesson):
    stub = CommentFactory(lesson=lesson, is_deleted=True, body="")
    reply = ReplyFactory(parent=stub)

    to_stub = user_client.post(comments_url(lesson), {"body": "re", "parent": stub.id})
    to_reply = user_client.post(comments_url(lesson), {"body": "re", "parent": reply.id})

    assert to_stub.status_code == 400
    assert to_reply.status_code == 201
    assert to_reply.json()["parent"] == stub.id


def test_posting_is_throttled_per_learner_with_retry_after(user_client, lesson):
    limit = rate_limit("comments")
    for n in range(limit):
        assert user_client.post(comments_url(lesson), {"body": f"c{n}"}).status_code == 201

    response = user_client.post(comments_url(lesson), {"body": "one too many"})

    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    # Another learner is not affected, and reading is never throttled.
    assert client_for(UserFactory()).post(comments_url(lesson), {"body": "me"}).status_code == 201
    assert user_client.get(comments_url(lesson)).status_code == 200


def test_lesson_read_carries_the_comment_count(api_client, lesson):
    CommentFactory(lesson=lesson)
    ReplyFactory(parent=CommentFactory(lesson=lesson))

    response = api_client.get(f"/api/v1/lessons/{lesson.slug}/")

    assert response.json()["comment_count"] == 3


# --- Editing and deleting -------------------------------------------------------------------


def test_author_edits_a_comment_and_it_is_marked_edited(user_client, user, lesson):
    comment = CommentFactory(lesson=lesson, author=user)

    response = user_client.patch(f"/api/v1/comments/{comment.id}/", {"body": "Better *now*"})

    assert response.status_code == 200
    assert response.json()["body_html"] == "<p>Better <em>now</em></p>"
    assert response.json()["is_edited"] is True
    assert response.json()["edited_at"] is not None


def test_someone_else_cannot_edit_or_delete_a_comment(user_client, lesson):
    comment = CommentFactory(lesson=lesson, body="mine")

    assert user_client.patch(f"/api/v1/comments/{comment.id}/", {"body": "x"}).status_code == 403
    assert user_client.delete(f"/api/v1/comments/{comment.id}/").status_code == 403
    comment.refresh_from_db()
    assert comment.body == "mine"


def test_signed_out_visitor_cannot_edit_a_comment(api_client, lesson):
    comment = CommentFactory(lesson=lesson)

    assert api_client.patch(f"/api/v1/comments/{comment.id}/", {"body": "x"}).status_code in (
        401,
        403,
    )


def test_deleting_a_comment_without_replies_removes_it(user_client, user, lesson):
    comment = CommentFactory(lesson=lesson, author=user)

    assert user_client.delete(f"/api/v1/comments/{comment.id}/").status_code == 204

    assert not Comment.objects.filter(pk=comment.pk).exists()


def test_deleting_a_comment_with_replies_leaves_a_deleted_stub(user_client, user, api_client):
    comment = CommentFactory(author=user, body="secret")
    reply = ReplyFactory(parent=comment)

    user_client.delete(f"/api/v1/comments/{comment.id}/")

    thread = api_client.get(comments_url(comment.lesson)).json()["results"][0]
    assert thread["body"] == "[deleted]"
    assert thread["author"] is None
    assert thread["is_deleted"] is True
    assert [r["id"] for r in thread["replies"]] == [reply.id]
    assert "secret" not in str(thread)


def test_deleting_the_last_reply_of_a_deleted_comment_removes_the_stub(user, lesson):
    stub = CommentFactory(lesson=lesson, is_deleted=True, body="")
    reply = ReplyFactory(parent=stub, author=user)

    client_for(user).delete(f"/api/v1/comments/{reply.id}/")

    assert not Comment.objects.filter(pk=stub.pk).exists()


def test_a_deleted_comment_cannot_be_edited(user_client, user, lesson):
    stub = CommentFactory(lesson=lesson, author=user, is_deleted=True, body="")
    ReplyFactory(parent=stub)

    assert user_client.patch(f"/api/v1/comments/{stub.id}/", {"body": "x"}).status_code == 404


# --- Subscriptions --------------------------------------------------------------------------


def test_follow_and_unfollow_a_lesson(user_client, user, lesson):
    url = f"/api/v1/lessons/{lesson.slug}/subscription"

    assert user_client.get(url).json() == {
        "lesson": lesson.slug,
        "following": False,
        "explicit": None,
        "commented": False,
        "follows_on_comment": True,
    }
    assert user_client.put(url).json()["following"] is True
    assert user_client.delete(url).json() == {
        "lesson": lesson.slug,
        "following": False,
        "explicit": False,
        "commented": False,
        "follows_on_comment": False,
    }
    assert LessonSubscription.objects.get(user=user, lesson=lesson).subscribed is False


def test_commenting_follows_by_profile_default(user_client, user, lesson):
    CommentFactory(lesson=lesson, author=user)

    state = user_client.get(f"/api/v1/lessons/{lesson.slug}/subscription").json()

    assert state["following"] is True
    assert state["explicit"] is None
    assert state["commented"] is True


@pytest.mark.parametrize(
    ("reply_notifications", "choice", "notified"),
    [(True, None, True), (False, None, False), (True, False, False), (False, True, True)],
)
def test_the_author_of_a_thread_is_notified_of_a_reply_exactly_when_the_state_says_following(
    django_capture_on_commit_callbacks, lesson, reply_notifications, choice, notified
):
    # given: an author's thread, their profile default and their choice for the lesson
    author = UserFactory(reply_notifications=reply_notifications)
    author_client = client_for(author)
    url = f"/api/v1/lessons/{lesson.slug}/subscription"
    before = author_client.get(url).json()
    with django_capture_on_commit_callbacks(execute=True):
        thread = author_client.post(comments_url(lesson), {"body": "Mine"}, format="json").json()
    if choice is not None:
        (author_client.put if choice else author_client.delete)(url)
    state = author_client.get(url).json()

    # when: another learner replies to it
    with django_capture_on_commit_callbacks(execute=True):
        client_for(UserFactory()).post(
            comments_url(lesson), {"body": "A reply", "parent": thread["id"]}, format="json"
        )

    # then: what the control showed is what happened, and what commenting would do was said
    assert before["follows_on_comment"] is reply_notifications
    assert before["following"] is False
    assert state["following"] is notified
    assert Notification.objects.filter(recipient=author, kind="comment_reply").exists() is notified


def test_subscription_needs_sign_in(api_client, lesson):
    assert api_client.put(f"/api/v1/lessons/{lesson.slug}/subscription").status_code in (401, 403)


# --- Issue reports --------------------------------------------------------------------------


def reports_url(lesson) -> str:
    return f"/api/v1/lessons/{lesson.slug}/reports/"


def test_signed_in_learner_reports_an_issue_on_a_block(user_client, user, lesson):
    block = ProseBlockFactory(lesson=lesson, position=3)

    response = user_client.post(
        reports_url(lesson),
        {"kind": "typo", "message": "'teh' in the second line", "block": block.id},
    )

    assert response.status_code == 201
    report = IssueReport.objects.get()
    assert (report.reporter, report.block, report.block_position) == (user, block, 3)
    assert report.status == IssueReport.Status.NEW
    assert response.json()["id"] == report.id


def test_signed_out_visitor_reports_with_a_contact_email(api_client, lesson):
    response = api_client.post(
        reports_url(lesson),
        {"kind": "broken_link", "message": "Link 2 is dead", "contact_email": "a@b.example"},
    )

    assert response.status_code == 201
    report = IssueReport.objects.get()
    assert report.reporter is None
    assert report.contact_email == "a@b.example"


def test_report_on_a_block_of_another_lesson_is_rejected(user_client, lesson):
    other_block = ProseBlockFactory()

    response = user_client.post(
        reports_url(lesson), {"kind": "typo", "message": "x", "block": other_block.id}
    )

    assert response.status_code == 400
    assert "block" in response.json()["errors"]


@pytest.mark.parametrize(
    "payload",
    [
        {"kind": "spam", "message": "x"},
        {"kind": "typo", "message": ""},
        {"kind": "typo", "message": "x" * 2001},
        {"kind": "typo", "message": "x", "contact_email": "not-an-email"},
    ],
)
def test_invalid_report_is_rejected(api_client, lesson, payload):
    assert api_client.post(reports_url(lesson), payload).status_code == 400


def test_honeypot_report_looks_accepted_but_is_not_stored(api_client, lesson):
    response = api_client.post(
        reports_url(lesson), {"kind": "other", "message": "buy", "website": "http://spam.example"}
    )

    assert response.status_code == 201
    assert response.json()["id"] is None
    assert not IssueReport.objects.exists()


def test_signed_out_reports_are_strictly_throttled(api_client, lesson):
    for _ in range(rate_limit("reports_anon")):
        assert (
            api_client.post(reports_url(lesson), {"kind": "typo", "message": "x"}).status_code
            == 201
        )

    response = api_client.post(reports_url(lesson), {"kind": "typo", "message": "x"})

    assert response.status_code == 429
    assert "Retry-After" in response


def test_a_forged_forwarded_address_does_not_escape_the_signed_out_throttle(api_client, lesson):
    def report(number: int):
        return api_client.post(
            reports_url(lesson),
            {"kind": "typo", "message": "x"},
            HTTP_X_FORWARDED_FOR=f"10.0.0.{number}",
        )

    statuses = [report(n).status_code for n in range(rate_limit("reports_anon") + 1)]

    assert statuses[-1] == 429


def test_signed_in_reports_have_their_own_throttle(user_client, lesson):
    for _ in range(rate_limit("reports_user")):
        assert (
            user_client.post(reports_url(lesson), {"kind": "typo", "message": "x"}).status_code
            == 201
        )

    assert (
        user_client.post(reports_url(lesson), {"kind": "typo", "message": "x"}).status_code == 429
    )


def test_reports_on_a_draft_lesson_are_404(api_client):
    draft = LessonFactory(published=False)

    assert api_client.post(reports_url(draft), {"kind": "typo", "message": "x"}).status_code == 404


def test_learner_reads_own_reports_only(user_client, user):
    mine = IssueReportFactory(reporter=user)
    theirs = IssueReportFactory()

    listed = user_client.get("/api/v1/me/reports/").json()["results"]

    assert [r["id"] for r in listed] == [mine.id]
    assert user_client.get(f"/api/v1/me/reports/{mine.id}/").status_code == 200
    assert user_client.get(f"/api/v1/me/reports/{theirs.id}/").status_code == 404


def test_a_learner_reads_the_editors_answer_to_their_report_but_not_the_internal_note(
    user_client, user
):
    report = IssueReportFactory(
        reporter=user, answer="Fixed: it says d_model now.", internal_note="Ask Sam first."
    )

    listed = user_client.get("/api/v1/me/reports/").json()["results"]
    one = user_client.get(f"/api/v1/me/reports/{report.id}/").json()

    assert listed[0]["answer"] == one["answer"] == "Fixed: it says d_model now."
    assert "Ask Sam first." not in str(listed) + str(one)


# --- Unsubscribe ----------------------------------------------------------------------------


def test_lesson_unsubscribe_link_unfollows_that_lesson_only(api_client, user, lesson):
    from notifications.services import make_unsubscribe_token

    LessonSubscriptionFactory(user=user, lesson=lesson, subscribed=True)
    token = make_unsubscribe_token(user_id=user.id, lesson_id=lesson.id)

    response = api_client.post(f"/api/v1/unsubscribe/{token}")

    assert response.json()["lesson"]["slug"] == lesson.slug
    assert LessonSubscription.objects.get(user=user, lesson=lesson).subscribed is False
    user.refresh_from_db()
    assert user.email_notifications is True


def test_a_pathologically_nested_comment_is_refused_and_the_list_still_reads(user_client, lesson):
    url = f"/api/v1/lessons/{lesson.slug}/comments/"

    response = user_client.post(url, {"body": "- " * 2400 + "x"}, format="json")

    assert response.status_code == 400
    assert "nested too deeply" in response.json()["errors"]["body"][0]
    assert user_client.get(url).status_code == 200


def test_a_comment_of_invisible_characters_only_is_empty(user_client, lesson):
    response = user_client.post(
        f"/api/v1/lessons/{lesson.slug}/comments/", {"body": "\u200b \u200b"}, format="json"
    )

    assert response.status_code == 400


# --- The broker down ------------------------------------------------------------------------


def test_a_comment_posted_while_the_broker_is_down_answers_201_and_followers_hear_later(
    lesson, django_capture_on_commit_callbacks, unreachable_broker
):
    follower = UserFactory()
    CommentFactory(lesson=lesson, author=follower)
    author = UserFactory()

    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(author).post(comments_url(lesson), {"body": "Hello"}, format="json")
    assert response.status_code == 201
    assert Comment.objects.filter(author=author).count() == 1
    assert not Notification.objects.filter(recipient=follower).exists()

    from learning_platform.outbox import send_unsent_tasks

    unreachable_broker.up()
    with django_capture_on_commit_callbacks(execute=True):
        sent = send_unsent_tasks()

    assert sent >= 1
    assert Notification.objects.filter(recipient=follower).count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert send_unsent_tasks() == 0


def test_a_learner_without_a_display_name_is_shown_by_a_handle_never_their_email(
    api_client, lesson, django_capture_on_commit_callbacks
):
    quiet = UserFactory(email="jane.secret@example.com", display_name="")
    follower = UserFactory()
    CommentFactory(lesson=lesson, author=follower)

    with django_capture_on_commit_callbacks(execute=True):
        client_for(quiet).post(comments_url(lesson), {"body": "Hi"}, format="json")
    listed = api_client.get(comments_url(lesson)).json()["results"]
    notification = client_for(follower).get("/api/v1/me/notifications/").json()["results"][0]

    names = {c["author"]["name"] for c in listed if c["body"] == "Hi"}
    assert names == {quiet.public_name}
    assert re.fullmatch(r"Learner \d{6}", quiet.public_name)
    assert "jane" not in str(listed)
    assert "jane" not in str(notification)
    quiet.refresh_from_db()
    assert quiet.public_name == names.pop()  # stable


def test_patching_a_comment_with_no_fields_changes_nothing_and_answers_200(lesson):
    comment = CommentFactory(lesson=lesson, body="Original")

    response = client_for(comment.author).patch(
        f"/api/v1/comments/{comment.id}/", {}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["body"] == "Original"
    comment.refresh_from_db()
    assert comment.edited_at is None


def test_patching_someone_elses_comment_with_no_fields_is_still_403(lesson):
    comment = CommentFactory(lesson=lesson)

    response = client_for(UserFactory()).patch(f"/api/v1/comments/{comment.id}/", {}, format="json")

    assert response.status_code == 403


@pytest.mark.parametrize("website", [0, 1.5, True, ["x"], {"a": 1}])
def test_a_report_with_a_non_string_honeypot_is_refused_not_dropped(api_client, lesson, website):
    response = api_client.post(
        f"/api/v1/lessons/{lesson.slug}/reports/",
        {"kind": "typo", "message": "Typo", "website": website},
        format="json",
    )

    assert response.status_code == 400
    assert "website" in response.json()["errors"]


def test_a_report_message_over_its_max_length_is_refused_even_with_surrounding_spaces(
    api_client, lesson
):
    from community.models import REPORT_MESSAGE_MAX_LENGTH

    response = api_client.post(
        f"/api/v1/lessons/{lesson.slug}/reports/",
        {"kind": "typo", "message": "\t" + "*" * REPORT_MESSAGE_MAX_LENGTH},
        format="json",
    )

    assert response.status_code == 400
    assert "message" in response.json()["errors"]


def test_editing_is_throttled_per_learner_with_retry_after(user_client, user, lesson):
    comment = CommentFactory(lesson=lesson, author=user)
    limit = rate_limit("comment_edits")
    for n in range(limit):
        edit = user_client.patch(f"/api/v1/comments/{comment.id}/", {"body": f"e{n}"})
        assert edit.status_code == 200

    response = user_client.patch(f"/api/v1/comments/{comment.id}/", {"body": "one too many"})

    assert response.status_code == 429
    assert response.json()["type"] == "throttled"
    assert int(response["Retry-After"]) > 0
    # Reading and deleting stay open.
    assert user_client.get(f"/api/v1/comments/{comment.id}/").status_code == 200
    assert user_client.delete(f"/api/v1/comments/{comment.id}/").status_code == 204


# The races of an edit with a delete, made deterministic: the delete lands while the edit is
# rendering, after its lookup and before its write.
@pytest.mark.parametrize("with_reply", [False, True], ids=["removed", "stubbed"])
def test_an_edit_whose_comment_is_deleted_meanwhile_answers_404(
    user_client, user, lesson, monkeypatch, with_reply
):
    from community.services import comments as comment_services

    comment = CommentFactory(lesson=lesson, author=user, body="first")
    if with_reply:
        ReplyFactory(parent=comment)
    render = comment_services.render_markdown

    def render_while_deleted(source, *, profile):
        comment_services.delete_comment(comment=Comment.objects.get(pk=comment.pk), actor=user)
        return render(source, profile=profile)

    monkeypatch.setattr(comment_services, "render_markdown", render_while_deleted)

    response = user_client.patch(f"/api/v1/comments/{comment.id}/", {"body": "second"})

    assert response.status_code == 404
    assert response.json()["type"] == "not_found"
    assert not Comment.objects.filter(pk=comment.pk, is_deleted=False).exists()
    assert not Comment.objects.filter(body="second").exists()


@pytest.mark.parametrize("is_reply", [False, True], ids=["comment", "reply"])
def test_a_delete_whose_comment_is_deleted_meanwhile_answers_404(user, lesson, is_reply):
    from community.services import comments as comment_services

    head = CommentFactory(lesson=lesson, author=user)
    target = ReplyFactory(parent=head, author=user) if is_reply else head
    stale = Comment.objects.get(pk=target.pk)
    comment_services.delete_comment(comment=Comment.objects.get(pk=target.pk), actor=user)

    with pytest.raises(comment_services.selectors.CommentNotFound):
        comment_services.delete_comment(comment=stale, actor=user)
