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

from dataclasses import dataclass

from achievements.models import Achievement
from learning_platform.snapshots import TableSnapshot

RECHECK_AFTER = 5.0


@dataclass(frozen=True)
class ActiveAchievement:
    id: int
    slug: str
    title: str
    xp_bonus: int
    rule_kind: str
    threshold: int | None


def _read_active() -> tuple[ActiveAchievement, ...]:
    return tuple(
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


_active = TableSnapshot(Achievement, _read_active, recheck_after=RECHECK_AFTER)


def active_achievements() -> tuple[ActiveAchievement, ...]:
    """Every active achievement; no query when checked less than RECHECK_AFTER seconds ago,
    one small aggregate otherwise (and one more when something changed)."""
    return _active.get()


def forget() -> None:
    """Read the list afresh on next use (an achievement was saved or deleted here)."""
    _active.forget()
