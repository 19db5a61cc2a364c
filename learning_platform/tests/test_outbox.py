"""Tasks published after commit survive a broker outage: kept in the database, swept later."""

import pytest

from learning_platform import outbox
from learning_platform.celery import app
from learning_platform.models import UnsentTask

pytestmark = pytest.mark.django_db


def _count_publishes(monkeypatch) -> list[str]:
    attempts: list[str] = []
    original = app.tasks["achievements.evaluate_for_user"].apply_async

    def counting(*args, **kwargs):
        attempts.append("publish")
        return original(*args, **kwargs)

    monkeypatch.setattr(app.tasks["achievements.evaluate_for_user"], "apply_async", counting)
    return attempts


def test_a_failed_publish_keeps_the_task_and_the_next_ones_skip_the_broker_for_a_while(
    unreachable_broker, monkeypatch, settings
):
    settings.BROKER_RETRY_AFTER = 60
    attempts = _count_publishes(monkeypatch)

    first = outbox.publish("achievements.evaluate_for_user", args=[1], kwargs={"trigger": None})
    second = outbox.publish("achievements.evaluate_for_user", args=[2], kwargs={"trigger": None})

    assert (first, second) == (False, False)
    assert attempts == ["publish"]
    assert list(UnsentTask.objects.values_list("args", flat=True)) == [[1], [2]]
    assert "Connection refused" in UnsentTask.objects.first().last_error


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
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        app.tasks["achievements.evaluate_for_user"].delay_on_commit(7)

    assert len(callbacks) == 1  # runs only at commit
    assert not UnsentTask.objects.exists()


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
