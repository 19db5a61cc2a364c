"""Reads of the exercises app, for its own API and for other apps."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, NamedTuple, TypedDict

from django.db import connection
from django.db.models import Count, F, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum, Window
from django.db.models.functions import Coalesce, RowNumber

from accounts.models import Requester, User
from exercises.grading import INCORRECT, MISSING
from exercises.models import (
    CheckAnswer,
    CheckState,
    Exercise,
    ExerciseColumn,
    ModelReference,
    Submission,
    SubmissionStatus,
)
from exercises.specs import column_spec
from learning_platform import db
from learning_platform.errors import NotFound
from lessons import checks
from lessons import selectors as lesson_selectors
from lessons.selectors import sees_drafts

# Verdicts of a cell the learner should look at again; its column's hint is shown beside them.
# Not an unreadable cell ("14k", "seven hundred"): the hint is written for a figure found or
# missed, and would send the learner after another mistake; that cell has its own message
# (the web app's FeedbackTable: write the figure in digits).
HINTED_VERDICTS = frozenset({INCORRECT, MISSING})


class ExerciseNotFound(NotFound):
    default_detail = "No such exercise."


class SubmissionNotFound(NotFound):
    default_detail = "No such submission."


def _passed_counts(user_ids: list[int]) -> dict[int, int]:
    """Per learner: distinct tables passed plus checks passed without a reveal (1 query)."""
    tables = (
        Submission.objects.filter(user_id=OuterRef("pk"), passed=True)
        .values("user_id")
        .annotate(n=Count("exercise_id", distinct=True))
        .values("n")
    )
    checks_passed = (
        CheckState.objects.filter(
            user_id=OuterRef("pk"), passed_at__isnull=False, revealed_at__isnull=True
        )
        .values("user_id")
        .annotate(n=Count("id"))
        .values("n")
    )
    rows = (
        User.objects.filter(pk__in=user_ids)
        .annotate(passed=Coalesce(Subquery(tables), 0) + Coalesce(Subquery(checks_passed), 0))
        .values_list("pk", "passed")
    )
    return {user_id: passed for user_id, passed in rows if passed}


def count_passed_exercises_by_user(*, user_ids: list[int]) -> dict[int, int]:
    """count_passed_exercises for many learners in one query (absent: none)."""
    return _passed_counts(user_ids)


def count_passed_exercises(*, user_id: int) -> int:
    """How many distinct exercises (tables) and checks the learner has passed (one query)."""
    return _passed_counts([user_id]).get(user_id, 0)


class ExerciseSummary(TypedDict):
    id: int
    title: str
    kind: str
    xp: int


def exercise_summaries_for_lesson(*, lesson_id: int) -> list[ExerciseSummary]:
    """The lesson's exercises in order (one query)."""
    return list(
        Exercise.objects.filter(lesson_id=lesson_id)
        .order_by("position", "id")
        .values("id", "title", "kind", "xp")
    )


def visible_exercises(*, user: Requester) -> QuerySet[Exercise]:
    """Exercises whose lesson the user may see: published ones, and drafts for staff."""
    exercises = Exercise.objects.all()
    return exercises if sees_drafts(user) else exercises.filter(lesson__published=True)


def get_exercise(*, exercise_id: int, user: Requester) -> Exercise:
    """The exercise with its columns and lesson, if the user may see it (else ExerciseNotFound)."""
    try:
        return (
            visible_exercises(user=user)
            .select_related("lesson")
            .prefetch_related(
                Prefetch("columns", queryset=ExerciseColumn.objects.order_by("position", "id"))
            )
            .get(pk=exercise_id)
        )
    except Exercise.DoesNotExist:
        raise ExerciseNotFound() from None


def check_exercise_visible(*, exercise_id: int, user: Requester) -> None:
    """ExerciseNotFound unless the exercise exists and the user may see it (one query)."""
    if not visible_exercises(user=user).filter(pk=exercise_id).exists():
        raise ExerciseNotFound()


