"""The level curve and where an XP total stands on it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from progress.models import LearnerStats, Level


@dataclass(frozen=True)
class LevelStep:
    number: int
    name: str
    xp_required: int


def level_curve() -> list[LevelStep]:
    """The level curve, lowest first (1 query). Read each time: editing it re-levels everyone."""
    steps = Level.objects.order_by("xp_required").values_list("number", "name", "xp_required")
    return [LevelStep(*step) for step in steps]


def level_progress(*, xp: int, curve: list[LevelStep]) -> dict[str, Any]:
    """Where `xp` stands on the curve (no query): level, XP into it, XP to the next one."""
    current = LevelStep(0, "", 0)
    following: LevelStep | None = None
    for step in curve:
        if step.xp_required <= xp:
            current = step
        else:
            following = step
            break
    return {
        "level": {"number": current.number, "name": current.name},
        "xp_into_level": xp - current.xp_required,
        "xp_for_level": following.xp_required - current.xp_required if following else 0,
        "xp_to_go": following.xp_required - xp if following else 0,
        "next_level": (
            {
                "number": following.number,
                "name": following.name,
                "xp_required": following.xp_required,
            }
            if following
            else None
        ),
    }


def levels_crossed(*, xp_before: int, xp_after: int, curve: list[LevelStep]) -> list[LevelStep]:
    """The levels a learner reached by going from `xp_before` to `xp_after` XP (no query): those
    whose threshold lies above the one and at or below the other, lowest first."""
    return [step for step in curve if xp_before < step.xp_required <= xp_after]


def xp_total(*, user_id: int) -> int:
    """The learner's XP total, consistent with the ledger (1 query)."""
    total = LearnerStats.objects.filter(pk=user_id).values_list("xp_total", flat=True).first()
    return total or 0
