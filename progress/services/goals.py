"""The learner's daily goal: how much XP a day they aim for."""

from __future__ import annotations

from django.db import transaction

from progress import summary_cache
from progress.models import ActivityDay, LearnerStats
from progress.selectors.learners import daily_goal


def set_daily_goal(*, user_id: int, time_zone: str, xp: int | None) -> None:
    """Set (or with None, clear or decline) the learner's daily goal, one of
    `models.DAILY_GOALS`; either way the learner has chosen, and is not asked again. A goal
    at or below what today already earned is met today: the day is marked as any award
    reaching it would mark it."""
    with transaction.atomic():
        stats, _ = LearnerStats.objects.select_for_update().get_or_create(user_id=user_id)
        stats.daily_goal = xp
        stats.daily_goal_chosen = True
        stats.save(update_fields=["daily_goal", "daily_goal_chosen", "updated_at"])
        today = daily_goal(
            goal=xp,
            day_xp=stats.day_xp,
            last_active_day=stats.last_active_day,
            last_active_day_start=stats.last_active_day_start,
            time_zone=time_zone,
            chosen=True,
        )
        if today["met"] and stats.last_active_day is not None:
            ActivityDay.objects.filter(user_id=user_id, day=stats.last_active_day).update(
                goal_met=True
            )
        summary_cache.note_learner_changed(user_id)
