"""Grading: one submission, a backlog, what a pass pays and who is told."""

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from achievements.models import AchievementUnlock, RuleKind
from achievements.tests.factories import AchievementFactory
from exercises.models import Submission
from exercises.services import grading_cache, pipeline, queueing
from exercises.tests.conftest import FAILING_CSV, GOOD_CSV
from exercises.tests.factories import ExerciseFactory, SubmissionFactory
from notifications.selectors import notifications_for
from progress.models import LearnerStats, XPAward
from progress.selectors import xp_total

pytestmark = pytest.mark.django_db


def _aged(submission, **fields):
    Submission.objects.filter(pk=submission.pk).update(**fields)
    submission.refresh_from_db()
    return submission


# --- grade_submission --------------------------------------------------------------------------


def test_grading_a_passing_table_scores_it_and_pays_the_xp_once(user, exercise):
    submission = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)

    assert pipeline.grade_submission(submission_id=submission.id) == "graded"

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

    pipeline.grade_submission(submission_id=first.id)
    pipeline.grade_submission(submission_id=second.id)

    second.refresh_from_db()
    assert second.passed
    assert second.xp_awarded == 0
    assert xp_total(user_id=user.id) == exercise.xp


def test_a_failing_table_is_graded_without_xp(user, exercise):
    submission = SubmissionFactory(user=user, exercise=exercise, content=FAILING_CSV)

    pipeline.grade_submission(submission_id=submission.id)

    submission.refresh_from_db()
    assert submission.status == "graded"
    assert not submission.passed
    assert submission.score == pytest.approx(11 / 15, abs=1e-4)
    assert submission.xp_awarded == 0
    assert xp_total(user_id=user.id) == 0


def test_grading_twice_gives_the_same_result_and_no_second_award(user, exercise):
    submission = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)
    pipeline.grade_submission(submission_id=submission.id)
    submission.refresh_from_db()
    before = (submission.score, submission.feedback, submission.graded_at, submission.attempts)

    assert pipeline.grade_submission(submission_id=submission.id) == "skipped"

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

    assert pipeline.grade_submission(submission_id=submission.id) == "skipped"
    submission.refresh_from_db()
    assert submission.status == "grading"


def test_a_redelivered_message_takes_over_a_recent_claim_and_the_first_cannot_write(exercise):
    # RabbitMQ hands a message out again as soon as its worker's connection drops: the claim
    # that worker made is seconds old, and the worker is dead (or cut off from the broker).
    submission = _aged(
        SubmissionFactory(exercise=exercise, content=GOOD_CSV),
        status="grading",
        grading_started_at=timezone.now(),
        attempts=1,
    )
    first = pipeline._Job(**{**_job_fields(submission), "attempt": 1})

    assert pipeline.grade_submission(submission_id=submission.id, redelivered=True) == "graded"
    submission.refresh_from_db()
    assert (submission.status, submission.attempts) == ("graded", 2)
    assert not pipeline._write_result(first, {"score": 0.0})


def _job_fields(submission) -> dict:
    return {
        "submission_id": submission.id, "user_id": submission.user_id, "format": "csv",
        "content": "", "created_at": submission.created_at, "enqueued_at": None,
        "passed_before": False, "exercise": None,
    }  # fmt: skip


def test_a_grading_abandoned_past_the_time_limit_is_taken_over(exercise):
    started = timezone.now() - timedelta(seconds=queueing.grading_time_limit() + 1)
    submission = _aged(
        SubmissionFactory(exercise=exercise, content=GOOD_CSV),
        status="grading",
        grading_started_at=started,
        attempts=1,
    )

    assert pipeline.grade_submission(submission_id=submission.id) == "graded"
    submission.refresh_from_db()
    assert submission.attempts == 2


def test_after_too_many_attempts_the_submission_ends_invalid_with_a_reason(exercise):
    started = timezone.now() - timedelta(minutes=5)
    submission = _aged(
        SubmissionFactory(exercise=exercise, content=GOOD_CSV),
        status="grading",
        grading_started_at=started,
        attempts=pipeline.MAX_GRADING_ATTEMPTS,
    )

    assert pipeline.grade_submission(submission_id=submission.id) == "invalid"

    submission.refresh_from_db()
    assert submission.status == "invalid"
    assert "set aside" in submission.summary
    assert submission.score is None


def test_a_submission_the_parser_now_refuses_is_graded_invalid_with_its_sentence(exercise):
    submission = SubmissionFactory(exercise=exercise, content="model,d_model\nGPT-2,768,1\n")

    assert pipeline.grade_submission(submission_id=submission.id) == "invalid"

    submission.refresh_from_db()
    assert submission.summary.startswith("Line 2 has 3 cells")


def test_a_grader_crash_puts_the_submission_back_in_the_queue(exercise):
    submission = SubmissionFactory(exercise=exercise, content=GOOD_CSV)

    with (
        mock.patch("exercises.grading.grade", side_effect=RuntimeError("bug")) as grade,
        pytest.raises(pipeline.GraderCrashed),
    ):
        pipeline.grade_submission(submission_id=submission.id)

    grade.assert_called_once()  # the crash is the grader's, not something before it
    submission.refresh_from_db()
    assert (submission.status, submission.attempts) == ("queued", 1)


