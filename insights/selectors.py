"""How a quest and its lessons are doing, for the admin's analytics pages.

Every figure is an aggregate computed by the owning app's selectors (a fixed number of
queries, whatever the number of learners), put together here and cached for a short while:
the pages are read by a few editors and may lag the truth by ANALYTICS_CACHE_SECONDS.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from django.conf import settings
from django.core.cache import cache

from community import selectors as community_selectors
from exercises import selectors as exercise_selectors
from learning_platform import clock
from lessons import checks as lesson_checks
from lessons import selectors as lesson_selectors
from progress import selectors as progress_selectors
from progress.periods import week_of

logger = logging.getLogger(__name__)

WEEKS_SHOWN = 26
CACHE_VERSION = 3  # 2: drafts left out; 3: a lesson's checks
# Under this many learners a median says more about one learner than about the exercise.
MIN_LEARNERS_FOR_MEDIAN = 5


def _cached(key: str, compute: Callable[[], dict[str, Any]], *, refresh: bool) -> dict[str, Any]:
    """`compute()`, through the cache; a cache outage only makes the page slower."""
    if not refresh:
        try:
            hit: dict[str, Any] | None = cache.get(key, version=CACHE_VERSION)
        except Exception:  # the cache being down must not take the page down
            logger.warning("analytics cache unavailable", exc_info=True)
            hit = None
        if hit is not None:
            return hit
    value = compute()
    try:
        cache.set(key, value, settings.ANALYTICS_CACHE_SECONDS, version=CACHE_VERSION)
    except Exception:
        logger.warning("analytics cache unavailable", exc_info=True)
    return value


def _week_start(moment: datetime) -> date:
    """The Monday of the UTC week holding `moment`: the analytics count all learners on one
    clock, UTC's, in the game's weeks (`progress.periods.week_of`)."""
    return week_of(moment.astimezone(UTC).date())[0]


def _weekly_series(counts: dict[date, int], *, now: datetime) -> list[tuple[date, int]]:
    last = _week_start(now)
    weeks = [last - timedelta(weeks=n) for n in range(WEEKS_SHOWN - 1, -1, -1)]
    return [(week, counts.get(week, 0)) for week in weeks]


def _since(now: datetime) -> datetime:
    start = _week_start(now) - timedelta(weeks=WEEKS_SHOWN - 1)
    return datetime(start.year, start.month, start.day, tzinfo=UTC)


def quest_analytics(*, quest_id: int, refresh: bool = False) -> dict[str, Any]:
    """The quest's figures, lesson by lesson (10 queries when computed, none when cached):
    completions per week, learners who completed each lesson and who stopped there, each
    exercise's median time to pass and wrong cells per column, open reports."""
    return _cached(f"insights:quest:{quest_id}", lambda: _compute_quest(quest_id), refresh=refresh)


def _compute_quest(quest_id: int) -> dict[str, Any]:
    now = clock.now()
    quest = lesson_selectors.quest_heading(quest_id=quest_id)
    # What learners see: drafts are neither counted nor numbered ("Lesson 12 of 94" as they read it).
    lessons = lesson_selectors.quest_lesson_rows(quest_id=quest_id, published_only=True)
    lesson_ids = [lesson["id"] for lesson in lessons]
    exercises = exercise_selectors.exercises_with_columns(lesson_ids=lesson_ids)
    exercise_ids = [exercise["id"] for exercise in exercises]
    completed = progress_selectors.completion_counts(lesson_ids=lesson_ids)
    furthest = progress_selectors.furthest_lesson_counts(quest_id=quest_id)
    weekly = progress_selectors.completions_by_week(lesson_ids=lesson_ids, since=_since(now))
    passing = exercise_selectors.time_to_pass(exercise_ids=exercise_ids)
    cells = exercise_selectors.column_error_rates(exercise_ids=exercise_ids)
    reports = community_selectors.open_report_counts(lesson_ids=lesson_ids)

    by_lesson: dict[int, list[dict[str, Any]]] = {}
    for exercise in exercises:
        columns = []
        for name in exercise["columns"]:
            counted = cells.get(exercise["id"], {}).get(name, {"checked": 0, "wrong": 0})
            share = counted["wrong"] / counted["checked"] if counted["checked"] else None
            columns.append({"name": name, **counted, "wrong_share": share})
        rated = [c for c in columns if c["wrong_share"] is not None]
        hardest = max(rated, key=lambda c: c["wrong_share"])["name"] if rated else None
        by_lesson.setdefault(exercise["lesson_id"], []).append(
            {
                "id": exercise["id"],
                "title": exercise["title"],
                "passed": passing.get(exercise["id"], {}).get("passed", 0),
                "passed_first_time": passing.get(exercise["id"], {}).get("passed_first_time", 0),
                "median_seconds": passing.get(exercise["id"], {}).get("median_seconds"),
                "columns": columns,
                "hardest_column": hardest,
            }
        )
    rows = [
        {
            **lesson,
            "number": number,
            "completed": completed.get(lesson["id"], 0),
            "stopped_here": furthest.get(lesson["id"], 0),
            "open_reports": reports.get(lesson["id"], 0),
            "exercises": by_lesson.get(lesson["id"], []),
        }
        for number, lesson in enumerate(lessons, start=1)
    ]
    return {
        "quest": quest,
        "lessons": rows,
        "weekly": _weekly_series(weekly, now=now),
        "learners": sum(furthest.values()),
        "computed_at": now,
    }


