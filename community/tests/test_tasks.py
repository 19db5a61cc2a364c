import re
from datetime import timedelta
from smtplib import SMTPException

import pytest
from django.db.models import F
from rest_framework.test import APIClient

from accounts.tests.factories import UserFactory
from community import tasks
from community.tests.factories import CommentFactory, ReplyFactory
from notifications import tasks as notification_tasks
from notifications.models import EmailDelivery, EmailState, Notification

# --- Task contracts -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "task",
    [
        notification_tasks.send_notification_emails,
        notification_tasks.send_email_delivery,
        tasks.notify_report_resolved,
    ],
)
def test_mail_tasks_retry_mail_server_errors_with_backoff_and_jitter(task):
    assert SMTPException in task.autoretry_for
    assert OSError in task.autoretry_for
    assert task.retry_backoff
    assert task.retry_jitter


def test_tasks_have_explicit_names():
    assert tasks.notify_about_comment.name == "community.notify_about_comment"
    assert notification_tasks.send_notification_emails.name == "community.send_notification_emails"


@pytest.mark.django_db
def test_posting_enqueues_the_fan_out_only_after_commit(django_capture_on_commit_callbacks):
    from community import services
    from lessons.tests.factories import LessonFactory

    author, lesson = UserFactory(), LessonFactory()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        comment = services.post_comment(author=author, lesson=lesson, body="hi")
        assert not Notification.objects.exists()

    assert comment.pk is not None
    from learning_platform.versioned import is_version_bump

    assert len([c for c in callbacks if not is_version_bump(c)]) == 2  # fan-out, achievements


@pytest.mark.django_db
def test_notify_task_run_twice_sends_one_notification_and_one_email(mailoutbox):
    reply = ReplyFactory(parent=CommentFactory())

    tasks.notify_about_comment(reply.id)
    tasks.notify_about_comment(reply.id)
    notification_tasks.send_notification_emails(reply.parent.author_id)

    assert Notification.objects.count() == 1
    assert len(mailoutbox) == 1


# --- With a real worker ---------------------------------------------------------------------


@pytest.fixture
def community_worker(monkeypatch, request):
    """The project's live worker, with a digest window short enough for a test."""
    monkeypatch.setenv("COMMUNITY_DIGEST_WINDOW_SECONDS", "2")
    return request.getfixturevalue("live_worker")


def _messages(worker) -> list[str]:
    # The file backend writes each message followed by a line of 79 dashes.
    return [m for f in worker.sent_mail() for m in f.split("-" * 79) if m.strip()]


def _succeeded(worker, task_name: str) -> int:
    return len(re.findall(rf"Task {re.escape(task_name)}\[[^\]]+\] succeeded", worker.log()))


def _sweep_when_due(worker, *, recipients: int) -> None:
    """What beat does every minute once the digest window (2 s) has passed for the waiting
    notifications: the sweep that sends the due digests. The worker's clock is its own, so
    the notifications are made older than the window instead of the test waiting it out."""
    waiting = Notification.objects.filter(email_state=EmailState.PENDING)
    _wait_for(lambda: waiting.count() >= recipients, worker)
    waiting.update(created_at=F("created_at") - timedelta(seconds=3))
    notification_tasks.send_overdue_emails.delay()


