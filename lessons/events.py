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


@dataclass(frozen=True)
class LiveDraftMade:
    """A draft of the live lesson was made (lessons.live_drafts), its own content copied; in the
    open transaction."""

    live_lesson_id: int
    draft_id: int


@dataclass(frozen=True)
class LiveDraftPublished:
    """The draft's content is being put on its live lesson, in the open transaction, before
    the draft row (and what hangs from it) is deleted."""

    draft_id: int
    live_lesson_id: int


# Subscribers copy what they keep of a lesson (its exercise) onto the draft when it is made,
# and from the draft onto the live lesson when it is published, in the same transaction: a
# draft is the whole lesson, and publishing puts all of it live or none of it.
live_draft_made: Hook[LiveDraftMade, None] = Hook("lessons.live_draft_made")
live_draft_published: Hook[LiveDraftPublished, None] = Hook("lessons.live_draft_published")