def has_passed(*, user_id: int, exercise_id: int) -> bool:
    return Submission.objects.filter(user_id=user_id, exercise_id=exercise_id, passed=True).exists()


def reveals_expected_values(*, submission: Submission, learner_passed: bool | None = None) -> bool:
    """Expected values show on a graded submission once its learner passed the exercise (with
    this submission or another): before that they would hand out the answers.

    `learner_passed`, when the caller knows it (a list of one learner's attempts), saves the
    query that asks.
    """
    if submission.passed:
        return True
    if submission.status != SubmissionStatus.GRADED:
        return False
    if learner_passed is None:
        return has_passed(user_id=submission.user_id, exercise_id=submission.exercise_id)
    return learner_passed


def column_hints(*, exercise_id: int) -> dict[str, str]:
    """{column name: the editor's hint} for the exercise's columns that have one (one query)."""
    return dict(
        ExerciseColumn.objects.filter(exercise_id=exercise_id)
        .exclude(hint="")
        .values_list("name", "hint")
    )


def feedback_for_learner(
    *, submission: Submission, reveal: bool, hints: Mapping[str, str]
) -> dict[str, Any] | None:
    """A graded submission's feedback as its learner sees it: `expected` blanked unless
    `reveal`, and each cell that needs another look (missing or wrong, not an unreadable one)
    carrying its column's hint (null otherwise). None until graded.

    Hints are read now, not stored with the grade: an editor's new hint reaches old attempts.
    """
    if submission.status != SubmissionStatus.GRADED or not submission.feedback:
        return None
    feedback = submission.feedback
    return {
        **feedback,
        "rows": [
            {
                **row,
                "cells": [
                    {
                        **cell,
                        "expected": cell.get("expected") if reveal else None,
                        "hint": hints.get(cell["column"])
                        if cell["verdict"] in HINTED_VERDICTS
                        else None,
                    }
                    for cell in row["cells"]
                ],
            }
            for row in feedback.get("rows", [])
        ],
    }


def submissions_for_learner(*, user_id: int, exercise_id: int) -> QuerySet[Submission]:
    """The learner's attempts at one exercise, newest first, with their feedback (no content)."""
    return (
        Submission.objects.filter(user_id=user_id, exercise_id=exercise_id)
        .order_by("-created_at", "-id")
        .defer("content", "notes")
    )


def get_own_submission(*, submission_id: int, user_id: int) -> Submission:
    """The learner's own submission (SubmissionNotFound for anyone else's)."""
    try:
        return Submission.objects.select_related("exercise").get(pk=submission_id, user_id=user_id)
    except Submission.DoesNotExist:
        raise SubmissionNotFound() from None


def known_model_names() -> list[str]:
    """Every model name in the reference catalogue, for learners choosing their models."""
    return list(ModelReference.objects.order_by("name").values_list("name", flat=True))


# --- Exercises as curriculum files (the `exercise:` key of a lesson file) -------------------


def column_as_spec(column: ExerciseColumn) -> dict[str, Any]:
    return column_spec(
        name=column.name,
        field=column.reference_field,
        synonyms=column.synonyms,
        tolerance=Decimal(column.tolerance),
        hint=column.hint,
    )


def exercise_spec(exercise: Exercise) -> dict[str, Any]:
    """The exercise as the `exercise:` key of a lesson file (what upsert_exercise reads)."""
    return {
        "slug": exercise.slug,
        "title": exercise.title,
        "prompt": exercise.prompt,
        "kind": exercise.kind,
        "key_column": {"name": exercise.key_column, "synonyms": list(exercise.key_synonyms)},
        "columns": [column_as_spec(c) for c in exercise.columns.all()],
        "rows_required": exercise.rows_required,
        "pass_mark": float(exercise.pass_mark),
        "xp": exercise.xp,
    }