def _wait_for(condition, worker, timeout: float = 30.0) -> None:
    worker.wait_for(condition, timeout)


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_reply_gives_one_notification_and_one_email_even_when_tasks_run_twice(
    community_worker,
):
    from lessons.tests.factories import LessonFactory

    # given: a comment by one learner
    lesson = LessonFactory()
    author = UserFactory(email="author@example.com")
    top = CommentFactory(lesson=lesson, author=author)
    replier = APIClient()
    replier.force_authenticate(UserFactory())

    # when: another learner replies (the fan-out and the digest run in the worker)
    response = replier.post(
        f"/api/v1/lessons/{lesson.slug}/comments/", {"body": "Good point!", "parent": top.id}
    )
    assert response.status_code == 201
    reply_id = response.json()["id"]
    _sweep_when_due(community_worker, recipients=1)
    _wait_for(lambda: _messages(community_worker), community_worker)

    # then: exactly one in-app notification and one e-mail, to the author
    assert Notification.objects.filter(recipient=author).count() == 1
    messages = _messages(community_worker)
    assert len(messages) == 1
    assert "To: author@example.com" in messages[0]
    assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in messages[0]

    # when: the fan-out, the digest and the sweep run again
    done = _succeeded(community_worker, "community.send_notification_emails")
    tasks.notify_about_comment.delay(reply_id)
    notification_tasks.send_notification_emails.delay(author.id)
    notification_tasks.send_notification_emails.delay(author.id)
    notification_tasks.send_overdue_emails.delay()
    _wait_for(
        lambda: (
            _succeeded(community_worker, "community.send_notification_emails") >= done + 2
            and _succeeded(community_worker, "community.send_overdue_emails") >= 2
        ),
        community_worker,
    )

    # then: nothing more was created or sent
    assert Notification.objects.filter(recipient=author).count() == 1
    assert len(_messages(community_worker)) == 1
    assert EmailDelivery.objects.filter(sent_at__isnull=False).count() == 1


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_burst_of_replies_becomes_one_email_from_a_real_worker(community_worker):
    from lessons.tests.factories import LessonFactory

    lesson = LessonFactory()
    top = CommentFactory(lesson=lesson, author=UserFactory(email="thread@example.com"))
    for n in range(3):
        client = APIClient()
        client.force_authenticate(UserFactory())
        response = client.post(
            f"/api/v1/lessons/{lesson.slug}/comments/", {"body": f"reply {n}", "parent": top.id}
        )
        assert response.status_code == 201

    # 1 + 2 + 3 notifications for three recipients, sent by one sweep: three digests
    _sweep_when_due(community_worker, recipients=6)
    _wait_for(
        lambda: _succeeded(community_worker, "community.send_notification_emails") >= 3,
        community_worker,
    )

    # every reply notifies the thread's author; later replies also notify earlier repliers
    # (who follow the lesson by commenting): still one e-mail per person
    recipients = [re.search(r"^To: (.+)$", m, re.M).group(1) for m in _messages(community_worker)]
    assert sorted(recipients) == sorted(set(recipients)), recipients
    assert recipients.count("thread@example.com") == 1
    (to_author,) = [m for m in _messages(community_worker) if "To: thread@example.com" in m]
    assert "3 new notifications" in to_author
    assert Notification.objects.filter(recipient=top.author).count() == 3


# --- Digests from the periodic schedule -----------------------------------------------------


@pytest.fixture
def published_options(monkeypatch):
    """The options of every task published (eager mode still runs them in-process)."""
    from celery.app.task import Task

    published: list[tuple[str, dict]] = []
    original = Task.apply_async

    def recording(self, args=None, kwargs=None, **options):
        published.append((self.name, options))
        return original(self, args, kwargs, **options)

    monkeypatch.setattr(Task, "apply_async", recording)
    return published


@pytest.mark.django_db
def test_a_reply_publishes_no_task_with_a_countdown_or_eta(
    published_options, django_capture_on_commit_callbacks
):
    # A countdown longer than the broker's visibility timeout gets the message delivered
    # again (the digest ran twice): digests are due rows the periodic sweep sends instead.
    top = CommentFactory()
    client = APIClient()
    client.force_authenticate(UserFactory())

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/api/v1/lessons/{top.lesson.slug}/comments/", {"body": "Hi", "parent": top.id}
        )

    assert response.status_code == 201
    assert published_options, "the fan-out was published"
    delayed = [(n, o) for n, o in published_options if o.get("countdown") or o.get("eta")]
    assert delayed == []


@pytest.mark.django_db
def test_the_periodic_sweep_sends_a_digest_once_its_window_has_passed(settings, mailoutbox):
    import time_machine
    from django.utils import timezone

    settings.COMMUNITY_DIGEST_WINDOW_SECONDS = 300
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        reply = ReplyFactory(parent=CommentFactory())
        tasks.notify_about_comment(reply.id)
    assert Notification.objects.get().email_state == EmailState.PENDING

    with time_machine.travel(start + timedelta(seconds=299), tick=False):
        notification_tasks.send_overdue_emails()
    assert mailoutbox == []

    with time_machine.travel(start + timedelta(seconds=301), tick=False):
        notification_tasks.send_overdue_emails()
        notification_tasks.send_overdue_emails()
    assert len(mailoutbox) == 1
    assert mailoutbox[0].to == [reply.parent.author.email]


@pytest.mark.django_db
def test_a_reply_email_previews_the_reply_as_plain_text(
    mailoutbox, django_capture_on_commit_callbacks
):
    reply = ReplyFactory(parent=CommentFactory(), body="I *really* think `n_inner` is **null**.")

    with django_capture_on_commit_callbacks(execute=True):
        tasks.notify_about_comment(reply.id)
    notification_tasks.send_notification_emails(reply.parent.author_id)

    [email] = mailoutbox
    assert "I really think n_inner is null." in email.body
    assert "**" not in email.body
    assert "`" not in email.body
