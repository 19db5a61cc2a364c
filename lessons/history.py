"""A lesson's recorded versions (django-simple-history), read as the admin's history page
shows them: who, when, and what changed in the lesson's fields and its blocks."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from lessons.models import Block, Lesson

LESSON_HISTORY_FIELDS = (
    "title",
    "slug",
    "summary",
    "quest_id",
    "estimated_minutes",
    "xp",
    "position",
    "published",
    "publish_at",
)
BLOCK_HISTORY_FIELDS = (
    "kind",
    "position",
    "style",
    "markdown",
    "caption",
    "columns",
    "rows",
    "title",
    "language",
    "source",
)


@dataclass(frozen=True)
class FieldChange:
    field: str
    old: str
    new: str


@dataclass(frozen=True)
class BlockChange:
    block_id: int
    label: str
    action: str  # "added", "changed", "removed"
    fields: list[FieldChange]


@dataclass(frozen=True)
class LessonVersion:
    """One save of a lesson with the block saves it closes (blocks are saved before their
    lesson, by the admin and by the curriculum loader alike)."""

    history_id: int
    at: Any
    by: str
    reason: str
    created: bool
    fields: list[FieldChange]
    blocks: list[BlockChange]


def _shown(value: Any) -> str:
    text = "" if value is None else str(value)
    return text if len(text) <= 120 else text[:117] + "…"


def _same(old: Any, new: Any) -> bool:
    # The admin's text fields drop the trailing newline files keep: not a change to show.
    if isinstance(old, str) and isinstance(new, str):
        return old.replace("\r\n", "\n").strip() == new.replace("\r\n", "\n").strip()
    return bool(old == new)


def _field_changes(old: Any, new: Any, names: Iterable[str]) -> list[FieldChange]:
    return [
        FieldChange(
            name.removesuffix("_id"), _shown(getattr(old, name)), _shown(getattr(new, name))
        )
        for name in names
        if old is None or not _same(getattr(old, name), getattr(new, name))
    ]


def lesson_versions(*, lesson_id: int) -> list[LessonVersion]:
    """Every recorded version of the lesson, newest first, each with what changed in its
    fields and its blocks (3 queries)."""
    records = list(
        Lesson.history.filter(id=lesson_id)
        .select_related("history_user")
        .order_by("history_date", "history_id")
    )
    block_records = list(
        Block.history.filter(lesson_id=lesson_id).order_by("history_date", "history_id")
    )
    versions: list[LessonVersion] = []
    last_block: dict[int, Any] = {}
    index = 0
    previous = None
    for record in records:
        blocks: list[BlockChange] = []
        while (
            index < len(block_records) and block_records[index].history_date <= record.history_date
        ):
            block = block_records[index]
            index += 1
            before = last_block.get(block.id)
            label = f"Block {block.position} ({block.kind})"
            if block.history_type == "-":
                blocks.append(BlockChange(block.id, label, "removed", []))
            elif before is None or before.history_type == "-":
                blocks.append(BlockChange(block.id, label, "added", []))
            else:
                changes = _field_changes(before, block, BLOCK_HISTORY_FIELDS)
                if changes:
                    blocks.append(BlockChange(block.id, label, "changed", changes))
            last_block[block.id] = block
        user = record.history_user
        versions.append(
            LessonVersion(
                history_id=record.history_id,
                at=record.history_date,
                by=user.email if user is not None else "",
                reason=record.history_change_reason or "",
                created=record.history_type == "+",
                fields=[]
                if previous is None
                else _field_changes(previous, record, LESSON_HISTORY_FIELDS),
                blocks=blocks,
            )
        )
        previous = record
    versions.reverse()
    return versions
