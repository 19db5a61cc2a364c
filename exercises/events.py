"""What exercises announce to the apps above them (learning_platform/hooks.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

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


@dataclass(frozen=True)
class CheckPassed:
    """A learner passed one of a lesson's checks (announced in the transaction that recorded
    it); `xp_paid` says whether it paid XP (a revealed check does not). Subscribers return what
    they unlocked."""

    user_id: int
    xp_paid: bool


@dataclass(frozen=True)
class CheckAnswered:
    """A learner's answer to one of a lesson's checks was recorded (announced in the
    transaction that recorded it; a resent answer is not announced again). `first_try`: the
    learner's first answer to the check; `revealed`: given after the answer was shown;
    `passed_before`: the check was already passed. `duration_ms` when the device timed it."""

    user_id: int
    check_id: int
    lesson_id: int
    quest_id: int
    correct: bool
    first_try: bool
    revealed: bool
    passed_before: bool
    answered_at: datetime
    duration_ms: int | None = None


check_answered: Hook[CheckAnswered, object] = Hook("exercises.check_answered")
check_passed: Hook[CheckPassed, list[Any]] = Hook("exercises.check_passed")
exercise_passed: Hook[ExercisePassed, object] = Hook("exercises.exercise_passed")
exercises_passed: Hook[ExercisesPassed, object] = Hook("exercises.exercises_passed")