def lesson_analytics(*, lesson_id: int, refresh: bool = False) -> dict[str, Any]:
    """One lesson's figures: its row of the quest's figures (shared, cached), its completions
    per week, its newest open reports and how learners answer each of its checks (3 more
    queries when computed, 5 when it asks checks; 1 to find the quest)."""
    quest_id = lesson_selectors.lesson_quest_id(lesson_id=lesson_id)
    quest = quest_analytics(quest_id=quest_id, refresh=refresh)

    def compute() -> dict[str, Any]:
        now = clock.now()
        weekly = progress_selectors.completions_by_week(lesson_ids=[lesson_id], since=_since(now))
        checks = lesson_selectors.lesson_checks(lesson_id=lesson_id)
        figures = exercise_selectors.check_figures(check_ids=[check_id for check_id, _ in checks])
        return {
            "weekly": _weekly_series(weekly, now=now),
            "reports": community_selectors.latest_open_reports(lesson_id=lesson_id),
            "checks": [
                _check_row(number, check_id, spec, figures[check_id])
                for number, (check_id, spec) in enumerate(checks, start=1)
            ],
            "computed_at": now,
        }

    own = _cached(f"insights:lesson:{lesson_id}", compute, refresh=refresh)
    lesson = next((row for row in quest["lessons"] if row["id"] == lesson_id), None)
    if lesson is None:  # published since the quest's figures were cached, or a draft
        quest = quest_analytics(quest_id=quest_id, refresh=True)
        lesson = next((row for row in quest["lessons"] if row["id"] == lesson_id), None)
    # None for a draft: learners do not see it, so it has no place in the figures.
    return {"quest": quest, "lesson": lesson, **own}


def _check_row(
    number: int, check_id: int, spec: dict[str, Any], figures: exercise_selectors.CheckFigures
) -> dict[str, Any]:
    learners = figures.learners
    return {
        "id": check_id,
        "number": number,
        "key": spec.get("key", ""),
        "type": spec.get("type", ""),
        "learners": learners,
        "answers": figures.answers,
        "right_share": figures.right / learners if learners else None,
        "first_try_share": figures.right_first_try / learners if learners else None,
        "revealed": figures.revealed,
        "uncovered_wrong": [
            {"answer": answer_in_words(spec, answer_key), "times": times}
            for answer_key, times in figures.uncovered_wrong
        ],
    }


def answer_in_words(spec: dict[str, Any], answer_key: str) -> str:
    """An answer as its canonical key stores it, in the words of the check: a number with its
    unit, the options picked, the items in the order given."""
    if spec.get("type") == "numeric":
        try:
            number = f"{Decimal(answer_key):,}"
        except InvalidOperation:
            number = answer_key
        return f"{number} {spec.get('unit') or ''}".strip()
    texts = [
        *(option.get("text", "") for option in spec.get("options") or []),
        *(spec.get("items") or []),
    ]
    by_id = {lesson_checks.item_id(spec.get("key", ""), str(text).strip()): text for text in texts}
    named = [
        str(by_id.get(part, "(an option or item since changed)")) for part in answer_key.split(",")
    ]
    return (" → " if spec.get("type") == "ordering" else " + ").join(named)
