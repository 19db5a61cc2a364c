"""The embedded default's periodic jobs: beat's schedule, run in-process by one thread."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import override_settings

from learning_platform import outbox, scheduler
from learning_platform import tasks as platform_tasks
from learning_platform.scheduler import EmbeddedScheduler, Job, jobs_from, run_in_process

SCHEDULE = {
    "often": {"task": "learning_platform.send_unsent_tasks", "schedule": 30},
    "seldom": {"task": "community.send_overdue_emails", "schedule": 60},
}


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_jobs_are_the_beat_schedules_entries_with_their_intervals():
    jobs = jobs_from(settings.CELERY_BEAT_SCHEDULE, now=0)

    assert [job.name for job in jobs] == list(settings.CELERY_BEAT_SCHEDULE)
    overdue = next(job for job in jobs if job.name == "community.send_overdue_emails")
    assert (overdue.task, overdue.every, overdue.due_at) == (
        "community.send_overdue_emails",
        60,
        60,
    )


def test_a_long_interval_still_runs_within_a_minute_of_the_start():
    [daily] = jobs_from({"daily": {"task": "x", "schedule": timedelta(days=1)}}, now=100)

    assert (daily.every, daily.due_at) == (86400, 160)


def test_each_job_runs_one_interval_after_the_start_then_every_interval():
    clock, ran = FakeClock(), []
    thread = EmbeddedScheduler(SCHEDULE, run_job=lambda job: ran.append(job.name), clock=clock)

    waits = []
    for offset in (0, 30, 45, 60, 90):
        clock.now = 1000.0 + offset
        waits.append(thread.run_due())

    assert ran == ["often", "often", "seldom", "often"]
    assert waits == [30, 30, 15, 30, 30]


def test_a_job_names_a_task_and_runs_it_in_this_process(db, monkeypatch):
    assert platform_tasks.send_unsent_tasks.name == "learning_platform.send_unsent_tasks"
    calls = []
    monkeypatch.setattr(outbox, "send_unsent_tasks", lambda: calls.append("swept") or 0)

    run_in_process(
        Job(name="sweep", task="learning_platform.send_unsent_tasks", every=30, due_at=0)
    )

    assert calls == ["swept"]


def test_a_failing_job_is_logged_not_raised(db, monkeypatch):
    logged = []
    monkeypatch.setattr(scheduler.logger, "exception", lambda *args: logged.append(args))

    run_in_process(Job(name="broken", task="no.such.task", every=30, due_at=0))

    assert logged == [("Periodic job %s failed", "broken")]


def test_a_crontab_entry_is_refused_by_name():
    with pytest.raises(TypeError, match="nightly"):
        jobs_from({"nightly": {"task": "x", "schedule": "0 3 * * *"}}, now=0)


def test_a_process_starts_one_scheduler_however_often_asked(monkeypatch):
    monkeypatch.setattr(scheduler, "_started", None)

    with override_settings(EMBEDDED_SCHEDULER=True):
        first = scheduler.start_embedded_scheduler()
        second = scheduler.start_embedded_scheduler()

    try:
        assert first is second
        assert first is not None
        assert first.is_alive()
    finally:
        first.stop()
        first.join(timeout=5)
    assert not first.is_alive()


def test_nothing_starts_when_the_setting_is_off(monkeypatch):
    monkeypatch.setattr(scheduler, "_started", None)

    with override_settings(EMBEDDED_SCHEDULER=False):
        assert scheduler.start_embedded_scheduler() is None
