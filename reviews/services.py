"""Writes of spaced review: a card for every check a learner answers, and its reviews.

A card is made by the learner's first answer to a check in its lesson, and every answer there
until the check is passed is a review of it (reviews/scheduling.py says how each is rated). The
Review page then asks the card again whenever it is due: graded by the lesson's own rules
(`exercises.services.checks.grade_review`, the same feedback), scheduled by FSRS, logged.

Only a due card is scheduled: an answer to a card not due yet (a retry after a wrong review,
an offline answer another device already gave) is graded and changes nothing. A review pays
a little XP through the one XP path (`progress.services.award_xp`, source "review"), once per
card per local day; the daily goal and the streak count it like any XP.

A card's schedule never moves back in time: a review is applied only at or after the card's
last one, and new parameters for a quest schedule the reviews to come, never the past ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, cast

from django.db import transaction
from django.db.models import F, OuterRef, QuerySet, Subquery

from accounts.models import User
from exercises.events import CheckAnswered
from exercises.services import checks as check_services
from learning_platform import clock
from learning_platform.errors import InvalidField, NotFound
from progress import selectors as progress_selectors
from progress import services as progress
from reviews import events, fitting, scheduling
from reviews.models import ParameterFit, ReviewCard, ReviewLog

# XP for a due card answered on the Review page: a right answer, a wrong one (a try at
# recalling is practice too; the queue bounds it: a card is due at most once a day).
REVIEW_XP_RIGHT = 2
REVIEW_XP_WRONG = 1
MAX_SYNCED_REVIEWS = 500


class CardNotFound(NotFound):
    default_detail = "No review card for this check: answer it in its lesson first."


def _adopted_parameters(quest_id: Any) -> Subquery:
    return Subquery(
        ParameterFit.objects.filter(quest_id=quest_id, adopted=True)
        .order_by("-fitted_at")
        .values("parameters")[:1]
    )


def _locked_cards(user_id: int, check_id: int) -> QuerySet[ReviewCard]:
    """The learner's card for the check, locked, with its quest's adopted parameters."""
    return (
        ReviewCard.objects.select_for_update(of=("self",))
        .filter(user_id=user_id, check_block_id=check_id)
        .annotate(fitted=_adopted_parameters(OuterRef("quest_id")))
    )


def _fitted(card: ReviewCard) -> list[float] | None:
    """The quest's adopted parameters, read with the card (`_locked_cards`)."""
    return cast(list[float] | None, getattr(card, "fitted", None))


def _state_of(card: ReviewCard) -> scheduling.CardState:
    return scheduling.CardState(
        state=card.state,
        step=card.step,
        stability=card.stability,
        difficulty=card.difficulty,
        due=card.due,
        last_review=card.last_review,
    )


def _apply(card: ReviewCard, after: scheduling.CardState, rating: scheduling.Rating) -> None:
    card.state = after.state
    card.step = after.step
    card.stability = after.stability
    card.difficulty = after.difficulty
    card.due = after.due
    card.last_review = after.last_review
    card.reps += 1
    if rating == scheduling.Rating.Again and card.reps > 1:
        card.lapses += 1


def _log(
    card: ReviewCard,
    *,
    source: str,
    rating: scheduling.Rating,
    state_before: int,
    correct: bool,
    at: datetime,
    duration_ms: int | None,
    xp: int = 0,
    day: date | None = None,
    event_id: str = "",
    device_id: str = "",
) -> ReviewLog:
    # A reviewed card always has both (the library sets them on its first review).
    assert card.stability is not None
    assert card.difficulty is not None
    return ReviewLog.objects.create(
        user_id=card.user_id,
        card=card,
        quest_id=card.quest_id,
        source=source,
        rating=int(rating),
        state_before=state_before,
        correct=correct,
        reviewed_at=at,
        duration_ms=duration_ms,
        due_after=card.due,
        stability_after=card.stability,
        difficulty_after=card.difficulty,
        xp_awarded=xp,
        day=day,
        event_id=event_id,
        device_id=device_id,
    )


def _state_before(card: ReviewCard) -> int:
    return ReviewLog.StateBefore.NEW if card.reps == 0 else card.state


