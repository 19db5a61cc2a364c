"""A lesson's recorded versions (django-simple-history), read as the admin's history page
shows them: who, when, and what changed in the lesson's fields and its blocks."""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from lessons.models import Block, Lesson, Link

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
LINK_HISTORY_FIELDS = ("position", "title", "url")
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
    "spec",
)


@dataclass(frozen=True)
class FieldChange:
    """One field's value before and after, whole, and the same marked word by word."""

    field: str
    old: str
    new: str

    @property
    def marked(self) -> tuple[SafeString, SafeString]:
        return marked_words(self.old, self.new)

    @property
    def old_marked(self) -> SafeString:
        return self.marked[0]

    @property
    def new_marked(self) -> SafeString:
        return self.marked[1]


@dataclass(frozen=True)
class BlockChange:
    block_id: int
    label: str
    action: str  # "added", "changed", "removed"
    fields: list[FieldChange]


_WORDS = re.compile(r"(\s+)")


def marked_words(old: str, new: str) -> tuple[SafeString, SafeString]:
    """Both texts whole, escaped, with the words only one of them has in <del> (old) and
    <ins> (new): a change at the end of a long paragraph shows where it is."""
    before, after = _WORDS.split(old), _WORDS.split(new)
    old_parts: list[str] = []
    new_parts: list[str] = []
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        removed, added = escape("".join(before[i1:i2])), escape("".join(after[j1:j2]))
        if tag == "equal":
            old_parts.append(removed)
            new_parts.append(added)
            continue
        if removed:
            old_parts.append(f"<del>{removed}</del>")
        if added:
            new_parts.append(f"<ins>{added}</ins>")
    return mark_safe("".join(old_parts)), mark_safe("".join(new_parts))  # noqa: S308  # escaped above


@dataclass(frozen=True)
class LessonVersion:
    """One save of a lesson with the block saves it closes (blocks are saved before their
    lesson, by the admin and by the curriculum loader alike)."""

    history_id: int
    version: int
    at: Any
    by: str
    reason: str
    created: bool
    fields: list[FieldChange]
    blocks: list[BlockChange]


def _shown(value: Any) -> str:
    return "" if value is None else str(value)


def _same(old: Any, new: Any) -> bool:
    # The admin's text fields drop the trailing newline files keep: not a change to show.
    if isinstance(old, str) and isinstance(new, str):
        return old.replace("\r\n", "\n").strip() == new.replace("\r\n", "\n").strip()
    return bool(old == new)


def _field_changes(old: Any, new: Any, names: Iterable[str]) -> list[FieldChange]:
    changes = []
    for name in names:
        before, after = getattr(old, name), getattr(new, name)
        if name == "spec":
            changes += _spec_changes(before or {}, after or {})
        elif not _same(before, after):
            changes.append(FieldChange(name.removesuffix("_id"), _shown(before), _shown(after)))
    return changes


def _spec_changes(old: dict[str, Any], new: dict[str, Any]) -> list[FieldChange]:
    """A check's spec changed: one line per key that did ("check options"), as JSON."""

    def shown(value: Any) -> str:
        if value is None or isinstance(value, str):
            return _shown(value)
        return _shown(json.dumps(value, ensure_ascii=False))

    return [
        FieldChange(f"check {key}", shown(old.get(key)), shown(new.get(key)))
        for key in dict.fromkeys([*old, *new])
        if old.get(key) != new.get(key)
    ]


def _historical_tags() -> Any:
    """The model of the tags each recorded version had (django-simple-history's m2m)."""
    return Lesson.history.model._meta.get_field("historicallesson_tags").related_model


def tag_ids_of_version(*, history_id: int) -> list[int]:
    return list(
        _historical_tags().objects.filter(history_id=history_id).values_list("tag_id", flat=True)
    )


class _RowChanges:
    """Walks the history records of a lesson's blocks (or links) in time order, telling for
    each lesson version what happened to them since the previous one."""

    def __init__(self, records: list[Any], fields: tuple[str, ...], label: Any) -> None:
        self.records, self.fields, self.label = records, fields, label
        self.index = 0
        self.last: dict[int, Any] = {}

    def until(self, when: Any) -> list[BlockChange]:
        changes: list[BlockChange] = []
        while self.index < len(self.records) and self.records[self.index].history_date <= when:
            row = self.records[self.index]
            self.index += 1
            before = self.last.get(row.id)
            label = self.label(row)
            if row.history_type == "-":
                changes.append(BlockChange(row.id, label, "removed", []))
            elif before is None or before.history_type == "-":
                changes.append(BlockChange(row.id, label, "added", []))
            else:
                fields = _field_changes(before, row, self.fields)
                if fields:
                    changes.append(BlockChange(row.id, label, "changed", fields))
            self.last[row.id] = row
        return changes


def _block_label(row: Any) -> str:
    return f"Block {row.position} ({row.kind})"


def _link_label(row: Any) -> str:
    return f"Link {row.position} ({row.title})"


