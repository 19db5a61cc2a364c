"""The Celery tasks: thin, idempotent, safe to deliver twice or after a worker died."""

from datetime import timedelta
from unittest import mock

import pytest
from celery.exceptions import Retry
from django.conf import settings
from django.utils import timezone

from exercises import tasks
from exercises.models import Submission
from exercises.services import pipeline, queueing
from exercises.tests.conftest import GOOD_CSV
from exercises.tests.factories import SubmissionFactory

pytestmark = pytest.mark.django_db


def test_grade_task_grades_by_id(exercise):
    submission = SubmissionFactory(exercise=exercise, content=GOOD_CSV)

    assert tasks.grade_submission.delay(submission.id).get() == "graded"

    submission.refresh_from_db()
    assert submission.status == "graded"


def test_grade_task_delivered_twice_grades_once(exercise):
    submission = SubmissionFactory(exercise=exercise, content=GOOD_CSV)

    tasks.grade_submission.delay(submission.id)
    assert tasks.grade_submission.delay(submission.id).get() == "skipped"

    submission.refresh_from_db()
    assert submission.attempts == 1


def test_a_submission_that_crashes_the_grader_every_time_ends_invalid(exercise):
    submission = SubmissionFactory(exercise=exercise, content=GOOD_CSV)

    with mock.patch("exercises.grading.grade", side_effect=RuntimeError("bug")) as grade:
        # Each crash asks to be delivered again (eager mode raises Celery's Retry: tests
        # propagate task errors, CELERY_TASK_EAGER_PROPAGATES); the delivery after the last
        # allowed attempt sets the submission aside.
        for _ in range(pipeline.MAX_GRADING_ATTEMPTS):
            with pytest.raises(Retry) as retry:
                tasks.grade_submission.delay(submission.id)
            assert isinstance(retry.value.exc, pipeline.GraderCrashed)
        tasks.grade_submission.delay(submission.id)

    submission.refresh_from_db()
    assert submission.status == "invalid"
    assert grade.call_count == pipeline.MAX_GRADING_ATTEMPTS
    assert submission.attempts == pipeline.MAX_GRADING_ATTEMPTS + 1
    assert "set aside" in submission.summary


def test_sweep_task_calls_the_service():
    with mock.patch.object(queueing, "requeue_stale_submissions", return_value=3) as sweep:
        assert tasks.requeue_stale_submissions.delay().get() == 3
    sweep.assert_called_once_with()


def test_grade_task_survives_a_killed_worker():
    task = tasks.grade_submission

    assert task.name == "exercises.grade_submission"
    assert task.acks_late is True
    assert task.reject_on_worker_lost is True


def test_grading_time_limit_sits_below_the_visibility_timeout():
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    task = tasks.grade_submission

    assert task.soft_time_limit < task.time_limit <= visibility / 2
    assert visibility < 3600  # a killed worker's grade comes back within minutes


def test_grading_time_limit_follows_a_short_visibility_timeout(settings):
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 10}

    assert queueing.grading_time_limit() == 5


def test_the_sweep_is_scheduled_every_minute():
    entry = settings.CELERY_BEAT_SCHEDULE["exercises.requeue_stale_submissions"]

    assert entry["task"] == tasks.requeue_stale_submissions.name
    assert entry["schedule"].total_seconds() == 60


def test_the_sweep_threshold_is_longer_than_a_grade():
    assert settings.SUBMISSION_REQUEUE_AFTER.total_seconds() > queueing.grading_time_limit()


def test_no_submission_is_left_queued_after_the_task_ran(exercise):
    ids = [SubmissionFactory(exercise=exercise, content=GOOD_CSV).id for _ in range(3)]

    for submission_id in ids:
        tasks.grade_submission.delay(submission_id)

    assert set(Submission.objects.values_list("status", flat=True)) == {"graded"}


def test_grading_messages_carry_no_time_limit_so_the_worker_applies_its_own():
    with mock.patch.object(tasks.grade_submission, "apply_async") as apply_async:
        assert queueing.enqueue_grading(submission_id=7)

    options = apply_async.call_args.kwargs
    assert options["args"] == (7,)
    assert (options["time_limit"], options["soft_time_limit"]) == (None, None)


def test_a_grading_message_is_named_by_its_submission_and_when_it_was_queued():
    enqueued_at = timezone.now()
    with mock.patch.object(tasks.grade_submission, "apply_async") as apply_async:
        assert queueing.enqueue_grading(submission_id=7, enqueued_at=enqueued_at)
        assert queueing.enqueue_grading(submission_id=7)

    named, unnamed = (c.kwargs["task_id"] for c in apply_async.call_args_list)
    assert named == queueing.grading_task_id(7, enqueued_at)
    assert named != queueing.grading_task_id(7, enqueued_at + timedelta(microseconds=1))
    assert unnamed is None  # Celery's own random id: never revoked


def test_revoking_with_the_broker_down_logs_and_returns(unreachable_broker, caplog):
    queueing.revoke_grading([(7, timezone.now())])

    assert "Could not revoke 1 grading message(s)." in caplog.text


def test_killed_tasks_are_looked_for_at_every_restore_interval():
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["unacked_restore_throttle"] == 1