def record_lesson_answer(event: CheckAnswered) -> None:
    """Make or review the learner's card for a check answered in its lesson (the hook
    `exercises.check_answered`, in the answer's transaction). Answers after the check was
    passed leave the card to the Review page; one older than the card's last review (a device
    that synced late) leaves it as it is."""
    if event.passed_before:
        return
    rating = scheduling.lesson_rating(
        correct=event.correct,
        first_try=event.first_try,
        revealed=event.revealed,
        duration_ms=event.duration_ms,
    )
    # The learner's standing on the check is locked by the caller: answers apply one by one.
    card = _locked_cards(event.user_id, event.check_id).first()
    if card is None:
        fitted = ParameterFit.objects.filter(quest_id=event.quest_id, adopted=True).order_by(
            "-fitted_at"
        )
        parameters = fitted.values_list("parameters", flat=True).first()
        card = ReviewCard(
            user_id=event.user_id,
            check_block_id=event.check_id,
            lesson_id=event.lesson_id,
            quest_id=event.quest_id,
        )
        before = scheduling.CardState.new(event.answered_at)
    else:
        parameters = _fitted(card)
        if card.last_review is not None and event.answered_at < card.last_review:
            return
        before = _state_of(card)
    state_before = _state_before(card)
    after = scheduling.review(before, rating, event.answered_at, parameters=parameters)
    _apply(card, after, rating)
    card.save()
    _log(
        card,
        source=ReviewLog.Source.LESSON,
        rating=rating,
        state_before=state_before,
        correct=event.correct,
        at=event.answered_at,
        duration_ms=event.duration_ms,
    )


@dataclass(frozen=True)
class ReviewOutcome:
    correct: bool
    feedback: list[str]
    marks: dict[str, dict[str, Any]]
    explanation: str
    # The right answer, in the answer's shape: shown after a wrong answer.
    solution: dict[str, Any] | None
    # False when the card was not due at the answer (graded only) or the answer was resent.
    scheduled: bool
    rating: str | None
    due: datetime
    xp_awarded: int
    duplicate: bool = False


def answer_review(
    *,
    user: User,
    check_id: int,
    answer: Any,
    answered_at: datetime | None = None,
    duration_ms: int | None = None,
    event_id: str = "",
    device_id: str = "",
) -> ReviewOutcome:
    """Grade the learner's answer to a card as its lesson would, and, when the card is due,
    schedule it (FSRS), log it and pay its XP once per card per day. An answer whose `event_id`
    was logged already changes nothing (`duplicate`). Raises CheckNotFound (no such check, or
    its lesson is a draft), CardNotFound (never answered in the lesson), InvalidInput."""
    graded = check_services.grade_review(user=user, check_id=check_id, answer=answer)
    with transaction.atomic():
        return _review(
            user=user,
            graded=graded,
            at=answered_at or clock.now(),
            duration_ms=duration_ms,
            event_id=event_id,
            device_id=device_id,
        )


def _review(
    *,
    user: User,
    graded: check_services.ReviewGrade,
    at: datetime,
    duration_ms: int | None,
    event_id: str,
    device_id: str,
) -> ReviewOutcome:
    card = _locked_cards(user.pk, graded.check_id).first()
    if card is None:
        raise CardNotFound()
    duplicate = bool(event_id) and ReviewLog.objects.filter(user=user, event_id=event_id).exists()
    if duplicate or card.due > at or (card.last_review is not None and at < card.last_review):
        return _outcome(graded, card, rating=None, xp=0, duplicate=duplicate)
    rating = scheduling.review_rating(correct=graded.correct, duration_ms=duration_ms)
    state_before = _state_before(card)
    after = scheduling.review(_state_of(card), rating, at, parameters=_fitted(card))
    _apply(card, after, rating)
    day = progress_selectors.today_in(user.tzinfo, at=at)
    xp = 0
    if card.xp_day != day:
        xp = REVIEW_XP_RIGHT if graded.correct else REVIEW_XP_WRONG
        card.xp_day = day
    card.save()
    log = _log(
        card,
        source=ReviewLog.Source.REVIEW,
        rating=rating,
        state_before=state_before,
        correct=graded.correct,
        at=at,
        duration_ms=duration_ms,
        xp=xp,
        day=day if xp else None,
        event_id=event_id,
        device_id=device_id,
    )
    if xp:
        progress.award_xp(awards=[progress.Award(user.pk, "review", log.pk, xp, at)])
    events.review_answered.announce(
        events.ReviewAnswered(
            log_id=log.pk,
            user_id=user.pk,
            check_id=card.check_block_id,
            lesson_id=card.lesson_id,
            correct=graded.correct,
            rating=rating.name.lower(),
            reviewed_at=at,
            duration_ms=duration_ms,
        )
    )
    return _outcome(graded, card, rating=rating, xp=xp)


def _outcome(
    graded: check_services.ReviewGrade,
    card: ReviewCard,
    *,
    rating: scheduling.Rating | None,
    xp: int,
    duplicate: bool = False,
) -> ReviewOutcome:
    return ReviewOutcome(
        correct=graded.correct,
        feedback=graded.feedback,
        marks=graded.marks,
        explanation=graded.explanation,
        solution=None if graded.correct else graded.solution,
        scheduled=rating is not None,
        rating=rating.name.lower() if rating is not None else None,
        due=card.due,
        xp_awarded=xp,
        duplicate=duplicate,
    )


