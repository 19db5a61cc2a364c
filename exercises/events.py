"""What exercises announce to the apps above them (learning_platform/hooks.py)."""

from __future__ import annotations

from dataclasses import dataclass

from learning_platform.hooks import Hook


@dataclass(frozen=True)
class ExercisePassed:
    """A learner's first pass of an exercise was graded and its XP paid; announced in the
    transaction that paid it, with the learner's standing read under their progress lock by the
    statement that paid it, so subscribers need not read it again: their XP total, current
    streak and number of exercises passed, this one included."""

    user_id: int
    exercise_id: int
    xp_total: int
    streak_days: int
    exercises_passed: int


@dataclass(frozen=True)
class ExercisesPassed:
    """First passes graded together (a backlog batch), in one transaction: one per learner, the
    latest, with the standing after all of theirs."""

    passes: tuple[ExercisePassed, ...]


exercise_passed: Hook[ExercisePassed, object] = Hook("exercises.exercise_passed")
exercises_passed: Hook[ExercisesPassed, object] = Hook("exercises.exercises_passed")
