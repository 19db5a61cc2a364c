"""Bring a learner's metrics to a value through the owning apps' services and factories.

Each helper raises the metric to exactly `value` (from wherever it is, never lowering it),
so a test can stop one short of a threshold and then reach it.
"""

from datetime import timedelta

import time_machine
from django.conf import settings
from django.utils import timezone

from achievements.models import RuleKind
from community.models import IssueReport
from community.tests.factories import CommentFactory, IssueReportFactory
from exercises.tests.factories import ExerciseFactory, SubmissionFactory
from lessons.models import Lesson
from lessons.tests.factories import LessonFactory, QuestFactory
from progress import selectors as progress_selectors
from progress import services as progress_services

TAG = "attention"


def demo_quest(lesson_count: int = 4):
    quest = QuestFactory(slug=settings.DEMO_QUEST_SLUG)
    missing = lesson_count - quest.lessons.count()
    LessonFactory.create_batch(max(missing, 0), quest=quest)
    return quest


def complete_lessons(user, lessons) -> None:
    for lesson in lessons:
        progress_services.complete_lesson(user=user, lesson_slug=lesson.slug)


def lessons_completed(user, value: int) -> None:
    done = progress_selectors.count_completed_lessons(user_id=user.id)
    complete_lessons(user, LessonFactory.create_batch(value - done))


def quest_percent(user, value: int) -> None:
    """Percent of a four-lesson demo quest: 25 per lesson."""
    quest = demo_quest()
    lessons = list(Lesson.objects.filter(quest=quest).order_by("id"))
    complete_lessons(user, lessons[: value * len(lessons) // 100])


def xp_total(user, value: int) -> None:
    missing = value - progress_selectors.xp_total(user_id=user.id)
    if missing > 0:
        progress_services.award_xp(
            awards=[
                progress_services.Award(
                    user_id=user.id,
                    source_type="exercise",
                    source_id=900_000 + value,
                    amount=missing,
                )
            ]
        )


def streak_days(user, value: int) -> None:
    """Active on each of the `value` days ending today, each witnessed by the server that day
    (back-dated activity does not count for streaks)."""
    now = timezone.now()
    for days_ago in reversed(range(value)):
        day = now - timedelta(days=days_ago)
        with time_machine.travel(day, tick=False):
            progress_services.award_xp(
                awards=[
                    progress_services.Award(
                        user_id=user.id,
                        source_type="exercise",
                        source_id=800_000 + days_ago,
                        amount=1,
                        awarded_at=day,
                    )
                ]
            )


def exercises_passed(user, value: int) -> None:
    from exercises import selectors as exercises_selectors

    missing = value - exercises_selectors.count_passed_exercises(user_id=user.id)
    for _ in range(missing):
        SubmissionFactory(
            user=user,
            exercise=ExerciseFactory(columns=False),
            status="graded",
            score=1.0,
            passed=True,
            graded_at=timezone.now(),
        )


def comments_posted(user, value: int) -> None:
    from community import selectors as community_selectors

    missing = value - community_selectors.count_comments_posted(user_id=user.id)
    CommentFactory.create_batch(missing, author=user)


def reports_accepted(user, value: int) -> None:
    from community import selectors as community_selectors

    missing = value - community_selectors.count_accepted_reports(user_id=user.id)
    IssueReportFactory.create_batch(
        missing, reporter=user, status=IssueReport.Status.RESOLVED, resolved_at=timezone.now()
    )


def tag_lessons(count: int = 3) -> list:
    return LessonFactory.create_batch(count, tags=[TAG])


def tag_completed(user, value: int) -> None:
    """`value` of the (three) lessons tagged TAG completed."""
    lessons = list(Lesson.objects.filter(tags__slug=TAG).order_by("id")) or tag_lessons()
    complete_lessons(user, lessons[:value])


RAISE = {
    RuleKind.LESSONS_COMPLETED: lessons_completed,
    RuleKind.QUEST_PERCENT: quest_percent,
    RuleKind.XP_TOTAL: xp_total,
    RuleKind.STREAK_DAYS: streak_days,
    RuleKind.EXERCISES_PASSED: exercises_passed,
    RuleKind.COMMENTS_POSTED: comments_posted,
    RuleKind.REPORTS_ACCEPTED: reports_accepted,
    RuleKind.TAG_COMPLETED: tag_completed,
}
