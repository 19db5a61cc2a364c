"""The active achievements, kept in process memory for the grading worker's hot path.

A pass is evaluated against this list instead of reading the achievements table with every
grade. It is only ever used to choose *candidates*: the unlock statement checks each one
against the table again (still active, same rule, same threshold and bonus), so a list that is
a few seconds old can delay an unlock but never grant one the table no longer allows. Changes
reach a process as follows: the Achievement signals (connected in subscribers) forget the list
in the process that saved it at once; every other process checks the table's fingerprint
(count and latest `updated_at`, one small query) at most every RECHECK_AFTER seconds. A new or
re-ruled achievement is also awarded to those who already qualify by the admin's retroactive
award, so an unlock a stale list missed is made there.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.db.models import Count, Max

from achievements.models import Achievement

RECHECK_AFTER = 5.0


@dataclass(frozen=True)
class ActiveAchievement:
    id: int
    slug: str
    title: str
    xp_bonus: int
    rule_kind: str
    threshold: int | None


_cached: tuple[tuple, tuple[ActiveAchievement, ...], float] | None = None


def active_achievements() -> tuple[ActiveAchievement, ...]:
    """Every active achievement; no query when checked less than RECHECK_AFTER seconds ago,
    one small aggregate otherwise (and one more when something changed)."""
    global _cached
    cached = _cached
    now = time.monotonic()
    if cached is not None and now - cached[2] < RECHECK_AFTER:
        return cached[1]
    fingerprint = Achievement.objects.aggregate(count=Count("id"), latest=Max("updated_at"))
    key = (fingerprint["count"], fingerprint["latest"])
    if cached is not None and cached[0] == key:
        _cached = (key, cached[1], now)
        return cached[1]
    achievements = tuple(
        ActiveAchievement(
            id=a.id,
            slug=a.slug,
            title=a.title,
            xp_bonus=a.xp_bonus,
            rule_kind=a.rule_kind,
            threshold=a.threshold,
        )
        for a in Achievement.objects.filter(is_active=True).order_by("position", "id")
    )
    _cached = (key, achievements, now)
    return achievements


def forget() -> None:
    """Read the list afresh on next use (an achievement was saved or deleted here)."""
    global _cached
    _cached = None
