"""Per-quest FSRS parameters: fitted by fsrs-rs-python from the quest's review logs, used only
when they beat the defaults on held-out logs, and never moving a due date already set."""

from datetime import UTC, datetime, timedelta

import fsrs
import pytest
import time_machine

from accounts.models import User
from lessons.tests.factories import CheckBlockFactory, LessonFactory, QuestFactory
from reviews import fitting, selectors, tasks
from reviews.models import ParameterFit, ReviewCard, ReviewLog
from reviews.tests.conftest import DAY, answer, review, right_answer
from reviews.tests.histories import histories, memory

pytestmark = pytest.mark.django_db


def store(check, cards):
    """The histories as review logs of the check's cards, one learner each."""
    users = User.objects.bulk_create(
        User(email=f"fit{check.pk}-{n}@example.com", public_handle=f"fit{check.pk}x{n}")
        for n in range(len(cards))
    )
    rows = ReviewCard.objects.bulk_create(
        ReviewCard(
            user=user,
            check_block=check,
            lesson=check.lesson,
            quest=check.lesson.quest,
            due=history[-1][0] + DAY,
            last_review=history[-1][0],
            stability=1.0,
            difficulty=5.0,
            state=2,
            reps=len(history),
        )
        for user, history in zip(users, cards, strict=True)
    )
    ReviewLog.objects.bulk_create(
        ReviewLog(
            user=card.user,
            card=card,
            quest=check.lesson.quest,
            source="review",
            rating=rating,
            state_before=0 if n == 0 else 2,
            correct=rating > 1,
            reviewed_at=at,
            due_after=at + DAY,
            stability_after=1.0,
            difficulty_after=5.0,
        )
        for card, history in zip(rows, cards, strict=True)
        for n, (at, rating) in enumerate(history)
    )


@pytest.fixture
def quest_check():
    quest = QuestFactory()
    return CheckBlockFactory(lesson=LessonFactory(quest=quest))


def test_a_fit_that_predicts_better_than_the_defaults_is_adopted():
    fit = fitting.fit(histories(3000, true=memory(growth=2.6), seed=3))

    assert fit.adopted
    assert fit.log_loss < fit.default_log_loss
    assert fit.rmse <= fit.default_rmse
    assert fit.reviews == 3000
    assert len(fit.parameters) == len(fsrs.scheduler.DEFAULT_PARAMETERS)


def test_a_fit_no_better_than_the_defaults_is_not_adopted():
    fit = fitting.fit(histories(3000, seed=4))

    assert not fit.adopted


def test_too_few_reviews_a_day_apart_cannot_be_fitted():
    same_day = [
        [(datetime(2026, 1, 1, 9, tzinfo=UTC), 3), (datetime(2026, 1, 1, 10, tzinfo=UTC), 3)]
    ]

    with pytest.raises(fitting.NotEnoughReviews):
        fitting.fit(same_day)


def test_the_daily_task_fits_quests_with_a_thousand_reviews_once_they_grow(
    quest_check, django_capture_on_commit_callbacks
):
    small = CheckBlockFactory()
    store(small, histories(900, seed=5))
    store(quest_check, histories(1500, true=memory(growth=2.6), seed=6))

    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            tasks.fit_parameters()

    (fit,) = ParameterFit.objects.all()
    assert fit.quest_id == quest_check.lesson.quest_id
    assert fit.reviews == 1500
    assert fit.adopted
    assert selectors.quests_to_fit(min_reviews=fitting.MIN_REVIEWS) == []


def test_new_parameters_schedule_the_reviews_to_come_never_the_past(user_client, user, quest_check):
    t0 = datetime(2026, 6, 1, 9, tzinfo=UTC)
    with time_machine.travel(t0, tick=False):
        answer(user_client, quest_check, right_answer(quest_check))
    due = ReviewCard.objects.get(user=user).due
    store(quest_check, histories(1500, true=memory(growth=2.6), seed=6))
    tasks.fit_quest_parameters(quest_check.lesson.quest_id)
    fit = ParameterFit.objects.get()

    assert fit.adopted
    assert ReviewCard.objects.get(user=user).due == due
    with time_machine.travel(due + timedelta(minutes=1), tick=False):
        review(user_client, quest_check, right_answer(quest_check))
    scheduler = fsrs.Scheduler(
        parameters=fit.parameters, learning_steps=(), relearning_steps=(), enable_fuzzing=False
    )
    defaults = fsrs.Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
    card, _ = defaults.review_card(fsrs.Card(card_id=1), fsrs.Rating.Good, t0)
    card, _ = scheduler.review_card(card, fsrs.Rating.Good, due + timedelta(minutes=1))
    assert ReviewCard.objects.get(user=user).due == card.due
