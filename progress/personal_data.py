"""What progress holds about a learner, for their copy of it; nothing here is purged: the
ledger and completions stay with the nameless tombstone (accounts.services.purge_account), so
the boards' and analytics' totals stay right. Subscribed in ProgressConfig.ready()."""

from __future__ import annotations

from typing import Any

from accounts.events import AccountDataAsked
from progress.models import LearnerStats, LessonCompletion, XPAward


def export(event: AccountDataAsked) -> dict[str, Any]:
    stats = LearnerStats.objects.filter(user_id=event.user_id).first()
    completions = (
        LessonCompletion.objects.filter(user_id=event.user_id)
        .order_by("completed_at", "pk")
        .values_list("lesson__slug", "completed_at")
    )
    ledger = (
        XPAward.objects.filter(user_id=event.user_id)
        .order_by("awarded_at", "pk")
        .values_list("source_type", "source_id", "amount", "awarded_at")
    )
    return {
        "progress": {
            "xp_total": stats.xp_total if stats else 0,
            "streak_current": stats.streak_current if stats else 0,
            "streak_best": stats.streak_best if stats else 0,
            "daily_goal": stats.daily_goal if stats else None,
            "completed_lessons": [
                {"lesson": slug, "completed_at": at.isoformat()} for slug, at in completions
            ],
        },
        "xp_ledger": [
            {"source": source, "source_id": source_id, "xp": amount, "awarded_at": at.isoformat()}
            for source, source_id, amount, at in ledger
        ],
    }
