"""Writes of the exercises app: exercises from curriculum files, submissions and their grading."""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Count, F, Max, Prefetch, Q
from django.utils import timezone

from exercises import events, grading, parsing
from exercises.models import (
    Exercise,
    ExerciseColumn,
    ModelReference,
    Submission,
    SubmissionStatus,
)
from exercises.specs import SpecError, clean_spec
from learning_platform.db import update_rows

logger = logging.getLogger(__name__)

# A submission whose grading was started this many times without finishing (the worker died,
# the grader crashed) is set aside as invalid instead of being handed out forever.
MAX_GRADING_ATTEMPTS = 3
# Learners who waited longer than this for a grade get an in-app notification when it lands.
NOTIFY_WHEN_SLOWER_THAN = timedelta(seconds=5)
# A submission that waited longer than this for its grade means the workers are behind; its
# task then grades a batch of the others waiting (up to settings.GRADING_BATCH_SIZE).
BACKLOG_AFTER = timedelta(milliseconds=250)
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
    """The submission cannot be accepted; the message says why, for the learner, and `field`
    which input it is about."""

    def __init__(self, message: str, *, field: str = "content"):
        super().__init__(message)
        self.field = field


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
    forget_catalogue()
    return counts


# --- Submissions -----------------------------------------------------------------------------


def submit_solution(
    *, user_id: int, exercise: Exercise, table_format: str, content: str, notes: str = ""
) -> Submission:
    """Store a learner's table and queue it for grading once the transaction commits.

    Refuses at once (SubmissionTooLarge over 64 KiB, SubmissionRejected otherwise) what can
    never be graded: binary data, an unreadable table, too many rows or columns, formulas.
    Grading happens in a worker (in-process only in the broker-less embedded mode). Never
    fails because the broker is down: the submission is then stored queued and the periodic
    sweep enqueues it later.
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
        raise SubmissionRejected(
            f"Notes are limited to {MAX_NOTES_CHARS} characters.", field="notes"
        )
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


@dataclass(frozen=True)
class ExerciseForGrading:
    """What grading needs of an exercise, cached per process (see `_exercise_for_grading`)."""

    id: int
    title: str
    xp: int
    lesson_slug: str
    spec: grading.ExerciseSpec


@dataclass(frozen=True)
class _Job:
    submission_id: int
    user_id: int
    attempt: int
    format: str
    content: str
    created_at: datetime
    passed_before: bool
    exercise: ExerciseForGrading


def grade_submission(*, submission_id: int) -> str:
    """Grade one submission, at most once: "graded", "invalid" or "skipped".

    Claims the submission with one conditional UPDATE (queued, or grading but started longer
    ago than the time limit), counting the attempt; anything else (already graded, invalid,
    being graded right now, gone) is skipped, so a re-delivered message changes nothing.
    A pass pays the exercise's XP once per learner (the ledger's constraint) and re-evaluates
    achievements; a grade that took long notifies the learner.
    Raises GraderCrashed when the grader itself fails; the submission is queued again.

    A first attempt that waited longer than BACKLOG_AFTER in the queue (the workers are
    behind) goes on to grade other waiting submissions (`_grade_backlog`); their own messages
    then skip without a query.
    """
    if submission_id in _settled_in_batch:
        del _settled_in_batch[submission_id]
        return "skipped"
    started = time.monotonic()
    job = _claim(submission_id)
    if job is None:
        return "skipped"
    outcome = _grade(job)
    if job.attempt == 1 and timezone.now() - job.created_at > BACKLOG_AFTER:
        _grade_backlog(started=started)
    return outcome


def _grade(job: _Job, unwritten: list | None = None) -> str:
    if job.attempt > MAX_GRADING_ATTEMPTS:
        return _finish_invalid(
            job,
            f"The grader stopped {MAX_GRADING_ATTEMPTS} times while reading this submission, "
            "so it was set aside. Paste the table again, or try another format.",
        )
    _pause_for_tests()
    try:
        table = parsing.parse(job.format, job.content)
    except parsing.ParseError as exc:
        return _finish_invalid(job, str(exc))
    try:
        result = grading.grade(table, job.exercise.spec, current_catalogue())
    except Exception as exc:
        logger.exception(
            "Grading submission %s failed (attempt %s)", job.submission_id, job.attempt
        )
        _ours(job).update(status=SubmissionStatus.QUEUED, enqueued_at=timezone.now())
        raise GraderCrashed(f"submission {job.submission_id}, attempt {job.attempt}") from exc
    return _finish_graded(job, result, unwritten)


# Submissions this process graded as part of a backlog, whose own messages are still to come:
# those skip at once (an insertion-ordered dict, trimmed oldest first).
_SETTLED_IN_BATCH_LIMIT = 10_000
_settled_in_batch: dict[int, None] = {}


def _grade_backlog(*, started: float) -> None:
    """Grade up to GRADING_BATCH_SIZE - 1 more submissions waiting in the queue, oldest first.

    A burst of submissions (a class handing in together) then costs one claim statement and
    no worker round trip per submission, instead of one of each. Only never-tried submissions
    are taken, so one that crashes the grader can cost the others at most one attempt (it and
    they are then tried alone). Those not graded within a quarter of the time limit go back
    to the queue, and any left claimed by a worker that died are found by the sweep.
    """
    limit = settings.GRADING_BATCH_SIZE - 1
    if limit < 1:
        return
    jobs = _claim_backlog(limit)
    budget = grading_time_limit() / 4
    # Grades that pay nothing and notify no one are written together, in one statement.
    unwritten: list[tuple[_Job, dict[str, Any]]] = []
    settled: list[int] = []
    try:
        for index, job in enumerate(jobs):
            if time.monotonic() - started > budget:
                _release(jobs[index:])
                break
            try:
                outcome = _grade(job, unwritten)
            except GraderCrashed:
                # Queued again by _grade; its own message may have been skipped meanwhile.
                enqueue_grading(submission_id=job.submission_id)
                continue
            if outcome in ("graded", "invalid"):
                settled.append(job.submission_id)
    finally:
        if unwritten:
            settled += _write_results(unwritten)
    for submission_id in settled:
        _settled_in_batch[submission_id] = None
    while len(_settled_in_batch) > _SETTLED_IN_BATCH_LIMIT:
        del _settled_in_batch[next(iter(_settled_in_batch))]


def _release(jobs: list[_Job]) -> None:
    """Give claimed but untried submissions back to the queue, their attempt uncounted."""
    ids = [job.submission_id for job in jobs]
    Submission.objects.filter(id__in=ids, status=SubmissionStatus.GRADING, attempts=1).update(
        status=SubmissionStatus.QUEUED,
        attempts=F("attempts") - 1,
        grading_started_at=None,
        enqueued_at=timezone.now(),
    )
    for submission_id in ids:
        enqueue_grading(submission_id=submission_id)


_CLAIM_SQL = """{picked}
UPDATE {submission}
SET status = %s, attempts = attempts + 1, grading_started_at = %s
WHERE {which}
RETURNING id, user_id, exercise_id, format, content, attempts, created_at,
    (SELECT e.updated_at FROM {exercise} AS e WHERE e.id = {submission}.exercise_id),
    EXISTS (
        SELECT 1 FROM {submission} AS p
        WHERE p.user_id = {submission}.user_id AND p.exercise_id = {submission}.exercise_id
            AND p.passed = %s AND p.id <> {submission}.id
    )
