"""The quest's outline as its editors see it (the admin's outline page): every lesson, drafts
included, in order, grouped into the quest's units."""

from __future__ import annotations

from dataclasses import dataclass, field

from lessons.models import Lesson, Quest, Unit


@dataclass
class OutlineUnit:
    id: int | None  # None: the lessons in no unit, listed first
    title: str
    lessons: list[Lesson] = field(default_factory=list)


@dataclass
class EditorOutline:
    quest: Quest
    units: list[OutlineUnit]
    other_quests: list[Quest]


def editor_outline(*, quest: Quest) -> EditorOutline:
    """The quest's lessons in order, drafts included, grouped into its units (in their order;
    empty ones too), the lessons in no unit first; and the other quests a lesson may move to.
    Three queries."""
    units = [OutlineUnit(id=None, title="Not in a unit")]
    units += [
        OutlineUnit(id=unit.id, title=unit.title)
        for unit in Unit.objects.filter(quest=quest).order_by("position", "id")
    ]
    by_id = {unit.id: unit for unit in units}
    # Drafts of live lessons are not in the order: they take their live lesson's place.
    lessons = Lesson.objects.live().filter(quest=quest).order_by("position", "id")
    for lesson in lessons.only(
        "id", "slug", "title", "position", "unit_id", "published", "publish_at", "version"
    ):
        by_id[lesson.unit_id].lessons.append(lesson)
    others = list(Quest.objects.exclude(pk=quest.pk).order_by("title", "id").only("id", "title"))
    return EditorOutline(quest=quest, units=units, other_quests=others)
