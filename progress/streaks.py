"""The streak rule: when a day of activity carries a run of active days on. The writes
(`progress.services`) count runs with it; the reads (`progress.selectors`) say with it whether
a run still stands today. A new rule (a streak freeze, a weekly streak) is a change here."""

from __future__ import annotations

from datetime import date, timedelta


def continues_run(previous: date, day: date) -> bool:
    """Whether activity on `day` carries on the run whose last active day was `previous`."""
    return day - previous == timedelta(days=1)


def streak_runs(
    days: list[date], *, current: int = 0, best: int = 0, previous: date | None = None
) -> tuple[int, int]:
    """(length of the run ending on the last day, longest run) of sorted distinct active days,
    continuing runs that stood at `current`/`best` after the day `previous`."""
    for d in days:
        current = current + 1 if previous is not None and continues_run(previous, d) else 1
        best = max(best, current)
        previous = d
    return current, best
