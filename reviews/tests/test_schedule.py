"""A card's schedule is the `fsrs` library's: answer histories given through the API, each
compared with the library's own scheduler replaying the ratings they stand for."""

import random
import uuid
from datetime import UTC, datetime, timedelta

import fsrs
import pytest
import time_machine
from django.urls import reverse

from reviews import scheduling
from reviews.models import ReviewCard, ReviewLog
from reviews.tests.conftest import DAY, answer, checks_of, review, right_answer, wrong_answer

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)
MINUTE = timedelta(minutes=1)
AGAIN, HARD, GOOD, EASY = (fsrs.Rating.Again, fsrs.Rating.Hard, fsrs.Rating.Good, fsrs.Rating.Easy)

# (what, when) steps: ("lesson", right?) an answer in the lesson; ("review", right?) on the
# Review page; ("offline", right?, synced after) a review answered offline, synced later;
# ("zone", name) the learner moves. `when` counts from T0; "due" is the card's due time then
# (plus a margin). Each case ends with the ratings the library is expected to have seen.
CASES = {
    "first answer right: good, then good at each due date": (
        [("lesson", True, timedelta(0)), ("review", True, "due"), ("review", True, "due")],
        [GOOD, GOOD, GOOD],
    ),
    "wrong, then right after retries: again, hard": (
        [("lesson", False, timedelta(0)), ("lesson", False, MINUTE), ("lesson", True, 2 * MINUTE)],
        [AGAIN, AGAIN, HARD],
    ),
    "answers after the check is passed leave the card to the reviews": (
        [("lesson", True, timedelta(0)), ("lesson", False, MINUTE), ("lesson", True, 2 * MINUTE)],
        [GOOD],
    ),
    "a missed review comes back the next day": (
        [("lesson", True, timedelta(0)), ("review", False, "due"), ("review", True, "due")],
        [GOOD, AGAIN, GOOD],
    ),
    "a review before the card is due is graded only": (
        [
            ("lesson", True, timedelta(0)),
            ("review", True, 12 * timedelta(hours=1)),
            ("review", True, "due"),
        ],
        [GOOD, GOOD],
    ),
    "an answer synced days late schedules from when it was given": (
        [
            ("lesson", False, timedelta(0)),
            ("offline", True, "due", 3 * DAY),
            ("review", True, "due"),
        ],
        [AGAIN, GOOD, GOOD],
    ),
    "a right answer after the answer was shown counts again": (
        [
            ("lesson", False, timedelta(0)),
            ("lesson", False, MINUTE),
            ("lesson", False, 2 * MINUTE),
            ("reveal", 3 * MINUTE),
            ("lesson", True, 4 * MINUTE),
        ],
        [AGAIN, AGAIN, AGAIN, AGAIN],
    ),
    "lesson answers kept signed out are scheduled as given when synced at sign-in": (
        [("signed out", False, timedelta(0), DAY), ("signed out", True, MINUTE, DAY)],
        [AGAIN, HARD],
    ),
    "a learner who changes time zone keeps the schedule": (
        [
            ("lesson", True, timedelta(0)),
            ("zone", "Pacific/Kiritimati"),
            ("review", True, "due"),
            ("zone", "Pacific/Pago_Pago"),
            ("review", False, "due"),
            ("review", True, "due"),
        ],
        [GOOD, GOOD, AGAIN, GOOD],
    ),
}


def library_card(ratings_at):
    scheduler = fsrs.Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
    card = fsrs.Card(card_id=1)
    for rating, at in ratings_at:
        card, _ = scheduler.review_card(card, rating, at)
    return card


