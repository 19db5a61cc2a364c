"""A reply and the deletion of its thread's first comment, at the same time."""

import threading
import time

import pytest
from django.db import connection

from accounts.tests.factories import UserFactory
from community import services
from community.models import Comment
from community.tests.factories import CommentFactory


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
        time.sleep(0.5)
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
