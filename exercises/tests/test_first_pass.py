"""A learner's first pass of an exercise: what it costs, what it pays, and with what."""

from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.tests.factories import UserFactory
from achievements import active
from achievements import services as achievement_services
from achievements.models import AchievementUnlock, RuleKind
from achievements.tests.factories import AchievementFactory
from exercises.models import Submission
from exercises.services import pipeline
from exercises.tests.conftest import GOOD_CSV
from exercises.tests.factories import ExerciseFactory, SubmissionFactory
from progress.models import LearnerStats, XPAward
from progress.tests.test_concurrency import run_in_parallel

pytestmark = pytest.mark.django_db
ON_POSTGRESQL = connection.vendor == "postgresql"


def _statements(submission) -> int:
    """How many statements grading the submission costs (BEGIN and COMMIT included)."""
    with CaptureQueriesContext(connection) as captured:
        assert pipeline.grade_submission(submission_id=submission.id) == "graded"
    return len(captured)


@pytest.fixture
def warm(exercise):
    """A pass graded before (this process then caches the exercise and the achievements)."""
    active.forget()  # a list cached by an earlier test may name achievements rolled back since
    pipeline.grade_submission(
        submission_id=SubmissionFactory(exercise=exercise, content=GOOD_CSV).id
    )


# Outside a transaction, as in the worker (inside one, atomic() would add savepoints).
@pytest.mark.django_db(transaction=True)
def test_a_first_pass_costs_fourteen_statements(exercise, warm):
    submission = SubmissionFactory(exercise=exercise, content=GOOD_CSV)

    # The claim; then in one transaction the award (create and lock the learner's stats row,
    # the ledger, the new day, the stats), the grade, and the lesson's checks (a table may be
    # the last thing a lesson asks); and the learner's first league XP of the week, which places
    # them in the warm pass's cohort (leagues hears xp_paid: 5). The same on both databases.
    assert _statements(submission) == 1 + 1 + 4 + 1 + 1 + 1 + 5
    submission.refresh_from_db()
    assert submission.xp_awarded == exercise.xp
    stats = LearnerStats.objects.get(pk=submission.user_id)
    assert (stats.xp_total, stats.exercises_passed, stats.streak_current) == (exercise.xp, 1, 1)


# Outside a transaction, as in the worker (inside one, atomic() would add savepoints).
@pytest.mark.django_db(transaction=True)
def test_a_later_pass_costs_two_statements(exercise, warm):
    learner = UserFactory()
    pipeline.grade_submission(
        submission_id=SubmissionFactory(user=learner, exercise=exercise, content=GOOD_CSV).id
    )
    again = SubmissionFactory(user=learner, exercise=exercise, content=GOOD_CSV)

    # claim (which says the learner passed before), the grade
    assert _statements(again) == 2


# Outside a transaction, as in the worker (inside one, atomic() would add savepoints).
@pytest.mark.django_db(transaction=True)
def test_a_first_pass_that_unlocks_costs_eighteen_statements(exercise, warm):
    AchievementFactory(rule_kind=RuleKind.EXERCISES_PASSED, threshold=1, xp_bonus=25)
    submission = SubmissionFactory(exercise=exercise, content=GOOD_CSV)
    achievement_services.active_achievements()  # what the pass before cached, now changed

    # A first pass (9), and the reached unlock (checked against the achievements table) with
    # its bonus: the unlock, then the award on a day already active (lock, ledger, stats; its
    # league XP by the ledger's trigger).
    assert _statements(submission) == 14 + 1 + 3
    assert LearnerStats.objects.get(pk=submission.user_id).xp_total == exercise.xp + 25


def test_a_first_pass_pays_an_unlocked_bonus_in_its_own_transaction(user, exercise):
    achievement = AchievementFactory(rule_kind=RuleKind.EXERCISES_PASSED, threshold=1, xp_bonus=25)
    submission = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)

    pipeline.grade_submission(submission_id=submission.id)

    assert AchievementUnlock.objects.filter(user=user, achievement=achievement).count() == 1
    assert set(XPAward.objects.filter(user=user).values_list("source_type", "amount")) == {
        ("exercise", exercise.xp),
        ("achievement", 25),
    }
    assert LearnerStats.objects.get(pk=user.pk).xp_total == exercise.xp + 25


