"""The learner's pages, composed from the apps that own their parts: the lesson (lessons), its
exercise (exercises), its comment count (community), and the quest outline (lessons) with the
learner's completion marks (progress)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from accounts.models import Requester
from community.selectors import comment_counts_for_lessons
from exercises.selectors import ExerciseSummary, exercise_summaries_for_lesson
from lessons import selectors as lessons
from progress.selectors import completed_lesson_ids, percent_complete


@dataclass(frozen=True)
class LessonPage:
    lesson: lessons.Lesson
    previous: lessons.Neighbour | None
    next: lessons.Neighbour | None
    exercise: ExerciseSummary | None
    comment_count: int


def lesson_page(*, slug: str, user: Requester | None = None) -> LessonPage:
    """The lesson as `user` may see it, its neighbours, its exercise (if any) and how many
    comments it has; raises lessons' LessonNotFound."""
    lesson = lessons.get_lesson(slug=slug, user=user)
    previous, following = lessons.neighbours(lesson=lesson, user=user)
    exercises = exercise_summaries_for_lesson(lesson_id=lesson.id)
    return LessonPage(
        lesson=lesson,
        previous=previous,
        next=following,
        exercise=exercises[0] if exercises else None,
        comment_count=comment_counts_for_lessons(lesson_ids=[lesson.id]).get(lesson.id, 0),
    )


def quest_outline(*, slug: str, user: Requester | None = None) -> dict[str, Any]:
    """The quest page: the quest and its lessons in order, with, for a signed-in learner,
    whether each is completed and how many of the published ones are, in count and percent
    (null when anonymous). Four queries signed in, three signed out; raises QuestNotFound."""
    quest = lessons.get_quest(slug=slug)
    outline = lessons.quest_outline(quest=quest, user=user)
    if user is None or not user.is_authenticated:
        return outline
    return with_marks(outline, completed=completed_lesson_ids(user_id=user.id, quest_id=quest.id))


def with_marks(outline: dict[str, Any], *, completed: set[int] | frozenset[int]) -> dict[str, Any]:
    """The outline with the learner's `completed` flags, and their count and percent among
    its published lessons."""
    done = len(completed.intersection(outline["published_lesson_ids"]))
    return {
        **outline,
        "lessons_completed": done,
        "percent_complete": percent_complete(done=done, total=len(outline["published_lesson_ids"])),
        "lessons": [
            {**lesson, "completed": lesson_id in completed}
            for lesson_id, lesson in zip(outline["lesson_ids"], outline["lessons"], strict=True)
        ],
    }


def public_quest_outline(*, slug: str) -> dict[str, Any]:
    """The quest outline as anyone signed out sees it (published lessons, no marks)."""
    return lessons.quest_outline(quest=lessons.get_quest(slug=slug), user=None)


def completed_in_quest(*, slug: str, user_id: int) -> frozenset[int]:
    """Ids of the quest's lessons the learner completed (1 query)."""
    return frozenset(completed_lesson_ids(user_id=user_id, quest_slug=slug))
