"""Accepting a learner's table: checked at once, stored queued, graded by a worker."""

from __future__ import annotations

from django.db import transaction

from exercises import parsing
from exercises.models import Exercise, Submission, SubmissionStatus
from exercises.services import queueing
from learning_platform import clock
from learning_platform.errors import InvalidInput, TooLarge

MAX_NOTES_CHARS = 2000


class SubmissionRejected(InvalidInput):
    """The submission cannot be accepted; the message says why, for the learner, and `field`
    which input it is about (answered as that field's error, like a serializer's)."""

    def __init__(self, message: str, *, field: str = "content"):
        super().__init__(f"{field}: {message}", errors={field: [message]})
        self.field = field


class SubmissionTooLarge(TooLarge):
    """The table is over parsing.MAX_BYTES."""


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
            f"The table is {parsing.kib(size)} KiB; submissions are limited to "
            f"{parsing.kib(parsing.MAX_BYTES)} KiB."
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
            enqueued_at=clock.now(),
        )
        submission_id, enqueued_at = submission.id, submission.enqueued_at
        transaction.on_commit(
            lambda: queueing.enqueue_grading(submission_id=submission_id, enqueued_at=enqueued_at)
        )
    return submission
