"""What a grading process keeps between grades: the exercises it graded and the reference
catalogue, indexed (both checked against the database's version with every grade, at no or
little cost)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from django.db.models import Prefetch

from exercises import grading
from exercises.models import Exercise, ExerciseColumn, ModelReference
from learning_platform.snapshots import TableSnapshot


@dataclass(frozen=True)
class ExerciseForGrading:
    """What grading needs of an exercise, cached per process (see `exercise_for_grading`)."""

    id: int
    title: str
    xp: int
    lesson_id: int
    lesson_slug: str
    spec: grading.ExerciseSpec


# Keyed by the exercise's id and updated_at: editing an exercise or its columns saves the
# exercise (the admin's change form, upsert_exercise), so a new updated_at is a new version;
# every grade reads the current updated_at with its submission. Older versions fall out.
@lru_cache(maxsize=1000)
def exercise_for_grading(exercise_id: int, updated_at: datetime) -> ExerciseForGrading:
    exercise = (
        Exercise.objects.select_related("lesson")
        .prefetch_related(
            Prefetch("columns", queryset=ExerciseColumn.objects.order_by("position", "id"))
        )
        .get(pk=exercise_id)
    )
    return ExerciseForGrading(
        id=exercise.id,
        title=exercise.title,
        xp=exercise.xp,
        lesson_id=exercise.lesson_id,
        lesson_slug=exercise.lesson.slug,
        spec=exercise_grading_spec(exercise),
    )


def exercise_grading_spec(exercise: Exercise) -> grading.ExerciseSpec:
    """The exercise as the pure grader sees it (its columns in order)."""
    return grading.ExerciseSpec(
        columns=tuple(
            grading.ColumnSpec(
                name=column.name,
                field=column.reference_field,
                synonyms=tuple(column.synonyms),
                tolerance=float(column.tolerance),
            )
            for column in exercise.columns.all()
        ),
        key_column=exercise.key_column,
        key_synonyms=tuple(exercise.key_synonyms),
        rows_required=exercise.rows_required,
        pass_mark=float(exercise.pass_mark),
    )


# How long a process trusts its indexed catalogue before checking the table's fingerprint
# again: an edit in the admin reaches every worker within this many seconds.
CATALOGUE_RECHECK_AFTER = 5.0
_catalogue = TableSnapshot(
    ModelReference,
    lambda: build_catalogue(ModelReference.objects.all()),
    recheck_after=CATALOGUE_RECHECK_AFTER,
)


def current_catalogue() -> grading.Catalogue:
    """The reference catalogue, indexed; rebuilt only when an entry was added, changed or
    removed (learning_platform.snapshots)."""
    return _catalogue.get()


def forget_catalogue() -> None:
    """Make this process read the catalogue and exercises afresh at its next grade."""
    _catalogue.forget()
    exercise_for_grading.cache_clear()


def build_catalogue(references: Iterable[ModelReference]) -> grading.Catalogue:
    return grading.Catalogue(
        grading.ReferenceModel(
            name=reference.name,
            figures={field: getattr(reference, field) for field in grading.FIELD_HEADERS},
            aliases=tuple(
                a for a in [*reference.aliases, reference.hf_repo] if isinstance(a, str) and a
            ),
        )
        for reference in references
    )