def test_a_deleted_submission_is_skipped():
    assert pipeline.grade_submission(submission_id=999_999) == "skipped"


def test_a_new_pass_evaluates_achievements(user, exercise):
    achievement = AchievementFactory(rule_kind=RuleKind.EXERCISES_PASSED, threshold=1, xp_bonus=0)
    submission = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)

    pipeline.grade_submission(submission_id=submission.id)

    assert AchievementUnlock.objects.filter(user=user, achievement=achievement).exists()


def test_a_failure_in_achievements_does_not_undo_the_grade(user, exercise):
    submission = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)

    with mock.patch(
        "achievements.services.evaluate_standings", side_effect=RuntimeError
    ) as evaluate_standings:
        assert pipeline.grade_submission(submission_id=submission.id) == "graded"

    # The failure happened: the grade held through it, not around it.
    evaluate_standings.assert_called()
    assert xp_total(user_id=user.id) == exercise.xp


def test_a_fifth_passed_exercise_unlocks_the_exercises_achievement(user, catalogue):
    from achievements.tests.factories import count_unlocked

    for _ in range(5):
        submission = SubmissionFactory(user=user, exercise=ExerciseFactory(), content=GOOD_CSV)
        pipeline.grade_submission(submission_id=submission.id)

    assert count_unlocked(user_id=user.id) >= 1


def test_a_slow_grade_notifies_the_learner_once(user, exercise):
    submission = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)
    Submission.objects.filter(pk=submission.pk).update(
        created_at=timezone.now() - timedelta(seconds=30)
    )

    pipeline.grade_submission(submission_id=submission.id)

    [notification] = notifications_for(user=user)
    assert notification.kind == "submission_graded"
    assert exercise.title in notification.title
    assert notification.body.startswith("Passed")


def test_a_fast_grade_does_not_notify(user, exercise):
    submission = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)

    pipeline.grade_submission(submission_id=submission.id)

    assert not notifications_for(user=user).exists()


def test_grading_reads_the_catalogue_as_edited(user, exercise):
    from exercises.models import ModelReference

    grading_cache.current_catalogue()
    ModelReference.objects.filter(name="GPT-2").update(d_model=769, updated_at=timezone.now())
    grading_cache.forget_catalogue()  # what the admin does in its process; workers wait 5 s
    submission = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)

    pipeline.grade_submission(submission_id=submission.id)

    submission.refresh_from_db()
    assert submission.feedback["rows"][0]["cells"][0]["verdict"] == "incorrect"


def test_grading_without_a_payment_costs_two_statements_and_no_transaction(
    exercise, django_assert_num_queries
):
    warm_up = SubmissionFactory(exercise=exercise, content=FAILING_CSV)
    pipeline.grade_submission(submission_id=warm_up.id)  # the process caches the exercise
    submission = SubmissionFactory(exercise=exercise, content=FAILING_CSV)

    # claim (reading the submission with it), write the result: each one statement that
    # commits by itself; a transaction would add a savepoint and its release here
    with django_assert_num_queries(2):
        pipeline.grade_submission(submission_id=submission.id)


# --- grading a backlog -----------------------------------------------------------------------


def _waiting(exercise, count: int, **fields) -> list[Submission]:
    """Submissions that have waited in the queue longer than BACKLOG_AFTER, oldest first."""
    long_ago = timezone.now() - pipeline.BACKLOG_AFTER - timedelta(seconds=1)
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

    assert pipeline.grade_submission(submission_id=submissions[2].id) == "graded"

    # its own, then the two oldest others; the rest wait for their own messages
    assert _statuses(submissions) == ["graded", "graded", "graded", "queued", "queued"]
    assert all(s.attempts == 1 for s in Submission.objects.filter(status="graded"))


def test_messages_of_submissions_graded_in_a_batch_skip_after_one_claim(
    settings, exercise, django_assert_num_queries
):
    settings.GRADING_BATCH_SIZE = 2
    own, other = _waiting(exercise, 2)
    pipeline.grade_submission(submission_id=own.id)

    # the claim's conditional UPDATE finds it graded: nothing else runs, nothing changes
    with django_assert_num_queries(1):
        assert pipeline.grade_submission(submission_id=other.id) == "skipped"
    assert pipeline.grade_submission(submission_id=other.id) == "skipped"
    assert Submission.objects.get(pk=other.pk).attempts == 1


def test_a_batch_revokes_the_messages_of_the_submissions_it_claimed(settings, exercise):
    settings.GRADING_BATCH_SIZE = 3
    own, first, second = _waiting(exercise, 3)

    with mock.patch.object(queueing, "revoke_grading") as revoke:
        assert pipeline.grade_submission(submission_id=own.id) == "graded"

    # named as they were published (by their enqueued_at): the workers drop them unrun
    revoke.assert_called_once_with([(s.id, s.enqueued_at) for s in (first, second)])
    assert _statuses([own, first, second]) == ["graded"] * 3


