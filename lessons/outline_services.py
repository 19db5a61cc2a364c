"""Writes of a quest's outline (the admin's outline page): the order of its units and lessons,
a lesson inserted at a place, duplicated, or moved to another quest.

Positions are numbers 1..n in the quest's order, as the curriculum loader writes them, and are
rewritten here in one transaction. Each lesson whose place changes gets a new version (the
optimistic lock of its change form) and a history record, like any other save.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max

from learning_platform import history
from learning_platform.errors import Conflict, InvalidInput
from lessons.models import Lesson, Quest, Unit
from lessons.selectors import LessonNotFound, QuestNotFound

REORDERED = "Reordered in the quest outline"


class StaleOutline(Conflict):
    """The outline changed since the editor opened it: nothing was saved."""

    code = "stale_outline"


class BadOutline(InvalidInput):
    """The order names a lesson or unit twice."""

    code = "bad_outline"


@dataclass(frozen=True)
class OpenedLesson:
    """A lesson as the editor's page had it: its id and the version it showed."""

    id: int
    version: int


@dataclass(frozen=True)
class UnitOrder:
    id: int
    lessons: list[OpenedLesson]


def save_order(
    *, quest_id: int, lessons: list[OpenedLesson], units: list[UnitOrder]
) -> dict[int, int]:
    """Put the quest's lessons in this order: first `lessons` (in no unit), then each unit's,
    the units in this order. The order must name every lesson and unit of the quest once,
    each lesson at the version it has now; else StaleOutline, and nothing changes.

    Returns {lesson id: version} of every lesson of the quest after the save.
    """
    ordered: list[tuple[int | None, OpenedLesson]] = [(None, lesson) for lesson in lessons]
    ordered += [(unit.id, lesson) for unit in units for lesson in unit.lessons]
    lesson_ids = [lesson.id for _, lesson in ordered]
    unit_ids = [unit.id for unit in units]
    if len(set(lesson_ids)) != len(lesson_ids) or len(set(unit_ids)) != len(unit_ids):
        raise BadOutline("The order names a lesson or a unit twice.")
    with transaction.atomic(), history.recorded_as(REORDERED):
        if not Quest.objects.select_for_update().filter(pk=quest_id).exists():
            raise QuestNotFound("No such quest.")
        stored = {
            lesson.id: lesson
            for lesson in Lesson.objects.live()
            .select_for_update()
            .filter(quest_id=quest_id)
            .order_by("id")
        }
        stored_units = {unit.id: unit for unit in Unit.objects.filter(quest_id=quest_id)}
        if set(stored) != set(lesson_ids) or set(stored_units) != set(unit_ids):
            raise StaleOutline(
                "Lessons or units were added, moved or deleted since you opened the outline. "
                "Nothing was saved: reload the page to see them, then order again."
            )
        for _, opened in ordered:
            if stored[opened.id].version != opened.version:
                raise StaleOutline(_changed_since(stored[opened.id]))
        for position, unit_id in enumerate(unit_ids, start=1):
            unit = stored_units[unit_id]
            if unit.position != position:
                unit.position = position
                unit.save(update_fields=["position"])
        _place([(unit_id, stored[opened.id]) for unit_id, opened in ordered])
    return {lesson.id: lesson.version for lesson in stored.values()}


def _changed_since(lesson: Lesson) -> str:
    latest = Lesson.history.filter(id=lesson.id).select_related("history_user").first()
    who = "another editor"
    when = ""
    if latest is not None:
        user = latest.history_user
        who = user.email if user is not None else latest.history_change_reason or who
        when = f" at {latest.history_date:%Y-%m-%d %H:%M:%S} UTC"
    return (
        f"“{lesson.title}” was changed by {who}{when} since you opened the outline. Nothing "
        "was saved and your order is still on the page: reload to see their change, then order "
        "again."
    )


