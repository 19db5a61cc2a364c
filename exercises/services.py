"""Writes of the exercises app: exercises from curriculum files, submissions and their grading."""

from __future__ import annotations

import logging
import os
import time
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, F, Max, Q
from django.utils import timezone

from exercises import grading, parsing
from exercises.models import (
    Exercise,
    ExerciseColumn,
    ModelReference,
    Submission,
    SubmissionStatus,
)
from exercises.specs import SpecError, clean_spec

logger = logging.getLogger(__name__)

# A submission whose grading was started this many times without finishing (the worker died,
# the grader crashed) is set aside as invalid instead of being handed out forever.
MAX_GRADING_ATTEMPTS = 3
# Learners who waited longer than this for a grade get an in-app notification when it lands.
NOTIFY_WHEN_SLOWER_THAN = timedelta(seconds=5)
MAX_NOTES_CHARS = 2000
# Publishing from a request must not hang when Redis is down: a couple of quick tries, then
# the submission stays queued for the periodic sweep.
ENQUEUE_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.1,
    "interval_max": 0.2,
}


class SubmissionRejected(Exception):
    """The submission cannot be accepted; the message says why, for the learner."""

    field = "content"


class SubmissionTooLarge(SubmissionRejected):
    pass


class GraderCrashed(Exception):
    """Grading raised unexpectedly; the submission went back to the queue to be tried again."""