"""
# The submission, if queued, or grading but started longer ago than the time limit.
_CLAIM_ONE = "id = %s AND (status = %s OR (status = %s AND grading_started_at < %s))"
# The oldest never-tried queued submissions; rows another worker is claiming are passed over.
# Picked once, in a materialized CTE: as a plain IN (subquery), PostgreSQL may run the subquery
# again for every row it joins, each run taking its own LIMIT rows.
_PICK_BACKLOG = """WITH picked AS MATERIALIZED (
    SELECT q.id FROM {submission} AS q WHERE q.status = %s AND q.attempts = 0
    ORDER BY q.enqueued_at, q.id LIMIT %s{skip_locked}
)"""
_CLAIM_BACKLOG = "id IN (SELECT id FROM picked) AND status = %s"
_SKIP_LOCKED = {"postgresql": " FOR UPDATE SKIP LOCKED"}


def _claim(submission_id: int) -> _Job | None:
    """Take the submission for grading if it is queued, or grading but started longer ago than
    the time limit (its worker died); count the attempt. One statement, which also reads what
    grading needs and whether the learner passed this exercise before; None if not ours."""
    stale_before = timezone.now() - timedelta(seconds=grading_time_limit())
    jobs = _claim_where(
        _CLAIM_ONE,
        [
            submission_id,
            SubmissionStatus.QUEUED,
            SubmissionStatus.GRADING,
            connection.ops.adapt_datetimefield_value(stale_before),
        ],
    )
    return jobs[0] if jobs else None


def _claim_backlog(limit: int) -> list[_Job]:
    """Take up to `limit` of the oldest never-tried queued submissions, in one statement."""
    picked = _PICK_BACKLOG.replace("{skip_locked}", _SKIP_LOCKED.get(connection.vendor, ""))
    jobs = _claim_where(
        _CLAIM_BACKLOG,
        [SubmissionStatus.QUEUED],
        picked=picked,
        picked_params=[SubmissionStatus.QUEUED, limit],
    )
    return sorted(jobs, key=lambda job: job.submission_id)


def _claim_where(
    which: str, which_params: list[Any], *, picked: str = "", picked_params: tuple | list = ()
) -> list[_Job]:
    """Claim the rows `which` selects (after the CTE `picked`, if any); their jobs."""
    sql = _CLAIM_SQL.replace("{picked}", picked).replace("{which}", which).format(
        submission=connection.ops.quote_name(Submission._meta.db_table),
        exercise=connection.ops.quote_name(Exercise._meta.db_table),
    ) + _ASYNCHRONOUS_COMMIT_COLUMN.get(connection.vendor, "")
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    params = [*picked_params, SubmissionStatus.GRADING, now, *which_params, True]
    # One statement: atomic by itself, committed at once (no BEGIN/COMMIT round trips).
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return [
        _Job(
            submission_id=submission_id,
            user_id=user_id,
            attempt=attempts,
            format=fmt,
            content=content,
            created_at=_aware(created_at),
            passed_before=bool(before),
            exercise=_exercise_for_grading(exercise_id, _aware(exercise_updated_at)),
        )
        for (
            submission_id,
            user_id,
            exercise_id,
            fmt,
            content,
            attempts,
            created_at,
            exercise_updated_at,
            before,
            *_,
        ) in rows
    ]


def _aware(value: datetime | str) -> datetime:
    """A timestamp read by raw SQL: PostgreSQL gives datetimes, SQLite text in UTC."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value if timezone.is_aware(value) else value.replace(tzinfo=UTC)


