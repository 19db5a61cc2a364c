"""The curriculum as files, in and out of the database: the loader writes lessons and
exercises through their apps' services, the exporter reads them through their selectors."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from curriculum.files import read_curriculum, write_quest
from exercises import selectors as exercises_selectors
from exercises.services import content as exercises_content
from learning_platform import history
from lessons import file_selectors as lessons_files
from lessons import services as lessons_services


@dataclass
class LoadReport:
    """What a load did: counts per kind of object and outcome."""

    counts: Counter[tuple[str, str]] = field(default_factory=Counter)

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
    report = LoadReport()
    # Its writes show in the content's history under its own name, without a user.
    with transaction.atomic(), history.recorded_as("load_curriculum"):
        for quest_spec in quests:
            quest, outcome = lessons_services.upsert_quest(
                slug=quest_spec.slug, title=quest_spec.title, description=quest_spec.description
            )
            report.add("quests", outcome)
            titles = dict.fromkeys(s.unit for s in quest_spec.lessons if s.unit is not None)
            units = {
                title: lessons_services.upsert_unit(quest=quest, title=title, position=position)
                for position, title in enumerate(titles, start=1)
            }
            for position, spec in enumerate(quest_spec.lessons, start=1):
                lesson, outcome = lessons_services.upsert_lesson(
                    quest=quest,
                    unit=units[spec.unit] if spec.unit is not None else None,
                    position=position,
                    slug=spec.slug,
                    title=spec.title,
                    summary=spec.summary,
                    minutes=spec.minutes,
                    xp=spec.xp,
                    published=spec.published,
                    tags=spec.tags,
                    blocks=spec.blocks,
                    links=spec.links,
                )
                report.add("lessons", outcome)
                if spec.exercise is not None:
                    _, outcome = exercises_content.upsert_exercise(
                        lesson=lesson, spec=spec.exercise
                    )
                    report.add("exercises", outcome)
    return report


def export_curriculum(*, root: Path, quest_slugs: list[str] | None = None) -> list[Path]:
    """Write the database's quests and lessons as files under `root` (the loader's layout)."""
    written: list[Path] = []
    for quest in lessons_files.quests_as_files(quest_slugs=quest_slugs):
        lessons = quest.pop("lessons")
        exercises = exercises_selectors.exercise_specs_for_lessons(
            lesson_ids=[lesson["id"] for lesson in lessons]
        )
        for lesson in lessons:
            lesson_id = lesson.pop("id")
            if lesson_id in exercises:
                lesson["exercise"] = exercises[lesson_id]
        written += write_quest(root, quest, lessons)
    return written
