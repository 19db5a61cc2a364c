"""A real worker on Redis: submit, wait, read the graded result; kill it mid-grade and recover.

Skipped (by the `live_worker` fixture) only when REDIS_URL is unset.
"""

import os
import signal
import threading
import time

import pytest
from django.db import connection, transaction
from django.urls import reverse

from exercises.models import Submission
from exercises.tests.conftest import GOOD_CSV, post_table
from learning_platform.tests.waiting import wait_until
from progress.models import LearnerStats

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# The fixture's worker runs with CELERY_VISIBILITY_TIMEOUT=10, hence a grading time limit of 5 s
# (queueing.grading_time_limit) and kombu restoring unacked messages every 10 s.
WORKER_VISIBILITY_TIMEOUT = 10


def submit(client, exercise) -> int:
    response = post_table(client, exercise)
    assert response.status_code == 202
    return response.json()["id"]


def test_a_real_worker_grades_a_submission_and_the_api_shows_the_feedback(
    live_worker, user_client, exercise
):
    started = time.monotonic()
    submission_id = submit(user_client, exercise)

    def graded():
        body = user_client.get(reverse("submission-detail", args=[submission_id])).json()
        return body if body["status"] == "graded" else None

    body = wait_until(graded, timeout=30)

    assert body["passed"] is True
    assert body["score"] == 1.0
    assert body["xp_awarded"] == exercise.xp
    rows = body["feedback"]["rows"]
    assert [r["model"] for r in rows] == ["GPT-2", "Meta-Llama-3-8B", "Mistral-7B-v0.1"]
    assert rows[1]["cells"][0] == {
        "column": "d_model",
        "submitted": "4,096",
        "verdict": "correct",
        "expected": 4096,
        "hint": None,
    }
    assert "exercises.grade_submission" in live_worker.log()
    assert time.monotonic() - started < 30


@pytest.fixture
def learner_locked(user):
    """Another connection holds the learner's progress lock: a pass of theirs is claimed
    ("grading"), then waits at its XP award until the returned event is set."""
    if connection.vendor != "postgresql":
        pytest.skip("a worker blocked on a row lock, then killed: PostgreSQL")
    LearnerStats.objects.create(user=user)
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                LearnerStats.objects.select_for_update().get(pk=user.pk)
                locked.set()
                release.wait(120)
        finally:
            connection.close()

    thread = threading.Thread(target=hold)
    thread.start()
    assert locked.wait(10)
    yield release
    release.set()
    thread.join()


def test_a_worker_killed_while_grading_is_replaced_and_the_submission_still_graded(
    learner_locked, live_worker, user_client, exercise
):
    # given a worker in the middle of grading (waiting for the learner's lock)
    submission_id = submit(user_client, exercise)
    wait_until(
        lambda: Submission.objects.filter(pk=submission_id, status="grading").exists(),
        timeout=20,
    )
    # when it is killed with SIGKILL (no chance to ack, reject or clean up)
    os.killpg(live_worker.process.pid, signal.SIGKILL)
    live_worker.process.wait()
    killed_at = time.monotonic()
    assert Submission.objects.get(pk=submission_id).status == "grading"
    # and a new worker starts on the same queue, the learner's lock released
    learner_locked.set()
    live_worker.start_again()
    # then the unacked message comes back after the visibility timeout and is graded
    submission = wait_until(
        lambda: Submission.objects.filter(pk=submission_id, status="graded").first(),
        timeout=WORKER_VISIBILITY_TIMEOUT * 4,
    )
    assert submission.passed
    assert submission.attempts == 2
    assert time.monotonic() - killed_at < WORKER_VISIBILITY_TIMEOUT * 4


def test_a_burst_is_graded_in_batches_through_a_real_worker_each_submission_once(
    live_worker, exercise
):
    from datetime import timedelta

    from django.utils import timezone

    from accounts.tests.factories import UserFactory
    from exercises.services import pipeline, queueing
    from exercises.tests.factories import SubmissionFactory
    from progress.selectors import xp_total

    # given twelve submissions by three learners, waiting in the queue (the workers are behind)
    learners = UserFactory.create_batch(3)
    waited_since = timezone.now() - pipeline.BACKLOG_AFTER - timedelta(seconds=1)
    submissions = [
        SubmissionFactory(exercise=exercise, user=learners[i % 3], content=GOOD_CSV)
        for i in range(12)
    ]
    Submission.objects.filter(pk__in=[s.pk for s in submissions]).update(
        created_at=waited_since, enqueued_at=waited_since
    )
    # when their messages reach the worker
    for submission in submissions:
        assert queueing.enqueue_grading(submission_id=submission.id, enqueued_at=waited_since)

    # then every one is graded once, the first task grading the others as a batch
    wait_until(
        lambda: not Submission.objects.exclude(status="graded").exists(),
        timeout=30,
    )
    assert set(Submission.objects.values_list("attempts", flat=True)) == {1}
    assert [xp_total(user_id=learner.id) for learner in learners] == [exercise.xp] * 3
    # and the others' own messages are dropped unrun (revoked) or, had one run first, skip
    log = wait_until(
        lambda: (
            (text := live_worker.log()).count("Discarding revoked task") + text.count("'skipped'")
            == 11
            and text
        ),
        timeout=10,
    )
    assert log.count("Discarding revoked task") >= 10
    assert log.count("'graded'") == 1
