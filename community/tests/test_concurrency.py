"""A reply and the deletion of its thread's first comment, at the same time."""

import threading

import pytest
from django.db import connection, transaction

from accounts.tests.factories import UserFactory
from community import services
from community.models import Comment
from community.tests.factories import CommentFactory, LessonSubscriptionFactory, ReplyFactory
from learning_platform.tests.waiting import another_connection_awaits_a_lock, wait_until
from notifications.models import Notification


@pytest.mark.django_db(transaction=True)
def test_a_reply_racing_the_deletion_of_its_thread_survives_under_a_stub(monkeypatch):
    # given: a thread with no replies yet
    head = CommentFactory()
    replier = UserFactory()
    reply_holds_the_lock = threading.Event()
    original_create = Comment.objects.create

    def create_slowly(**kwargs):
        # The reply has locked the thread's head; the delete starts now and must wait.
        reply_holds_the_lock.set()
        wait_until(another_connection_awaits_a_lock, timeout=10)
        return original_create(**kwargs)

    monkeypatch.setattr(Comment.objects, "create", create_slowly)
    errors: list[Exception] = []

    def run(work):
        try:
            work()
        except Exception as error:  # surfaced by the assertion below
            errors.append(error)
        finally:
            connection.close()

    def reply():
        services.post_comment(
            author=replier, lesson=head.lesson, body="A reply.", parent_id=head.id
        )

    def delete():
        reply_holds_the_lock.wait(timeout=10)
        services.delete_comment(comment=Comment.objects.get(pk=head.pk), actor=head.author)

    # when
    threads = [threading.Thread(target=run, args=(work,)) for work in (reply, delete)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    # then: the reply is kept and its thread's first comment stays as a "[deleted]" stub
    assert errors == []
    stub = Comment.objects.get(pk=head.pk)
    assert stub.is_deleted
    assert list(stub.replies.values_list("body", flat=True)) == ["A reply."]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("with_reply", [False, True], ids=["removed", "stubbed"])
def test_concurrent_edits_and_deletes_of_one_comment_never_answer_500(with_reply):
    # given: rounds of one comment (with a reply: deleting it leaves a stub), its author
    # sending an edit and a delete at the same moment from two devices
    from community.tests.test_api import client_for

    statuses: list[tuple[int, int]] = []
    for _ in range(8):
        author = UserFactory()
        comment = CommentFactory(author=author, body="before")
        if with_reply:
            ReplyFactory(parent=comment)
        start = threading.Barrier(2)
        answers: dict[str, int] = {}

        def send(method, body, comment=comment, author=author, start=start, answers=answers):
            try:
                client = client_for(author)
                start.wait(timeout=10)
                answers[method] = getattr(client, method)(
                    f"/api/v1/comments/{comment.id}/", body, format="json"
                ).status_code
            finally:
                connection.close()

        # when
        threads = [
            threading.Thread(target=send, args=("patch", {"body": "after"})),
            threading.Thread(target=send, args=("delete", None)),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        statuses.append((answers["patch"], answers["delete"]))

        # then: the delete always wins in the end, and a stub keeps no body
        left = Comment.objects.filter(pk=comment.pk).first()
        if with_reply:
            assert left is not None
            assert (left.is_deleted, left.body, left.body_html) == (True, "", "")
        else:
            assert left is None

    assert {patch for patch, _ in statuses} <= {200, 404}
    assert {delete for _, delete in statuses} <= {204, 404}
    assert all(delete == 204 for _, delete in statuses)


@pytest.mark.django_db(transaction=True)
def test_a_comment_hidden_while_its_notifications_are_made_leaves_none():
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; SQLite runs one writer at a time")
    # given: a follower of the lesson, and a comment whose notifications are not made yet
    head = CommentFactory()
    follower = UserFactory()
    LessonSubscriptionFactory(user=follower, lesson=head.lesson)
    hidden = threading.Event()
    errors: list[Exception] = []

    def hide():
        # The moderator's hide has written and withdrawn, but not committed yet.
        try:
            with transaction.atomic():
                services.hide_comment(comment=Comment.objects.get(pk=head.pk), reason="spam")
                hidden.set()
                # Committed only once the fan-out waits for this transaction's locks.
                wait_until(another_connection_awaits_a_lock, timeout=10)
        except Exception as error:  # surfaced by the assertion below
            errors.append(error)
        finally:
            connection.close()

    # when: the fan-out runs meanwhile
    moderator = threading.Thread(target=hide)
    moderator.start()
    hidden.wait(timeout=10)
    services.notify_about_comment(comment_id=head.id)
    moderator.join(timeout=30)

    # then: nothing about the hidden comment is left for the follower
    assert errors == []
    assert not Notification.objects.filter(recipient=follower).exists()
