"""The SQL statements of one answer to a check, pinned (bench/bench_checks.py prints them)."""

import pytest

from exercises.tests.conftest import answer, checks_of, right_answer

pytestmark = pytest.mark.django_db


def test_signed_out_answer_runs_one_statement(api_client, lesson, django_assert_num_queries):
    check = checks_of(lesson)[0]

    with django_assert_num_queries(1):
        answer(api_client, check, right_answer(check))


def test_wrong_answer_of_a_check_tried_before_runs_twelve(
    user_client, lesson, django_assert_num_queries
):
    check = checks_of(lesson)[0]
    answer(user_client, check, {"value": "1"})

    # 9, and 3 for its review card (reviews.services.record_lesson_answer): locked, saved, logged.
    with django_assert_num_queries(12):
        answer(user_client, check, {"value": "2"})


def test_first_right_answer_paying_xp_runs_nineteen(user_client, lesson, django_assert_num_queries):
    warm_up, check = checks_of(lesson)[1], checks_of(lesson)[0]
    # Warm, as a learner mid-lesson is: what a process caches on a first pass is cached,
    # and today is already an active day.
    answer(user_client, warm_up, right_answer(warm_up))
    answer(user_client, check, {"value": "1"})

    # 15, 3 for its review card, 1 for the lesson's LTI line items (lti: none here); the week's
    # league XP is the ledger's trigger's, in its insert.
    with django_assert_num_queries(19):
        answer(user_client, check, right_answer(check))
