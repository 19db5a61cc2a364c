"""Writes to quests and lessons: the curriculum loader and exporter, publishing."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import transaction

from learning_platform import page_cache
from lessons.blocks import block_html
from lessons.curriculum import (
    CurriculumError,
    LessonSpec,
    Problem,
    QuestSpec,
    read_curriculum,
    write_quest,
)
from lessons.models import Block, Lesson, Link, Quest, Tag

BLOCK_FIELDS = {
    "prose": ("markdown",),
    "callout": ("style", "markdown"),
    "table": ("caption", "columns", "rows"),
    "code": ("title", "language", "source"),
}
EMPTY_BLOCK = {
    "markdown": "",
    "style": "",
    "caption": "",
    "columns": [],
    "rows": [],
    "title": "",
    "language": "",
    "source": "",
}


@dataclass
class LoadReport:
    """What a load did: counts per kind of object and outcome."""

    counts: Counter = field(default_factory=Counter)

    def add(self, kind: str, outcome: str) -> None:
        self.counts[(kind, outcome)] += 1

    def get(self, kind: str, outcome: str) -> int:
        return self.counts[(kind, outcome)]

    @property
    def changed(self) -> bool:
        return any(n for (_, outcome), n in self.counts.items() if outcome != "unchanged")

    def summary(self) -> str:
        outcomes = ("created", "updated", "unchanged")
        kinds = [
            k for k in ("quests", "lessons", "exercises") if any(self.get(k, o) for o in outcomes)
        ]
        return "; ".join(
            f"{kind}: " + ", ".join(f"{self.get(kind, o)} {o}" for o in outcomes) for kind in kinds
        )


def load_curriculum(*, root: Path) -> LoadReport:
    """Upsert every quest and lesson under `root` by slug, in one transaction.

    Validates all files first: bad content raises `CurriculumError` and writes nothing.
    A second load of the same files changes nothing and reports everything unchanged.
    Lessons in the database but not in the files are left as they are.
    """
    quests = read_curriculum(root)
    _check_exercises(quests)
    report = LoadReport()
    with transaction.atomic():
        for quest_spec in quests:
            quest = _upsert_quest(quest_spec, report)
            for position, lesson_spec in enumerate(quest_spec.lessons, start=1):
                _upsert_lesson(quest, position, lesson_spec, report)
    return report


def _check_exercises(quests: list[QuestSpec]) -> None:
    """Validate every lesson's `exercise:` before anything is written."""
    from exercises.specs import SpecError, clean_spec

    problems = []
    for quest in quests:
        for lesson in quest.lessons:
            if lesson.exercise is None:
                continue
            try:
                clean_spec(lesson.exercise, default_slug=lesson.slug)
            except SpecError as exc:
                for problem in exc.problems:
                    field, _, message = problem.partition(": ")
                    problems.append(Problem(lesson.path, field, message or problem))
    if problems:
        raise CurriculumError(problems)


def _upsert_quest(spec: QuestSpec, report: LoadReport) -> Quest:
    values = {"title": spec.title, "description": spec.description}
    quest, created = Quest.objects.select_for_update().get_or_create(
        slug=spec.slug, defaults=values
    )
    if created:
        report.add("quests", "created")
    elif _assign(quest, values):
        quest.save()
        report.add("quests", "updated")
    else:
        report.add("quests", "unchanged")
    return quest