def exercise_specs_for_lessons(*, lesson_ids: list[int]) -> dict[int, dict[str, Any]]:
    """{lesson_id: spec} of each lesson's first exercise, for the curriculum exporter (2 queries).

    A lesson file holds one exercise; further exercises of a lesson stay admin-only.
    """
    exercises = (
        Exercise.objects.filter(lesson_id__in=lesson_ids)
        .order_by("lesson_id", "position", "id")
        .prefetch_related("columns")
    )
    specs: dict[int, dict[str, Any]] = {}
    for exercise in exercises:
        specs.setdefault(exercise.lesson_id, exercise_spec(exercise))
    return specs


# --- Analytics (the admin's "how each lesson is doing") -------------------------------------

# Cells are counted over each exercise's latest graded submissions: a bounded read whatever
# the history, and it follows the exercise as it is now rather than as it was a year ago.
RECENT_SUBMISSIONS_PER_EXERCISE = 2_000
# Verdicts of a cell the grader checked against the catalogue; all but "correct" are wrong.
CHECKED_VERDICTS = ("correct", "incorrect", "missing", "unparseable")


def _seconds_between(later: str, earlier: str) -> str:
    return db.for_vendor(
        postgresql=f"EXTRACT(EPOCH FROM ({later} - {earlier}))",
        sqlite=f"(julianday({later}) - julianday({earlier})) * 86400.0",
    )


def time_to_pass(*, exercise_ids: list[int]) -> dict[int, dict[str, float]]:
    """Per exercise: how many learners passed it, how many of them with their first
    submission, and the median seconds from their first submission to their first passing
    one (0 when the first one passed). One query.

    Opening an exercise is not recorded; a learner's first submission is the first moment
    the platform knows they are working on it."""
    # SQL text: the ORM has no median; its version reads each learner's times into Python.
    # bench/bench_analytics.py (20,000 learners): 43.7 ms with this SQL, 294.6 ms with the ORM's.
    if not exercise_ids:
        return {}
    table = Submission._meta.db_table
    placeholders = ", ".join(["%s"] * len(exercise_ids))
    seconds = _seconds_between("first_pass", "first_try")
    sql = f"""
        SELECT exercise_id, MAX(total), MAX(first_time), AVG(seconds)
        FROM (
            SELECT exercise_id, seconds,
                   ROW_NUMBER() OVER (PARTITION BY exercise_id ORDER BY seconds) AS position,
                   COUNT(*) OVER (PARTITION BY exercise_id) AS total,
                   SUM(CASE WHEN seconds = 0 THEN 1 ELSE 0 END)
                       OVER (PARTITION BY exercise_id) AS first_time
            FROM (
                SELECT exercise_id, {seconds} AS seconds
                FROM (
                    SELECT exercise_id, user_id, MIN(created_at) AS first_try,
                           MIN(CASE WHEN passed THEN created_at END) AS first_pass
                    FROM {table}
                    WHERE exercise_id IN ({placeholders})
                    GROUP BY exercise_id, user_id
                ) AS per_learner
                WHERE first_pass IS NOT NULL
            ) AS durations
        ) AS ranked
        WHERE position IN ((total + 1) / 2, (total + 2) / 2)
        GROUP BY exercise_id
    """  # noqa: S608 - table names from _meta, values as parameters
    with connection.cursor() as cursor:
        cursor.execute(sql, exercise_ids)
        return {
            exercise_id: {
                "passed": int(passed),
                "passed_first_time": int(first_time),
                "median_seconds": float(median),
            }
            for exercise_id, passed, first_time, median in cursor.fetchall()
        }


