"""Grading a submission: claim it, grade it, write the grade, pay a first pass, notify a
long wait; alone, or with a backlog of others waiting when the workers are behind."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from exercises import events, grading, parsing
from exercises.models import Exercise, Submission, SubmissionStatus
from exercises.services import grading_cache, queueing
from exercises.services.checks import complete_lesson_if_all_passed
from exercises.services.grading_cache import ExerciseForGrading
from learning_platform import clock
from learning_platform.db import asynchronous_commit_column, update_rows
from learning_platform.metrics import GRADING_LATENCY
from notifications.services import create_notification
from progress import services as progress_services

logger = logging.getLogger(__name__)

# A submission whose grading was started this many times without finishing (the worker died,
# the grader crashed) is set aside as invalid instead of being handed out forever.
MAX_GRADING_ATTEMPTS = 3
# Learners who waited longer than this for a grade get an in-app notification when it lands.
NOTIFY_WHEN_SLOWER_THAN = timedelta(seconds=5)
# A submission that waited longer than this for its grade means the workers are behind (an
# idle worker starts a grade within a few milliseconds of the commit); its task then grades a
# batch of the others waiting (up to settings.GRADING_BATCH_SIZE). Guessing "behind" wrongly
# costs one claim statement that finds nothing or little.
BACKLOG_AFTER = timedelta(milliseconds=100)


class GraderCrashed(Exception):
    """Grading raised unexpectedly; the submission went back to the queue to be tried again."""


@dataclass(frozen=True)
class _Job:
    submission_id: int
    user_id: int
    attempt: int
    format: str
    content: str
    created_at: datetime
    enqueued_at: datetime | None
    passed_before: bool
    exercise: ExerciseForGrading


def grade_submission(*, submission_id: int, redelivered: bool = False) -> str:
    """Grade one submission, at most once: "graded", "invalid" or "skipped".

    Claims the submission with one conditional UPDATE (queued, or grading but started longer
    ago than the time limit), counting the attempt; anything else (already graded, invalid,
    being graded right now, gone) is skipped, so a re-delivered message changes nothing.
    A message the broker `redelivered` (its worker died: RabbitMQ hands it out again at once)
    takes over a claim however recent; should the first worker still be alive (cut off from the
    broker), its grade is no longer its own to write.
    A pass pays the exercise's XP once per learner (the ledger's constraint) and re-evaluates
    achievements; a grade that took long notifies the learner.
    Raises GraderCrashed when the grader itself fails; the submission is queued again.

    A first attempt that waited longer than BACKLOG_AFTER in the queue (the workers are
    behind) goes on to grade other waiting submissions with it (`_grade_with_backlog`); their
    own messages are revoked (the workers drop them unrun), and any that runs anyway finds its
    submission claimed, and skips.
    """
    started = time.monotonic()
    job = _claim(submission_id, take_over=redelivered)
    if job is None:
        return "skipped"
    if (
        job.attempt == 1
        and settings.GRADING_BATCH_SIZE > 1
        and clock.now() - job.created_at > BACKLOG_AFTER
    ):
        return _grade_with_backlog(job, started=started)
    return _grade(job)


# A grade to write: the job and its submission's new values.
_Result = tuple[_Job, dict[str, Any]]


def _grade(
    job: _Job, unwritten: list[_Result] | None = None, first_passes: list[_Result] | None = None
) -> str:
    if job.attempt > MAX_GRADING_ATTEMPTS:
        return _finish_invalid(
            job,
            f"The grader stopped {MAX_GRADING_ATTEMPTS} times while reading this submission, "
            "so it was set aside. Paste the table again, or try another format.",
        )
    try:
        table = parsing.parse(job.format, job.content)
    except parsing.ParseError as exc:
        return _finish_invalid(job, str(exc))
    try:
        result = grading.grade(table, job.exercise.spec, grading_cache.current_catalogue())
    except Exception as exc:
        logger.exception(
            "Grading submission %s failed (attempt %s)", job.submission_id, job.attempt
        )
        _ours(job).update(status=SubmissionStatus.QUEUED, enqueued_at=clock.now())
        raise GraderCrashed(f"submission {job.submission_id}, attempt {job.attempt}") from exc
    return _finish_graded(job, result, unwritten, first_passes)


def _grade_with_backlog(own: _Job, *, started: float) -> str:
    """Grade `own`, then up to GRADING_BATCH_SIZE - 1 more submissions waiting in the queue,
    oldest first, and write their grades together; `own`'s outcome.

    A burst of submissions (a class handing in together) then costs one claim statement and
    no worker round trip per submission, instead of one of each. Only never-tried submissions
    are taken, so one that crashes the grader can cost the others at most one attempt (it and
    they are then tried alone). Those not graded within a quarter of the time limit go back
    to the queue, and any left claimed by a worker that died are found by the sweep.
    """
    # Grades that pay nothing and notify no one are written together, in one statement; first
    # passes are paid together at the end, in one transaction (`_pay_first_passes`).
    unwritten: list[_Result] = []
    first_passes: list[_Result] = []
    written: list[int] = []
    # Its own grade first: a grader crash raises before anything else is claimed.
    outcome = _grade(own, unwritten, first_passes)
    try:
        jobs = _claim_backlog(settings.GRADING_BATCH_SIZE - 1)
        # Their own messages would only find them claimed: the workers drop them unrun.
        queueing.revoke_grading(
            [(job.submission_id, job.enqueued_at) for job in jobs if job.enqueued_at]
        )
        budget = queueing.grading_time_limit() / 4
        for index, job in enumerate(jobs):
            if time.monotonic() - started > budget:
                _release(jobs[index:])
                break
            try:
                _grade(job, unwritten, first_passes)
            except GraderCrashed:
                # Queued again by _grade; its own message may have been skipped meanwhile.
                queueing.enqueue_grading(submission_id=job.submission_id)
    finally:
        if first_passes:
            written += _pay_first_passes(first_passes, unwritten)
        elif unwritten:
            written += _write_results(unwritten)
    if outcome == "unwritten":
        outcome = "graded" if own.submission_id in written else "skipped"
    return outcome


def _release(jobs: list[_Job]) -> None:
    """Give claimed but untried submissions back to the queue, their attempt uncounted."""
    ids = [job.submission_id for job in jobs]
    now = clock.now()
    Submission.objects.filter(id__in=ids, status=SubmissionStatus.GRADING, attempts=1).update(
        status=SubmissionStatus.QUEUED,
        attempts=F("attempts") - 1,
        grading_started_at=None,
        enqueued_at=now,
    )
    for submission_id in ids:
        queueing.enqueue_grading(submission_id=submission_id, enqueued_at=now)


_CLAIM_SQL = """{picked}
UPDATE {submission}
SET status = %s, attempts = attempts + 1, grading_started_at = %s
WHERE {which}
RETURNING id, user_id, exercise_id, format, content, attempts, created_at, enqueued_at,
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


