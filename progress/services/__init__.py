"""Writes of the progress app, by job: the XP ledger and the learners' stats rows (`ledger`),
lesson completions (`completions`), device sync (`sync`)."""

from progress.services.completions import (
    CompletionOutcome,
    LessonNotFound,
    complete_lesson,
    note_progress_changed,
    note_progress_changed_of_learners,
)
from progress.services.goals import set_daily_goal
from progress.services.ledger import (
    STREAK_WITNESS_WINDOW,
    Award,
    AwardKey,
    StandingAfterAward,
    award_xp,
)
from progress.services.sync import (
    ALLOWED_CLOCK_SKEW,
    MAX_SYNC_EVENTS,
    OFFLINE_HISTORY_LIMIT,
    SYNC_EVENT_TYPES,
    SyncOutcome,
    TooManyEvents,
    sync_progress,
)
from progress.streaks import streak_runs

__all__ = [
    "ALLOWED_CLOCK_SKEW",
    "MAX_SYNC_EVENTS",
    "OFFLINE_HISTORY_LIMIT",
    "STREAK_WITNESS_WINDOW",
    "SYNC_EVENT_TYPES",
    "Award",
    "AwardKey",
    "CompletionOutcome",
    "LessonNotFound",
    "StandingAfterAward",
    "SyncOutcome",
    "TooManyEvents",
    "award_xp",
    "complete_lesson",
    "note_progress_changed",
    "note_progress_changed_of_learners",
    "set_daily_goal",
    "streak_runs",
    "sync_progress",
]
