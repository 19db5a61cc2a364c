"""What reviews announce to the apps above them (learning_platform/hooks.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from learning_platform.hooks import Hook


@dataclass(frozen=True)
class ReviewAnswered:
    """A due card was reviewed on the Review page (or synced from a device) and its review
    logged: announced in the transaction that logged it, once per log row (`log_id`). Answers
    to a card not due, or resent, log nothing and are not announced. `rating` is FSRS's
    ("again", "hard", "good", "easy")."""

    log_id: int
    user_id: int
    check_id: int
    lesson_id: int
    correct: bool
    rating: str
    reviewed_at: datetime
    duration_ms: int | None = None


review_answered: Hook[ReviewAnswered, object] = Hook("reviews.review_answered")