def _cells_sql(exercise_ids: list[int]) -> tuple[str, list[int]]:
    """Every graded cell of the latest submissions, as (exercise_id, name, verdict)."""
    table = Submission._meta.db_table
    placeholders = ", ".join(["%s"] * len(exercise_ids))
    exercise_table = Exercise._meta.db_table
    # PostgreSQL: per exercise, the newest graded submissions straight off
    # exercises_sub_graded_recent. SQLite: the same rows, numbered by a window.
    postgresql = f"""
            SELECT recent.exercise_id, cell->>'column' AS name, cell->>'verdict' AS verdict
            FROM {exercise_table} AS exercise
            CROSS JOIN LATERAL (
                SELECT submission.exercise_id, submission.feedback
                FROM {table} AS submission
                WHERE submission.exercise_id = exercise.id AND submission.status = 'graded'
                ORDER BY submission.graded_at DESC, submission.id DESC
                LIMIT %s
            ) AS recent
            CROSS JOIN LATERAL jsonb_array_elements(recent.feedback->'rows') AS row_
            CROSS JOIN LATERAL jsonb_array_elements(row_->'cells') AS cell
            WHERE exercise.id IN ({placeholders}) AND row_->>'model' IS NOT NULL
              AND (row_->>'duplicate')::boolean IS NOT TRUE
        """  # noqa: S608 - table names from _meta, values as parameters
    sqlite = f"""
        SELECT recent.exercise_id, json_extract(cell.value, '$.column') AS name,
               json_extract(cell.value, '$.verdict') AS verdict
        FROM (
            SELECT exercise_id, feedback FROM (
                SELECT exercise_id, feedback,
                       ROW_NUMBER() OVER (
                           PARTITION BY exercise_id ORDER BY graded_at DESC, id DESC
                       ) AS recency
                FROM {table}
                WHERE exercise_id IN ({placeholders}) AND status = 'graded'
            ) AS latest
            WHERE recency <= %s
        ) AS recent,
        json_each(recent.feedback, '$.rows') AS row_,
        json_each(row_.value, '$.cells') AS cell
        WHERE json_extract(row_.value, '$.model') IS NOT NULL
          AND NOT coalesce(json_extract(row_.value, '$.duplicate'), 0)
    """  # noqa: S608 - table names from _meta, values as parameters
    return db.for_vendor(
        postgresql=(postgresql, [RECENT_SUBMISSIONS_PER_EXERCISE, *exercise_ids]),
        sqlite=(sqlite, [*exercise_ids, RECENT_SUBMISSIONS_PER_EXERCISE]),
    )


def column_error_rates(*, exercise_ids: list[int]) -> dict[int, dict[str, dict[str, int]]]:
    """Per exercise and column: cells checked and cells wrong, from the per-cell feedback of
    each exercise's latest RECENT_SUBMISSIONS_PER_EXERCISE graded submissions (one query).

    Only rows naming a catalogue model count (as in grading); a wrong cell is an incorrect,
    missing or unreadable figure.
    """
    # SQL text: the ORM cannot turn JSON arrays into rows; its version reads every feedback.
    # bench/bench_analytics.py (20,000 learners): 100.7 ms with this SQL, 700.9 ms with the ORM's.
    if not exercise_ids:
        return {}
    cells, params = _cells_sql(exercise_ids)
    verdicts = ", ".join(["%s"] * len(CHECKED_VERDICTS))
    sql = f"""
        SELECT exercise_id, name, COUNT(*),
               SUM(CASE WHEN verdict = 'correct' THEN 0 ELSE 1 END)
        FROM ({cells}) AS cells
        WHERE verdict IN ({verdicts})
        GROUP BY exercise_id, name
    """  # noqa: S608 - built from fixed fragments, values as parameters
    result: dict[int, dict[str, dict[str, int]]] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, *CHECKED_VERDICTS])
        for exercise_id, name, checked, wrong in cursor.fetchall():
            result.setdefault(exercise_id, {})[name] = {"checked": checked, "wrong": int(wrong)}
    return result


def exercises_with_columns(*, lesson_ids: list[int]) -> list[dict[str, Any]]:
    """The exercises of these lessons with their column names, in order (two queries)."""
    exercises = Exercise.objects.filter(lesson_id__in=lesson_ids).prefetch_related(
        Prefetch("columns", queryset=ExerciseColumn.objects.order_by("position", "id"))
    )
    return [
        {
            "id": exercise.id,
            "lesson_id": exercise.lesson_id,
            "title": exercise.title,
            "columns": [column.name for column in exercise.columns.all()],
        }
        for exercise in exercises.order_by("lesson_id", "position", "id")
    ]


