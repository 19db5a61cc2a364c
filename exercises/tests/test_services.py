"""Submitting, grading, re-enqueueing: the services behind the API and the worker."""

import time
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError

from community.selectors import notifications_for
from exercises import services
from exercises.models import Submission
from exercises.tests.conftest import FAILING_CSV, GOOD_CSV
from exercises.tests.factories import ExerciseFactory, SubmissionFactory
from progress.selectors import xp_total

pytestmark = pytest.mark.django_db


def submit(user, exercise, content=GOOD_CSV, fmt="csv"):
    return services.submit_solution(
        user_id=user.id, exercise=exercise, table_format=fmt, content=content
    )


# --- submit_solution ---------------------------------------------------------------------


def test_submit_stores_the_submission_queued_and_enqueues_after_commit(
    user, exercise, django_capture_on_commit_callbacks
):
    with (
        mock.patch.object(services, "enqueue_grading") as enqueue,
        django_capture_on_commit_callbacks(execute=True) as callbacks,
    ):
        submission = submit(user, exercise)
        assert not enqueue.called  # not before the commit

    assert len(callbacks) == 1
    enqueue.assert_called_once_with(submission_id=submission.id)
    submission.refresh_from_db()
    assert submission.status == "queued"
    assert submission.enqueued_at is not None


def test_submit_then_commit_grades_it_in_process_when_tasks_run_eagerly(
    user, exercise, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        submission = submit(user, exercise)

    submission.refresh_from_db()
    assert submission.status == "graded"
    assert submission.passed


def test_submit_refuses_content_over_64_kib(user, exercise):
    with pytest.raises(services.SubmissionTooLarge, match="64 KiB"):
        submit(user, exercise, content="model,d_model\n" + "GPT-2,768\n" * 7000)
    assert not Submission.objects.exists()


def test_submit_refuses_an_unreadable_table_with_the_parsers_sentence(user, exercise):
    with pytest.raises(services.SubmissionRejected, match="Row 1 has 3 cells"):
        submit(user, exercise, content="model,d_model\nLlama 3 8B,4,096\n")
    assert not Submission.objects.exists()


def test_submit_refuses_overlong_notes(user, exercise):
    with pytest.raises(services.SubmissionRejected) as raised:
        services.submit_solution(
            user_id=user.id, exercise=exercise, table_format="csv", content=GOOD_CSV,
            notes="x" * 2001,
        )  # fmt: skip
    assert raised.value.field == "notes"


# --- enqueue_grading and the broker being down ---------------------------------------------


def test_enqueue_grading_when_the_broker_is_unreachable_logs_and_returns_false(caplog):
    from exercises.tasks import grade_submission

    with mock.patch.object(
        grade_submission, "apply_async", side_effect=OperationalError("Connection refused")
    ):
        assert services.enqueue_grading(submission_id=123) is False
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

    with mock.patch.object(services, "enqueue_grading", return_value=True) as enqueue:
        assert services.requeue_stale_submissions(now=now) == 1

    enqueue.assert_called_once_with(submission_id=stale.id)
    stale.refresh_from_db()
    assert stale.enqueued_at == now
    assert fresh.id != graded.id


def test_sweep_enqueues_submissions_whose_grading_outlived_the_time_limit(settings, exercise):
    now = timezone.now()
    old = now - settings.SUBMISSION_REQUEUE_AFTER - timedelta(seconds=1)
    limit = timedelta(seconds=services.grading_time_limit())
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

    with mock.patch.object(services, "enqueue_grading", return_value=True) as enqueue:
        assert services.requeue_stale_submissions(now=now) == 1

    enqueue.assert_called_once_with(submission_id=dead.id)


def test_sweep_works_in_bounded_batches_oldest_first(settings, exercise):
    now = timezone.now()
    old = now - settings.SUBMISSION_REQUEUE_AFTER
    submissions = [
        _aged(SubmissionFactory(exercise=exercise), enqueued_at=old - timedelta(minutes=i))
        for i in range(5)
    ]

    with mock.patch.object(services, "enqueue_grading", return_value=True) as enqueue:
        assert services.requeue_stale_submissions(now=now, batch_size=2) == 2

    assert [c.kwargs["submission_id"] for c in enqueue.call_args_list] == [
        submissions[4].id,
        submissions[3].id,
    ]


def test_sweep_stops_at_the_first_failed_publish_and_keeps_the_rest_stale(settings, exercise):
    now = timezone.now()
    old = now - settings.SUBMISSION_REQUEUE_AFTER - timedelta(seconds=1)
    for _ in range(3):
        _aged(SubmissionFactory(exercise=exercise), enqueued_at=old)

    with mock.patch.object(services, "enqueue_grading", return_value=False) as enqueue:
        assert services.requeue_stale_submissions(now=now) == 0

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
    assert services.requeue_stale_submissions(now=later) == 1
    # then it is graded
    submission.refresh_from_db()
    assert submission.status == "graded"
    assert submission.passed


# --- grade_submission --------------------------------------------------------------------------


def test_grading_a_passing_table_scores_it_and_pays_the_xp_once(user, exercise):
    submission = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)

    assert services.grade_submission(submission_id=submission.id) == "graded"

    submission.refresh_from_db()
    assert (submission.status, submission.score, submission.passed) == ("graded", 1.0, True)
    assert submission.xp_awarded == exercise.xp
    assert submission.attempts == 1
    assert submission.graded_at is not None
    assert submission.summary.startswith("Passed")
    assert submission.feedback["rows"][1]["model"] == "Meta-Llama-3-8B"
    assert xp_total(user_id=user.id) == exercise.xp


