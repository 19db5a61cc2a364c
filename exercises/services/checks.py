"""Answering a lesson's checks: the one grading service for every kind of check.

Numeric, choice and ordering checks are cheap: graded here, in the request, by the rules of
`lessons.checks`. (Tables go to the worker: `exercises.services.submissions`.) A check pays its
share of the lesson's XP on its first right answer, through the one XP path
(`progress.services.award_xp`, source "check": the ledger's unique key pays it once, whatever
the concurrency or a replayed sync); a revealed check pays nothing. A lesson is complete when
all its checks, and its table exercise if it has one, are passed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction

from accounts.models import Requester, User
from exercises import events
from exercises.models import CheckAnswer, CheckState, Exercise, Submission
from learning_platform import clock
from learning_platform.errors import Conflict, InvalidField, NotFound
from lessons import checks
from lessons import selectors as lessons
from progress import services as progress


class CheckNotFound(NotFound):
    default_detail = "No such check (or its lesson is a draft)."


class RevealTooEarly(Conflict):
    code = "reveal_not_allowed"
    default_detail = "Try the check a few more times before revealing its answer."


@dataclass(frozen=True)
class LessonChecks:
    """Where the learner stands with the lesson's checks after an answer."""

    slug: str
    checks_passed: int
    checks_total: int
    complete: bool
    # True when this answer completed the lesson.
    completed_now: bool = False


@dataclass(frozen=True)
class CheckOutcome:
    correct: bool
    feedback: list[str]
    marks: dict[str, dict[str, Any]]
    explanation: str | None
    tries: int
    wrong_tries: int
    can_reveal: bool
    passed: bool
    revealed: bool
    xp_awarded: int
    lesson: LessonChecks | None = None
    new_achievements: list[Mapping[str, Any]] = field(default_factory=list)
    duplicate: bool = False


def _check(check_id: int, user: Requester | None) -> lessons.CheckOfLesson:
    check = lessons.check_of_lesson(check_id=check_id, user=user)
    if check is None:
        raise CheckNotFound()
    return check


def _grade(spec: dict[str, Any], answer: Any) -> checks.Grade:
    try:
        return checks.grade(spec, answer)
    except checks.InvalidAnswer as exc:
        raise InvalidField("answer", str(exc)) from exc


def grade_answer(*, check_id: int, answer: Any) -> CheckOutcome:
    """Grade an answer without recording it (a learner signed out: their device keeps it).

    Raises CheckNotFound, or InvalidInput when the answer cannot be read.
    """
    check = _check(check_id, None)
    return _preview_outcome(check["spec"], _grade(check["spec"], answer))


def _preview_outcome(spec: dict[str, Any], grade: checks.Grade) -> CheckOutcome:
    """An answer graded and not recorded: no tries counted, nothing paid."""
    return CheckOutcome(
        correct=grade.correct,
        feedback=grade.feedback,
        marks=grade.marks,
        explanation=spec["explanation"] if grade.correct else None,
        tries=0,
        wrong_tries=0,
        can_reveal=False,
        passed=grade.correct,
        revealed=False,
        xp_awarded=0,
    )


@dataclass(frozen=True)
class ReviewGrade:
    """An answer to a check graded as in its lesson, for a review of it: the same feedback,
    the explanation and the solution shown whatever the answer. Not recorded here (the
    lesson's standing is left alone: reviews keep their own log)."""

    check_id: int
    lesson_id: int
    quest_id: int
    correct: bool
    feedback: list[str]
    marks: dict[str, dict[str, Any]]
    explanation: str
    solution: dict[str, Any]


def grade_review(*, user: User, check_id: int, answer: Any) -> ReviewGrade:
    """Grade a review's answer by the lesson's rules (1 query). Raises CheckNotFound, or
    InvalidInput when the answer cannot be read."""
    check = _check(check_id, user)
    grade = _grade(check["spec"], answer)
    return ReviewGrade(
        check_id=check["id"],
        lesson_id=check["lesson_id"],
        quest_id=check["quest_id"],
        correct=grade.correct,
        feedback=grade.feedback,
        marks=grade.marks,
        explanation=check["spec"]["explanation"],
        solution=checks.solution(check["spec"]),
    )