class CheckFigures(NamedTuple):
    learners: int
    answers: int
    right: int
    right_first_try: int
    revealed: int
    # (answer_key, times) of the most common wrong answers that no feedback covers yet.
    uncovered_wrong: list[tuple[str, int]]


def check_figures(*, check_ids: list[int], top: int = 5) -> dict[int, CheckFigures]:
    """Per check (2 queries): the learners who answered it and their answers; the learners
    right without revealing it, right at their first try, and who revealed it; and its `top`
    commonest wrong answers that match no expected mistake: where learners need feedback
    that nobody has written yet."""
    if not check_ids:
        return {}
    counted = (
        CheckState.objects.filter(check_block_id__in=check_ids)
        .values("check_block_id")
        .annotate(
            learners=Count("id"),
            answers=Sum("tries"),
            right=Count("id", filter=Q(passed_at__isnull=False, revealed_at__isnull=True)),
            first_try=Count("id", filter=Q(passed_first_try=True)),
            revealed=Count("id", filter=Q(revealed_at__isnull=False)),
        )
        .values_list("check_block_id", "learners", "answers", "right", "first_try", "revealed")
    )
    counts = {row[0]: row[1:] for row in counted}
    uncovered: dict[int, list[tuple[str, int]]] = {check_id: [] for check_id in check_ids}
    for row in (
        CheckAnswer.objects.filter(check_block_id__in=check_ids, correct=False, mistake="")
        .values("check_block_id", "answer_key")
        .annotate(times=Count("id"))
        .annotate(
            rank=Window(
                RowNumber(),
                partition_by=F("check_block_id"),
                order_by=[F("times").desc(), F("answer_key").asc()],
            )
        )
        .filter(rank__lte=top)
        .order_by("check_block_id", "rank")
    ):
        uncovered[row["check_block_id"]].append((row["answer_key"], row["times"]))
    return {
        check_id: CheckFigures(*counts.get(check_id, (0, 0, 0, 0, 0)), uncovered[check_id])
        for check_id in check_ids
    }


class CheckStanding(TypedDict):
    check: int
    tries: int
    wrong_tries: int
    passed: bool
    passed_first_try: bool
    revealed: bool
    can_reveal: bool
    xp_awarded: int


def lesson_check_standings(*, user_id: int, lesson_id: int) -> list[CheckStanding]:
    """Where the learner stands with each of the lesson's checks, in the lesson's order; a check
    never answered stands at zero tries (2 queries)."""
    blocks = lesson_selectors.lesson_checks(lesson_id=lesson_id)
    states = {
        s.check_block_id: s for s in CheckState.objects.filter(user_id=user_id, lesson_id=lesson_id)
    }
    standings: list[CheckStanding] = []
    for block_id, spec in blocks:
        state = states.get(block_id)
        passed = state is not None and state.passed_at is not None
        wrong = state.wrong_tries if state else 0
        standings.append(
            CheckStanding(
                check=block_id,
                tries=state.tries if state else 0,
                wrong_tries=wrong,
                passed=passed,
                passed_first_try=bool(state and state.passed_first_try),
                xp_awarded=state.xp_awarded if state else 0,
                revealed=bool(state and state.revealed_at),
                can_reveal=not passed and wrong >= checks.reveal_after(spec),
            )
        )
    return standings


def started_lesson_slugs(*, user_id: int) -> list[str]:
    """Slugs of the lessons whose checks the learner has answered at least once (1 query)."""
    lesson_ids = CheckState.objects.filter(user_id=user_id).values("lesson_id").distinct()
    return lesson_selectors.lesson_slugs(lesson_ids=lesson_ids)