def test_a_batch_is_claimed_in_one_statement_and_its_grades_written_in_one(
    settings, exercise, django_assert_num_queries
):
    settings.GRADING_BATCH_SIZE = 4
    pipeline.grade_submission(submission_id=SubmissionFactory(exercise=exercise).id)  # warm up
    own, *others = _waiting(exercise, 4)
    Submission.objects.filter(pk__in=[own.pk, *(s.pk for s in others)]).update(content=FAILING_CSV)

    # its own claim, the batch's claim, the four results written together
    with django_assert_num_queries(3):
        pipeline.grade_submission(submission_id=own.id)

    assert _statuses([own, *others]) == ["graded"] * 4


def test_a_batch_pays_each_learners_first_pass_once(settings, user, exercise):
    settings.GRADING_BATCH_SIZE = 10
    submissions = _waiting(exercise, 3)
    Submission.objects.filter(pk__in=[s.pk for s in submissions]).update(user=user)

    pipeline.grade_submission(submission_id=submissions[0].id)

    paid = list(Submission.objects.order_by("id").values_list("xp_awarded", flat=True))
    assert paid == [exercise.xp, 0, 0]
    assert xp_total(user_id=user.id) == exercise.xp


def test_a_grade_that_did_not_wait_grades_only_its_own(settings, exercise):
    settings.GRADING_BATCH_SIZE = 10
    waiting = _waiting(exercise, 2)
    fresh = SubmissionFactory(exercise=exercise, content=GOOD_CSV)

    pipeline.grade_submission(submission_id=fresh.id)

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

    pipeline.grade_submission(submission_id=own.id)

    assert _statuses([own, other]) == ["graded", "queued"]


def test_batch_size_one_grades_one_submission_per_task(settings, exercise):
    settings.GRADING_BATCH_SIZE = 1
    own, other = _waiting(exercise, 2)

    pipeline.grade_submission(submission_id=own.id)

    assert _statuses([own, other]) == ["graded", "queued"]


def test_a_batch_member_that_crashes_the_grader_is_queued_and_enqueued_again(settings, exercise):
    settings.GRADING_BATCH_SIZE = 3
    own, crashing, after = _waiting(exercise, 3)
    real_grade = pipeline.grading.grade
    calls = []

    def grade_crashing_on_the_second(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("bug")
        return real_grade(*args, **kwargs)

    with (
        mock.patch("exercises.grading.grade", side_effect=grade_crashing_on_the_second),
        mock.patch.object(queueing, "enqueue_grading", return_value=True) as enqueue,
    ):
        assert pipeline.grade_submission(submission_id=own.id) == "graded"

    assert _statuses([own, crashing, after]) == ["graded", "queued", "graded"]
    enqueue.assert_called_once_with(submission_id=crashing.id)
    assert Submission.objects.get(pk=crashing.pk).attempts == 1


def test_batch_members_not_reached_in_time_go_back_to_the_queue_untried(
    settings, exercise, monkeypatch
):
    settings.GRADING_BATCH_SIZE = 3
    own, first, second = _waiting(exercise, 3)
    monkeypatch.setattr(queueing, "grading_time_limit", lambda: 0)  # no time for a batch

    with mock.patch.object(queueing, "enqueue_grading", return_value=True) as enqueue:
        assert pipeline.grade_submission(submission_id=own.id) == "graded"

    assert _statuses([own, first, second]) == ["graded", "queued", "queued"]
    assert [c.kwargs["submission_id"] for c in enqueue.call_args_list] == [first.id, second.id]
    released = Submission.objects.filter(pk__in=[first.pk, second.pk])
    assert {(s.attempts, s.grading_started_at) for s in released} == {(0, None)}


def test_a_repeat_pass_does_not_ask_the_ledger_again(user, exercise, django_assert_num_queries):
    first = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)
    pipeline.grade_submission(submission_id=first.id)
    stats_before = LearnerStats.objects.get(pk=user.pk)
    again = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)

    # the claim (which says the learner passed before) and the grade: no lock, no ledger
    with django_assert_num_queries(2):
        pipeline.grade_submission(submission_id=again.id)

    again.refresh_from_db()
    assert (again.passed, again.xp_awarded) == (True, 0)
    assert XPAward.objects.filter(user=user).count() == 1
    assert LearnerStats.objects.get(pk=user.pk).updated_at == stats_before.updated_at


def test_an_edited_exercise_is_graded_by_its_new_columns(user, exercise):
    from exercises.selectors import exercise_spec
    from exercises.services.content import upsert_exercise

    first = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)
    pipeline.grade_submission(submission_id=first.id)
    spec = exercise_spec(exercise)
    upsert_exercise(lesson=exercise.lesson, spec={**spec, "columns": spec["columns"][:2]})
    second = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)

    pipeline.grade_submission(submission_id=second.id)

    second.refresh_from_db()
    assert [c["name"] for c in second.feedback["columns"]] == ["d_model", "n_layers"]