def _claim(submission_id: int, *, take_over: bool = False) -> _Job | None:
    """Take the submission for grading if it is queued, or grading but started longer ago than
    the time limit (its worker died) or at all (`take_over`); count the attempt. One statement,
    which also reads what grading needs and whether the learner passed this exercise before;
    None if not ours."""
    stale_before = clock.now() - timedelta(
        seconds=0 if take_over else queueing.grading_time_limit()
    )
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
    skip_locked = connection.features.has_select_for_update_skip_locked
    picked = _PICK_BACKLOG.replace(
        "{skip_locked}", " FOR UPDATE SKIP LOCKED" if skip_locked else ""
    )
    jobs = _claim_where(
        _CLAIM_BACKLOG,
        [SubmissionStatus.QUEUED],
        picked=picked,
        picked_params=[SubmissionStatus.QUEUED, limit],
    )
    return sorted(jobs, key=lambda job: job.submission_id)


def _claim_where(
    which: str, which_params: list[Any], *, picked: str = "", picked_params: list[Any] | None = None
) -> list[_Job]:
    """Claim the rows `which` selects (after the CTE `picked`, if any); their jobs."""
    sql = (
        _CLAIM_SQL.replace("{picked}", picked)
        .replace("{which}", which)
        .format(
            submission=connection.ops.quote_name(Submission._meta.db_table),
            exercise=connection.ops.quote_name(Exercise._meta.db_table),
        )
        + asynchronous_commit_column()
    )
    now = connection.ops.adapt_datetimefield_value(clock.now())
    params = [*(picked_params or []), SubmissionStatus.GRADING, now, *which_params, True]
    # One statement: atomic by itself, committed at once (no BEGIN/COMMIT round trips).
    # SQL text: the ORM's update() returns no rows, so its claim would be a transaction of
    # SELECT ... FOR UPDATE, UPDATE and a read; tests/test_pipeline.py holds a grade to 2
    # statements (claim, write) and no transaction.
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
            enqueued_at=_aware(enqueued_at) if enqueued_at is not None else None,
            passed_before=bool(before),
            exercise=grading_cache.exercise_for_grading(exercise_id, _aware(exercise_updated_at)),
        )
        for (
            submission_id,
            user_id,
            exercise_id,
            fmt,
            content,
            attempts,
            created_at,
            enqueued_at,
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


def _ours(job: _Job) -> QuerySet[Submission]:
    # Only our own claim may write: a worker that took over meanwhile (a newer attempt) wins.
    return Submission.objects.filter(
        pk=job.submission_id, status=SubmissionStatus.GRADING, attempts=job.attempt
    )


def _write_result(job: _Job, values: dict[str, Any]) -> bool:
    """`_ours(job).update(**values)`; False when the claim is no longer ours."""
    return bool(_write_results([(job, values)]))


def _write_results(results: list[_Result]) -> set[int]:
    """`_ours(job).update(**values)` for each (job, values), all with the same fields, as one
    statement (db.update_rows: a batch's results cost one round trip, tests/test_pipeline.py
    holds a batch of four to 3 statements). Returns the ids written (not those no longer
    ours)."""
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
        returning=quote("id") + asynchronous_commit_column(),
    )
    ids = {submission_id for submission_id, *_ in written}
    latencies = [
        (str(values["status"]), (values["graded_at"] - job.created_at).total_seconds())
        for job, values in results
        if job.submission_id in ids
    ]
    # Observed once committed: a batch undone (another worker took a pass over) is not counted.
    transaction.on_commit(partial(_observe_latencies, latencies))
    return ids


