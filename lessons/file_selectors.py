"""Reads of the curriculum as its files hold it: what `curriculum`'s exporter writes."""

from __future__ import annotations

from typing import Any

from lessons.blocks import KIND_FIELDS, normalised_block_texts
from lessons.checks import clean_check, clean_text
from lessons.models import Block, Lesson, Quest


def quests_as_files(*, quest_slugs: list[str] | None = None) -> list[dict[str, Any]]:
    """Every quest (or those named), by slug, as curriculum files hold it: {"slug", "title",
    "description", "lessons": [...]}, each lesson {"id", "slug", "title", ("unit",) "summary", "minutes",
    "xp", "tags", "published", "blocks", "links"} in the quest's order (drafts included)."""
    quests = Quest.objects.order_by("slug")
    if quest_slugs:
        quests = quests.filter(slug__in=quest_slugs)
    result = []
    for quest in quests:
        lessons = (
            quest.lessons.live()
            .order_by("position", "id")
            .select_related("unit")
            .prefetch_related("tags", "blocks", "links")
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
        # Only when set: files of quests without units stay as they were.
        **({"unit": lesson.unit.title} if lesson.unit else {}),
        "summary": lesson.summary,
        "minutes": lesson.estimated_minutes,
        "xp": lesson.xp,
        "tags": sorted(t.slug for t in lesson.tags.all()),
        "published": lesson.published,
        # Blocks and links come in their models' order: by position within the lesson.
        "blocks": [block_as_dict(b) for b in lesson.blocks.all()],
        "links": [{"title": link.title, "url": link.url} for link in lesson.links.all()],
    }


def block_as_dict(block: Block) -> dict[str, Any]:
    """A block as it stands in a lesson file: its kind and the fields that kind uses."""
    data: dict[str, Any] = {"kind": block.kind}
    if block.kind == "check":
        # In the order lessons.checks writes a spec: PostgreSQL's jsonb keeps no key order.
        spec = clean_check(block.spec)
        return {
            **data,
            "key": spec.pop("key"),
            "type": spec.pop("type"),
            "prompt": clean_text(block.markdown),
            **spec,
        }
    for name in KIND_FIELDS[block.kind]:
        data[name] = getattr(block, name)
    # Rows saved before texts were normalised on save still export as plain `|` blocks.
    return normalised_block_texts(block.kind, data)
