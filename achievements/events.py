"""What achievements announce to the apps above them (learning_platform/hooks.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from learning_platform.hooks import Hook


@dataclass(frozen=True)
class Unlock:
    """A learner unlocked an achievement (its unlock row, unique per learner and achievement,
    went in now)."""

    user_id: int
    achievement_id: int
    slug: str
    title: str
    unlocked_at: datetime


@dataclass(frozen=True)
class AchievementsUnlocked:
    """The unlocks one write inserted (an evaluation, a retroactive batch), announced in its
    transaction: a subscriber's rows commit with the unlocks or not at all. An unlock that was
    there already is not announced again."""

    unlocks: tuple[Unlock, ...]


achievements_unlocked: Hook[AchievementsUnlocked, object] = Hook("achievements.unlocked")
