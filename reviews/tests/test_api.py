"""Spaced review through the HTTP API: the queue, the summary, answers and their XP, sync."""

import uuid
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import reverse

from exercises.models import CheckState
from progress.models import LearnerDayXP, XPAward
from reviews.models import ReviewCard, ReviewLog
from reviews.services import REVIEW_XP_RIGHT, REVIEW_XP_WRONG
from reviews.tests.conftest import DAY, answer, checks_of, review, right_answer, wrong_answer

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 5, 4, 8, 0, tzinfo=UTC)


def missed(client, check, at=T0):
    with time_machine.travel(at, tick=False):
        assert answer(client, check, wrong_answer(check)).status_code == 200


def get(client, name, at):
    with time_machine.travel(at, tick=False):
        response = client.get(reverse(name))
    assert response.status_code == 200
    return response.json()


def test_a_missed_check_comes_due_the_next_day(user_client, lesson):
    check = checks_of(lesson)[1]
    missed(user_client, check)

    before = get(user_client, "me-reviews", T0 + timedelta(hours=1))
    after = get(user_client, "me-reviews", T0 + DAY + timedelta(minutes=1))

    assert before == {"due": 0, "next_due_at": "2026-05-05T08:00:00Z", "cards": []}
    assert after["due"] == 1
    assert after["next_due_at"] is None
    (card,) = after["cards"]
    assert card["lesson"] == {"slug": lesson.slug, "title": lesson.title}
    assert card["reps"] == 1
    assert card["check"]["id"] == check.pk
    assert card["check"]["kind"] == "check"
    assert card["check"]["html"].startswith("<p>")
    assert card["check"]["check"]["type"] == "choice"
    assert "correct" not in str(card["check"])
    assert "explanation" not in str(card["check"])


def test_the_summary_counts_the_due_cards(user_client, lesson):
    for check in checks_of(lesson):
        missed(user_client, check)

    summary = get(user_client, "me-reviews-summary", T0 + 2 * DAY)

    assert summary == {"due": 3, "next_due_at": None}
    assert get(user_client, "me-reviews-summary", T0) == {
        "due": 0,
        "next_due_at": "2026-05-05T08:00:00Z",
    }


def test_a_review_is_graded_with_the_lessons_feedback(user_client, lesson):
    check = checks_of(lesson)[0]
    with time_machine.travel(T0, tick=False):
        in_lesson = answer(user_client, check, {"value": "3072"}).json()

    with time_machine.travel(T0 + DAY, tick=False):
        body = review(user_client, check, {"value": "3072"}).json()

    assert body["feedback"] == in_lesson["feedback"]
    assert body["feedback"] == ["3,072 is 4 x d_model, the FFN size, not the head size."]
    assert body["correct"] is False
    assert body["solution"] == {"value": "64", "unit": "dimensions"}
    assert body["explanation"] == "768 / 12 = 64."
    assert body["scheduled"] is True
    assert body["rating"] == "again"
    assert body["xp_awarded"] == REVIEW_XP_WRONG
    assert body["due"] == "2026-05-06T08:00:00Z"


def test_a_review_leaves_the_lessons_standing_alone(user_client, user, lesson):
    check = checks_of(lesson)[0]
    missed(user_client, check)

    with time_machine.travel(T0 + DAY, tick=False):
        review(user_client, check, right_answer(check))

    state = CheckState.objects.get(user=user, check_block=check)
    assert (state.tries, state.passed_at) == (1, None)
    assert not XPAward.objects.filter(user=user, source_type="check").exists()


