"""What progress announces to the apps above it (learning_platform/hooks.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from learning_platform.hooks import Hook


@dataclass(frozen=True)
class LessonsCompleted:
    """The learner completed one or more lessons; their XP is paid, in the open transaction."""

    user_id: int


# Subscribers return what the event unlocked for the learner (shown in the answer as
# `new_achievements`); they run inside the completion's transaction, so what they pay lands
# with the completion or not at all.
lessons_completed: Hook[LessonsCompleted, Sequence[Mapping[str, Any]]] = Hook(
    "progress.lessons_completed"
)


@dataclass(frozen=True)
class HeaderAsked:
    """The learner's progress header (`/me/progress`) is being built (its cache missed)."""

    user_id: int


# Subscribers return the counts they own in the header, by its field names
# ({"achievements_unlocked": 3, "achievements_total": 10}): progress shows them without
# importing whoever counts them. The header is the hottest read: one query per subscriber at most.
# Its cache (progress/summary_cache.py) is told of a learner's changes through
# progress.services.note_progress_changed, and of content changes by the content version
# (models registered with learning_platform.versioned.bump_on_change).
header_counts: Hook[HeaderAsked, dict[str, int]] = Hook("progress.header_counts")


@dataclass(frozen=True)
class XpPaid:
    """One award the XP ledger paid now (never one it held already), with the learner's XP
    total before and after it, read under their progress lock: which levels it crossed is
    `progress.selectors.levels_crossed(...)`. `day` is the learner's day it counts on, as
    stored with it (`XPAward.day`); `time_zone` the learner's zone, read with the totals.
    `latest_week_with_xp` is the Monday of the latest calendar week the learner had earned XP
    in before this write (None: never), so a subscriber knows a learner's first XP of a week
    without a query."""

    user_id: int
    source_type: str
    source_id: int
    awarded_at: datetime
    xp_before: int
    xp_after: int
    day: date
    time_zone: str
    latest_week_with_xp: date | None


@dataclass(frozen=True)
class XpAwardsPaid:
    """The awards one ledger write paid (`progress.services.award_xp`, a completion, a sync),
    announced in its transaction: a subscriber's rows commit with the XP or not at all."""

    awards: tuple[XpPaid, ...]


xp_paid: Hook[XpAwardsPaid, object] = Hook("progress.xp_paid")
