"""Reads of quests and lessons, with the visibility rule: staff see drafts, others only published."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import Http404

from lessons.blocks import KIND_FIELDS
from lessons.models import Block, Lesson, Link, Quest, Tag
from lessons.models import sees_drafts as sees_drafts  # public: who sees drafts, for other apps


def visible_lessons(*, user=None) -> QuerySet[Lesson]:
    return Lesson.objects.visible_to(user)


def lesson_list(
    *, user=None, quest: str | None = None, tag: str | None = None, search: str | None = None
) -> QuerySet[Lesson]:
    """Lessons visible to `user`, filtered by quest slug, tag slug and a title/summary search."""
    lessons = (
        visible_lessons(user=user)
        .select_related("quest")
        .prefetch_related(Prefetch("tags", queryset=Tag.objects.only("slug")))
        .order_by("quest__title", "quest_id", "position", "id")
    )
    if quest:
        lessons = lessons.filter(quest__slug=quest)
    if tag:
        lessons = lessons.filter(tags__slug=tag)
    if search:
        from django.db.models import Q

        lessons = lessons.filter(Q(title__icontains=search) | Q(summary__icontains=search))
    return lessons


def get_lesson(*, slug: str, user=None) -> Lesson:
    """The whole lesson (quest, tags, blocks, links) in a fixed number of queries, or 404."""
    lessons = (
        visible_lessons(user=user)
        .select_related("quest")
        .prefetch_related(
            Prefetch("tags", queryset=Tag.objects.only("slug")),
            Prefetch("blocks", queryset=Block.objects.order_by("position", "id")),
            Prefetch("links", queryset=Link.objects.order_by("position", "id")),
        )
    )
    try:
        return lessons.get(slug=slug)
    except Lesson.DoesNotExist:
        raise Http404("No such lesson.") from None


def lesson_slug(*, lesson_id: int) -> str | None:
    return Lesson.objects.filter(pk=lesson_id).values_list("slug", flat=True).first()


def lesson_slugs(*, lesson_ids: set[int]) -> list[str]:
    return list(Lesson.objects.filter(pk__in=lesson_ids).values_list("slug", flat=True))


def get_visible_lesson(*, slug: str, user=None) -> Lesson:
    """Just the lesson row, for commands on a lesson (complete, comment, report), or 404."""
    try:
        return visible_lessons(user=user).get(slug=slug)
    except Lesson.DoesNotExist:
        raise Http404("No such lesson.") from None


@dataclass(frozen=True)
class Neighbour:
    slug: str
    title: str


def neighbours(*, lesson: Lesson, user=None) -> tuple[Neighbour | None, Neighbour | None]:
    """Previous and next lesson in the quest's order, among the lessons `user` may see (1 query)."""
    siblings = list(
        visible_lessons(user=user)
        .filter(quest_id=lesson.quest_id)
        .order_by("position", "id")
        .values_list("id", "slug", "title")
    )
    ids = [row[0] for row in siblings]
    try:
        index = ids.index(lesson.id)
    except ValueError:
        return None, None
    previous = Neighbour(*siblings[index - 1][1:]) if index > 0 else None
    following = Neighbour(*siblings[index + 1][1:]) if index + 1 < len(siblings) else None
    return previous, following


def quest_list() -> QuerySet[Quest]:
    return Quest.objects.order_by("title", "id")


def get_quest(*, slug: str) -> Quest:
    try:
        return Quest.objects.get(slug=slug)
    except Quest.DoesNotExist:
        raise Http404("No such quest.") from None


def quest_outline(*, quest: Quest, user=None) -> dict:
    """The quest page: the quest and its lessons in order, with, for a signed-in learner,
    whether each is completed and how many of the published ones are, in count and percent
    (null when anonymous). Three queries."""
    from progress.selectors import completed_lesson_ids, percent_complete

    lessons = list(
        visible_lessons(user=user)
        .filter(quest=quest)
        .prefetch_related(Prefetch("tags", queryset=Tag.objects.only("slug")))
        .order_by("position", "id")
        .only("id", "slug", "title", "estimated_minutes", "xp", "position", "published", "quest_id")
    )
    signed_in = user is not None and user.is_authenticated
    completed = completed_lesson_ids(user_id=user.id, quest_id=quest.id) if signed_in else None
    published = [lesson.id for lesson in lessons if lesson.published]
    done = None if completed is None else len(completed.intersection(published))
    return {
        "slug": quest.slug,
        "title": quest.title,
        "description": quest.description,
        "lesson_count": len(lessons),
        "lessons_completed": done,
        "percent_complete": (
            None if done is None else percent_complete(done=done, total=len(published))
        ),
        "lesson_ids": [lesson.id for lesson in lessons],
        "lessons": [
            {
                "slug": lesson.slug,
                "title": lesson.title,
                "estimated_minutes": lesson.estimated_minutes,
                "xp": lesson.xp,
                "tags": [tag.slug for tag in lesson.tags.all()],
                "published": lesson.published,
                "completed": None if completed is None else lesson.id in completed,
            }
            for lesson in lessons
        ],
    }


# --- The curriculum as files (what the exporter writes) ------------------------------------


def quests_as_files(*, quest_slugs: list[str] | None = None) -> list[dict[str, Any]]:
    """Every quest (or those named), by slug, as curriculum files hold it: {"slug", "title",
    "description", "lessons": [...]}, each lesson {"id", "slug", "title", "summary", "minutes",
    "xp", "tags", "published", "blocks", "links"} in the quest's order (drafts included)."""
    quests = Quest.objects.order_by("slug")
    if quest_slugs:
        quests = quests.filter(slug__in=quest_slugs)
    result = []
    for quest in quests:
        lessons = quest.lessons.order_by("position", "id").prefetch_related(
            "tags", "blocks", "links"
        )
        result.append(
            {
                "slug": quest.slug,
                "title": quest.title,
                "description": quest.description,
                "lessons": [_lesson_as_file(lesson) for lesson in lessons],
            }
        )
    return result


def _lesson_as_file(lesson: Lesson) -> dict[str, Any]:
    return {
        "id": lesson.id,
        "slug": lesson.slug,
        "title": lesson.title,
        "summary": lesson.summary,
        "minutes": lesson.estimated_minutes,
        "xp": lesson.xp,
        "tags": sorted(t.slug for t in lesson.tags.all()),
        "published": lesson.published,
        "blocks": [block_as_dict(b) for b in sorted(lesson.blocks.all(), key=_in_order)],
        "links": [
            {"title": link.title, "url": link.url}
            for link in sorted(lesson.links.all(), key=_in_order)
        ],
    }


def block_as_dict(block: Block) -> dict[str, Any]:
    """A block as it stands in a lesson file: its kind and the fields that kind uses."""
    data: dict[str, Any] = {"kind": block.kind}
    for name in KIND_FIELDS[block.kind]:
        data[name] = getattr(block, name)
    return data


def _in_order(item: Block | Link) -> tuple[int, int]:
    return (item.position, item.id)
