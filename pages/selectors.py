"""The learner's pages, composed from the apps that own their parts: the lesson (lessons), its
exercise (exercises), its comment count (community), and the quest outline (lessons) with the
learner's completion marks (progress). Published pages are kept rendered in the cache under
the versions of what they show (learning_platform/versioned.py): the views send them and the
web pages (pages/web.py) embed them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from accounts.models import Requester
from community.selectors import comment_counts_for_lessons, discussion_version_key
from exercises.selectors import ExerciseSummary, exercise_summaries_for_lesson
from learning_platform import versioned
from learning_platform.api.conditional import Page, page
from lessons import selectors as lessons
from pages.serializers import LessonDetailSerializer, QuestDetailSerializer
from progress.selectors import completed_lesson_ids, percent_complete
from progress.summary_cache import learner_version_key


@dataclass(frozen=True)
class LessonPage:
    lesson: lessons.Lesson
    previous: lessons.Neighbour | None
    next: lessons.Neighbour | None
    number: int | None
    exercise: ExerciseSummary | None
    comment_count: int


def lesson_page(*, slug: str, user: Requester | None = None) -> LessonPage:
    """The lesson as `user` may see it, its neighbours, its exercise (if any) and how many
    comments it has; raises lessons' LessonNotFound."""
    lesson = lessons.get_lesson(slug=slug, user=user)
    place = lessons.lesson_place(lesson=lesson, user=user)
    exercises = exercise_summaries_for_lesson(lesson_id=lesson.id)
    return LessonPage(
        lesson=lesson,
        previous=place.previous,
        next=place.next,
        number=place.number,
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


# --- The API's answers, rendered once and cached ---------------------------------------------


@versioned.cached(
    key=lambda *, slug: f"pages:quest-outline:{slug}",
    versions=lambda *, slug: [versioned.CONTENT],
)
def public_outline(*, slug: str) -> dict[str, Any]:
    return public_quest_outline(slug=slug)


@versioned.cached(
    key=lambda *, slug: f"pages:quest:{slug}", versions=lambda *, slug: [versioned.CONTENT]
)
def public_outline_page(*, slug: str) -> Page:
    return page(QuestDetailSerializer(public_outline(slug=slug)).data)


@versioned.cached(
    key=lambda *, slug, user_id: f"pages:quest:{slug}:{user_id}",
    versions=lambda *, slug, user_id: [versioned.CONTENT, learner_version_key(user_id)],
)
def learner_outline_page(*, slug: str, user_id: int) -> Page:
    completed = completed_in_quest(slug=slug, user_id=user_id)
    outline = with_marks(public_outline(slug=slug), completed=completed)
    return page(QuestDetailSerializer(outline).data)


@versioned.cached(
    key=lambda *, slug: f"pages:lesson:{slug}",
    versions=lambda *, slug: [versioned.CONTENT, discussion_version_key(slug)],
)
def public_lesson_page(*, slug: str) -> Page:
    return page(lesson_data(slug=slug, user=None))


def lesson_data(*, slug: str, user: Requester | None) -> dict[str, Any]:
    """The lesson's API answer as `user` may see it (uncached: staff see drafts)."""
    found = lesson_page(slug=slug, user=user)
    context = {
        "previous": found.previous,
        "next": found.next,
        "number": found.number,
        "exercise": found.exercise,
        "comment_count": found.comment_count,
    }
    return LessonDetailSerializer(found.lesson, context=context).data
