"""The schedule of a card: the `fsrs` package's (py-fsrs), never a formula of our own.

How an answer becomes an FSRS rating (the maintainer's advice for exercises: right is Good,
wrong is Again; "Hard" is a passing grade, never a wrong answer):

- in the lesson, until the check is passed: a first right answer is Good, a right answer after
  wrong ones Hard, a wrong or revealed one Again;
- on the Review page: right is Good, wrong Again;
- a right first answer given within EASY_WITHIN (the device measured it) is Easy.

Cards are scheduled in days, as reviews are asked: no (re)learning steps, so a missed check
comes back the next day, and a card is due at most once a day. The fuzz spreads cards that
would all come back on the same day (the library's, on the Review state only).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import fsrs

DESIRED_RETENTION = 0.9
MAXIMUM_INTERVAL_DAYS = 36500
# A right first answer this quick counts Easy (only when the device timed it).
EASY_WITHIN = timedelta(seconds=4)
# The library's fuzz: cards that would come due on one day spread over the days around it.
# Off in the tests that compare schedules to the day.
FUZZ = True
DEFAULT_PARAMETERS: tuple[float, ...] = tuple(fsrs.scheduler.DEFAULT_PARAMETERS)

Rating = fsrs.Rating
State = fsrs.State


def lesson_rating(
    *, correct: bool, first_try: bool, revealed: bool, duration_ms: int | None = None
) -> fsrs.Rating:
    """The rating of an answer given in the lesson, before the check was passed."""
    if revealed or not correct:
        return fsrs.Rating.Again
    if not first_try:
        return fsrs.Rating.Hard
    return _good_or_easy(duration_ms)


def review_rating(*, correct: bool, duration_ms: int | None = None) -> fsrs.Rating:
    """The rating of an answer given on the Review page."""
    return _good_or_easy(duration_ms) if correct else fsrs.Rating.Again


def _good_or_easy(duration_ms: int | None) -> fsrs.Rating:
    if duration_ms is not None and duration_ms <= EASY_WITHIN.total_seconds() * 1000:
        return fsrs.Rating.Easy
    return fsrs.Rating.Good


def scheduler(parameters: Sequence[float] | None = None) -> fsrs.Scheduler:
    """The scheduler of a quest: its adopted parameters, or the library's defaults."""
    return fsrs.Scheduler(
        parameters=tuple(parameters) if parameters else DEFAULT_PARAMETERS,
        desired_retention=DESIRED_RETENTION,
        learning_steps=(),
        relearning_steps=(),
        maximum_interval=MAXIMUM_INTERVAL_DAYS,
        enable_fuzzing=FUZZ,
    )


@dataclass(frozen=True)
class CardState:
    """A card's FSRS state as stored (reviews.models.ReviewCard's fields)."""

    state: int
    step: int | None
    stability: float | None
    difficulty: float | None
    due: datetime
    last_review: datetime | None

    @classmethod
    def new(cls, at: datetime) -> CardState:
        card = fsrs.Card(card_id=0, due=_utc(at))
        return cls.of(card)

    @classmethod
    def of(cls, card: fsrs.Card) -> CardState:
        return cls(
            state=int(card.state),
            step=card.step,
            stability=card.stability,
            difficulty=card.difficulty,
            due=card.due,
            last_review=card.last_review,
        )

    def card(self) -> fsrs.Card:
        return fsrs.Card(
            card_id=0,
            state=fsrs.State(self.state),
            step=self.step,
            stability=self.stability,
            difficulty=self.difficulty,
            due=_utc(self.due),
            last_review=_utc(self.last_review) if self.last_review else None,
        )


def review(
    before: CardState,
    rating: fsrs.Rating,
    at: datetime,
    *,
    parameters: Sequence[float] | None = None,
) -> CardState:
    """The card after a review rated `rating` at `at` (the library's `review_card`)."""
    after, _ = scheduler(parameters).review_card(before.card(), rating, _utc(at))
    return CardState.of(after)


def _utc(at: datetime) -> datetime:
    # The library takes UTC datetimes only (it compares tzinfo with datetime.timezone.utc).
    return at.astimezone(UTC)