def answer_check(
    *,
    user: User,
    check_id: int,
    answer: Any,
    answered_at: datetime | None = None,
    revealed: bool = False,
    event_id: str = "",
    device_id: str = "",
) -> CheckOutcome:
    """Grade and record the learner's answer; pay the check's share on its first right answer.

    `revealed` says the learner saw the answer first (a device's offline reveal): a right
    answer then passes the check but pays nothing. An answer with an `event_id` already
    recorded changes nothing (`duplicate`). Raises CheckNotFound, or InvalidInput when the
    answer cannot be read (not counted as a try).
    """
    check = _check(check_id, user)
    grade = _grade(check["spec"], answer)
    if check["in_live_draft"]:
        # An editor previewing a draft of a live lesson: graded as learners will be, but
        # nothing is recorded or paid (the draft's checks are copies of the live ones).
        return _preview_outcome(check["spec"], grade)
    at = answered_at or clock.now()
    with transaction.atomic():
        return _record(
            user=user,
            check=check,
            grade=grade,
            answer=answer,
            at=at,
            revealed=revealed,
            event_id=event_id,
            device_id=device_id,
        )


def _record(
    *,
    user: User,
    check: lessons.CheckOfLesson,
    grade: checks.Grade,
    answer: Any,
    at: datetime,
    revealed: bool,
    event_id: str,
    device_id: str,
) -> CheckOutcome:
    # The learner's row for this check, locked: two answers at once apply one after the other.
    state, _ = CheckState.objects.select_for_update().get_or_create(
        user=user,
        check_block_id=check["id"],
        defaults={"lesson_id": check["lesson_id"], "first_answered_at": at},
    )
    spec = check["spec"]
    if event_id and CheckAnswer.objects.filter(user=user, event_id=event_id).exists():
        return _outcome(state, spec, grade, xp_awarded=0, duplicate=True)
    CheckAnswer.objects.create(
        user=user,
        check_block_id=check["id"],
        answer=answer,
        answer_key=grade.answer_key[:200],
        correct=grade.correct,
        mistake=grade.mistake or "",
        revealed=revealed or state.revealed_at is not None,
        event_id=event_id,
        device_id=device_id,
        answered_at=at,
    )
    passed_before = state.passed_at is not None
    state.tries += 1
    state.wrong_tries += not grade.correct
    if revealed and state.revealed_at is None and state.passed_at is None:
        state.revealed_at = at
    state.first_answered_at = min(state.first_answered_at, at)
    xp_awarded = 0
    lesson: LessonChecks | None = None
    new_achievements: list[Mapping[str, Any]] = []
    check_ids = lessons.lesson_check_ids(lesson_id=check["lesson_id"])
    passed_now = grade.correct and state.passed_at is None
    if passed_now:
        state.passed_at = at
        state.passed_first_try = state.tries == 1 and state.revealed_at is None
        if state.revealed_at is None:
            xp_awarded = _pay_share(user_id=user.pk, check=check, check_ids=check_ids, at=at)
        state.xp_awarded = xp_awarded
    state.save()
    _announce_answer(
        user_id=user.pk,
        check=check,
        state=state,
        correct=grade.correct,
        passed_before=passed_before,
        at=at,
    )
    if passed_now:
        new_achievements += _evaluate_pass(user_id=user.pk, paid=bool(xp_awarded))
    lesson = _lesson_standing(
        user_id=user.pk, check=check, check_ids=check_ids, passed_now=passed_now
    )
    if lesson.completed_now:
        new_achievements += progress.record_completions(
            user_id=user.pk, times={check["lesson_id"]: at}, device_id=device_id
        )
    return _outcome(
        state, spec, grade, xp_awarded=xp_awarded, lesson=lesson, new_achievements=new_achievements
    )


