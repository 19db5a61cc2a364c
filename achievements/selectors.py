"""Reads of the achievements app. Only active achievements count and show."""

from __future__ import annotations

from datetime import date, datetime
from typing import TypedDict

from django.db import connection
from django.db.models import OuterRef

from achievements import rules
from achievements.models import Achievement, AchievementUnlock
from achievements.serializers import AchievementListOutputSerializer
from learning_platform import versioned
from learning_platform.api.conditional import Page, page
from progress.summary_cache import learner_version_key


def unlocked_and_total(*, user_id: int) -> tuple[int, int]:
    """(unlocked by the learner, total) over active achievements, in one query. Unlocks are
    unique per learner and achievement, so the join counts each at most once."""
    # SQL text: the progress header asks it (events.header_counts) whenever it is built.
    # bench/bench_sql.py: /me/progress uncached 2.49 ms with this SQL, 3.49 ms with the ORM's
    # aggregate (0.09 and 0.06 of /healthz).
    sql = (
        f"SELECT COUNT(u.id), COUNT(a.id) FROM {connection.ops.quote_name(Achievement._meta.db_table)} a "  # noqa: S608 - table names
        f"LEFT JOIN {connection.ops.quote_name(AchievementUnlock._meta.db_table)} u ON u.achievement_id = a.id AND u.user_id = %s "
        "WHERE a.is_active"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [user_id])
        unlocked, total = cursor.fetchone()
    return unlocked, total


class AchievementStatus(TypedDict):
    achievement: Achievement
    unlocked: bool
    unlocked_at: datetime | None
    progress: rules.Progress | None


def achievements_for_learner(*, user_id: int | None) -> list[AchievementStatus]:
    """Every active achievement with, for a signed-in learner, whether and when it was
    unlocked and where they stand on its rule. Anonymous (None): nothing unlocked, no progress.

    Queries: one for the achievements (with the learner's unlock), then at most one per metric
    the rules use (and per distinct quest), however many achievements there are.
    """
    achievements = (
        Achievement.objects.filter(is_active=True)
        .select_related("quest")
        .order_by("position", "id")
    )
    if user_id is None:
        return [
            {"achievement": a, "unlocked": False, "unlocked_at": None, "progress": None}
            for a in achievements
        ]
    unlocked_at = AchievementUnlock.objects.filter(
        user_id=user_id, achievement=OuterRef("pk")
    ).values("unlocked_at")[:1]
    annotated = list(achievements.annotate(learner_unlocked_at=unlocked_at))
    catalogue = rules.Catalogue(tag_slugs=(a.tag_slug for a in annotated))
    metrics = rules.LearnerMetrics(user_id=user_id, catalogue=catalogue)
    statuses: list[AchievementStatus] = []
    for achievement in annotated:
        unlocked = achievement.learner_unlocked_at is not None
        statuses.append(
            {
                "achievement": achievement,
                "unlocked": unlocked,
                "unlocked_at": achievement.learner_unlocked_at,
                "progress": rules.measure(achievement, metrics).as_progress(unlocked=unlocked),
            }
        )
    return statuses


def _listing(*, user_id: int | None) -> Page:
    statuses = achievements_for_learner(user_id=user_id)
    data = {
        "count": len(statuses),
        "unlocked_count": sum(status["unlocked"] for status in statuses),
        "results": statuses,
    }
    return page(AchievementListOutputSerializer(data).data)


@versioned.cached(key=lambda: "pages:achievements", versions=lambda: [versioned.CONTENT])
def public_listing() -> Page:
    """`/achievements` as a signed-out visitor gets it (and the web pages embed it)."""
    return _listing(user_id=None)


# Streaks count days: the learner's date is part of the key.
@versioned.cached(
    key=lambda *, user_id, day: f"pages:achievements:{user_id}:{day.isoformat()}",
    versions=lambda *, user_id, day: [versioned.CONTENT, learner_version_key(user_id)],
)
def learner_listing(*, user_id: int, day: date) -> Page:
    """`/achievements` as the learner gets it on `day` (their local date)."""
    return _listing(user_id=user_id)
