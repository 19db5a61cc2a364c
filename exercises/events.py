"""What exercises announce to the apps above them (learning_platform/hooks.py)."""

from __future__ import annotations

from dataclasses import dataclass

from learning_platform.hooks import Hook


@dataclass(frozen=True)
class ExercisePassed:
    """A learner's first pass of an exercise was graded and its XP paid."""

    user_id: int
    exercise_id: int


exercise_passed: Hook[ExercisePassed, object] = Hook("exercises.exercise_passed")
