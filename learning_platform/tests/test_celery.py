"""The Celery app's production configuration and the beat schedule's integrity."""

import importlib
import importlib.util

import pytest
from django.apps import apps

from learning_platform.celery import app


@pytest.fixture(scope="module")
def registered_tasks() -> set[str]:
    # autodiscover_tasks() is lazy: import every app's tasks module so all tasks register.
    for config in apps.get_app_configs():
        if importlib.util.find_spec(f"{config.name}.tasks") is not None:
            importlib.import_module(f"{config.name}.tasks")
    return set(app.tasks.keys())


def test_messages_are_json_only():
    assert app.conf.accept_content == ["json"]
    assert app.conf.task_serializer == "json"
    assert app.conf.result_serializer == "json"


def test_tasks_are_acknowledged_after_they_run_and_requeued_when_a_worker_dies():
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.worker_prefetch_multiplier == 1


def test_tasks_have_a_soft_time_limit_below_the_hard_one():
    assert 0 < app.conf.task_soft_time_limit < app.conf.task_time_limit


def test_visibility_timeout_outlasts_the_hard_time_limit_and_stays_under_an_hour():
    # Below the hard limit a running task would be handed to a second worker; an hour or
    # more would leave a killed worker's task stuck for that long.
    visibility_timeout = app.conf.broker_transport_options["visibility_timeout"]

    assert app.conf.task_time_limit < visibility_timeout < 3600


def test_results_are_not_stored():
    assert app.conf.task_ignore_result is True
    assert app.conf.result_backend is None


def test_beat_schedule_names_registered_tasks(registered_tasks):
    unknown = {
        entry_name: entry["task"]
        for entry_name, entry in app.conf.beat_schedule.items()
        if entry["task"] not in registered_tasks
    }

    assert unknown == {}


def test_beat_schedule_entries_have_a_schedule():
    missing = [name for name, entry in app.conf.beat_schedule.items() if not entry.get("schedule")]

    assert missing == []


def test_project_tasks_are_named_app_dot_verb_noun(registered_tasks):
    labels = {config.label for config in apps.get_app_configs()}
    project_tasks = {name for name in registered_tasks if not name.startswith("celery.")}

    misnamed = sorted(
        name
        for name in project_tasks
        if name.count(".") != 1 or name.split(".", 1)[0] not in labels
    )

    assert project_tasks, "expected the project's tasks to be registered"
    assert misnamed == []


def test_an_unreachable_broker_fails_a_publish_within_seconds():
    from learning_platform.celery import app

    options = app.conf.broker_transport_options
    assert options["socket_connect_timeout"] <= 5
    assert options["socket_timeout"] <= 30


def test_workers_keep_database_connections_between_tasks():
    from learning_platform.celery import app

    assert app.conf.get("CELERY_DB_REUSE_MAX") >= 100


# --- Delays against the visibility timeout ----------------------------------------------------


def test_no_task_or_periodic_entry_waits_in_the_broker_past_the_visibility_timeout():
    from learning_platform.checks import delay_errors

    assert delay_errors() == []


def test_the_system_check_reports_a_periodic_countdown_past_the_visibility_timeout(settings):
    from django.core.management import call_command
    from django.core.management.base import SystemCheckError

    settings.CELERY_BEAT_SCHEDULE = {
        **settings.CELERY_BEAT_SCHEDULE,
        "late": {"task": "community.send_overdue_emails", "schedule": 60,
                 "options": {"countdown": 300}},
    }  # fmt: skip

    with pytest.raises(SystemCheckError, match="Periodic entry late"):
        call_command("check")


def test_a_worker_refuses_to_start_when_a_retry_waits_past_the_visibility_timeout(settings):
    from learning_platform.celery import _refuse_delays_longer_than_the_visibility_timeout

    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 100}

    with pytest.raises(SystemExit, match=r"community\.send_notification_emails"):
        _refuse_delays_longer_than_the_visibility_timeout()


def test_on_rabbitmq_delays_wait_in_the_broker_and_only_time_limits_meet_its_consumer_timeout(
    settings,
):
    from exercises.services.queueing import grading_time_limit
    from learning_platform.checks import delay_errors

    settings.CELERY_BROKER_URL = "amqp://guest:guest@127.0.0.1:5672/lp"
    settings.CELERY_TASK_TIME_LIMIT = 90
    # Retries wait up to 60 s plus 90 s of run time: past 100 s, which only Redis minds.
    settings.RABBITMQ_CONSUMER_TIMEOUT = 100
    assert delay_errors() == []
    assert grading_time_limit() == 30

    settings.RABBITMQ_CONSUMER_TIMEOUT = 60
    assert delay_errors()[0] == (
        "CELERY_TASK_TIME_LIMIT (90 s) must stay under the consumer timeout (60 s)."
    )
    assert grading_time_limit() == 30
