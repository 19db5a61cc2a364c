"""The SQL statements of the reviews API, pinned (bench/bench_reviews.py times the queue)."""

from datetime import UTC, datetime

import pytest
import time_machine
from django.urls import reverse

from reviews import selectors
from reviews.tests.conftest import DAY, answer, checks_of, review, right_answer, wrong_answer

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 5, 4, 8, 0, tzinfo=UTC)


@pytest.fixture
def due_cards(user_client, lesson):
    """Three cards, every one missed in the lesson a day before."""
    with time_machine.travel(T0, tick=False):
        for check in checks_of(lesson):
            answer(user_client, check, wrong_answer(check))
    return checks_of(lesson)


def test_a_review_answer_paying_xp_runs_nine(user_client, due_cards, django_assert_num_queries):
    first, second = due_cards[:2]
    # Warm, as a learner mid-queue is: today is already an active day.
    with time_machine.travel(T0 + DAY, tick=False):
        review(user_client, first, right_answer(first))

        # the check; a savepoint; the card (locked, with its quest's parameters); the card; the
        # log; the XP path (stats locked, ledger with the week's league XP by its trigger,
        # stats); the savepoint released
        with django_assert_num_queries(9):
            response = review(user_client, second, right_answer(second))
    assert response.json()["xp_awarded"] > 0


def test_a_review_of_a_card_not_due_runs_four(user_client, due_cards, django_assert_num_queries):
    check = due_cards[0]

    with time_machine.travel(T0, tick=False), django_assert_num_queries(4):
        review(user_client, check, right_answer(check))


def test_the_queue_runs_one(user_client, due_cards, django_assert_num_queries):
    # the due cards with their checks and lessons
    with time_machine.travel(T0 + DAY, tick=False), django_assert_num_queries(1):
        response = user_client.get(reverse("me-reviews"))
    assert response.json()["due"] == 3


def test_an_empty_queue_runs_two(user_client, due_cards, django_assert_num_queries):
    # no due card, then when the next one comes due
    with time_machine.travel(T0, tick=False), django_assert_num_queries(2):
        response = user_client.get(reverse("me-reviews"))
    assert response.json()["next_due_at"] is not None


def test_a_queue_longer_than_a_read_counts_them_all(
    monkeypatch, user_client, due_cards, django_assert_num_queries
):
    monkeypatch.setattr(selectors, "QUEUE_LIMIT", 2)

    # the first due cards, then all of them counted
    with time_machine.travel(T0 + DAY, tick=False), django_assert_num_queries(2):
        body = user_client.get(reverse("me-reviews")).json()
    assert (body["due"], len(body["cards"])) == (3, 2)


def test_the_summary_runs_one(user_client, due_cards, django_assert_num_queries):
    with time_machine.travel(T0 + DAY, tick=False), django_assert_num_queries(1):
        user_client.get(reverse("me-reviews-summary"))
