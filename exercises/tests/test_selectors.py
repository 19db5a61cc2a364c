"""The selectors other apps call: passed-exercise counts and a lesson's exercise summaries."""

import pytest

from exercises import selectors
from exercises.tests.factories import ExerciseFactory, SubmissionFactory
from lessons.tests.factories import LessonFactory

pytestmark = pytest.mark.django_db


def test_count_passed_exercises_counts_distinct_exercises_passed(user):
    first, second, failed = ExerciseFactory(), ExerciseFactory(), ExerciseFactory()
    SubmissionFactory(user=user, exercise=first, status="graded", passed=True)
    SubmissionFactory(user=user, exercise=first, status="graded", passed=True)
    SubmissionFactory(user=user, exercise=second, status="graded", passed=True)
    SubmissionFactory(user=user, exercise=failed, status="graded", passed=False)
    SubmissionFactory(exercise=failed, status="graded", passed=True)  # someone else

    assert selectors.count_passed_exercises(user_id=user.id) == 2


def test_count_passed_exercises_is_zero_for_a_new_learner(user, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert selectors.count_passed_exercises(user_id=user.id) == 0


def test_exercise_summaries_for_lesson_lists_its_exercises_in_order_in_one_query(
    django_assert_num_queries,
):
    lesson = LessonFactory()
    second = ExerciseFactory(lesson=lesson, position=2, title="Second", xp=10)
    first = ExerciseFactory(lesson=lesson, position=1, title="First", xp=60)
    ExerciseFactory()  # another lesson's

    with django_assert_num_queries(1):
        summaries = selectors.exercise_summaries_for_lesson(lesson_id=lesson.id)

    assert summaries == [
        {"id": first.id, "title": "First", "kind": "table", "xp": 60},
        {"id": second.id, "title": "Second", "kind": "table", "xp": 10},
    ]


def test_exercise_summaries_for_a_lesson_without_exercises_is_empty():
    assert selectors.exercise_summaries_for_lesson(lesson_id=LessonFactory().id) == []
