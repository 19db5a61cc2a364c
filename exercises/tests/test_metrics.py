"""Grading latency, from a submission's creation to its committed grade, in /metrics."""

import pytest

from exercises import tasks
from exercises.tests.conftest import post_table as post
from exercises.tests.factories import SubmissionFactory

pytestmark = pytest.mark.django_db

LATENCY = "lp_grading_latency_seconds_count"


def test_a_graded_submission_moves_the_grading_latency(
    user_client, exercise, scrape, django_capture_on_commit_callbacks
):
    before = scrape()

    with django_capture_on_commit_callbacks(execute=True):
        assert post(user_client, exercise).status_code == 202

    after = scrape()
    assert after.value(LATENCY, outcome="graded") == before.value(LATENCY, outcome="graded") + 1
    assert after.value("lp_grading_latency_seconds_sum", outcome="graded") >= 0


def test_a_submission_the_parser_refuses_counts_as_invalid(
    exercise, scrape, django_capture_on_commit_callbacks
):
    submission = SubmissionFactory(exercise=exercise, content="model,d_model\nGPT-2,768,1\n")
    before = scrape()

    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.grade_submission.delay(submission.id).get() == "invalid"

    after = scrape()
    assert after.value(LATENCY, outcome="invalid") == before.value(LATENCY, outcome="invalid") + 1
