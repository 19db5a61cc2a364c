"""What lessons announces to the apps above it (learning_platform/hooks.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from learning_platform.hooks import Hook


@dataclass(frozen=True)
class LessonReverted:
    """An editor put the lesson back as it was at `as_of`; its own fields, tags, blocks and
    links are restored, in the open transaction."""

    lesson_id: int
    as_of: datetime


# Subscribers restore what they keep of a lesson (its exercise) as it was at `as_of`, in the
# revert's transaction: the whole lesson goes back, or none of it.
lesson_reverted: Hook[LessonReverted, None] = Hook("lessons.lesson_reverted")
