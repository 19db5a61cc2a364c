"""The ORM's version of each read the product keeps in SQL text, for bench_analytics.py (the
editors' analytics) and bench_sql.py (the hot reads) to time beside it: same arguments, same
answers (asserted there).

Each takes the product function's arguments and returns what it returns; where the ORM cannot
say the whole statement (a GROUP BY over an aggregate, a median, JSON arrays as rows), it reads
the rows the statement would have folded and Python folds them.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from datetime import date, datetime, timedelta
from typing import Any

from django.db.models import BigIntegerField, Count, Exists, F, Max, Min, OuterRef, Q, Value, Window
from django.db.models.functions import Cast, RowNumber

from achievements.models import Achievement, AchievementUnlock
from exercises.models import Submission, SubmissionStatus
from exercises.selectors import CHECKED_VERDICTS, RECENT_SUBMISSIONS_PER_EXERCISE
from lessons import selectors as lessons
from progress.models import LearnerStats, LessonCompletion
from progress.selectors import analytics, summary
from progress.selectors.levels import LevelStep
from progress.selectors.summary import _NO_STATS


def summary_rows(
    *, user_id: int, quest_slug: str
) -> tuple[dict[str, Any], list[LevelStep], list[tuple[str, bool]]]:
    """progress.selectors.summary._summary_rows: the stats row, the level curve (the product's
    read), the quest's published lessons each with whether the learner completed it (3
    queries)."""
    stats = LearnerStats.objects.filter(user_id=user_id).values(*_NO_STATS).first()
    curve = summary.level_curve()
    done = LessonCompletion.objects.filter(user_id=user_id, lesson_id=OuterRef("pk"))
    rows = (
        lessons.published_lessons()
        .filter(quest__slug=quest_slug)
        .annotate(done=Exists(done))
        .order_by("position", "id")
        .values_list("slug", "done")
    )
    return stats or dict(_NO_STATS), curve, list(rows)


def unlocked_and_total(*, user_id: int) -> tuple[int, int]:
    """achievements.selectors.unlocked_and_total: one aggregate over the active achievements."""
    unlock = AchievementUnlock.objects.filter(user_id=user_id, achievement_id=OuterRef("pk"))
    counts = Achievement.objects.filter(is_active=True).aggregate(
        unlocked=Count("id", filter=Exists(unlock)), total=Count("id")
    )
    return counts["unlocked"], counts["total"]


def completions_by_week(*, lesson_ids: list[int], since: datetime) -> dict[date, int]:
    """progress.selectors.completions_by_week: a filtered COUNT per week over one scan."""
    weeks = analytics.weeks_from(since)
    if not lesson_ids or not weeks:
        return {}
    counts = LessonCompletion.objects.filter(
        lesson_id__in=lesson_ids, completed_at__gte=weeks[0]
    ).aggregate(
        **{
            f"w{n}": Count(
                "pk",
                filter=Q(completed_at__gte=week, completed_at__lt=week + timedelta(weeks=1)),
            )
            for n, week in enumerate(weeks)
        }
    )
    return {week.date(): counts[f"w{n}"] for n, week in enumerate(weeks) if counts[f"w{n}"]}


def furthest_lesson_counts(*, quest_id: int) -> dict[int, int]:
    """progress.selectors.furthest_lesson_counts: each learner's furthest lesson read, counted
    in Python (the ORM cannot group by an aggregate)."""
    scale = 10**12
    # With server-side binding, the driver sends a Python int as a 4-byte parameter here.
    wide_scale = Cast(Value(str(scale)), BigIntegerField())
    furthest = (
        LessonCompletion.objects.filter(lesson__quest_id=quest_id)
        .values("user_id")
        .annotate(
            furthest=Max(Cast("lesson__position", BigIntegerField()) * wide_scale + F("lesson_id"))
        )
        .values_list("furthest", flat=True)
    )
    return dict(Counter(int(key) % scale for key in furthest))


def time_to_pass(*, exercise_ids: list[int]) -> dict[int, dict[str, float]]:
    """exercises.selectors.time_to_pass: per learner first try and first pass read, the median
    taken in Python."""
    if not exercise_ids:
        return {}
    rows = (
        Submission.objects.filter(exercise_id__in=exercise_ids)
        .values("exercise_id", "user_id")
        .annotate(first_try=Min("created_at"), first_pass=Min("created_at", filter=Q(passed=True)))
        .filter(first_pass__isnull=False)
        .values_list("exercise_id", "first_try", "first_pass")
    )
    seconds: dict[int, list[float]] = defaultdict(list)
    for exercise_id, first_try, first_pass in rows:
        seconds[exercise_id].append((first_pass - first_try).total_seconds())
    return {
        exercise_id: {
            "passed": len(values),
            "passed_first_time": sum(1 for value in values if value == 0),
            "median_seconds": float(statistics.median(values)),
        }
        for exercise_id, values in seconds.items()
    }


def column_error_rates(*, exercise_ids: list[int]) -> dict[int, dict[str, dict[str, int]]]:
    """exercises.selectors.column_error_rates: the latest graded submissions' feedback read
    (a window the ORM filters on), the cells counted in Python."""
    if not exercise_ids:
        return {}
    latest = (
        Submission.objects.filter(exercise_id__in=exercise_ids, status=SubmissionStatus.GRADED)
        .annotate(
            recency=Window(
                RowNumber(),
                partition_by=F("exercise_id"),
                order_by=[F("graded_at").desc(), F("id").desc()],
            )
        )
        .filter(recency__lte=RECENT_SUBMISSIONS_PER_EXERCISE)
        .values_list("exercise_id", "feedback")
    )
    result: dict[int, dict[str, dict[str, int]]] = {}
    for exercise_id, feedback in latest:
        for row in (feedback or {}).get("rows", []):
            if row.get("model") is None or row.get("duplicate"):
                continue
            for cell in row.get("cells", []):
                verdict = cell.get("verdict")
                if verdict not in CHECKED_VERDICTS:
                    continue
                figures = result.setdefault(exercise_id, {}).setdefault(
                    cell.get("column"), {"checked": 0, "wrong": 0}
                )
                figures["checked"] += 1
                figures["wrong"] += verdict != "correct"
    return result


BY_PART: dict[str, Any] = {
    "where learners stop": furthest_lesson_counts,
    "completions per week": completions_by_week,
    "time to pass": time_to_pass,
    "wrong cells per column": column_error_rates,
}
