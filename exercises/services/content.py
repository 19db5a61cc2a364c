"""Exercises from curriculum files: the `exercise:` key of a lesson file, upserted by slug."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from exercises.models import Exercise, ExerciseColumn
from exercises.selectors import column_as_spec
from exercises.specs import SpecError, clean_spec
from lessons.selectors import Lesson


def upsert_exercise(*, lesson: Lesson, spec: dict[str, Any]) -> tuple[Exercise, str]:
    """Create or update the exercise `spec` describes (by slug; default: the lesson's slug).

    Returns the exercise and "created", "updated" or "unchanged". Raises ValidationError listing
    every problem when the spec is invalid, before writing anything. Columns missing from the
    spec are deleted; a second call with the same spec changes nothing.
    """
    try:
        data = clean_spec(spec, default_slug=lesson.slug)
    except SpecError as exc:
        raise ValidationError(exc.problems) from None
    values = {
        "lesson": lesson,
        "title": data["title"],
        "prompt": data["prompt"],
        "kind": data["kind"],
        "key_column": data["key_column"]["name"],
        "key_synonyms": data["key_column"]["synonyms"],
        "rows_required": data["rows_required"],
        "pass_mark": Decimal(str(data["pass_mark"])),
        "xp": data["xp"],
    }
    with transaction.atomic():
        exercise, created = Exercise.objects.select_for_update().get_or_create(
            slug=data["slug"], defaults=values
        )
        changed = False
        if not created:
            for name, value in values.items():
                if getattr(exercise, name) != value:
                    setattr(exercise, name, value)
                    changed = True
        columns_changed = _sync_columns(exercise, data["columns"])
        if not created and (changed or columns_changed):
            exercise.save()
    if created:
        return exercise, "created"
    return exercise, "updated" if changed or columns_changed else "unchanged"


def _sync_columns(exercise: Exercise, wanted: list[dict[str, Any]]) -> bool:
    current = [column_as_spec(c) for c in exercise.columns.order_by("position", "id")]
    if current == wanted:
        return False
    exercise.columns.all().delete()
    ExerciseColumn.objects.bulk_create(
        ExerciseColumn(
            exercise=exercise,
            position=position,
            name=column["name"],
            reference_field=column["field"],
            synonyms=column["synonyms"],
            tolerance=Decimal(str(column["tolerance"])),
            hint=column.get("hint", ""),
        )
        for position, column in enumerate(wanted, start=1)
    )
    return True


EXERCISE_VERSIONED_FIELDS = (
    "slug",
    "title",
    "prompt",
    "kind",
    "key_column",
    "key_synonyms",
    "rows_required",
    "pass_mark",
    "xp",
    "position",
)


def restore_exercises(*, lesson_id: int, as_of: Any) -> int:
    """Put the lesson's exercises back as they were at `as_of` (a lesson's revert); returns
    how many changed. An exercise added since stays (deleting it would delete learners'
    submissions), and columns keep their current form: they have no history."""
    latest: dict[int, Any] = {}
    for record in Exercise.history.filter(lesson_id=lesson_id, history_date__lte=as_of).order_by(
        "history_date", "history_id"
    ):
        latest[record.id] = record
    changed = 0
    for exercise in Exercise.objects.filter(lesson_id=lesson_id, id__in=latest.keys()):
        record = latest[exercise.id]
        if record.history_type == "-":
            continue
        values = {name: getattr(record, name) for name in EXERCISE_VERSIONED_FIELDS}
        if any(getattr(exercise, name) != value for name, value in values.items()):
            for name, value in values.items():
                setattr(exercise, name, value)
            exercise.save()
            changed += 1
    return changed
