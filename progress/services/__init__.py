"""Writes of the progress app, by job: the XP ledger and the learner's stats row (`ledger`;
`award_once` and `award_inserted` for the one-statement awards of a pass and its unlocks),
lesson completions (`completions`), device sync (`sync`)."""

from progress.services.award_inserted import InsertedAndPaid, award_xp_once_for_inserted
from progress.services.award_once import (
    StandingAfterAward,
    award_xp_once,
    award_xp_once_to_many,
)
from progress.services.completions import (
    CompletionOutcome,
    LessonNotFound,
    complete_lesson,
    note_content_changed,
    note_progress_changed,
    note_progress_changed_of_learners,
)
from progress.services.ledger import (
    STREAK_WITNESS_WINDOW,
    award_xp,
    award_xp_batch,
    award_xp_to_learners,
    streak_runs,
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

__all__ = [
    "ALLOWED_CLOCK_SKEW",
    "MAX_SYNC_EVENTS",
    "OFFLINE_HISTORY_LIMIT",
    "STREAK_WITNESS_WINDOW",
    "SYNC_EVENT_TYPES",
    "CompletionOutcome",
    "InsertedAndPaid",
    "LessonNotFound",
    "StandingAfterAward",
    "SyncOutcome",
    "TooManyEvents",
    "award_xp",
    "award_xp_batch",
    "award_xp_once",
    "award_xp_once_for_inserted",
    "award_xp_once_to_many",
    "award_xp_to_learners",
    "complete_lesson",
    "note_content_changed",
    "note_progress_changed",
    "note_progress_changed_of_learners",
    "streak_runs",
    "sync_progress",
]