def _observe_latencies(latencies: list[tuple[str, float]]) -> None:
    for outcome, seconds in latencies:
        GRADING_LATENCY.labels(outcome).observe(clock.elapsed(seconds, measure="grading_latency"))


def _finish_graded(
    job: _Job,
    result: grading.GradeResult,
    unwritten: list[_Result] | None = None,
    first_passes: list[_Result] | None = None,
) -> str:
    """Write the grade, pay a first pass, notify a long wait. With `unwritten`, a grade that
    does neither is appended there ("unwritten"), for the caller to write with others; with
    `first_passes`, a first pass is appended there, for the caller to pay with others."""
    graded_at = clock.now()
    values = {
        "status": SubmissionStatus.GRADED,
        "score": result.score,
        "passed": result.passed,
        "xp_awarded": 0,
        "summary": result.summary,
        "feedback": result.as_feedback(),
        "graded_at": graded_at,
    }
    # A learner's later passes pay nothing; the ledger's constraint would refuse them anyway,
    # but asking it costs a row lock and an insert. Without a payment the grade is one
    # statement, atomic by itself.
    if result.passed and not job.passed_before:
        if first_passes is not None:
            first_passes.append((job, values))
            return "unwritten"
        if not _pay_first_pass(job, values):
            return "skipped"
    elif unwritten is not None and not _waited_long(job, graded_at):
        unwritten.append((job, values))
        return "unwritten"
    elif not _write_result(job, values):
        return "skipped"
    _notify_if_slow(job, graded_at, result.summary)
    return "graded"


