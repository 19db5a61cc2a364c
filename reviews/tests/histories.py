"""Synthetic review histories for the optimizer's tests and bench/bench_reviews.py: learners
whose memory follows FSRS with `true` parameters review cards when the default scheduler says
they are due (up to two days late), recalling with the probability their memory gives."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import fsrs

START = datetime(2026, 1, 5, 7, 0, tzinfo=UTC)


def memory(growth: float) -> tuple[float, ...]:
    """The defaults but for how much a recall strengthens a memory (w8: 1.8722 by default): a
    quest whose lessons stick better than the defaults expect, when above it."""
    defaults = list(fsrs.scheduler.DEFAULT_PARAMETERS)
    defaults[8] = growth
    return tuple(defaults)


def histories(
    reviews: int, *, true: Sequence[float] | None = None, seed: int = 1
) -> list[list[tuple[datetime, int]]]:
    """Cards' histories, oldest review first, until there are `reviews` reviews in all."""
    rng = random.Random(seed)
    truth = fsrs.Scheduler(
        parameters=true or fsrs.scheduler.DEFAULT_PARAMETERS,
        learning_steps=(),
        relearning_steps=(),
        enable_fuzzing=False,
    )
    scheduler = fsrs.Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
    cards: list[list[tuple[datetime, int]]] = []
    total = 0
    while total < reviews:
        shown = known = fsrs.Card(card_id=1, due=START)
        at = START + timedelta(minutes=rng.randrange(60 * 24 * 60))
        history: list[tuple[datetime, int]] = []
        for _ in range(min(rng.randint(2, 10), reviews - total)):
            recall = truth.get_card_retrievability(known, at) if known.last_review else 0.7
            rating = fsrs.Rating.Good if rng.random() < recall else fsrs.Rating.Again
            history.append((at, int(rating)))
            shown, _ = scheduler.review_card(shown, rating, at)
            known, _ = truth.review_card(known, rating, at)
            at = shown.due + timedelta(minutes=rng.randrange(60 * 48))
        cards.append(history)
        total += len(history)
    return cards