def test_passing_again_pays_nothing_more(user, exercise):
    first = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)
    second = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)

    services.grade_submission(submission_id=first.id)
    services.grade_submission(submission_id=second.id)

    second.refresh_from_db()
    assert second.passed
    assert second.xp_awarded == 0
    assert xp_total(user_id=user.id) == exercise.xp


def test_a_failing_table_is_graded_without_xp(user, exercise):
    submission = SubmissionFactory(user=user, exercise=exercise, content=FAILING_CSV)

    services.grade_submission(submission_id=submission.id)

    submission.refresh_from_db()
    assert submission.status == "graded"
    assert not submission.passed
    assert submission.score == pytest.approx(11 / 15, abs=1e-4)
    assert submission.xp_awarded == 0
    assert xp_total(user_id=user.id) == 0


def test_grading_twice_gives_the_same_result_and_no_second_award(user, exercise):
    submission = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)
    services.grade_submission(submission_id=submission.id)
    submission.refresh_from_db()
    before = (submission.score, submission.feedback, submission.graded_at, submission.attempts)

    assert services.grade_submission(submission_id=submission.id) == "skipped"

    submission.refresh_from_db()
    assert (
        submission.score,
        submission.feedback,
        submission.graded_at,
        submission.attempts,
    ) == before
    assert xp_total(user_id=user.id) == exercise.xp


def test_a_submission_being_graded_right_now_is_left_alone(exercise):
    submission = _aged(
        SubmissionFactory(exercise=exercise), status="grading", grading_started_at=timezone.now()
    )

    assert services.grade_submission(submission_id=submission.id) == "skipped"
    submission.refresh_from_db()
    assert submission.status == "grading"


def test_a_grading_abandoned_past_the_time_limit_is_taken_over(exercise):
    started = timezone.now() - timedelta(seconds=services.grading_time_limit() + 1)
    submission = _aged(
        SubmissionFactory(exercise=exercise, content=GOOD_CSV),
        status="grading",
        grading_started_at=started,
        attempts=1,
    )

    assert services.grade_submission(submission_id=submission.id) == "graded"
    submission.refresh_from_db()
    assert submission.attempts == 2


