"""How achievements react to what happens below them: each event re-measures the rules it can
move; the progress header asks for the achievement counts. Subscribed in
AchievementsConfig.ready()."""

from __future__ import annotations

import logging
from typing import Any

from django.db import DatabaseError
from django.db.models.signals import post_delete, post_save

from achievements import active, selectors, services
from achievements.models import Achievement
from community import events as community_events
from exercises import events as exercise_events
from progress import events as progress_events

logger = logging.getLogger(__name__)


def on_lessons_completed(
    event: progress_events.LessonsCompleted,
) -> list[services.UnlockedAchievement]:
    # In the completion's transaction: the answer lists what unlocked, and a bonus is paid
    # with the completion or not at all.
    return services.evaluate_achievements(user_id=event.user_id, trigger="lesson_completed")


def on_check_passed(event: exercise_events.CheckPassed) -> list[services.UnlockedAchievement]:
    # A check passed counts as an exercise passed; in its transaction, so the answer lists
    # what unlocked and a bonus is paid with the pass or not at all.
    return services.evaluate_achievements(user_id=event.user_id, trigger="exercise_passed")


def _standing(event: exercise_events.ExercisePassed) -> services.Standing:
    return services.Standing(
        user_id=event.user_id,
        xp_total=event.xp_total,
        streak_days=event.streak_days,
        exercises_passed=event.exercises_passed,
    )


def on_exercise_passed(event: exercise_events.ExercisePassed) -> None:
    # In the pass's transaction, measured from the standing the event carries: a bonus is
    # paid with the pass or not at all. A failure before any write leaves the grade standing
    # (evaluation is idempotent and runs again on the learner's next event); a database error
    # has spoilt the transaction, so it fails the grade too, which is graded again later.
    try:
        services.evaluate_standings(standings=[_standing(event)])
    except DatabaseError:
        raise
    except Exception:
        logger.exception("Evaluating achievements for user %s failed", event.user_id)


def on_exercises_passed(event: exercise_events.ExercisesPassed) -> None:
    # A batch's first passes: every learner evaluated once, together (as on_exercise_passed).
    try:
        services.evaluate_standings(standings=[_standing(p) for p in event.passes])
    except DatabaseError:
        raise
    except Exception:
        logger.exception("Evaluating achievements for a batch of passes failed")


def on_comment_posted(event: community_events.CommentPosted) -> None:
    # The comment's answer does not wait for the unlock: a worker measures it after commit.
    services.queue_evaluation(user_id=event.user_id, trigger="comment_posted")


def on_report_accepted(event: community_events.ReportAccepted) -> None:
    services.queue_evaluation(user_id=event.user_id, trigger="report_accepted")


def on_header_asked(event: progress_events.HeaderAsked) -> dict[str, int]:
    unlocked, total = selectors.unlocked_and_total(user_id=event.user_id)
    return {"achievements_unlocked": unlocked, "achievements_total": total}


def on_achievement_changed(**kwargs: Any) -> None:
    # This process's list of active achievements (others check it within seconds). The cached
    # pages showing them are rebuilt through the content version (achievements.apps).
    active.forget()


def subscribe() -> None:
    progress_events.lessons_completed.subscribe(on_lessons_completed)
    exercise_events.exercise_passed.subscribe(on_exercise_passed)
    exercise_events.check_passed.subscribe(on_check_passed)
    exercise_events.exercises_passed.subscribe(on_exercises_passed)
    community_events.comment_posted.subscribe(on_comment_posted)
    community_events.report_accepted.subscribe(on_report_accepted)
    progress_events.header_counts.subscribe(on_header_asked)
    for signal in (post_save, post_delete):
        signal.connect(
            on_achievement_changed,
            sender=Achievement,
            weak=False,
            dispatch_uid="achievements.header_counts",
        )