def test_a_failure_after_the_bonus_undoes_both_the_pass_and_the_bonus(user, exercise):
    AchievementFactory(rule_kind=RuleKind.EXERCISES_PASSED, threshold=1, xp_bonus=25)
    submission = SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV)

    with (
        mock.patch.object(
            pipeline, "_write_result", side_effect=RuntimeError("disk full")
        ) as write,
        pytest.raises(RuntimeError),
    ):
        pipeline.grade_submission(submission_id=submission.id)
    write.assert_called_once()  # the failure came after the bonus, as the test says

    assert not XPAward.objects.filter(user=user).exists()
    assert not AchievementUnlock.objects.filter(user=user).exists()
    assert not LearnerStats.objects.filter(pk=user.pk, xp_total__gt=0).exists()


def test_a_second_evaluation_unlocks_and_pays_nothing(user, exercise):
    AchievementFactory(rule_kind=RuleKind.EXERCISES_PASSED, threshold=1, xp_bonus=25)
    pipeline.grade_submission(
        submission_id=SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV).id
    )
    standing = achievement_services.Standing(
        user_id=user.id, xp_total=exercise.xp + 25, streak_days=1, exercises_passed=1
    )

    assert achievement_services.evaluate_standings(standings=[standing]) == {user.id: []}
    assert LearnerStats.objects.get(pk=user.pk).xp_total == exercise.xp + 25


def test_an_achievement_deactivated_meanwhile_is_not_unlocked_from_a_stale_list(user, exercise):
    achievement = AchievementFactory(rule_kind=RuleKind.EXERCISES_PASSED, threshold=1)
    achievement_services.active_achievements()
    type(achievement).objects.filter(pk=achievement.pk).update(is_active=False)  # no signal

    pipeline.grade_submission(
        submission_id=SubmissionFactory(user=user, exercise=exercise, content=GOOD_CSV).id
    )

    assert not AchievementUnlock.objects.filter(user=user).exists()


def test_a_batch_evaluates_each_learner_once_with_all_their_passes(settings, user, catalogue):
    settings.GRADING_BATCH_SIZE = 10
    AchievementFactory(rule_kind=RuleKind.EXERCISES_PASSED, threshold=2, xp_bonus=5)
    long_ago = timezone.now() - pipeline.BACKLOG_AFTER - timedelta(seconds=1)
    own = SubmissionFactory(content="not a table")  # another learner's, graded alone
    passes = [
        SubmissionFactory(user=user, exercise=ExerciseFactory(), content=GOOD_CSV) for _ in range(2)
    ]
    for index, submission in enumerate([own, *passes]):
        Submission.objects.filter(pk=submission.pk).update(
            created_at=long_ago, enqueued_at=long_ago + timedelta(milliseconds=index)
        )

    with mock.patch.object(
        achievement_services,
        "evaluate_standings",
        wraps=achievement_services.evaluate_standings,
    ) as evaluate:
        pipeline.grade_submission(submission_id=own.id)

    [call] = evaluate.call_args_list
    [standing] = call.kwargs["standings"]
    assert (standing.user_id, standing.exercises_passed) == (user.id, 2)
    assert AchievementUnlock.objects.filter(user=user).count() == 1
    stats = LearnerStats.objects.get(pk=user.pk)
    assert stats.xp_total == sum(p.exercise.xp for p in passes) + 5
    assert list(
        Submission.objects.filter(pk__in=[p.pk for p in passes]).values_list("status", flat=True)
    ) == ["graded", "graded"]


@pytest.mark.skipif(not ON_POSTGRESQL, reason="real concurrent connections: PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_two_workers_grading_two_first_passes_of_one_learner_count_both(catalogue):
    learner = UserFactory()
    AchievementFactory(rule_kind=RuleKind.EXERCISES_PASSED, threshold=2, xp_bonus=7)
    exercises = [ExerciseFactory(), ExerciseFactory()]
    submissions = [SubmissionFactory(user=learner, exercise=e, content=GOOD_CSV) for e in exercises]

    errors = run_in_parallel(
        *[(lambda s=s: pipeline.grade_submission(submission_id=s.id)) for s in submissions]
    )

    assert errors == []

    stats = LearnerStats.objects.get(pk=learner.pk)
    assert stats.exercises_passed == 2
    assert stats.xp_total == sum(e.xp for e in exercises) + 7
    assert stats.streak_current == 1
    assert XPAward.objects.filter(user=learner).count() == 3
    assert AchievementUnlock.objects.filter(user=learner).count() == 1
