"""Writes of the progress app, by job: the XP ledger and the learners' stats rows (`ledger`),
lesson completions (`completions`), device sync (`sync`)."""

from progress.services.completions import (
    ChecksRequired,
    CompletionOutcome,
    LessonNotFound,
    complete_lesson,
    record_completions,
)
from progress.services.goals import set_daily_goal
from progress.services.ledger import (
    STREAK_WITNESS_WINDOW,
    Award,
    StandingAfterAward,
    award_xp,
    lock_learner,
)
from progress.services.sync import (
    ALLOWED_CLOCK_SKEW,
    OFFLINE_HISTORY_LIMIT,
    SyncOutcome,
    sync_progress,
)

# Other apps say that something the header counts changed for learners (an achievement unlocked
# without XP): the cached header is rebuilt on the next read.
from progress.summary_cache import note_learner_changed as note_progress_changed
from progress.summary_cache import note_learners_changed as note_progress_changed_of_learners

# The sync event's limits and its one definition live with SyncEventSerializer; the service
# answers for them.
from progress.sync_events import MAX_SYNC_EVENTS, TooManyEvents