def play(client, user, check, steps):
    """Run the steps through the API; the times of the answers that were scheduled."""
    at = T0
    for step in steps:
        kind = step[0]
        if kind == "zone":
            user.time_zone = step[1]
            user.save(update_fields=["time_zone"])
            continue
        if kind == "reveal":
            with time_machine.travel(T0 + step[1], tick=False):
                assert client.post(reverse("check-reveal", args=[check.pk])).status_code == 200
            continue
        when = step[2]
        if when == "due":
            at = ReviewCard.objects.get(user=user, check_block=check).due + 5 * MINUTE
        else:
            at = T0 + when
        body = right_answer(check) if step[1] else wrong_answer(check)
        if kind == "lesson":
            with time_machine.travel(at, tick=False):
                assert answer(client, check, body).status_code == 200
        elif kind == "signed out":  # answered on a device signed out, synced at sign-in
            item = {"id": str(uuid.uuid4()), "check": check.pk, "answer": body}
            with time_machine.travel(at + step[3], tick=False):
                response = client.post(
                    reverse("me-checks-sync"),
                    {"device_id": "laptop", "answers": [{**item, "answered_at": at.isoformat()}]},
                    format="json",
                )
            assert response.json()["accepted"] == 1
        elif kind == "review":
            with time_machine.travel(at, tick=False):
                assert review(client, check, body).status_code == 200
        else:  # offline: answered at `at`, synced later
            item = {"id": str(uuid.uuid4()), "check": check.pk, "answer": body}
            with time_machine.travel(at + step[3], tick=False):
                response = client.post(
                    reverse("me-reviews-sync"),
                    {"device_id": "phone", "answers": [{**item, "answered_at": at.isoformat()}]},
                    format="json",
                )
            assert response.json()["accepted"] == 1


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_the_schedule_is_the_librarys(user_client, user, lesson, case):
    steps, ratings = CASES[case]
    check = checks_of(lesson)[0]

    play(user_client, user, check, steps)

    logs = list(ReviewLog.objects.filter(card__check_block=check).order_by("reviewed_at"))
    assert [log.rating for log in logs] == [int(r) for r in ratings]
    expected = library_card([(r, log.reviewed_at) for r, log in zip(ratings, logs, strict=True)])
    card = ReviewCard.objects.get(user=user, check_block=check)
    assert card.due == expected.due
    assert card.state == expected.state
    assert card.stability == pytest.approx(expected.stability, abs=1e-9)
    assert card.difficulty == pytest.approx(expected.difficulty, abs=1e-9)
    assert card.last_review == expected.last_review


@pytest.mark.parametrize(
    ("ratings", "days"),
    [
        ([GOOD, GOOD, GOOD, GOOD], [2, 11, 46, 163]),
        ([AGAIN, GOOD, GOOD, GOOD], [1, 2, 6, 17]),
        ([GOOD, GOOD, AGAIN, GOOD], [2, 11, 2, 5]),
    ],
    ids=["good x4", "again then good", "a lapse"],
)
def test_golden_intervals_each_answer_on_its_due_day(user_client, user, lesson, ratings, days):
    """The library's published intervals (py-fsrs 6, no steps, no fuzz), through the API."""
    check = checks_of(lesson)[0]
    first, *rest = ratings
    at = T0
    with time_machine.travel(at, tick=False):
        answer(user_client, check, right_answer(check) if first == GOOD else wrong_answer(check))
    intervals = []
    for rating in rest:
        card = ReviewCard.objects.get(user=user, check_block=check)
        intervals.append((card.due - at).days)
        at = card.due
        with time_machine.travel(at, tick=False):
            body = right_answer(check) if rating == GOOD else wrong_answer(check)
            assert review(user_client, check, body).json()["scheduled"] is True
    card = ReviewCard.objects.get(user=user, check_block=check)
    intervals.append((card.due - at).days)

    assert intervals == days


def test_a_quick_right_review_counts_easy(user_client, user, lesson):
    check = checks_of(lesson)[0]
    with time_machine.travel(T0, tick=False):
        answer(user_client, check, right_answer(check))
    due = ReviewCard.objects.get(user=user).due

    with time_machine.travel(due, tick=False):
        body = review(user_client, check, right_answer(check), duration_ms=2500).json()

    assert body["rating"] == "easy"
    expected = library_card([(GOOD, T0), (EASY, due)])
    assert ReviewCard.objects.get(user=user).due == expected.due


def test_with_fuzz_the_due_day_is_the_librarys_draw(monkeypatch, user_client, user, lesson):
    monkeypatch.setattr(scheduling, "FUZZ", True)
    check = checks_of(lesson)[0]
    with time_machine.travel(T0, tick=False):
        answer(user_client, check, right_answer(check))
    at = ReviewCard.objects.get(user=user).due
    for _ in range(3):
        random.seed(7)
        with time_machine.travel(at, tick=False):
            review(user_client, check, right_answer(check))
        at = ReviewCard.objects.get(user=user).due

    scheduler = fsrs.Scheduler(learning_steps=(), relearning_steps=())
    card, _ = scheduler.review_card(fsrs.Card(card_id=1), GOOD, T0)
    for _ in range(3):
        random.seed(7)
        card, _ = scheduler.review_card(card, GOOD, card.due)
    assert at == card.due