def test_a_review_pays_once_per_card_per_day_and_counts_for_goal_and_streak(
    user_client, user, lesson
):
    check = checks_of(lesson)[0]
    missed(user_client, check)
    with time_machine.travel(T0 + DAY, tick=False):
        user_client.put(reverse("me-daily-goal"), {"xp": 10}, format="json")

    with time_machine.travel(T0 + DAY, tick=False):
        first = review(user_client, check, right_answer(check)).json()
        again = review(user_client, check, right_answer(check)).json()
        progress = user_client.get(reverse("me-progress")).json()

    assert first["xp_awarded"] == REVIEW_XP_RIGHT
    assert (again["scheduled"], again["xp_awarded"]) == (False, 0)
    award = XPAward.objects.get(user=user, source_type="review")
    assert award.amount == REVIEW_XP_RIGHT
    assert award.source_id == ReviewLog.objects.get(source="review").pk
    # The XP-per-day rollup follows the ledger (on SQLite, by the trigger the source's
    # migration restores).
    assert LearnerDayXP.objects.get(user=user).xp == REVIEW_XP_RIGHT
    assert progress["daily_goal"]["xp_today"] == REVIEW_XP_RIGHT
    assert progress["streak"]["today"] == "done"
    assert progress["streak"]["current"] == 1


def test_a_card_not_due_is_graded_and_left_as_it_is(user_client, user, lesson):
    check = checks_of(lesson)[0]
    missed(user_client, check)
    due = ReviewCard.objects.get(user=user).due

    with time_machine.travel(T0 + timedelta(hours=3), tick=False):
        body = review(user_client, check, right_answer(check)).json()

    assert body["correct"] is True
    assert body["solution"] is None
    assert (body["scheduled"], body["rating"], body["xp_awarded"]) == (False, None, 0)
    assert ReviewCard.objects.get(user=user).due == due
    assert ReviewLog.objects.filter(source="review").count() == 0


def test_an_answer_sent_twice_is_scheduled_once(user_client, user, lesson):
    check = checks_of(lesson)[0]
    missed(user_client, check)
    event = str(uuid.uuid4())

    with time_machine.travel(T0 + DAY, tick=False):
        first = review(user_client, check, right_answer(check), id=event).json()
    with time_machine.travel(T0 + 5 * DAY, tick=False):
        resent = review(user_client, check, right_answer(check), id=event).json()

    assert (first["scheduled"], first["duplicate"]) == (True, False)
    assert (resent["scheduled"], resent["duplicate"]) == (False, True)
    assert ReviewLog.objects.filter(source="review").count() == 1
    assert XPAward.objects.filter(source_type="review").count() == 1


def test_no_card_before_the_check_is_answered_in_its_lesson(user_client, lesson):
    response = review(user_client, checks_of(lesson)[0], {"value": "64"})

    assert response.status_code == 404
    assert response.json()["type"] == "not_found"


@pytest.mark.parametrize(
    ("body", "status"),
    [({"value": "sixty-four"}, 400), ({"options": "nope"}, 400), ("64", 400)],
    ids=["unreadable number", "wrong shape", "not an object"],
)
def test_an_unreadable_answer_is_a_400_and_schedules_nothing(user_client, lesson, body, status):
    check = checks_of(lesson)[0]
    missed(user_client, check)

    with time_machine.travel(T0 + DAY, tick=False):
        response = review(user_client, check, body)

    assert response.status_code == status
    assert response.json()["type"] == "validation_error"
    assert ReviewLog.objects.filter(source="review").count() == 0


@pytest.mark.parametrize("extra", [{"duration_ms": -1}, {"duration_ms": "soon"}, {"id": 5}])
def test_bad_fields_are_400(user_client, lesson, extra):
    check = checks_of(lesson)[0]
    missed(user_client, check)

    response = review(user_client, check, right_answer(check), **extra)

    assert response.status_code == 400


def test_cards_of_a_lesson_made_a_draft_wait(user_client, user, lesson):
    check = checks_of(lesson)[0]
    missed(user_client, check)
    lesson.published = False
    lesson.save()

    queue = get(user_client, "me-reviews", T0 + 2 * DAY)
    with time_machine.travel(T0 + 2 * DAY, tick=False):
        response = review(user_client, check, right_answer(check))

    assert queue == {"due": 0, "next_due_at": None, "cards": []}
    assert response.status_code == 404


