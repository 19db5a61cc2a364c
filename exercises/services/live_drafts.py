"""A lesson's exercises in drafts of live lessons (lessons.live_drafts, through its hooks).

Making a draft copies the live lesson's exercises (and their columns) onto the draft, each
copy pointing at the exercise it rewrites (`Exercise.draft_of`), so editors edit the draft's
exercise on the draft's page and learners keep the live one. Publishing copies each draft
exercise onto its live exercise in place: the live row keeps its id and slug, so learners'
submissions and the XP paid for them stay attached, and its history records the change (a
revert of the lesson to the version before the publish puts the old exercise back). An
exercise added in the draft moves to the live lesson. One the draft removed is deleted from
the live lesson only when no learner submitted to it: deleting it would delete their
submissions, so it stays (as a lesson's revert keeps an exercise added since).
"""

from __future__ import annotations

import re

from django.db.models import Prefetch

from exercises.models import Exercise, ExerciseColumn
from exercises.selectors import column_as_spec
from exercises.services.content import EXERCISE_VERSIONED_FIELDS, _sync_columns

# What a draft's exercise puts on its live exercise: all but the slug, the live exercise's
# address (a copy in a draft has its own: slugs are unique).
COPIED_FIELDS = tuple(name for name in EXERCISE_VERSIONED_FIELDS if name != "slug")
_DRAFT_SLUG = re.compile(r"^draft-\d+-(.+)$")


def _with_columns(lesson_id: int) -> list[Exercise]:
    columns = ExerciseColumn.objects.order_by("position", "id")
    return list(
        Exercise.objects.select_for_update()
        .filter(lesson_id=lesson_id)
        .order_by("position", "id")
        .prefetch_related(Prefetch("columns", queryset=columns))
    )


def draft_exercise_slug(exercise: Exercise) -> str:
    return f"draft-{exercise.pk}-{exercise.slug}"[:100].rstrip("-")


def _live_slug(exercise: Exercise) -> str:
    """A copy's slug without the draft's prefix, when that address is free (its live exercise
    was deleted since the draft was made); any other slug as it is."""
    match = _DRAFT_SLUG.match(exercise.slug)
    truncated = len(exercise.slug) >= 100  # the prefix may have cut the old slug short
    if match is None or truncated or Exercise.objects.filter(slug=match[1]).exists():
        return exercise.slug
    return match[1]


def copy_exercises_to_draft(*, live_lesson_id: int, draft_id: int) -> int:
    """Copy the live lesson's exercises onto its new draft; returns how many."""
    copied = 0
    for live in _with_columns(live_lesson_id):
        copy = Exercise.objects.create(
            lesson_id=draft_id,
            draft_of=live,
            slug=draft_exercise_slug(live),
            **{name: getattr(live, name) for name in COPIED_FIELDS},
        )
        _sync_columns(copy, [column_as_spec(c) for c in live.columns.all()])
        copied += 1
    return copied


def publish_draft_exercises(*, draft_id: int, live_lesson_id: int) -> dict[str, int]:
    """Put the draft's exercises on the live lesson (see the module's docstring); returns how
    many were updated, moved, deleted, and kept for their submissions."""
    live = {exercise.pk: exercise for exercise in _with_columns(live_lesson_id)}
    counts = {"updated": 0, "moved": 0, "deleted": 0, "kept": 0}
    for draft in _with_columns(draft_id):
        target = live.pop(draft.draft_of_id, None) if draft.draft_of_id else None
        if target is None:  # added in the draft (or its live exercise was deleted since)
            draft.lesson_id = live_lesson_id
            draft.draft_of = None
            draft.slug = _live_slug(draft)
            draft.save()
            counts["moved"] += 1
            continue
        changed = False
        for name in COPIED_FIELDS:
            if getattr(target, name) != getattr(draft, name):
                setattr(target, name, getattr(draft, name))
                changed = True
        columns_changed = _sync_columns(target, [column_as_spec(c) for c in draft.columns.all()])
        if changed or columns_changed:
            target.save()  # a record in its history, under the publish's reason
            counts["updated"] += 1
    for removed in live.values():
        if removed.submissions.exists():
            counts["kept"] += 1
        else:
            removed.delete()
            counts["deleted"] += 1
    return counts