def _ours(job: _Job):
    # Only our own claim may write: a worker that took over meanwhile (a newer attempt) wins.
    return Submission.objects.filter(
        pk=job.submission_id, status=SubmissionStatus.GRADING, attempts=job.attempt
    )


def _write_result(job: _Job, values: dict[str, Any]) -> bool:
    """`_ours(job).update(**values)`; False when the claim is no longer ours."""
    return bool(_write_results([(job, values)]))


def _write_results(results: list[tuple[_Job, dict[str, Any]]]) -> set[int]:
    """`_ours(job).update(**values)` for each (job, values), all with the same fields, as one
    plain statement: it runs for every grade, where compiling the ORM's UPDATE cost more than
    executing it, and a batch's results cost one round trip. Returns the ids written (not
    those no longer ours)."""
    names = list(results[0][1])
    quote = connection.ops.quote_name
    written = update_rows(
        Submission,
        keys=["id", "attempts"],
        fields=names,
        rows=[
            (job.submission_id, job.attempt, *(values[name] for name in names))
            for job, values in results
        ],
        where=f"{quote(Submission._meta.db_table)}.{quote('status')} = %s",
        where_params=[SubmissionStatus.GRADING],
        returning=quote("id") + _ASYNCHRONOUS_COMMIT_COLUMN.get(connection.vendor, ""),
    )
    return {submission_id for submission_id, *_ in written}


def _finish_graded(job: _Job, result: grading.GradeResult, unwritten: list | None = None) -> str:
    """Write the grade, pay a first pass, notify a long wait. With `unwritten`, a grade that
    does neither is appended there ("unwritten"), for the caller to write with others."""
    exercise = job.exercise
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
    awarded = False
    # A learner's later passes pay nothing; the ledger's constraint would refuse them anyway,
    # but asking it costs a row lock and an insert. Without a payment the grade is one
    # statement, atomic by itself.
    if result.passed and not job.passed_before:
        from progress.services import award_xp

        with transaction.atomic():
            _commit_asynchronously()
            awarded = award_xp(
                user_id=job.user_id,
                source_type="exercise",
                source_id=exercise.id,
                amount=exercise.xp,
            )
            values["xp_awarded"] = exercise.xp if awarded else 0
            if not _write_result(job, values):
                transaction.set_rollback(True)
                return "skipped"
    elif unwritten is not None and not _waited_long(job, graded_at):
        unwritten.append((job, values))
        return "unwritten"
    elif not _write_result(job, values):
        return "skipped"
    if awarded:
        events.exercise_passed.announce(
            events.ExercisePassed(user_id=job.user_id, exercise_id=exercise.id)
        )
    _notify_if_slow(job, graded_at, result.summary)
    return "graded"


def _finish_invalid(job: _Job, reason: str) -> str:
    graded_at = timezone.now()
    updated = _write_result(
        job,
        {
            "status": SubmissionStatus.INVALID,
            "score": None,
            "passed": False,
            "summary": reason,
            "feedback": {},
            "graded_at": graded_at,
        },
    )
    if not updated:
        return "skipped"
    _notify_if_slow(job, graded_at, reason)
    return "invalid"