def grading_time_limit() -> int:
    """The hard time limit of one grade, in seconds.

    Half the broker's visibility timeout (at most 30 s), so a grade still running is never
    handed to a second worker, and a grade started longer ago than this is known to be dead.
    """
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout", 3600)
    return max(2, min(30, int(visibility) // 2))


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


# --- Reference catalogue ---------------------------------------------------------------------


def load_reference_catalogue(*, rows: list[dict[str, Any]] | None = None) -> dict[str, int]:
    """Upsert the catalogue by name from the shipped data (or `rows`); never deletes.

    Returns {"created": n, "updated": n, "unchanged": n}.
    """
    from exercises.catalogue_seed import reference_rows

    counts = {"created": 0, "updated": 0, "unchanged": 0}
    with transaction.atomic():
        existing = {r.name: r for r in ModelReference.objects.select_for_update()}
        for row in rows if rows is not None else reference_rows():
            values = {k: v for k, v in row.items() if k != "name"}
            reference = existing.get(row["name"])
            if reference is None:
                ModelReference.objects.create(name=row["name"], **values)
                counts["created"] += 1
            elif any(getattr(reference, k) != v for k, v in values.items()):
                for k, v in values.items():
                    setattr(reference, k, v)
                reference.save()
                counts["updated"] += 1
            else:
                counts["unchanged"] += 1
    return counts


# --- Submissions -----------------------------------------------------------------------------


def submit_solution(
    *, user_id: int, exercise: Exercise, table_format: str, content: str, notes: str = ""
) -> Submission:
    """Store a learner's table and queue it for grading once the transaction commits.

    Refuses at once (SubmissionTooLarge over 64 KiB, SubmissionRejected otherwise) what can
    never be graded: binary data, an unreadable table, too many rows or columns, formulas.
    Never grades here and never fails because the broker is down: the submission is then
    stored queued and the periodic sweep enqueues it later.
    """
    size = len(content.encode("utf-8", "surrogatepass"))
    if size > parsing.MAX_BYTES:
        raise SubmissionTooLarge(
            f"The table is {size // 1024} KiB; submissions are limited to "
            f"{parsing.MAX_BYTES // 1024} KiB."
        )
    try:
        parsing.parse(table_format, content)
    except parsing.ParseError as exc:
        raise SubmissionRejected(str(exc)) from None
    if len(notes) > MAX_NOTES_CHARS:
        error = SubmissionRejected(f"Notes are limited to {MAX_NOTES_CHARS} characters.")
        error.field = "notes"
        raise error
    with transaction.atomic():
        submission = Submission.objects.create(
            exercise=exercise,
            user_id=user_id,
            format=table_format,
            content=content,
            notes=notes,
            status=SubmissionStatus.QUEUED,
            enqueued_at=timezone.now(),
        )
        submission_id = submission.id
        transaction.on_commit(lambda: enqueue_grading(submission_id=submission_id))
    return submission


def enqueue_grading(*, submission_id: int) -> bool:
    """Publish the grading task; False (logged) when the broker cannot be reached.

    Never raises: it runs after commit, where an exception would turn a stored submission
    into an error answer. A submission left unpublished is picked up by the sweep.
    """
    from exercises.tasks import grade_submission as grade_task

    try:
        # No time limits in the message: the worker applies its own (from its settings), the
        # same it uses to tell a dead grade from a running one.
        grade_task.apply_async(
            args=[submission_id],
            time_limit=None,
            soft_time_limit=None,
            retry=True,
            retry_policy=ENQUEUE_RETRY_POLICY,
        )
    except Exception:
        logger.warning(
            "Could not enqueue grading of submission %s; the sweep will retry.",
            submission_id,
            exc_info=True,
        )
        return False
    return True


def requeue_stale_submissions(*, now: datetime | None = None, batch_size: int = 200) -> int:
    """Enqueue again, oldest first and at most `batch_size`, the submissions nobody grades:
    queued longer than SUBMISSION_REQUEUE_AFTER (the broker was down, the message was lost)
    and grading for longer than the grading time limit (the worker died).

    Duplicates are harmless: grading is idempotent. Stops at the first publish that fails.
    Returns how many were enqueued.
    """
    now = now or timezone.now()
    not_since = now - settings.SUBMISSION_REQUEUE_AFTER
    started_before = now - timedelta(seconds=grading_time_limit())
    not_enqueued_lately = Q(enqueued_at__lt=not_since) | Q(enqueued_at__isnull=True)
    stale = Submission.objects.filter(
        not_enqueued_lately,
        Q(status=SubmissionStatus.QUEUED)
        | Q(status=SubmissionStatus.GRADING, grading_started_at__lt=started_before),
    )
    ids = list(
        stale.order_by(F("enqueued_at").asc(nulls_first=True), "id").values_list("id", flat=True)[
            :batch_size
        ]
    )
    enqueued = []
    for submission_id in ids:
        if not enqueue_grading(submission_id=submission_id):
            break
        enqueued.append(submission_id)
    if enqueued:
        Submission.objects.filter(id__in=enqueued).update(enqueued_at=now)
        logger.info("Re-enqueued %d stale submission(s).", len(enqueued))
    return len(enqueued)


def grade_submission(*, submission_id: int) -> str:
    """Grade one submission, at most once: "graded", "invalid" or "skipped".

    Claims the submission with one conditional UPDATE (queued, or grading but started longer
    ago than the time limit), counting the attempt; anything else (already graded, invalid,
    being graded right now, gone) is skipped, so a re-delivered message changes nothing.
    A pass pays the exercise's XP once per learner (the ledger's constraint) and re-evaluates
    achievements; a grade that took long notifies the learner.
    Raises GraderCrashed when the grader itself fails; the submission is queued again.
    """
    now = timezone.now()
    claimed = (
        Submission.objects.filter(pk=submission_id)
        .filter(
            Q(status=SubmissionStatus.QUEUED)
            | Q(
                status=SubmissionStatus.GRADING,
                grading_started_at__lt=now - timedelta(seconds=grading_time_limit()),
            )
        )
        .update(status=SubmissionStatus.GRADING, attempts=F("attempts") + 1, grading_started_at=now)
    )
    if not claimed:
        return "skipped"
    submission = Submission.objects.select_related("exercise", "exercise__lesson").get(
        pk=submission_id
    )
    attempt = submission.attempts
    if attempt > MAX_GRADING_ATTEMPTS:
        return _finish_invalid(
            submission,
            attempt,
            f"The grader stopped {MAX_GRADING_ATTEMPTS} times while reading this submission, "
            "so it was set aside. Paste the table again, or try another format.",
        )
    _pause_for_tests()
    try:
        table = parsing.parse(submission.format, submission.content)
    except parsing.ParseError as exc:
        return _finish_invalid(submission, attempt, str(exc))
    try:
        result = grading.grade(
            table, exercise_grading_spec(submission.exercise), current_catalogue()
        )
    except Exception as exc:
        logger.exception("Grading submission %s failed (attempt %s)", submission_id, attempt)
        Submission.objects.filter(
            pk=submission_id, status=SubmissionStatus.GRADING, attempts=attempt
        ).update(status=SubmissionStatus.QUEUED, enqueued_at=timezone.now())
        raise GraderCrashed(f"submission {submission_id}, attempt {attempt}") from exc
    return _finish_graded(submission, attempt, result)


def _finish_graded(submission: Submission, attempt: int, result: grading.GradeResult) -> str:
    exercise = submission.exercise
    graded_at = timezone.now()
    values = {
        "status": SubmissionStatus.GRADED,
        "score": result.score,
        "passed": result.passed,
        "xp_awarded": 0,
        "summary": result.summary,
        "feedback": result.as_feedback(),
        "graded_at": graded_at,
    }
    # Only our own claim may write the result: a worker that took over meanwhile wins.
    ours = Submission.objects.filter(
        pk=submission.pk, status=SubmissionStatus.GRADING, attempts=attempt
    )
    awarded = False
    if not result.passed:
        if not ours.update(**values):
            return "skipped"
    else:
        from progress.services import award_xp

        with transaction.atomic():
            awarded = award_xp(
                user_id=submission.user_id,
                source_type="exercise",
                source_id=exercise.id,
                amount=exercise.xp,
            )
            values["xp_awarded"] = exercise.xp if awarded else 0
            if not ours.update(**values):
                transaction.set_rollback(True)
                return "skipped"
    if awarded:
        _evaluate_achievements(submission.user_id)
    _notify_if_slow(submission, graded_at, result.summary)
    return "graded"


def _finish_invalid(submission: Submission, attempt: int, reason: str) -> str:
    graded_at = timezone.now()
    updated = Submission.objects.filter(
        pk=submission.pk, status=SubmissionStatus.GRADING, attempts=attempt
    ).update(
        status=SubmissionStatus.INVALID,
        score=None,
        passed=False,
        summary=reason,
        feedback={},
        graded_at=graded_at,
    )
    if not updated:
        return "skipped"
    _notify_if_slow(submission, graded_at, reason)
    return "invalid"


def _evaluate_achievements(user_id: int) -> None:
    from achievements.services import evaluate_achievements

    # The grade stands whatever happens here; evaluation is idempotent and runs again on the
    # learner's next event.
    try:
        evaluate_achievements(user_id=user_id)
    except Exception:
        logger.exception("Evaluating achievements for user %s failed", user_id)


def _notify_if_slow(submission: Submission, graded_at: datetime, summary: str) -> None:
    if graded_at - submission.created_at <= NOTIFY_WHEN_SLOWER_THAN:
        return
    from community.services import create_notification

    exercise = submission.exercise
    try:
        create_notification(
            recipient_id=submission.user_id,
            kind="submission_graded",
            title=f"Your submission to “{exercise.title}” was graded",
            body=summary,
            url=f"/lessons/{exercise.lesson.slug}#exercise-{exercise.id}",
            dedupe_key=f"submission-graded:{submission.pk}",
            data={"submission_id": submission.pk, "exercise_id": exercise.id},
        )
    except Exception:
        logger.exception("Notifying the grade of submission %s failed", submission.pk)


def _pause_for_tests() -> None:
    """Integration tests slow grading down to kill a worker in the middle of it.

    Only in DEBUG or TESTING, never in production.
    """
    if not (settings.DEBUG or settings.TESTING):
        return
    delay = float(os.environ.get("EXERCISES_GRADE_DELAY_SECONDS", "0") or 0)
    if delay > 0:
        time.sleep(delay)


# --- Grading inputs --------------------------------------------------------------------------


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
            for column in exercise.columns.order_by("position", "id")
        ),
        key_column=exercise.key_column,
        key_synonyms=tuple(exercise.key_synonyms),
        rows_required=exercise.rows_required,
        pass_mark=float(exercise.pass_mark),
    )


_catalogue_cache: tuple[tuple[Any, ...], grading.Catalogue] | None = None


def current_catalogue() -> grading.Catalogue:
    """The reference catalogue, indexed; rebuilt only when an entry was added, changed or
    removed (one small aggregate query per call otherwise)."""
    global _catalogue_cache
    fingerprint = ModelReference.objects.aggregate(count=Count("id"), latest=Max("updated_at"))
    key = (fingerprint["count"], fingerprint["latest"])
    cached = _catalogue_cache
    if cached is not None and cached[0] == key:
        return cached[1]
    catalogue = build_catalogue(ModelReference.objects.all())
    _catalogue_cache = (key, catalogue)
    return catalogue


def build_catalogue(references) -> grading.Catalogue:
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