def test_after_too_many_attempts_the_submission_ends_invalid_with_a_reason(exercise):
    started = timezone.now() - timedelta(minutes=5)
    submission = _aged(
        SubmissionFactory(exercise=exercise, content=GOOD_CSV),
        status="grading",
        grading_started_at=started,
        attempts=services.MAX_GRADING_ATTEMPTS,
    )

    assert services.grade_submission(submission_id=submission.id) == "invalid"

    submission.refresh_from_db()
    assert submission.status == "invalid"
    assert "set aside" in submission.summary
    assert submission.score is None


def test_a_submission_the_parser_now_refuses_is_graded_invalid_with_its_sentence(exercise):
    submission = SubmissionFactory(exercise=exercise, content="model,d_model\nGPT-2,768,1\n")

    assert services.grade_submission(submission_id=submission.id) == "invalid"

    submission.refresh_from_db()
    assert submission.summary.startswith("Row 1 has 3 cells")


def test_a_grader_crash_puts_the_submission_back_in_the_queue(exercise):
    submission = SubmissionFactory(exercise=exercise, content=GOOD_CSV)

    with (
        mock.patch("exercises.grading.grade", side_effect=RuntimeError("bug")),
        pytest.raises(services.GraderCrashed),
    ):
        services.grade_submission(submission_id=submission.id)

    submission.refresh_from_db()
    assert (submission.status, submission.attempts) == ("queued", 1)


def test_a_deleted_submission_is_skipped():
    assert services.grade_submission(submission_id=999_999) == "skipped"


def test_a_new_pass_evaluates_achievements(user, exercise):
    submission = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)

    with mock.patch("achievements.services.evaluate_achievements") as evaluate:
        services.grade_submission(submission_id=submission.id)

    evaluate.assert_called_once_with(user_id=user.id, trigger="exercise_passed")


def test_a_failure_in_achievements_does_not_undo_the_grade(user, exercise):
    submission = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)

    with mock.patch("achievements.services.evaluate_achievements", side_effect=RuntimeError):
        assert services.grade_submission(submission_id=submission.id) == "graded"

    assert xp_total(user_id=user.id) == exercise.xp


def test_a_fifth_passed_exercise_unlocks_the_exercises_achievement(user, catalogue):
    from achievements.tests.factories import count_unlocked

    for _ in range(5):
        submission = SubmissionFactory(user=user, exercise=ExerciseFactory(), content=GOOD_CSV)
        services.grade_submission(submission_id=submission.id)

    assert count_unlocked(user_id=user.id) >= 1


def test_a_slow_grade_notifies_the_learner_once(user, exercise):
    submission = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)
    Submission.objects.filter(pk=submission.pk).update(
        created_at=timezone.now() - timedelta(seconds=30)
    )

    services.grade_submission(submission_id=submission.id)

    [notification] = notifications_for(user=user)
    assert notification.kind == "submission_graded"
    assert exercise.title in notification.title
    assert notification.body.startswith("Passed")


def test_a_fast_grade_does_not_notify(user, exercise):
    submission = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)

    services.grade_submission(submission_id=submission.id)

    assert not notifications_for(user=user).exists()


def test_grading_reads_the_catalogue_as_edited(user, exercise):
    from exercises.models import ModelReference

    services.current_catalogue()
    ModelReference.objects.filter(name="GPT-2").update(d_model=769, updated_at=timezone.now())
    services.forget_catalogue()  # what the admin does in its process; workers wait 5 s
    submission = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)

    services.grade_submission(submission_id=submission.id)

    submission.refresh_from_db()
    assert submission.feedback["rows"][0]["cells"][0]["verdict"] == "incorrect"


def test_grading_without_a_payment_costs_two_statements_and_no_transaction(exercise):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    warm_up = SubmissionFactory(exercise=exercise, content=FAILING_CSV)
    services.grade_submission(submission_id=warm_up.id)  # the process caches the exercise
    submission = SubmissionFactory(exercise=exercise, content=FAILING_CSV)

    with CaptureQueriesContext(connection) as captured:
        services.grade_submission(submission_id=submission.id)

    statements = [q["sql"].split()[0] for q in captured]
    # claim (reading the submission with it), write the result: each one statement that
    # commits by itself, with no BEGIN/COMMIT round trips (no savepoint inside the test's
    # own transaction either)
    assert statements == ["UPDATE", "UPDATE"]


