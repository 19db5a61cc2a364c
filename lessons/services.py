"""Writes to quests and lessons: upserts by slug (what the curriculum loader writes),
publishing, stored HTML."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Model

from learning_platform import clock, history, versioned
from learning_platform.errors import Conflict, NotFound
from lessons import events
from lessons.blocks import EMPTY_BLOCK, block_html, normalised_block_texts
from lessons.checks import clean_text
from lessons.history import BLOCK_HISTORY_FIELDS, LESSON_HISTORY_FIELDS, tag_ids_of_version
from lessons.models import Block, EditorPresence, Lesson, LessonOldSlug, Link, Quest, Tag, Unit
from lessons.selectors import LessonNotFound, due_lesson_ids


def upsert_quest(*, slug: str, title: str, description: str) -> tuple[Quest, str]:
    """Create or update the quest by slug (row-locked: call inside a transaction).

    Returns the quest and "created", "updated" or "unchanged".
    """
    values = {"title": title, "description": description}
    quest, created = Quest.objects.select_for_update().get_or_create(slug=slug, defaults=values)
    if created:
        return quest, "created"
    if _assign(quest, values):
        quest.save()
        return quest, "updated"
    return quest, "unchanged"


def upsert_unit(*, quest: Quest, title: str, position: int) -> Unit:
    """Create the quest's unit with this title, or move it to `position`."""
    unit, created = Unit.objects.get_or_create(
        quest=quest, title=title, defaults={"position": position}
    )
    if not created and unit.position != position:
        unit.position = position
        unit.save(update_fields=["position"])
    return unit


def upsert_lesson(
    *,
    quest: Quest,
    position: int,
    slug: str,
    title: str,
    summary: str,
    minutes: int,
    xp: int,
    published: bool,
    tags: list[str],
    blocks: list[dict[str, Any]],
    links: list[dict[str, str]],
    unit: Unit | None = None,
) -> tuple[Lesson, str]:
    """Create or update the lesson by slug with its tags, blocks (as lesson files hold them:
    a `kind` and that kind's fields) and links (row-locked: call inside a transaction).

    Returns the lesson and "created", "updated" or "unchanged"; blocks keep their ids.
    """
    values = {
        "quest": quest,
        # By id: comparing the relation would read each lesson's unit.
        "unit_id": unit.id if unit is not None else None,
        "title": title,
        "summary": clean_text(summary),
        "estimated_minutes": minutes,
        "xp": xp,
        "position": position,
        "published": published,
        # Publishing consumes a schedule an editor set (Lesson's constraint); a draft keeps it.
        **({"publish_at": None} if published else {}),
    }
    lesson, created = Lesson.objects.select_for_update().get_or_create(slug=slug, defaults=values)
    if not created:
        # Before the syncs: the history rows they record belong to the new version (kept in
        # memory only when nothing changes).
        lesson.version += 1
    # A list, not any() over a generator: every part is synced, whatever changed before it.
    changed = [
        created or _assign(lesson, values),
        _sync_tags(lesson, tags),
        _sync_blocks(lesson, blocks),
        _sync_links(lesson, links),
    ]
    if not any(changed):
        return lesson, "unchanged"
    # Last, after its blocks (also bumps updated_at when only they changed): a lesson's
    # history record then closes a version that includes the blocks saved before it.
    lesson.save()
    return lesson, "created" if created else "updated"


def _assign(instance: Model, values: dict[str, Any]) -> bool:
    changed = False
    for name, value in values.items():
        current = getattr(instance, name)
        if current != value:
            setattr(instance, name, value)
            changed = True
    return changed


def _sync_tags(lesson: Lesson, slugs: list[str]) -> bool:
    current = set(lesson.tags.values_list("slug", flat=True))
    if current == set(slugs):
        return False
    existing = {t.slug: t for t in Tag.objects.filter(slug__in=slugs)}
    missing = [Tag(slug=s) for s in slugs if s not in existing]
    if missing:
        Tag.objects.bulk_create(missing, ignore_conflicts=True)
    lesson.tags.set(Tag.objects.filter(slug__in=slugs))
    return True


