"""What reviews holds about a learner, for their copy of it. The cards and logs stay with the
nameless tombstone when the account is deleted (they hold no name, and the quests' FSRS fits
learn from the logs). Subscribed in ReviewsConfig.ready()."""

from __future__ import annotations

from typing import Any

from accounts.events import AccountDataAsked
from reviews.models import ReviewCard


def export(event: AccountDataAsked) -> dict[str, Any]:
    cards = ReviewCard.objects.filter(user_id=event.user_id).order_by("created_at", "pk")
    return {
        "review_cards": [
            {
                "lesson": row["lesson__slug"],
                "check": row["check_block_id"],
                "state": ReviewCard.State(row["state"]).label,
                "due": row["due"].isoformat(),
                "last_review": row["last_review"].isoformat() if row["last_review"] else None,
                "reps": row["reps"],
                "lapses": row["lapses"],
            }
            for row in cards.values(
                "lesson__slug", "check_block_id", "state", "due", "last_review", "reps", "lapses"
            )
        ]
    }