# Grading's own writes commit without waiting for their WAL to reach the disk (PostgreSQL;
# elsewhere nothing). They are derived from the submission, which was stored durably when it
# arrived: a database crash could lose the last fraction of a second of them, leaving those
# submissions queued or grading, and the sweep grades them again with the same result and no
# second award (the XP ledger pays once). Otherwise every grade would wait for a disk flush or
# two, which costs more than the grading itself. The setting rides in the statement itself
# (local to its own transaction), so it costs no round trip and never outlives the grade.
_ASYNCHRONOUS_COMMIT_COLUMN = {"postgresql": ", set_config('synchronous_commit', 'off', true)"}


def _commit_asynchronously() -> None:
    """The same for a multi-statement transaction (a first pass, which pays XP)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


def _waited_long(job: _Job, graded_at: datetime) -> bool:
    return graded_at - job.created_at > NOTIFY_WHEN_SLOWER_THAN


def _notify_if_slow(job: _Job, graded_at: datetime, summary: str) -> None:
    if not _waited_long(job, graded_at):
        return
    from notifications.services import create_notification

    exercise = job.exercise
    try:
        create_notification(
            recipient_id=job.user_id,
            kind="submission_graded",
            title=f"Your submission to “{exercise.title}” was graded",
            body=summary,
            url=f"/lessons/{exercise.lesson_slug}#exercise-{exercise.id}",
            dedupe_key=f"submission-graded:{job.submission_id}",
            data={"submission_id": job.submission_id, "exercise_id": exercise.id},
        )
    except Exception:
        logger.exception("Notifying the grade of submission %s failed", job.submission_id)


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

# Exercise id -> (its updated_at, what grading needs). Editing an exercise or its columns
# saves the exercise (the admin's change form, upsert_exercise), so a new updated_at is a
# new version; every grade reads the current updated_at with its submission.
_exercise_cache: dict[int, tuple[datetime, ExerciseForGrading]] = {}


def _exercise_for_grading(exercise_id: int, updated_at: datetime) -> ExerciseForGrading:
    cached = _exercise_cache.get(exercise_id)
    if cached is not None and cached[0] == updated_at:
        return cached[1]
    exercise = (
        Exercise.objects.select_related("lesson")
        .prefetch_related(
            Prefetch("columns", queryset=ExerciseColumn.objects.order_by("position", "id"))
        )
        .get(pk=exercise_id)
    )
    info = ExerciseForGrading(
        id=exercise.id,
        title=exercise.title,
        xp=exercise.xp,
        lesson_slug=exercise.lesson.slug,
        spec=exercise_grading_spec(exercise),
    )
    if len(_exercise_cache) > 1000:
        _exercise_cache.clear()
    _exercise_cache[exercise_id] = (exercise.updated_at, info)
    return info


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
            for column in sorted(exercise.columns.all(), key=lambda c: (c.position, c.id))
        ),
        key_column=exercise.key_column,
        key_synonyms=tuple(exercise.key_synonyms),
        rows_required=exercise.rows_required,
        pass_mark=float(exercise.pass_mark),
    )


# How long a process trusts its indexed catalogue before checking the table's fingerprint
# again: an edit in the admin reaches every worker within this many seconds.
CATALOGUE_RECHECK_AFTER = 5.0
_catalogue_cache: tuple[tuple[Any, ...], grading.Catalogue, float] | None = None


def current_catalogue() -> grading.Catalogue:
    """The reference catalogue, indexed; rebuilt only when an entry was added, changed or
    removed. Costs no query when checked less than CATALOGUE_RECHECK_AFTER seconds ago, one
    small aggregate query otherwise (and one more to rebuild)."""
    global _catalogue_cache
    cached = _catalogue_cache
    now = time.monotonic()
    if cached is not None and now - cached[2] < CATALOGUE_RECHECK_AFTER:
        return cached[1]
    fingerprint = ModelReference.objects.aggregate(count=Count("id"), latest=Max("updated_at"))
    key = (fingerprint["count"], fingerprint["latest"])
    if cached is not None and cached[0] == key:
        _catalogue_cache = (key, cached[1], now)
        return cached[1]
    catalogue = build_catalogue(ModelReference.objects.all())
    _catalogue_cache = (key, catalogue, now)
    return catalogue


def forget_catalogue() -> None:
    """Make this process read the catalogue and exercises afresh at its next grade (and
    forget which submissions it graded in batches)."""
    global _catalogue_cache
    _catalogue_cache = None
    _exercise_cache.clear()
    _settled_in_batch.clear()


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