def _sync_blocks(lesson: Lesson, specs: list[dict[str, Any]]) -> bool:
    """Update blocks in place, so their ids (which reports, answers and XP refer to) stay put:
    a check keeps the block of its key, other blocks take the others' in order."""
    existing = list(lesson.blocks.order_by("position", "id"))
    checks = {b.spec.get("key"): b for b in existing if b.kind == "check"}
    others = [b for b in existing if b.kind != "check"]
    changed = False
    for position, spec in enumerate(specs, start=1):
        values = {
            **EMPTY_BLOCK,
            **{k: v for k, v in spec.items() if k != "kind"},
            "kind": spec["kind"],
            "position": position,
        }
        values = normalised_block_texts(values["kind"], values)
        values["html"] = block_html(values["kind"], values["markdown"])
        if spec["kind"] == "check":
            block = checks.pop(spec["spec"]["key"], None)
        else:
            block = others.pop(0) if others else None
        if block is None:
            Block.objects.create(lesson=lesson, **values)
            changed = True
        elif _assign(block, values):
            block.save()
            changed = True
    extra = [*checks.values(), *others]
    if extra:
        Block.objects.filter(id__in=[b.id for b in extra]).delete()
        changed = True
    return changed


def _sync_links(lesson: Lesson, specs: list[dict[str, str]]) -> bool:
    current = [(link.title, link.url) for link in lesson.links.order_by("position", "id")]
    wanted = [(spec["title"], spec["url"]) for spec in specs]
    if current == wanted:
        return False
    lesson.links.all().delete()
    # One by one, not bulk_create: each link's history record is what a revert restores.
    for position, (title, url) in enumerate(wanted, start=1):
        Link.objects.create(lesson=lesson, position=position, title=title, url=url)
    return True


def lock_lesson_version(*, lesson_id: int) -> int | None:
    """The lesson's stored version, its row locked until the transaction ends (call inside
    one): a save checked against it cannot be overtaken. None if the lesson is gone."""
    return (
        Lesson.objects.select_for_update()
        .filter(pk=lesson_id)
        .values_list("version", flat=True)
        .first()
    )


def save_lesson(*, lesson: Lesson) -> None:
    """Save the lesson's own row (after its blocks, as the admin does). When its slug changed,
    the old slug keeps answering with a redirect to it (LessonOldSlug); a slug the lesson
    takes, new or again, stops being anyone's old address."""
    stored = Lesson.objects.filter(pk=lesson.pk).values_list("slug", flat=True).first()
    _save_with_old_slug(lesson, stored)


def _save_with_old_slug(lesson: Lesson, stored_slug: str | None) -> None:
    if stored_slug != lesson.slug:
        LessonOldSlug.objects.filter(old_slug=lesson.slug).delete()
    lesson.save()
    if stored_slug is not None and stored_slug != lesson.slug:
        LessonOldSlug.objects.update_or_create(old_slug=stored_slug, defaults={"lesson": lesson})


def rerender_block_html(*, batch_size: int = 500) -> int:
    """Render every block's Markdown again and store what changed (after the renderer or the
    sanitizer's rules changed). Returns how many blocks changed."""
    changed: list[Block] = []
    for block in Block.objects.only("id", "kind", "markdown", "html").iterator(chunk_size=500):
        html = block_html(block.kind, block.markdown)
        if html != block.html:
            block.html = html
            changed.append(block)
    with transaction.atomic():
        Block.objects.bulk_update(changed, ["html"], batch_size=batch_size)
        if changed:
            versioned.bump(versioned.CONTENT)
    return len(changed)


def publishing_changes(lesson: Lesson, published: bool) -> bool:
    """Whether `set_published` would change this lesson (what the admin asks about first)."""
    if lesson.draft_of_id is not None:  # a draft of a live lesson is published as a draft
        return False
    if published:
        return not lesson.published
    return lesson.published or lesson.publish_at is not None


def set_published(*, lesson_ids: list[int], published: bool) -> int:
    """Publish or unpublish lessons; returns how many changed.

    Either way the schedule goes: publishing consumes it, and a schedule left on an
    unpublished lesson would publish it again (issue 41)."""
    changed = 0
    for lesson in Lesson.objects.live().filter(id__in=lesson_ids):
        if not publishing_changes(lesson, published):
            continue
        lesson.published = published
        lesson.publish_at = None
        lesson.version += 1
        lesson.save(update_fields=["published", "publish_at", "version", "updated_at"])
        changed += 1
    return changed


class VersionNotFound(NotFound):
    pass


