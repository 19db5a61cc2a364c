"""The embedded default's periodic jobs: beat's schedule, run in-process by Celery's own beat
in a thread (`celery.beat.EmbeddedService`, as `celery worker -B` embeds it)."""

import pytest
from celery.beat import EmbeddedService
from celery.schedules import crontab
from django.conf import settings
from django.test import override_settings

from learning_platform import outbox, scheduler
from learning_platform.celery import app
from learning_platform.scheduler import InProcessScheduler
from learning_platform.tests.waiting import wait_until


@pytest.fixture
def beat_schedule(monkeypatch):
    """Give beat this schedule instead of the project's."""

    def use(schedule):
        monkeypatch.setitem(app.conf, "beat_schedule", schedule)

    return use


def test_beat_reads_the_projects_schedule_crontab_entries_included(tmp_path, beat_schedule):
    nightly = crontab(hour=3, minute=0)
    beat_schedule({**settings.CELERY_BEAT_SCHEDULE, "nightly": {"task": "x", "schedule": nightly}})

    entries = InProcessScheduler(app=app, schedule_filename=str(tmp_path / "beat")).schedule

    assert set(entries) >= {*settings.CELERY_BEAT_SCHEDULE, "nightly"}
    assert entries["nightly"].schedule == nightly


def test_a_due_entry_runs_its_task_in_this_process(tmp_path, beat_schedule, monkeypatch):
    calls = []
    monkeypatch.setattr(outbox, "send_unsent_tasks", lambda: calls.append("swept") or 0)
    beat_schedule({"sweep": {"task": "learning_platform.send_unsent_tasks", "schedule": 0.05}})
    service = EmbeddedService(
        app, thread=True, scheduler_cls=InProcessScheduler, schedule_filename=str(tmp_path / "b")
    )

    service.start()
    try:
        wait_until(lambda: calls, timeout=10)
    finally:
        service.stop()
        service.join(timeout=5)

    assert calls[0] == "swept"


def test_a_process_starts_one_scheduler_however_often_asked(tmp_path, monkeypatch):
    monkeypatch.setattr(scheduler, "_started", None)
    monkeypatch.setattr(scheduler, "SCHEDULE_FILE", tmp_path / "beat")

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
