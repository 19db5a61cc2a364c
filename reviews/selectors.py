"""Reads of spaced review: the learner's due cards (the queue) and how many are due."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Min, Q, QuerySet

from accounts.models import User
from lessons import selectors as lessons
from reviews.models import ParameterFit, ReviewCard, ReviewLog

# The most cards one read of the queue returns (the device keeps them for offline reviews).
QUEUE_LIMIT = 100


def _cards(user: User) -> QuerySet[ReviewCard]:
    """The learner's cards of checks in lessons they may read (drafts' cards wait), each read
    with its check and lesson: joins, so a read of the learner's due cards checks only those."""
    return lessons.with_visible_checks(
        ReviewCard.objects.filter(user_id=user.pk),
        user=user,
        check="check_block",
        lesson="lesson",
        # Those the index on (user, due, id) carries: the table's pages are not read.
        fields=("due", "reps", "lapses"),
    )


@dataclass(frozen=True)
class ReviewSummary:
    due: int
    # When nothing is due: when the next card comes due (null: no card at all).
    next_due_at: datetime | None


def review_summary(*, user: User, now: datetime) -> ReviewSummary:
    """How many cards are due now, or when the next one comes due (1 query)."""
    counts = _cards(user).aggregate(
        due_now=Count("id", filter=Q(due__lte=now)), next_at=Min("due", filter=Q(due__gt=now))
    )
    due = counts["due_now"]
    return ReviewSummary(due=due, next_due_at=None if due else counts["next_at"])


@dataclass(frozen=True)
class Queue:
    summary: ReviewSummary
    cards: list[dict[str, Any]]


def due_queue(*, user: User, now: datetime) -> Queue:
    """The learner's due cards, longest due first (at most QUEUE_LIMIT), each with its check
    and lesson: 1 query (2 when none is due, or more than a read: then the summary counts)."""
    limit = QUEUE_LIMIT
    # Read through the index on (user, due, id): the due rows in order, the LIMIT stops it.
    rows = list(_cards(user).filter(due__lte=now).order_by("due", "id")[:limit])
    cards = [
        {
            "check_block_id": card.check_block_id,
            "due": card.due,
            "reps": card.reps,
            "lapses": card.lapses,
            "block": card.check_block,
            "lesson": {"slug": card.lesson.slug, "title": card.lesson.title},
        }
        for card in rows
    ]
    if not cards or len(cards) == limit:
        summary = review_summary(user=user, now=now)
    else:
        summary = ReviewSummary(due=len(cards), next_due_at=None)
    return Queue(summary=summary, cards=cards)


def quests_to_fit(*, min_reviews: int, growth: float = 0.1) -> list[int]:
    """The quests with at least `min_reviews` review logs, and `growth` more than at their
    last fit (or never fitted)."""
    counts = dict(
        ReviewLog.objects.values_list("quest_id").annotate(n=Count("id")).filter(n__gte=min_reviews)
    )
    last = dict(
        ParameterFit.objects.filter(quest_id__in=counts)
        .order_by("quest_id", "fitted_at")
        .values_list("quest_id", "reviews")
    )
    return sorted(q for q, n in counts.items() if q not in last or n >= last[q] * (1 + growth))