def revert_lesson(*, lesson_id: int, history_id: int) -> Lesson:
    """Put the lesson back as it was in version `history_id`: its fields, tags, blocks and
    links, and (through `events.lesson_reverted`) what the apps above keep of it.

    Goes through ordinary saves, so the revert is itself a version in the history (under the
    request's user) and the content version is bumped: learners get it at once.
    Raises VersionNotFound, or Conflict when another lesson took the old slug since.
    """
    with transaction.atomic():
        lesson = Lesson.objects.select_for_update().filter(pk=lesson_id).first()
        record = Lesson.history.filter(id=lesson_id, history_id=history_id).first()
        if lesson is None or record is None:
            raise VersionNotFound("No such version of this lesson.")
        slug_before = lesson.slug
        if Lesson.objects.filter(slug=record.slug).exclude(pk=lesson_id).exists():
            raise Conflict(f"Another lesson uses the slug {record.slug!r} now.")
        when = record.history_date
        lesson.version += 1  # first: the rows the revert records belong to this version
        with history.recorded_as(f"Reverted to the version of {when:%Y-%m-%d %H:%M:%S} UTC"):
            _restore_blocks(lesson, _as_of(Block, lesson_id=lesson_id, when=when))
            _restore_links(lesson, _as_of(Link, lesson_id=lesson_id, when=when))
            lesson.tags.set(tag_ids_of_version(history_id=history_id))
            events.lesson_reverted.announce(events.LessonReverted(lesson_id=lesson_id, as_of=when))
            for name in LESSON_HISTORY_FIELDS:
                setattr(lesson, name, getattr(record, name))
            if lesson.published:  # a version from before publishing consumed its schedule
                lesson.publish_at = None
            # Last: its record closes the version, as in the admin.
            _save_with_old_slug(lesson, slug_before)
    return lesson


def _as_of(model: type[Block] | type[Link], *, lesson_id: int, when: Any) -> dict[int, Any]:
    """The lesson's blocks (or links) as they were at `when`: each one's last record then."""
    latest: dict[int, Any] = {}
    for record in model.history.filter(lesson_id=lesson_id, history_date__lte=when).order_by(
        "history_date", "history_id"
    ):
        latest[record.id] = record
    return {row_id: r for row_id, r in latest.items() if r.history_type != "-"}


def _restore_links(lesson: Lesson, wanted: dict[int, Any]) -> None:
    current = {link.id: link for link in lesson.links.all()}
    for link_id in current.keys() - wanted.keys():
        current[link_id].delete()
    for link_id, old in wanted.items():
        values = {"position": old.position, "title": old.title, "url": old.url}
        link = current.get(link_id)
        if link is None:
            Link(id=link_id, lesson=lesson, **values).save(force_insert=True)
        elif _assign(link, values):
            link.save()


def _restore_blocks(lesson: Lesson, wanted: dict[int, Any]) -> None:
    current = {block.id: block for block in lesson.blocks.all()}
    for block_id in current.keys() - wanted.keys():
        current[block_id].delete()
    for block_id, old in sorted(wanted.items(), key=lambda item: item[1].position):
        values = {name: getattr(old, name) for name in BLOCK_HISTORY_FIELDS}
        values["html"] = block_html(values["kind"], values["markdown"])
        block = current.get(block_id)
        if block is None:
            # The same id again: reports that named the block point at it once more.
            Block(id=block_id, lesson=lesson, **values).save(force_insert=True)
        elif _assign(block, values):
            block.save()


def publish_due_lessons() -> int:
    """Publish the lessons whose "publish at" has come (learners already see them: reads
    count a due lesson as published); returns how many. Idempotent."""
    with history.recorded_as("publish_at"):
        return set_published(lesson_ids=due_lesson_ids(), published=True)


# An open change page says so every PRESENCE_HEARTBEAT_SECONDS; an editor is shown as having
# the lesson open until PRESENCE_WINDOW after the last word (a missed beat is not leaving).
PRESENCE_HEARTBEAT_SECONDS = 30
PRESENCE_WINDOW = timedelta(minutes=2)


@dataclass(frozen=True)
class OtherEditor:
    name: str
    last_seen: datetime


def note_editor_present(*, lesson_id: int, editor_id: int) -> list[OtherEditor]:
    """Record that the editor has the lesson's change page open now; return the other editors
    who had it open within PRESENCE_WINDOW, the latest seen first.

    One upsert on (lesson, editor), unique: two tabs or a retried beat never make two rows.
    Raises LessonNotFound for a lesson that is gone.
    """
    if not Lesson.objects.filter(pk=lesson_id).exists():
        raise LessonNotFound("No such lesson.")
    now = clock.now()
    EditorPresence.objects.bulk_create(
        [EditorPresence(lesson_id=lesson_id, editor_id=editor_id, last_seen=now)],
        update_conflicts=True,
        unique_fields=["lesson", "editor"],
        update_fields=["last_seen"],
    )
    others = (
        EditorPresence.objects.filter(lesson_id=lesson_id, last_seen__gte=now - PRESENCE_WINDOW)
        .exclude(editor_id=editor_id)
        .order_by("-last_seen")
        .values_list("editor__email", "last_seen")
    )
    return [OtherEditor(name=name, last_seen=seen) for name, seen in others]
