"""Writes of the exercises app: exercises from curriculum files, submissions and their grading."""

from __future__ import annotations

import logging
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from exercises.models import Exercise, ExerciseColumn
from exercises.specs import SpecError, clean_spec

logger = logging.getLogger(__name__)


# --- Content ---------------------------------------------------------------------------------


def upsert_exercise(*, lesson, spec: dict[str, Any]) -> tuple[Exercise, str]:
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
    current = [_column_spec(c) for c in exercise.columns.order_by("position", "id")]
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
        )
        for position, column in enumerate(wanted, start=1)
    )
    return True


def _column_spec(column: ExerciseColumn) -> dict[str, Any]:
    tolerance = Decimal(column.tolerance)
    return {
        "name": column.name,
        "field": column.reference_field,
        "synonyms": list(column.synonyms),
        "tolerance": int(tolerance)
        if tolerance == tolerance.to_integral_value()
        else float(tolerance),
    }


def exercise_spec(exercise: Exercise) -> dict[str, Any]:
    """The exercise as the `exercise:` key of a lesson file (what upsert_exercise reads)."""
    return {
        "slug": exercise.slug,
        "title": exercise.title,
        "prompt": exercise.prompt,
        "kind": exercise.kind,
        "key_column": {"name": exercise.key_column, "synonyms": list(exercise.key_synonyms)},
        "columns": [_column_spec(c) for c in exercise.columns.all()],
        "rows_required": exercise.rows_required,
        "pass_mark": float(exercise.pass_mark),
        "xp": exercise.xp,
    }


def exercise_specs_for_lessons(*, lesson_ids: list[int]) -> dict[int, dict[str, Any]]:
    """{lesson_id: spec} of each lesson's first exercise, for the curriculum exporter (2 queries).

    A lesson file holds one exercise; further exercises of a lesson stay admin-only.
    """
    exercises = (
        Exercise.objects.filter(lesson_id__in=lesson_ids)
        .order_by("lesson_id", "position", "id")
        .prefetch_related("columns")
    )
    specs: dict[int, dict[str, Any]] = {}
    for exercise in exercises:
        specs.setdefault(exercise.lesson_id, exercise_spec(exercise))
    return specs