def _place(ordered: list[tuple[int | None, Lesson]]) -> None:
    """Number the lessons 1..n in this order, each in its unit; save those that change."""
    for position, (unit_id, lesson) in enumerate(ordered, start=1):
        if lesson.position == position and lesson.unit_id == unit_id:
            continue
        lesson.position = position
        lesson.unit_id = unit_id
        lesson.version += 1
        lesson.save(update_fields=["position", "unit", "version", "updated_at"])


def place_new_lesson(*, lesson: Lesson) -> None:
    """Make room for a lesson just added at its position: it goes before the lesson that held
    that position, and the lessons from there on move one place down."""
    with transaction.atomic(), history.recorded_as(REORDERED):
        others = list(
            Lesson.objects.live()
            .select_for_update()
            .filter(quest_id=lesson.quest_id)
            .exclude(pk=lesson.pk)
            .order_by("position", "id")
        )
        if not any(other.position == lesson.position for other in others):
            return
        at = next(i for i, other in enumerate(others) if other.position >= lesson.position)
        others.insert(at, lesson)
        _place([(each.unit_id, each) for each in others])


def duplicate_lesson(*, lesson_id: int) -> Lesson:
    """A copy of the lesson right after it, unpublished, with its blocks, links and tags, a
    new slug ("<slug>-copy", "-copy-2", ...) and "(copy)" after its title. What apps above
    lessons keep of a lesson (its exercise, learners' progress) is not copied."""
    with transaction.atomic(), history.recorded_as("Duplicated in the quest outline"):
        original = Lesson.objects.select_for_update().filter(pk=lesson_id).first()
        if original is None:
            raise LessonNotFound("No such lesson.")
        copy = Lesson.objects.get(pk=lesson_id)
        copy.pk = None
        copy.slug = _free_slug(original.slug)
        copy.title = f"{original.title[:193]} (copy)"
        copy.published = False
        copy.publish_at = None
        copy.version = 1
        copy.position = original.position + 1
        copy.save(force_insert=True)
        copy.tags.set(original.tags.all())
        for block in original.blocks.order_by("position", "id"):
            block.pk = None
            block.lesson = copy
            block.save(force_insert=True)
        for link in original.links.order_by("position", "id"):
            link.pk = None
            link.lesson = copy
            link.save(force_insert=True)
        place_new_lesson(lesson=copy)
    return copy


def _free_slug(slug: str) -> str:
    base = f"{slug[:89]}-copy"
    taken = set(Lesson.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def move_lesson(*, lesson_id: int, version: int, quest_id: int) -> Lesson:
    """Move the lesson to the end of another quest, in no unit. Raises StaleOutline when the
    lesson changed since `version`, QuestNotFound or LessonNotFound."""
    with transaction.atomic(), history.recorded_as("Moved in the quest outline"):
        lesson = Lesson.objects.select_for_update().filter(pk=lesson_id).first()
        if lesson is None:
            raise LessonNotFound("No such lesson.")
        if lesson.version != version:
            raise StaleOutline(_changed_since(lesson))
        if not Quest.objects.filter(pk=quest_id).exists():
            raise QuestNotFound("No such quest.")
        if lesson.quest_id == quest_id:
            return lesson
        last = Lesson.objects.filter(quest_id=quest_id).aggregate(last=Max("position"))["last"]
        lesson.quest_id = quest_id
        lesson.unit_id = None
        lesson.position = (last or 0) + 1
        lesson.version += 1
        lesson.save(update_fields=["quest", "unit", "position", "version", "updated_at"])
    return lesson


def add_unit(*, quest_id: int, title: str) -> Unit:
    """A new, empty unit at the end of the quest. Raises BadOutline for a title the quest's
    units already have."""
    with transaction.atomic():
        if not Quest.objects.select_for_update().filter(pk=quest_id).exists():
            raise QuestNotFound("No such quest.")
        if Unit.objects.filter(quest_id=quest_id, title=title).exists():
            raise BadOutline("The quest has a unit with this title already.")
        last = Unit.objects.filter(quest_id=quest_id).aggregate(last=Max("position"))["last"]
        return Unit.objects.create(quest_id=quest_id, title=title, position=(last or 0) + 1)
