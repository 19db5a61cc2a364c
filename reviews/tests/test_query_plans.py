"""The review reads stay bounded as learners grow: every query they run finds an index on the
tables that grow with the learners (PostgreSQL's EXPLAIN, sequential scans off)."""

from datetime import UTC, datetime

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from learning_platform.tests.test_query_plans import scans_of_growing_tables
from reviews.tests.conftest import DAY, answer, checks_of, review, right_answer, wrong_answer

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 5, 4, 8, 0, tzinfo=UTC)


@pytest.fixture
def missed(user_client, lesson):
    with time_machine.travel(T0, tick=False):
        for check in checks_of(lesson):
            answer(user_client, check, wrong_answer(check))
    return checks_of(lesson)


@pytest.mark.parametrize("name", ["me-reviews", "me-reviews-summary"])
def test_review_reads_use_indexes(user_client, missed, name):
    with time_machine.travel(T0 + DAY, tick=False), CaptureQueriesContext(connection) as seen:
        assert user_client.get(reverse(name)).status_code == 200

    assert scans_of_growing_tables([q["sql"] for q in seen.captured_queries]) == []


def test_a_review_answer_uses_indexes(user_client, missed):
    check = missed[0]
    with time_machine.travel(T0 + DAY, tick=False), CaptureQueriesContext(connection) as seen:
        review(user_client, check, right_answer(check))

    assert scans_of_growing_tables([q["sql"] for q in seen.captured_queries]) == []