# --- grading a backlog -----------------------------------------------------------------------


def _waiting(exercise, count: int, **fields) -> list[Submission]:
    """Submissions that have waited in the queue longer than BACKLOG_AFTER, oldest first."""
    long_ago = timezone.now() - services.BACKLOG_AFTER - timedelta(seconds=1)
    return [
        _aged(
            SubmissionFactory(exercise=exercise, content=GOOD_CSV),
            created_at=long_ago,
            enqueued_at=long_ago + timedelta(milliseconds=index),
            **fields,
        )
        for index in range(count)
    ]


def _statuses(submissions) -> list[str]:
    return [Submission.objects.get(pk=s.pk).status for s in submissions]


def test_a_grade_that_waited_in_the_queue_also_grades_the_oldest_waiting_ones(settings, exercise):
    settings.GRADING_BATCH_SIZE = 3
    submissions = _waiting(exercise, 5)

    assert services.grade_submission(submission_id=submissions[2].id) == "graded"

    # its own, then the two oldest others; the rest wait for their own messages
    assert _statuses(submissions) == ["graded", "graded", "graded", "queued", "queued"]
    assert all(s.attempts == 1 for s in Submission.objects.filter(status="graded"))


def test_messages_of_submissions_graded_in_a_batch_skip_without_a_query(
    settings, exercise, django_assert_num_queries
):
    settings.GRADING_BATCH_SIZE = 2
    own, other = _waiting(exercise, 2)
    services.grade_submission(submission_id=own.id)

    with django_assert_num_queries(0):
        assert services.grade_submission(submission_id=other.id) == "skipped"
    # a second delivery asks the database, which says the same
    assert services.grade_submission(submission_id=other.id) == "skipped"
    assert Submission.objects.get(pk=other.pk).attempts == 1


def test_a_batch_is_claimed_in_one_statement_and_its_grades_written_in_one(settings, exercise):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    settings.GRADING_BATCH_SIZE = 4
    services.grade_submission(submission_id=SubmissionFactory(exercise=exercise).id)  # warm up
    own, *others = _waiting(exercise, 4)
    Submission.objects.filter(pk__in=[own.pk, *(s.pk for s in others)]).update(content=FAILING_CSV)

    with CaptureQueriesContext(connection) as captured:
        services.grade_submission(submission_id=own.id)

    # its own claim and result, the batch's claim, the batch's three results
    assert [q["sql"].split()[0] for q in captured] == ["UPDATE", "UPDATE", "WITH", "UPDATE"]
    assert _statuses([own, *others]) == ["graded"] * 4


def test_a_batch_pays_each_learners_first_pass_once(settings, user, exercise):
    settings.GRADING_BATCH_SIZE = 10
    submissions = _waiting(exercise, 3)
    Submission.objects.filter(pk__in=[s.pk for s in submissions]).update(user=user)

    services.grade_submission(submission_id=submissions[0].id)

    paid = list(Submission.objects.order_by("id").values_list("xp_awarded", flat=True))
    assert paid == [exercise.xp, 0, 0]
    assert xp_total(user_id=user.id) == exercise.xp


def test_a_grade_that_did_not_wait_grades_only_its_own(settings, exercise):
    settings.GRADING_BATCH_SIZE = 10
    waiting = _waiting(exercise, 2)
    fresh = SubmissionFactory(exercise=exercise, content=GOOD_CSV)

    services.grade_submission(submission_id=fresh.id)

    assert _statuses(waiting) == ["queued", "queued"]