def _pay_share(
    *, user_id: int, check: lessons.CheckOfLesson, check_ids: list[int], at: datetime
) -> int:
    share = lessons.check_share(
        lesson_xp=check["lesson_xp"], check_ids=check_ids, check_id=check["id"]
    )
    if share <= 0:
        return 0
    award = progress.Award(user_id, "check", check["id"], share, at)
    paid = progress.award_xp(awards=[award])
    return share if award.key in paid else 0


def _announce_answer(
    *,
    user_id: int,
    check: lessons.CheckOfLesson,
    state: CheckState,
    correct: bool,
    passed_before: bool,
    at: datetime,
) -> None:
    """Tell the apps above (reviews: the check's review card) of an answer recorded."""
    events.check_answered.announce(
        events.CheckAnswered(
            user_id=user_id,
            check_id=check["id"],
            lesson_id=check["lesson_id"],
            quest_id=check["quest_id"],
            correct=correct,
            first_try=state.tries == 1,
            revealed=state.revealed_at is not None,
            passed_before=passed_before,
            answered_at=at,
        )
    )


def _evaluate_pass(*, user_id: int, paid: bool) -> list[Mapping[str, Any]]:
    """A check passed counts as an exercise passed: tell the apps above (achievements)."""
    unlocked = events.check_passed.announce(events.CheckPassed(user_id=user_id, xp_paid=paid))
    return [item for items in unlocked for item in (items or [])]


def _lesson_standing(
    *, user_id: int, check: lessons.CheckOfLesson, check_ids: list[int], passed_now: bool
) -> LessonChecks:
    passed = CheckState.objects.filter(
        user_id=user_id, check_block_id__in=check_ids, passed_at__isnull=False
    ).count()
    tables_left = _tables_left(user_id=user_id, lesson_id=check["lesson_id"])
    complete = passed == len(check_ids) and not tables_left
    return LessonChecks(
        slug=check["lesson_slug"],
        checks_passed=passed,
        checks_total=len(check_ids),
        complete=complete,
        # Only the answer that passed the last check completes it.
        completed_now=complete and passed_now,
    )


def complete_lesson_if_all_passed(
    *, user_id: int, lesson_id: int, at: datetime
) -> list[Mapping[str, Any]]:
    """Complete the lesson when the learner has passed all its checks and tables (after a
    table's first pass: the table may be the last thing the lesson asks). A lesson without
    checks is completed by Mark complete, not here. Returns what the completion unlocked."""
    check_ids = lessons.lesson_check_ids(lesson_id=lesson_id)
    if not check_ids:
        return []
    passed = CheckState.objects.filter(
        user_id=user_id, check_block_id__in=check_ids, passed_at__isnull=False
    ).count()
    if passed < len(check_ids) or _tables_left(user_id=user_id, lesson_id=lesson_id):
        return []
    return progress.record_completions(user_id=user_id, times={lesson_id: at})


def _tables_left(*, user_id: int, lesson_id: int) -> int:
    exercise_ids = set(Exercise.objects.filter(lesson_id=lesson_id).values_list("id", flat=True))
    if not exercise_ids:
        return 0
    passed = set(
        Submission.objects.filter(
            user_id=user_id, exercise_id__in=exercise_ids, passed=True
        ).values_list("exercise_id", flat=True)
    )
    return len(exercise_ids - passed)


def _outcome(
    state: CheckState,
    spec: dict[str, Any],
    grade: checks.Grade,
    *,
    xp_awarded: int,
    lesson: LessonChecks | None = None,
    new_achievements: list[Mapping[str, Any]] | None = None,
    duplicate: bool = False,
) -> CheckOutcome:
    passed = state.passed_at is not None
    return CheckOutcome(
        correct=grade.correct,
        feedback=grade.feedback,
        marks=grade.marks,
        explanation=spec["explanation"] if grade.correct or state.revealed_at else None,
        tries=state.tries,
        wrong_tries=state.wrong_tries,
        can_reveal=not passed and state.wrong_tries >= checks.reveal_after(spec),
        passed=passed,
        revealed=state.revealed_at is not None,
        xp_awarded=xp_awarded,
        lesson=lesson,
        new_achievements=list(new_achievements or []),
        duplicate=duplicate,
    )