def _upsert_lesson(quest: Quest, position: int, spec: LessonSpec, report: LoadReport) -> None:
    values = {
        "quest": quest,
        "title": spec.title,
        "summary": spec.summary,
        "estimated_minutes": spec.minutes,
        "xp": spec.xp,
        "position": position,
        "published": spec.published,
    }
    lesson, created = Lesson.objects.select_for_update().get_or_create(
        slug=spec.slug, defaults=values
    )
    changed = created
    if not created and _assign(lesson, values):
        changed = True
    tags_changed = _sync_tags(lesson, spec.tags)
    blocks_changed = _sync_blocks(lesson, spec.blocks)
    links_changed = _sync_links(lesson, spec.links)
    if not created and (changed or tags_changed or blocks_changed or links_changed):
        lesson.save()  # also bumps updated_at when only blocks, links or tags changed
    report.add(
        "lessons",
        "created"
        if created
        else "updated"
        if (changed or tags_changed or blocks_changed or links_changed)
        else "unchanged",
    )
    if spec.exercise is not None:
        from exercises.services import upsert_exercise

        _, outcome = upsert_exercise(lesson=lesson, spec=spec.exercise)
        report.add("exercises", outcome)


def _assign(instance, values: dict[str, Any]) -> bool:
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


def block_as_dict(block: Block) -> dict[str, Any]:
    """A block as it stands in a lesson file: its kind and the fields that kind uses."""
    data: dict[str, Any] = {"kind": block.kind}
    for name in BLOCK_FIELDS[block.kind]:
        data[name] = getattr(block, name)
    return data


def _sync_blocks(lesson: Lesson, specs: list[dict[str, Any]]) -> bool:
    """Update blocks in place by position, so their ids (which reports refer to) stay put."""
    existing = list(lesson.blocks.order_by("position", "id"))
    changed = False
    for position, spec in enumerate(specs, start=1):
        values = {
            **EMPTY_BLOCK,
            **{k: v for k, v in spec.items() if k != "kind"},
            "kind": spec["kind"],
            "position": position,
        }
        values["html"] = block_html(values["kind"], values["markdown"])
        if position <= len(existing):
            block = existing[position - 1]
            if _assign(block, values):
                block.save()
                changed = True
        else:
            Block.objects.create(lesson=lesson, **values)
            changed = True
    extra = existing[len(specs) :]
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
    Link.objects.bulk_create(
        Link(lesson=lesson, position=position, title=title, url=url)
        for position, (title, url) in enumerate(wanted, start=1)
    )
    return True


def export_curriculum(*, root: Path, quest_slugs: list[str] | None = None) -> list[Path]:
    """Write the database's quests and lessons as files under `root` (the loader's layout)."""
    from exercises.services import exercise_specs_for_lessons

    quests = Quest.objects.order_by("slug")
    if quest_slugs:
        quests = quests.filter(slug__in=quest_slugs)
    written: list[Path] = []
    for quest in quests:
        lessons = list(
            quest.lessons.order_by("position", "id").prefetch_related("tags", "blocks", "links")
        )
        exercises = exercise_specs_for_lessons(lesson_ids=[lesson.id for lesson in lessons])
        lesson_data = []
        for lesson in lessons:
            data: dict[str, Any] = {
                "slug": lesson.slug,
                "title": lesson.title,
                "summary": lesson.summary,
                "minutes": lesson.estimated_minutes,
                "xp": lesson.xp,
                "tags": sorted(t.slug for t in lesson.tags.all()),
                "published": lesson.published,
                "blocks": [block_as_dict(b) for b in sorted(lesson.blocks.all(), key=_order)],
                "links": [
                    {"title": link.title, "url": link.url}
                    for link in sorted(lesson.links.all(), key=_order)
                ],
            }
            if lesson.id in exercises:
                data["exercise"] = exercises[lesson.id]
            lesson_data.append(data)
        quest_data = {"slug": quest.slug, "title": quest.title, "description": quest.description}
        written += write_quest(root, quest_data, lesson_data)
    return written


def _order(item) -> tuple[int, int]:
    return (item.position, item.id)


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
            page_cache.note_content_changed()
    return len(changed)


def set_published(*, lesson_ids: list[int], published: bool) -> int:
    """Publish or unpublish lessons; returns how many changed."""
    lessons = Lesson.objects.filter(id__in=lesson_ids).exclude(published=published)
    changed = 0
    for lesson in lessons:
        lesson.published = published
        lesson.save(update_fields=["published", "updated_at"])
        changed += 1
    return changed