def _pay_first_pass(job: _Job, values: dict[str, Any]) -> bool:
    """Pay the pass and write its grade in one transaction; False, and nothing paid, when the
    claim is no longer ours.

    The XP award (progress.services.award_xp) returns the learner's new standing;
    exercise_passed carries it, so achievements measure from it, and a bonus is paid in this
    same transaction. The grade's write sets this transaction's commit asynchronous (see
    learning_platform.db.asynchronous_commit_column)."""
    award = _award_of(job)
    with transaction.atomic():
        standing = progress_services.award_xp(awards=[award]).get(award.key)
        values["xp_awarded"] = job.exercise.xp if standing is not None else 0
        if standing is not None:
            events.exercise_passed.announce(_passed(job, standing))
        if not _write_result(job, values):
            transaction.set_rollback(True)
            return False
        if standing is not None:
            complete_lesson_if_all_passed(
                user_id=job.user_id, lesson_id=job.exercise.lesson_id, at=award.awarded_at
            )
    return True


def _pay_first_passes(passes: list[_Result], unwritten: list[_Result]) -> list[int]:
    """A batch's first passes, paid and written in one transaction, with the batch's other
    grades (`unwritten`) written in the same statement; the ids written.

    Awards go in together (progress.services.award_xp: learners' rows locked in id order, the
    order in which any two writers take learners' progress locks; a learner with two passes
    of one exercise in the batch is paid once), achievements are evaluated
    once per learner, from their standing after all their passes, and the grades written in
    one statement. Should another worker have taken one of the passes over meanwhile, the
    transaction is undone and each pass is paid alone, as its own grade would."""
    ordered = sorted(passes, key=lambda item: (item[0].user_id, item[0].submission_id))
    latest: dict[int, events.ExercisePassed] = {}
    first_passes: set[tuple[int, int]] = set()
    with transaction.atomic():
        paid = progress_services.award_xp(awards=[_award_of(job) for job, _ in ordered])
        for job, values in ordered:
            standing = paid.pop((job.user_id, "exercise", job.exercise.id), None)
            values["xp_awarded"] = job.exercise.xp if standing is not None else 0
            if standing is not None:
                latest[job.user_id] = _passed(job, standing)
                first_passes.add((job.user_id, job.exercise.lesson_id))
        if latest:
            events.exercises_passed.announce(events.ExercisesPassed(passes=tuple(latest.values())))
        written = _write_results(ordered + unwritten)
        all_paid = all(job.submission_id in written for job, _ in ordered)
        if not all_paid:
            transaction.set_rollback(True)
        else:
            for user_id, lesson_id in sorted(first_passes):
                complete_lesson_if_all_passed(user_id=user_id, lesson_id=lesson_id, at=clock.now())
    if not all_paid:
        written = {job.submission_id for job, values in ordered if _pay_first_pass(job, values)}
        if unwritten:
            written |= _write_results(unwritten)
    for job, values in ordered:
        if job.submission_id in written:
            _notify_if_slow(job, values["graded_at"], values["summary"])
    return sorted(written)


def _award_of(job: _Job) -> progress_services.Award:
    return progress_services.Award(
        user_id=job.user_id,
        source_type="exercise",
        source_id=job.exercise.id,
        amount=job.exercise.xp,
    )


def _passed(job: _Job, standing: progress_services.StandingAfterAward) -> events.ExercisePassed:
    return events.ExercisePassed(
        user_id=job.user_id,
        exercise_id=job.exercise.id,
        xp_total=standing.xp_total,
        streak_days=standing.streak_current,
        exercises_passed=standing.exercises_passed,
    )


def _finish_invalid(job: _Job, reason: str) -> str:
    graded_at = clock.now()
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


def _waited_long(job: _Job, graded_at: datetime) -> bool:
    return graded_at - job.created_at > NOTIFY_WHEN_SLOWER_THAN


def _notify_if_slow(job: _Job, graded_at: datetime, summary: str) -> None:
    if not _waited_long(job, graded_at):
        return
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