@dataclass(frozen=True)
class SyncedReviews:
    accepted: int
    not_scheduled: int
    duplicates: int
    rejected: list[dict[str, Any]]
    xp_awarded: int


def sync_reviews(*, user: User, device_id: str, answers: Sequence[dict[str, Any]]) -> SyncedReviews:
    """Grade and schedule the reviews a device answered offline, in the order they were
    answered (`answered_at`), each as if it had reached the server then: a card due at that
    time is scheduled from it, one that was not (or a review another device gave after it) is
    only graded. Replaying a batch changes nothing: each answer's `id` is logged once. Each bad
    answer is rejected with a reason (unknown_check, no_card, invalid_answer, future_time,
    too_old) and the rest still applies. `answers` are SyncReviewSerializer's."""
    now = clock.now()
    not_before = user.date_joined - progress.OFFLINE_HISTORY_LIMIT
    accepted = not_scheduled = duplicates = xp = 0
    rejected: list[dict[str, Any]] = []
    for item in sorted(answers, key=lambda a: cast(datetime, a["answered_at"])):
        reason = _rejection(item, now=now, not_before=not_before)
        if reason is None:
            try:
                outcome = answer_review(
                    user=user,
                    check_id=item["check"],
                    answer=item["answer"],
                    answered_at=item["answered_at"],
                    duration_ms=item.get("duration_ms"),
                    event_id=item["id"],
                    device_id=device_id,
                )
            except check_services.CheckNotFound:
                reason = ("unknown_check", "No such check.")
            except CardNotFound:
                reason = ("no_card", CardNotFound.default_detail)
            except InvalidField as exc:
                reason = ("invalid_answer", _first_error(exc))
        if reason is not None:
            rejected.append({"id": item["id"], "reason": reason[0], "detail": reason[1]})
        elif outcome.duplicate:
            duplicates += 1
        else:
            accepted += 1
            not_scheduled += not outcome.scheduled
            xp += outcome.xp_awarded
    return SyncedReviews(
        accepted=accepted,
        not_scheduled=not_scheduled,
        duplicates=duplicates,
        rejected=rejected,
        xp_awarded=xp,
    )


def _rejection(
    item: dict[str, Any], *, now: datetime, not_before: datetime
) -> tuple[str, str] | None:
    if item["answered_at"] > now + progress.ALLOWED_CLOCK_SKEW:
        return ("future_time", "answered_at is in the future.")
    if item["answered_at"] < not_before:
        return ("too_old", "answered_at is long before this account existed.")
    return None


def _first_error(exc: InvalidField) -> str:
    messages = [str(m) for ms in (exc.errors or {}).values() for m in ms]
    return messages[0] if messages else str(exc)


# A fit reads at most this many reviews of a quest (whole cards' histories, a fixed sample of
# cards beyond it): the optimizer takes about 1.5 s per 100,000 on one core.
MAX_FIT_REVIEWS = 1_000_000


def fit_quest_parameters(*, quest_id: int) -> ParameterFit | None:
    """Fit FSRS parameters to the quest's review logs and keep the fit (adopted only when it
    beat the defaults on the held-out logs). None below `fitting.MIN_REVIEWS` logs. The
    quest's cards keep their due dates: the new parameters schedule the reviews to come."""
    logs = ReviewLog.objects.filter(quest_id=quest_id)
    total = logs.count()
    if total < fitting.MIN_REVIEWS:
        return None
    # Every n-th card when there are too many: the sample is the same from one fit to the next.
    every = -(-total // MAX_FIT_REVIEWS)
    if every > 1:
        logs = logs.alias(sample=F("card_id") % every).filter(sample=0)
    histories: dict[int, list[tuple[datetime, int]]] = {}
    for card_id, at, rating in (
        logs.order_by("card_id", "reviewed_at", "id")
        .values_list("card_id", "reviewed_at", "rating")
        .iterator(chunk_size=10_000)
    ):
        histories.setdefault(card_id, []).append((at, rating))
    try:
        fit = fitting.fit(histories.values())
    except fitting.NotEnoughReviews:
        return None
    return ParameterFit.objects.create(
        quest_id=quest_id,
        fitted_at=clock.now(),
        parameters=fit.parameters,
        reviews=fit.reviews,
        train_items=fit.train_items,
        test_items=fit.test_items,
        log_loss=fit.log_loss,
        rmse=fit.rmse,
        default_log_loss=fit.default_log_loss,
        default_rmse=fit.default_rmse,
        adopted=fit.adopted,
        seconds=fit.seconds,
    )