@dataclass(frozen=True)
class Reveal:
    solution: dict[str, Any]
    explanation: str


def reveal_check(*, user: Requester, check_id: int) -> Reveal:
    """The check's answer. A signed-in learner must have tried it `reveal_after` times; their
    check then pays no XP when answered (a passed check is only shown again). A learner signed
    out gets it at once: their device counts their tries, and marks the answers it syncs.
    Raises CheckNotFound, or RevealTooEarly.
    """
    check = _check(check_id, user)
    spec = check["spec"]
    if user.is_authenticated and not check["in_live_draft"]:  # a draft's preview keeps no tries
        with transaction.atomic():
            state = (
                CheckState.objects.select_for_update()
                .filter(user_id=user.pk, check_block_id=check_id)
                .first()
            )
            if state is None or (
                state.passed_at is None and state.wrong_tries < checks.reveal_after(spec)
            ):
                raise RevealTooEarly()
            if state.passed_at is None and state.revealed_at is None:
                state.revealed_at = clock.now()
                state.save(update_fields=["revealed_at"])
    return Reveal(solution=checks.solution(spec), explanation=spec["explanation"])


MAX_SYNCED_ANSWERS = 500


@dataclass(frozen=True)
class SyncedAnswers:
    accepted: int
    duplicates: int
    rejected: list[dict[str, Any]]
    xp_awarded: int
    lessons_completed: list[str]
    new_achievements: list[Mapping[str, Any]]


def sync_answers(*, user: User, device_id: str, answers: list[dict[str, Any]]) -> SyncedAnswers:
    """Grade again and record the answers a device kept (signed out, or offline).

    Only what the server grades right pays, once per check, whatever was sent: replaying a
    batch, or two devices sending the same answers, pays nothing the second time (each answer's
    `id` is recorded once; the ledger pays a check once). Answers apply in the order they were
    given; each bad one is rejected with a reason (unknown_check, invalid_answer, future_time,
    too_old) and the rest still applies. `answers` are SyncAnswerSerializer's.
    """
    now = clock.now()
    not_before = user.date_joined - progress.OFFLINE_HISTORY_LIMIT
    accepted = duplicates = xp = 0
    rejected: list[dict[str, Any]] = []
    completed: list[str] = []
    unlocked: list[Mapping[str, Any]] = []
    for item in sorted(answers, key=lambda a: a["answered_at"]):
        if item["answered_at"] > now + progress.ALLOWED_CLOCK_SKEW:
            rejected.append(_rejected(item, "future_time", "answered_at is in the future."))
            continue
        if item["answered_at"] < not_before:
            rejected.append(
                _rejected(item, "too_old", "answered_at is long before this account existed.")
            )
            continue
        check = lessons.check_of_lesson(check_id=item["check"], user=None)
        if check is None:
            rejected.append(_rejected(item, "unknown_check", "No such check."))
            continue
        try:
            grade = checks.grade(check["spec"], item["answer"])
        except checks.InvalidAnswer as exc:
            rejected.append(_rejected(item, "invalid_answer", str(exc)))
            continue
        with transaction.atomic():
            outcome = _record(
                user=user,
                check=check,
                grade=grade,
                answer=item["answer"],
                at=item["answered_at"],
                revealed=item.get("revealed", False),
                event_id=item["id"],
                device_id=device_id,
            )
        if outcome.duplicate:
            duplicates += 1
            continue
        accepted += 1
        xp += outcome.xp_awarded
        unlocked += outcome.new_achievements
        if outcome.lesson is not None and outcome.lesson.completed_now:
            completed.append(outcome.lesson.slug)
    return SyncedAnswers(
        accepted=accepted,
        duplicates=duplicates,
        rejected=rejected,
        xp_awarded=xp,
        lessons_completed=completed,
        new_achievements=unlocked,
    )


def _rejected(item: dict[str, Any], reason: str, detail: str) -> dict[str, Any]:
    return {"id": item["id"], "reason": reason, "detail": detail}
