"""A small quest with known figures: three lessons, an exercise on the second, reports."""

from datetime import UTC, datetime, timedelta

import pytest

from accounts.tests.factories import UserFactory
from community.tests.factories import IssueReportFactory
from exercises.models import Submission
from exercises.tests.factories import ExerciseFactory, SubmissionFactory
from lessons.tests.factories import LessonFactory, QuestFactory
from progress.tests.factories import LessonCompletionFactory

NOW = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)  # a Wednesday


def feedback(cells: dict[str, str], *, model: str | None = "GPT-2", duplicate: bool = False):
    """Grading feedback with one row whose cells have these verdicts."""
    return {
        "rows": [
            {
                "row": 1,
                "name": model or "unknown",
                "model": model,
                "duplicate": duplicate,
                "cells": [{"column": c, "verdict": v} for c, v in cells.items()],
            }
        ]
    }


def submit(exercise, user, *, at: datetime, passed: bool, cells: dict[str, str], **row):
    submission = SubmissionFactory(
        exercise=exercise,
        user=user,
        status="graded",
        passed=passed,
        score=1.0 if passed else 0.2,
        feedback=feedback(cells, **row),
    )
    Submission.objects.filter(pk=submission.pk).update(created_at=at, graded_at=at)
    return submission


@pytest.fixture
def quest_figures(time_machine):
    """Learners a..e: a completes 1-3, b 1-2, c 1, d only 2 (skipped 1), e nothing."""
    time_machine.move_to(NOW)
    quest = QuestFactory(title="Transformers")
    first, second, third = (
        LessonFactory(quest=quest, position=n, title=f"Lesson {n}") for n in (1, 2, 3)
    )
    exercise = ExerciseFactory(lesson=second, title="Tabulate", columns=False)
    exercise.columns.create(position=1, name="d_model", reference_field="d_model")
    exercise.columns.create(position=2, name="n_layers", reference_field="n_layers")
    a, b, c, d, e = (UserFactory() for _ in range(5))
    this_week, last_week = NOW - timedelta(days=1), NOW - timedelta(days=8)
    for user, lessons in (
        (a, (first, second, third)),
        (b, (first, second)),
        (c, (first,)),
        (d, (second,)),
    ):
        for lesson in lessons:
            LessonCompletionFactory(user=user, lesson=lesson, completed_at=this_week)
    LessonCompletionFactory(user=e, lesson=LessonFactory(), completed_at=last_week)
    # a: first try at t, pass 10 min later; b: passes on the first try; c: fails only.
    t = NOW - timedelta(hours=3)
    submit(exercise, a, at=t, passed=False, cells={"d_model": "incorrect", "n_layers": "correct"})
    submit(
        exercise,
        a,
        at=t + timedelta(minutes=10),
        passed=True,
        cells={"d_model": "correct", "n_layers": "correct"},
    )
    submit(exercise, b, at=t, passed=True, cells={"d_model": "correct", "n_layers": "correct"})
    submit(exercise, c, at=t, passed=False, cells={"d_model": "missing", "n_layers": "unchecked"})
    # Rows not naming a catalogue model, or repeating one, do not count.
    submit(
        exercise,
        c,
        at=t + timedelta(minutes=1),
        passed=False,
        cells={"d_model": "incorrect", "n_layers": "incorrect"},
        model=None,
    )
    submit(
        exercise,
        c,
        at=t + timedelta(minutes=2),
        passed=False,
        cells={"d_model": "incorrect", "n_layers": "incorrect"},
        duplicate=True,
    )
    IssueReportFactory.create_batch(2, lesson=second)
    IssueReportFactory(lesson=second, status="rejected", resolved_at=NOW)
    IssueReportFactory(lesson=third)
    return {"quest": quest, "lessons": (first, second, third), "exercise": exercise}
