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
    StandingAfterAward,
    award_xp,
)
from progress.services.sync import SyncOutcome, sync_progress

# The sync event's limits and its one definition live with SyncEventSerializer; the service
# answers for them.
from progress.sync_events import MAX_SYNC_EVENTS, TooManyEvents
