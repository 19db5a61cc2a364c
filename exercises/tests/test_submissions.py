"""Submitting and (re-)enqueueing: the services behind the API's submit and the sweep."""

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError

from exercises.models import Submission
from exercises.services import queueing, submissions
from exercises.tests.conftest import GOOD_CSV
from exercises.tests.factories import SubmissionFactory

pytestmark = pytest.mark.django_db


def submit(user, exercise, content=GOOD_CSV, fmt="csv"):
    return submissions.submit_solution(
        user_id=user.id, exercise=exercise, table_format=fmt, content=content
    )


# --- submit_solution ---------------------------------------------------------------------


def test_submit_stores_the_submission_queued_and_enqueues_after_commit(
    user, exercise, django_capture_on_commit_callbacks
):
    with (
        mock.patch.object(queueing, "enqueue_grading") as enqueue,
        django_capture_on_commit_callbacks(execute=True) as callbacks,
    ):
        submission = submit(user, exercise)
        assert not enqueue.called  # not before the commit

    assert len(callbacks) == 1
    submission.refresh_from_db()
    enqueue.assert_called_once_with(submission_id=submission.id, enqueued_at=submission.enqueued_at)
    assert submission.status == "queued"


def test_submit_then_commit_grades_it_in_process_when_tasks_run_eagerly(
    user, exercise, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        submission = submit(user, exercise)

    submission.refresh_from_db()
    assert submission.status == "graded"
    assert submission.passed


def test_submit_refuses_content_over_64_kib(user, exercise):
    with pytest.raises(submissions.SubmissionTooLarge, match="64 KiB"):
        submit(user, exercise, content="model,d_model\n" + "GPT-2,768\n" * 7000)
    assert not Submission.objects.exists()


def test_submit_refuses_an_unreadable_table_with_the_parsers_sentence(user, exercise):
    with pytest.raises(submissions.SubmissionRejected, match="Line 2 has 3 cells"):
        submit(user, exercise, content="model,d_model\nLlama 3 8B,4,096\n")
    assert not Submission.objects.exists()


def test_submit_refuses_overlong_notes(user, exercise):
    with pytest.raises(submissions.SubmissionRejected) as raised:
        submissions.submit_solution(
            user_id=user.id, exercise=exercise, table_format="csv", content=GOOD_CSV,
            notes="x" * 2001,
        )  # fmt: skip
    assert raised.value.field == "notes"


# --- enqueue_grading and the broker being down ---------------------------------------------


def test_enqueue_grading_when_the_broker_is_unreachable_logs_and_returns_false(caplog):
    from exercises.tasks import grade_submission

    with mock.patch.object(
        grade_submission, "apply_async", side_effect=OperationalError("Connection refused")
    ) as apply_async:
        assert queueing.enqueue_grading(submission_id=123) is False
    apply_async.assert_called_once()
    assert "Could not enqueue grading of submission 123" in caplog.text


def test_submit_with_the_broker_down_stores_the_submission_queued(
    user, exercise, django_capture_on_commit_callbacks, unreachable_broker
):
    with django_capture_on_commit_callbacks(execute=True):
        submission = submit(user, exercise)

    submission.refresh_from_db()
    assert submission.status == "queued"
    assert submission.attempts == 0


# --- requeue_stale_submissions ---------------------------------------------------------------


def _aged(submission, **fields):
    Submission.objects.filter(pk=submission.pk).update(**fields)
    submission.refresh_from_db()
    return submission


def test_sweep_enqueues_submissions_queued_too_long_and_only_those(settings, exercise):
    now = timezone.now()
    old = now - settings.SUBMISSION_REQUEUE_AFTER - timedelta(seconds=1)
    stale = _aged(SubmissionFactory(exercise=exercise), enqueued_at=old)
    fresh = _aged(SubmissionFactory(exercise=exercise), enqueued_at=now)
    graded = _aged(SubmissionFactory(exercise=exercise), enqueued_at=old, status="graded")

    with mock.patch.object(queueing, "enqueue_grading", return_value=True) as enqueue:
        assert queueing.requeue_stale_submissions(now=now) == 1

    enqueue.assert_called_once_with(submission_id=stale.id, enqueued_at=now)
    stale.refresh_from_db()
    assert stale.enqueued_at == now
    assert fresh.id != graded.id


def test_sweep_enqueues_submissions_whose_grading_outlived_the_time_limit(settings, exercise):
    now = timezone.now()
    old = now - settings.SUBMISSION_REQUEUE_AFTER - timedelta(seconds=1)
    limit = timedelta(seconds=queueing.grading_time_limit())
    dead = _aged(
        SubmissionFactory(exercise=exercise),
        status="grading",
        enqueued_at=old,
        grading_started_at=now - limit - timedelta(seconds=1),
    )
    _aged(
        SubmissionFactory(exercise=exercise),
        status="grading",
        enqueued_at=old,
        grading_started_at=now - timedelta(seconds=1),
    )

    with mock.patch.object(queueing, "enqueue_grading", return_value=True) as enqueue:
        assert queueing.requeue_stale_submissions(now=now) == 1

    enqueue.assert_called_once_with(submission_id=dead.id, enqueued_at=now)


def test_sweep_works_in_bounded_batches_oldest_first(settings, exercise):
    now = timezone.now()
    old = now - settings.SUBMISSION_REQUEUE_AFTER
    submissions = [
        _aged(SubmissionFactory(exercise=exercise), enqueued_at=old - timedelta(minutes=i))
        for i in range(5)
    ]

    with mock.patch.object(queueing, "enqueue_grading", return_value=True) as enqueue:
        assert queueing.requeue_stale_submissions(now=now, batch_size=2) == 2

    assert [c.kwargs["submission_id"] for c in enqueue.call_args_list] == [
        submissions[4].id,
        submissions[3].id,
    ]


def test_sweep_stops_at_the_first_failed_publish_and_keeps_the_rest_stale(settings, exercise):
    now = timezone.now()
    old = now - settings.SUBMISSION_REQUEUE_AFTER - timedelta(seconds=1)
    for _ in range(3):
        _aged(SubmissionFactory(exercise=exercise), enqueued_at=old)

    with mock.patch.object(queueing, "enqueue_grading", return_value=False) as enqueue:
        assert queueing.requeue_stale_submissions(now=now) == 0

    assert enqueue.call_count == 1
    assert Submission.objects.filter(enqueued_at=old).count() == 3


def test_broker_down_then_back_the_sweep_gets_the_submission_graded(
    user, exercise, settings, django_capture_on_commit_callbacks, unreachable_broker
):
    # given a submission stored while Redis was down
    with django_capture_on_commit_callbacks(execute=True):
        submission = submit(user, exercise)
    # when Redis is back (in-process tasks here) and the sweep runs after the threshold
    unreachable_broker.up()
    later = timezone.now() + settings.SUBMISSION_REQUEUE_AFTER + timedelta(seconds=1)
    assert queueing.requeue_stale_submissions(now=later) == 1
    # then it is graded
    submission.refresh_from_db()
    assert submission.status == "graded"
    assert submission.passed