def lesson_versions(*, lesson_id: int) -> list[LessonVersion]:
    """Every recorded version of the lesson, newest first, each with what changed in its
    fields, tags, blocks and links (5 queries)."""
    records = list(
        Lesson.history.filter(id=lesson_id)
        .select_related("history_user")
        .order_by("history_date", "history_id")
    )
    tags: dict[int, list[str]] = {}
    for history_id, slug in (
        _historical_tags()
        .objects.filter(lesson_id=lesson_id)
        .order_by("tag__slug")
        .values_list("history_id", "tag__slug")
    ):
        tags.setdefault(history_id, []).append(slug)
    blocks = _RowChanges(
        list(Block.history.filter(lesson_id=lesson_id).order_by("history_date", "history_id")),
        BLOCK_HISTORY_FIELDS,
        _block_label,
    )
    links = _RowChanges(
        list(Link.history.filter(lesson_id=lesson_id).order_by("history_date", "history_id")),
        LINK_HISTORY_FIELDS,
        _link_label,
    )
    versions: list[LessonVersion] = []
    previous = None
    for number, record in enumerate(records):
        # One save of the lesson can record several rows (setting its tags records one of its
        # own before the save's): they share the version number, and the last one stands.
        if number + 1 < len(records) and records[number + 1].version == record.version:
            continue
        fields: list[FieldChange] = []
        if previous is not None:
            fields = _field_changes(previous, record, LESSON_HISTORY_FIELDS)
            old_tags = ", ".join(tags.get(previous.history_id, []))
            new_tags = ", ".join(tags.get(record.history_id, []))
            if old_tags != new_tags:
                fields.append(FieldChange("tags", old_tags, new_tags))
        user = record.history_user
        versions.append(
            LessonVersion(
                history_id=record.history_id,
                version=record.version,
                at=record.history_date,
                by=user.email if user is not None else "",
                reason=record.history_change_reason or "",
                created=previous is None,
                fields=fields,
                blocks=blocks.until(record.history_date) + links.until(record.history_date),
            )
        )
        previous = record
    versions.reverse()
    return versions


def changes_since(*, lesson_id: int, version: int) -> list[LessonVersion]:
    """The versions saved after `version` (what another editor changed since a form was
    opened), newest first."""
    return [v for v in lesson_versions(lesson_id=lesson_id) if v.version > version]


@dataclass(frozen=True)
class Comparison:
    """Two versions of a lesson side by side: what differs between them, whatever came
    between (fields, tags, blocks and links)."""

    older: LessonVersion
    newer: LessonVersion
    fields: list[FieldChange]
    blocks: list[BlockChange]


def _rows_at(records: list[Any], when: Any) -> dict[int, Any]:
    """Each row (block or link) as it stood at `when`: its last record by then, unless that
    record is its removal."""
    rows: dict[int, Any] = {}
    for record in records:
        if record.history_date > when:
            break
        rows[record.id] = record
    return {row_id: row for row_id, row in rows.items() if row.history_type != "-"}


def _rows_compared(
    older: dict[int, Any], newer: dict[int, Any], fields: tuple[str, ...], label: Any
) -> list[BlockChange]:
    changes: list[BlockChange] = []
    for row_id in dict.fromkeys([*older, *newer]):
        before, after = older.get(row_id), newer.get(row_id)
        if before is None:
            changes.append(BlockChange(row_id, label(after), "added", []))
        elif after is None:
            changes.append(BlockChange(row_id, label(before), "removed", []))
        elif changed := _field_changes(before, after, fields):
            changes.append(BlockChange(row_id, label(after), "changed", changed))
    return changes


def compare_versions(*, lesson_id: int, older_id: int, newer_id: int) -> Comparison | None:
    """Versions `older_id` and `newer_id` (history ids, either order) compared, or None when
    either is not a version of this lesson (10 queries, whatever the number of versions)."""
    versions = {version.history_id: version for version in lesson_versions(lesson_id=lesson_id)}
    if older_id not in versions or newer_id not in versions:
        return None
    older, newer = sorted((versions[older_id], versions[newer_id]), key=lambda v: v.at)
    records = {
        record.history_id: record
        for record in Lesson.history.filter(history_id__in=[older.history_id, newer.history_id])
    }
    before, after = records[older.history_id], records[newer.history_id]
    fields = _field_changes(before, after, LESSON_HISTORY_FIELDS)
    old_tags, new_tags = (
        ", ".join(
            sorted(
                _historical_tags()
                .objects.filter(history_id=record.history_id)
                .values_list("tag__slug", flat=True)
            )
        )
        for record in (before, after)
    )
    if old_tags != new_tags:
        fields.append(FieldChange("tags", old_tags, new_tags))
    blocks = list(Block.history.filter(lesson_id=lesson_id).order_by("history_date", "history_id"))
    links = list(Link.history.filter(lesson_id=lesson_id).order_by("history_date", "history_id"))
    return Comparison(
        older=older,
        newer=newer,
        fields=fields,
        blocks=_rows_compared(
            _rows_at(blocks, before.history_date),
            _rows_at(blocks, after.history_date),
            BLOCK_HISTORY_FIELDS,
            _block_label,
        )
        + _rows_compared(
            _rows_at(links, before.history_date),
            _rows_at(links, after.history_date),
            LINK_HISTORY_FIELDS,
            _link_label,
        ),
    )