def test_signed_out_has_no_reviews(api_client, lesson):
    assert api_client.get(reverse("me-reviews")).status_code in (401, 403)
    assert api_client.get(reverse("me-reviews-summary")).status_code in (401, 403)
    assert review(api_client, checks_of(lesson)[0], {"value": "64"}).status_code in (401, 403)


# --- Offline ------------------------------------------------------------------------------------


def sync(client, answers, at):
    with time_machine.travel(at, tick=False):
        return client.post(
            reverse("me-reviews-sync"), {"device_id": "phone-1", "answers": answers}, format="json"
        )


def offline(check, body, at):
    return {
        "id": str(uuid.uuid4()),
        "check": check.pk,
        "answer": body,
        "answered_at": at.isoformat(),
    }


def test_offline_reviews_apply_in_the_order_answered_and_once(user_client, user, lesson):
    numeric, choice = checks_of(lesson)[:2]
    missed(user_client, numeric)
    missed(user_client, choice)
    answers = [
        offline(choice, right_answer(choice), T0 + DAY + timedelta(minutes=2)),
        offline(numeric, wrong_answer(numeric), T0 + DAY + timedelta(minutes=1)),
    ]

    first = sync(user_client, answers, T0 + 3 * DAY).json()
    second = sync(user_client, answers, T0 + 3 * DAY + timedelta(hours=1)).json()

    assert first == {
        "accepted": 2,
        "not_scheduled": 0,
        "duplicates": 0,
        "rejected": [],
        "xp_awarded": REVIEW_XP_RIGHT + REVIEW_XP_WRONG,
    }
    assert second["duplicates"] == 2
    assert second["accepted"] == second["xp_awarded"] == 0
    logs = ReviewLog.objects.filter(source="review").order_by("reviewed_at")
    assert [(log.card.check_block_id, log.rating) for log in logs] == [
        (numeric.pk, 1),
        (choice.pk, 3),
    ]
    assert logs[0].device_id == "phone-1"


def test_an_offline_answer_another_device_gave_after_is_graded_only(user_client, user, lesson):
    check = checks_of(lesson)[0]
    missed(user_client, check)
    with time_machine.travel(T0 + DAY + timedelta(hours=2), tick=False):
        review(user_client, check, right_answer(check))
    due = ReviewCard.objects.get(user=user).due

    body = sync(
        user_client,
        [offline(check, right_answer(check), T0 + DAY + timedelta(hours=1))],
        T0 + 2 * DAY,
    ).json()

    assert (body["accepted"], body["not_scheduled"], body["xp_awarded"]) == (1, 1, 0)
    assert ReviewCard.objects.get(user=user).due == due


def test_bad_offline_answers_are_rejected_with_reasons(user_client, user, lesson):
    numeric, choice = checks_of(lesson)[:2]
    missed(user_client, numeric)
    now = T0 + 2 * DAY
    answers = [
        offline(numeric, right_answer(numeric), now + DAY),
        offline(numeric, right_answer(numeric), user.date_joined - timedelta(days=400)),
        {**offline(numeric, {"value": "1"}, now), "check": 999_999},
        offline(choice, right_answer(choice), now),
        offline(numeric, {"value": "many"}, now),
    ]

    body = sync(user_client, answers, now).json()

    reasons = {r["id"]: r["reason"] for r in body["rejected"]}
    assert [reasons.get(a["id"]) for a in answers] == [
        "future_time",
        "too_old",
        "unknown_check",
        "no_card",
        "invalid_answer",
    ]
    assert body["accepted"] == 0


def test_more_than_500_offline_answers_is_a_413(user_client, lesson):
    check = checks_of(lesson)[0]
    answers = [offline(check, {"value": "1"}, T0)] * 501

    response = sync(user_client, answers, T0)

    assert response.status_code == 413
