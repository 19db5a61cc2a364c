"""Writes of the achievements app: unlocking achievements and paying their XP bonus."""

from __future__ import annotations

import logging
from typing import TypedDict

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from achievements import rules
from achievements.models import Achievement, AchievementUnlock

logger = logging.getLogger(__name__)

XP_SOURCE = "achievement"
RETROACTIVE_BATCH_SIZE = 500


class UnlockedAchievement(TypedDict):
    slug: str
    title: str
    xp_bonus: int


def evaluate_achievements(*, user_id: int) -> list[UnlockedAchievement]:
    """Unlock every active achievement the learner now qualifies for; return the new ones.

    Each unlock is unique per learner (a DB constraint settles races) and pays its XP bonus
    once, through the XP ledger, in the same transaction as the unlock. A bonus can lift the
    learner over an XP rule, so evaluation repeats until nothing new unlocks. Idempotent: a
    second call unlocks and pays nothing.
    """
    pending = list(Achievement.objects.filter(is_active=True).exclude(unlocks__user_id=user_id))
    if not pending:
        return []
    catalogue = rules.Catalogue(tag_slugs=(a.tag_slug for a in pending))
    metrics = rules.LearnerMetrics(user_id=user_id, catalogue=catalogue)
    unlocked: list[UnlockedAchievement] = []
    # Each round either unlocks something or stops, so this ends within len(pending) rounds.
    while pending:
        reached = [a for a in pending if rules.measure(a, metrics).reached]
        if not reached:
            break
        bonus_paid = False
        for achievement in reached:
            if _unlock(user_id=user_id, achievement=achievement):
                unlocked.append(_summary(achievement))
                bonus_paid = bonus_paid or achievement.xp_bonus > 0
        if not bonus_paid:
            break
        reached_ids = {a.id for a in reached}
        pending = [a for a in pending if a.id not in reached_ids]
        metrics.forget_xp()
    return unlocked


def award_achievement_to_batch(
    *, achievement_id: int, after_user_id: int = 0, batch_size: int = RETROACTIVE_BATCH_SIZE
) -> int | None:
    """Unlock one achievement for the qualifying learners among the next `batch_size` ones.

    Learners are walked by id, from just after `after_user_id`. Those who already hold the
    achievement are skipped in one query; the rest are measured against this achievement only,
    one query each (two for a tag rule; a paid bonus then re-evaluates that learner, since it
    can unlock an XP rule). Returns the
    id to continue after when there may be more learners, None when the walk is over (or the
    achievement is gone or inactive). Idempotent: rerunning a batch unlocks nothing twice.
    """
    achievement = Achievement.objects.filter(pk=achievement_id, is_active=True).first()
    if achievement is None:
        return None
    user_ids = list(
        get_user_model()
        .objects.filter(is_active=True, id__gt=after_user_id)
        .order_by("id")
        .values_list("id", flat=True)[:batch_size]
    )
    holders = set(
        AchievementUnlock.objects.filter(achievement=achievement, user_id__in=user_ids).values_list(
            "user_id", flat=True
        )
    )
    # The quest and tag facts are the same for everyone: loaded once per batch.
    catalogue = rules.Catalogue(tag_slugs=[achievement.tag_slug])
    for user_id in user_ids:
        if user_id in holders:
            continue
        metrics = rules.LearnerMetrics(user_id=user_id, catalogue=catalogue)
        if not rules.measure(achievement, metrics).reached:
            continue
        if _unlock(user_id=user_id, achievement=achievement) and achievement.xp_bonus:
            evaluate_achievements(user_id=user_id)
    if len(user_ids) < batch_size:
        return None
    return user_ids[-1]


class _AlreadyUnlocked(Exception):
    pass


def _unlock(*, user_id: int, achievement: Achievement) -> bool:
    """Record the unlock and pay its bonus, atomically. False when it already existed."""
    try:
        with transaction.atomic():
            if achievement.xp_bonus:
                from progress import services as progress

                # Paying first takes the learner's progress lock before the unlock's key, the
                # order every progress write (which evaluates inside its lock) follows, so a
                # retroactive award racing a lesson completion cannot deadlock.
                progress.award_xp(
                    user_id=user_id,
                    source_type=XP_SOURCE,
                    source_id=achievement.id,
                    amount=achievement.xp_bonus,
                )
            try:
                AchievementUnlock.objects.create(user_id=user_id, achievement=achievement)
            except IntegrityError as conflict:
                raise _AlreadyUnlocked from conflict
    except _AlreadyUnlocked:
        # Unlocked meanwhile by a concurrent evaluation, which paid the bonus: roll ours back.
        return False
    logger.info("Learner %s unlocked achievement %s", user_id, achievement.slug)
    return True


def _summary(achievement: Achievement) -> UnlockedAchievement:
    return {"slug": achievement.slug, "title": achievement.title, "xp_bonus": achievement.xp_bonus}
