"""Reads of the exercises app, for its own API and for other apps."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Prefetch, QuerySet

from exercises.models import Exercise, ExerciseColumn, ModelReference, Submission, SubmissionStatus


def count_passed_exercises_by_user(*, user_ids: list[int]) -> dict[int, int]:
    """count_passed_exercises for many learners in one query (absent: none)."""
    return dict(
        Submission.objects.filter(user_id__in=user_ids, passed=True)
        .values("user_id")
        .annotate(passed=Count("exercise_id", distinct=True))
        .values_list("user_id", "passed")
    )


def count_passed_exercises(*, user_id: int) -> int:
    """How many distinct exercises the learner has passed (one query)."""
    return (
        Submission.objects.filter(user_id=user_id, passed=True)
        .values("exercise_id")
        .distinct()
        .count()
    )


def exercise_summaries_for_lesson(*, lesson_id: int) -> list[dict[str, Any]]:
    """The lesson's exercises in order, as [{"id", "title", "kind", "xp"}] (one query)."""
    return list(
        Exercise.objects.filter(lesson_id=lesson_id)
        .order_by("position", "id")
        .values("id", "title", "kind", "xp")
    )


def visible_exercises(*, user) -> QuerySet[Exercise]:
    """Exercises whose lesson the user may see: published ones, and drafts for staff."""
    from lessons.models import sees_drafts

    exercises = Exercise.objects.all()
    return exercises if sees_drafts(user) else exercises.filter(lesson__published=True)


def get_exercise(*, exercise_id: int, user) -> Exercise:
    """The exercise with its columns and lesson, if the user may see it (Exercise.DoesNotExist)."""
    return (
        visible_exercises(user=user)
        .select_related("lesson")
        .prefetch_related(
            Prefetch("columns", queryset=ExerciseColumn.objects.order_by("position", "id"))
        )
        .get(pk=exercise_id)
    )


def has_passed(*, user_id: int, exercise_id: int) -> bool:
    return Submission.objects.filter(user_id=user_id, exercise_id=exercise_id, passed=True).exists()


def reveals_expected_values(*, submission: Submission) -> bool:
    """Expected values show on a graded submission once its learner passed the exercise (with
    this submission or another): before that they would hand out the answers."""
    return bool(submission.passed) or (
        submission.status == SubmissionStatus.GRADED
        and has_passed(user_id=submission.user_id, exercise_id=submission.exercise_id)
    )


def submissions_for_learner(*, user_id: int, exercise_id: int) -> QuerySet[Submission]:
    """The learner's attempts at one exercise, newest first (no content, no feedback)."""
    return (
        Submission.objects.filter(user_id=user_id, exercise_id=exercise_id)
        .order_by("-created_at", "-id")
        .defer("content", "notes", "feedback")
    )


def get_own_submission(*, submission_id: int, user_id: int) -> Submission:
    """The learner's own submission (Submission.DoesNotExist for anyone else's)."""
    return Submission.objects.select_related("exercise").get(pk=submission_id, user_id=user_id)


def known_model_names() -> list[str]:
    """Every model name in the reference catalogue, for learners choosing their models."""
    return list(ModelReference.objects.order_by("name").values_list("name", flat=True))
