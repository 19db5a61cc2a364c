"""Tasks published after commit survive a broker outage: kept in the database, swept later."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from learning_platform import outbox
from learning_platform.celery import app
from learning_platform.models import UnsentTask
from notifications.models import Notification

pytestmark = pytest.mark.django_db


def _count_publishes(monkeypatch) -> list[str]:
    attempts: list[str] = []
    original = app.tasks["achievements.evaluate_for_user"].apply_async

    def counting(*args, **kwargs):
        attempts.append("publish")
        return original(*args, **kwargs)

    monkeypatch.setattr(app.tasks["achievements.evaluate_for_user"], "apply_async", counting)
    return attempts


def _evaluate_on_commit(capture, *learner_ids: int) -> None:
    """Queue a task per learner in a transaction that commits (their publish runs then)."""
    task = app.tasks["achievements.evaluate_for_user"]
    with capture(execute=True):
        for learner_id in learner_ids:
            task.delay_on_commit(learner_id, trigger=None)


def test_a_failed_publish_keeps_the_task_and_the_next_ones_skip_the_broker_for_a_while(
    unreachable_broker, monkeypatch, settings, django_capture_on_commit_callbacks
):
    settings.BROKER_RETRY_AFTER = 60
    attempts = _count_publishes(monkeypatch)

    _evaluate_on_commit(django_capture_on_commit_callbacks, 1, 2)

    assert attempts == ["publish"]
    assert list(UnsentTask.objects.values_list("args", flat=True)) == [[1], [2]]
    assert "Connection refused" in UnsentTask.objects.first().last_error
    assert all(row.due_at <= timezone.now() for row in UnsentTask.objects.all())


def test_once_the_pause_is_over_a_publish_tries_the_broker_again(
    unreachable_broker, monkeypatch, settings, django_capture_on_commit_callbacks
):
    settings.BROKER_RETRY_AFTER = 60
    attempts = _count_publishes(monkeypatch)
    _evaluate_on_commit(django_capture_on_commit_callbacks, 1)

    with _later(61):
        _evaluate_on_commit(django_capture_on_commit_callbacks, 2)

    assert attempts == ["publish", "publish"]


def test_the_sweep_stops_at_the_first_failure_and_keeps_what_it_could_not_send(
    unreachable_broker,
):
    for user_id in (1, 2):
        UnsentTask.objects.create(task="achievements.evaluate_for_user", args=[user_id])

    assert outbox.send_unsent_tasks() == 0

    assert UnsentTask.objects.count() == 2
    assert list(UnsentTask.objects.values_list("attempts", flat=True)) == [1, 0]


def test_the_sweep_publishes_in_batches_oldest_first(unreachable_broker, monkeypatch):
    for user_id in (1, 2, 3):
        UnsentTask.objects.create(task="achievements.evaluate_for_user", args=[user_id])
    unreachable_broker.up()
    attempts = _count_publishes(monkeypatch)

    assert outbox.send_unsent_tasks(batch_size=2) == 2

    assert attempts == ["publish", "publish"]
    assert list(UnsentTask.objects.values_list("args", flat=True)) == [[3]]


def test_a_publish_rabbitmq_refuses_is_kept_for_the_sweep_like_an_outage():
    from amqp.exceptions import MessageNacked

    broker = app.conf.broker_url
    app.conf.broker_url = "amqp://guest:guest@127.0.0.1:1//"  # no connection is made
    try:
        errors = outbox._broker_errors()
    finally:
        app.conf.broker_url = broker

    assert issubclass(MessageNacked, errors)


def test_the_sweep_runs_from_the_beat_schedule(settings):
    import learning_platform.tasks  # noqa: F401  (what the worker's autodiscovery imports)

    entry = settings.CELERY_BEAT_SCHEDULE["learning_platform.send_unsent_tasks"]

    assert entry["task"] in app.tasks


def test_delay_on_commit_keeps_the_task_for_the_sweep_when_the_broker_is_down(
    unreachable_broker, django_capture_on_commit_callbacks
):
    task = app.tasks["achievements.evaluate_for_user"]

    with django_capture_on_commit_callbacks(execute=True):
        task.delay_on_commit(7, trigger="comment_posted")

    kept = UnsentTask.objects.get()
    assert (kept.task, kept.args, kept.kwargs) == (
        "achievements.evaluate_for_user",
        [7],
        {"trigger": "comment_posted"},
    )


def test_delay_on_commit_publishes_nothing_when_the_transaction_rolls_back(
    unreachable_broker, django_capture_on_commit_callbacks
):
    from django.db import transaction

    def change_that_fails() -> None:
        with transaction.atomic():
            app.tasks["achievements.evaluate_for_user"].delay_on_commit(7)
            raise RuntimeError("the change fails")

    with django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(RuntimeError):
        change_that_fails()

    assert callbacks == []
    assert not UnsentTask.objects.exists()  # the row went with the change


def test_the_sweep_publishes_a_task_whose_module_this_process_never_imported(monkeypatch):
    # A sweep run outside a worker (a script, a shell) knows only the tasks it imported.
    import sys

    for name in [name for name in app.tasks if name.startswith("achievements.")]:
        monkeypatch.delitem(app.tasks, name)
    monkeypatch.delitem(sys.modules, "achievements.tasks")
    UnsentTask.objects.create(task="achievements.evaluate_for_user", args=[0])

    assert outbox.send_unsent_tasks() == 1

    assert not UnsentTask.objects.exists()


def test_a_kept_task_that_no_longer_exists_is_skipped_and_the_rest_go_out():
    gone = UnsentTask.objects.create(task="community.renamed_long_ago", args=[1])
    UnsentTask.objects.create(task="achievements.evaluate_for_user", args=[0])

    assert outbox.send_unsent_tasks() == 1

    kept = UnsentTask.objects.get()
    assert kept.pk == gone.pk
    assert kept.attempts == 1
    assert kept.last_error.startswith("NotRegistered")


# --- Rows kept until the task is done (issue 25, items 5 to 7) ------------------------------


def _later(seconds: float):
    return time_machine.travel(timezone.now() + timedelta(seconds=seconds), tick=False)


def test_a_row_that_fails_for_a_reason_other_than_the_broker_is_marked_and_skipped(
    memory_broker,
):
    bad = UnsentTask.objects.create(
        task="achievements.evaluate_for_user", args=[1], options={"countdown": "soon"}
    )
    good = UnsentTask.objects.create(task="achievements.evaluate_for_user", args=[2])

    assert outbox.send_unsent_tasks() == 1

    bad.refresh_from_db()
    assert bad.attempts == 1
    assert bad.last_error.startswith(("TypeError", "ValueError"))
    assert bad.due_at > timezone.now()  # tried again later, not on every sweep
    assert [(name, args) for name, args, _, _ in memory_broker.queued()] == [
        ("achievements.evaluate_for_user", [2])
    ]
    assert UnsentTask.objects.get(pk=good.pk).attempts == 1  # kept until a worker ran it


def test_the_row_is_written_with_the_change_and_deleted_once_the_worker_ran_the_task(
    memory_broker, django_capture_on_commit_callbacks
):
    _, follower = _reply_with_a_follower(django_capture_on_commit_callbacks)

    assert UnsentTask.objects.filter(task="community.notify_about_comment").count() == 1
    assert "community.notify_about_comment" in memory_broker.run_queued()
    assert Notification.objects.filter(recipient=follower).count() == 1
    assert not UnsentTask.objects.filter(task="community.notify_about_comment").exists()


def test_a_process_that_dies_between_commit_and_publish_loses_no_task(
    memory_broker, django_capture_on_commit_callbacks
):
    # The commit happened, the on-commit publish never ran (the process was killed).
    _, follower = _reply_with_a_follower(django_capture_on_commit_callbacks, publish=False)
    assert memory_broker.queued() == []

    assert outbox.send_unsent_tasks() == 0  # not due yet: the publish may still be under way
    with _later(settings_redeliver_after() + 1):
        assert outbox.send_unsent_tasks() >= 1
    memory_broker.run_queued()

    assert Notification.objects.filter(recipient=follower).count() == 1
    assert not UnsentTask.objects.exists()


def test_a_broker_that_loses_its_queues_loses_no_task(
    memory_broker, django_capture_on_commit_callbacks
):
    _, follower = _reply_with_a_follower(django_capture_on_commit_callbacks)
    memory_broker.flush()  # FLUSHDB before a worker took the message

    with _later(settings_redeliver_after() + 1):
        assert outbox.send_unsent_tasks() >= 1
    memory_broker.run_queued()

    assert Notification.objects.filter(recipient=follower).count() == 1
    assert not UnsentTask.objects.exists()


def settings_redeliver_after() -> int:
    from django.conf import settings

    return settings.OUTBOX_REDELIVER_AFTER


def _reply_with_a_follower(capture, *, publish: bool = True):
    from rest_framework.test import APIClient

    from accounts.tests.factories import UserFactory
    from community.tests.factories import CommentFactory

    follower = UserFactory()
    parent = CommentFactory(author=follower)
    client = APIClient()
    client.force_authenticate(UserFactory())
    with capture(execute=publish):
        response = client.post(
            f"/api/v1/lessons/{parent.lesson.slug}/comments/",
            {"body": "Hello", "parent": parent.pk},
            format="json",
        )
    assert response.status_code == 201, response.content
    return response.json(), follower


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_broker_that_lost_its_queue_loses_no_reply_notification_and_no_reset_email(
    live_worker, settings
):
    """Worker "paused" (the tasks go to a queue nobody reads), a reply and a reset request,
    the broker's queue deleted (Redis: the keys FLUSHDB would take; RabbitMQ: the queue), then
    the sweep."""
    from django.test import Client

    from accounts.tests.factories import UserFactory

    parked = f"{live_worker.queue}-parked"
    app.conf.task_default_queue = parked
    try:
        _, follower = _reply_with_a_follower(_run_at_once)
        UserFactory(email="forgot@example.com")
        response = Client().post(
            "/_allauth/app/v1/auth/password/request",
            {"email": "forgot@example.com"},
            content_type="application/json",
        )
        assert response.status_code == 200
        assert live_worker.waiting(parked) >= 2
        live_worker.delete_queues(parked)  # lost, as with FLUSHDB
    finally:
        app.conf.task_default_queue = live_worker.queue

    with _later(settings.OUTBOX_REDELIVER_AFTER + 1):
        assert outbox.send_unsent_tasks() >= 2

    live_worker.wait_for(lambda: not UnsentTask.objects.exists())
    assert not UnsentTask.objects.exists(), live_worker.log()
    assert Notification.objects.filter(recipient=follower).count() == 1
    assert any("/account/password/reset/key/" in m for m in live_worker.sent_mail())


class _run_at_once:
    """Stands in for django_capture_on_commit_callbacks where commits are real."""

    def __init__(self, execute: bool = True) -> None:
        pass

    def __enter__(self):
        return []

    def __exit__(self, *exc: object) -> None:
        return None