@pytest.mark.parametrize(
    "tried_before",
    [
        "other",  # one that crashed a grader before is graded alone, by its own message
        "own",  # a retried grade risks no one else's attempts
    ],
)
def test_a_submission_tried_before_is_graded_alone(settings, exercise, tried_before):
    settings.GRADING_BATCH_SIZE = 10
    own, other = _waiting(exercise, 2)
    Submission.objects.filter(pk=(own if tried_before == "own" else other).pk).update(attempts=1)

    services.grade_submission(submission_id=own.id)

    assert _statuses([own, other]) == ["graded", "queued"]


def test_batch_size_one_grades_one_submission_per_task(settings, exercise):
    settings.GRADING_BATCH_SIZE = 1
    own, other = _waiting(exercise, 2)

    services.grade_submission(submission_id=own.id)

    assert _statuses([own, other]) == ["graded", "queued"]


def test_a_batch_member_that_crashes_the_grader_is_queued_and_enqueued_again(settings, exercise):
    settings.GRADING_BATCH_SIZE = 3
    own, crashing, after = _waiting(exercise, 3)
    real_grade = services.grading.grade
    calls = []

    def grade_crashing_on_the_second(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("bug")
        return real_grade(*args, **kwargs)

    with (
        mock.patch("exercises.grading.grade", side_effect=grade_crashing_on_the_second),
        mock.patch.object(services, "enqueue_grading", return_value=True) as enqueue,
    ):
        assert services.grade_submission(submission_id=own.id) == "graded"

    assert _statuses([own, crashing, after]) == ["graded", "queued", "graded"]
    enqueue.assert_called_once_with(submission_id=crashing.id)
    assert Submission.objects.get(pk=crashing.pk).attempts == 1


def test_batch_members_not_reached_in_time_go_back_to_the_queue_untried(
    settings, exercise, monkeypatch
):
    settings.GRADING_BATCH_SIZE = 3
    own, first, second = _waiting(exercise, 3)
    monkeypatch.setattr(services, "grading_time_limit", lambda: 0)  # no time for a batch

    with mock.patch.object(services, "enqueue_grading", return_value=True) as enqueue:
        assert services.grade_submission(submission_id=own.id) == "graded"

    assert _statuses([own, first, second]) == ["graded", "queued", "queued"]
    assert [c.kwargs["submission_id"] for c in enqueue.call_args_list] == [first.id, second.id]
    released = Submission.objects.filter(pk__in=[first.pk, second.pk])
    assert {(s.attempts, s.grading_started_at) for s in released} == {(0, None)}


def test_load_reference_catalogue_is_idempotent(catalogue):
    assert services.load_reference_catalogue() == {"created": 0, "updated": 0, "unchanged": 34}


def test_the_catalogue_is_checked_again_after_a_few_seconds(catalogue, django_assert_num_queries):
    services.current_catalogue()
    with django_assert_num_queries(0):
        services.current_catalogue()

    with (
        mock.patch.object(services.time, "monotonic", return_value=time.monotonic() + 6),
        django_assert_num_queries(1),
    ):
        services.current_catalogue()


def test_a_repeat_pass_does_not_ask_the_ledger_again(user, exercise):
    first = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)
    services.grade_submission(submission_id=first.id)
    again = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)

    with mock.patch("progress.services.award_xp") as award_xp:
        services.grade_submission(submission_id=again.id)

    assert not award_xp.called
    again.refresh_from_db()
    assert (again.passed, again.xp_awarded) == (True, 0)


def test_an_edited_exercise_is_graded_by_its_new_columns(user, exercise):
    from exercises.services import exercise_spec, upsert_exercise

    first = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)
    services.grade_submission(submission_id=first.id)
    spec = exercise_spec(exercise)
    upsert_exercise(lesson=exercise.lesson, spec={**spec, "columns": spec["columns"][:2]})
    second = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)

    services.grade_submission(submission_id=second.id)

    second.refresh_from_db()
    assert [c["name"] for c in second.feedback["columns"]] == ["d_model", "n_layers"]
