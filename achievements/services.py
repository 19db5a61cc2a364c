"""Writes of the achievements app: unlocking achievements and paying their XP bonus."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, TypedDict

from django.contrib.auth import get_user_model
from django.db import connection, transaction

from achievements import events, rules
from achievements.active import ActiveAchievement, active_achievements
from achievements.models import Achievement, AchievementUnlock, RuleKind
from learning_platform import clock
from learning_platform.db import insert_ignoring_conflicts
from progress import services as progress

logger = logging.getLogger(__name__)

XP_SOURCE = "achievement"
RETROACTIVE_BATCH_SIZE = 500


class UnlockedAchievement(TypedDict):
    slug: str
    title: str
    xp_bonus: int


# The rule kinds each event can move. XP rules are measured after any unlock that pays a
# bonus, whatever the event: a bonus is XP too.
TRIGGER_KINDS: dict[str, frozenset[str]] = {
    "lesson_completed": frozenset(
        {
            RuleKind.LESSONS_COMPLETED,
            RuleKind.QUEST_PERCENT,
            RuleKind.XP_TOTAL,
            RuleKind.STREAK_DAYS,
            RuleKind.TAG_COMPLETED,
        }
    ),
    "exercise_passed": frozenset(
        {RuleKind.EXERCISES_PASSED, RuleKind.XP_TOTAL, RuleKind.STREAK_DAYS}
    ),
    "comment_posted": frozenset({RuleKind.COMMENTS_POSTED}),
    "report_accepted": frozenset({RuleKind.REPORTS_ACCEPTED}),
}


def evaluate_achievements(*, user_id: int, trigger: str | None = None) -> list[UnlockedAchievement]:
    """Unlock every active achievement the learner now qualifies for; return the new ones.

    `trigger` names the event that happened ("lesson_completed", "exercise_passed",
    "comment_posted", "report_accepted"; see TRIGGER_KINDS) so only the rules it can move are
    measured; None measures every rule. Each unlock is unique per learner (a DB constraint
    settles races) and pays its XP bonus once, through the XP ledger, in the same transaction
    as the unlock. A bonus can lift the learner over an XP rule, so evaluation repeats until
    nothing new unlocks. Idempotent: a second call unlocks and pays nothing.
    """
    if trigger is not None and trigger not in TRIGGER_KINDS:
        raise ValueError(f"Unknown trigger {trigger!r}; expected one of {sorted(TRIGGER_KINDS)}")
    candidates = list(Achievement.objects.filter(is_active=True).exclude(unlocks__user_id=user_id))
    kinds = TRIGGER_KINDS.get(trigger) if trigger else None
    pending = [a for a in candidates if kinds is None or a.rule_kind in kinds]
    # XP rules the event itself cannot move, woken only by a bonus paid below.
    xp_rules = [a for a in candidates if a not in pending and a.rule_kind == RuleKind.XP_TOTAL]
    if not pending:
        return []
    catalogue = rules.Catalogue(tag_slugs=(a.tag_slug for a in pending))
    metrics = rules.LearnerMetrics(user_id=user_id, catalogue=catalogue)
    unlocked: list[UnlockedAchievement] = []
    # Each round either unlocks something or stops, so this ends within len(candidates) rounds.
    while pending:
        reached = [a for a in pending if rules.measure(a, metrics).reached]
        if not reached:
            break
        newly = _unlock_many(user_id=user_id, achievements=reached)
        unlocked += [_summary(a) for a in newly]
        pending = [a for a in pending if a not in reached]
        if not any(a.xp_bonus for a in newly):
            break
        pending += xp_rules
        xp_rules = []
        metrics.forget_xp()
    return unlocked


def queue_evaluation(*, user_id: int, trigger: str) -> None:
    """Evaluate the learner's achievements in a worker, once the current transaction commits.

    For events whose own request need not wait for the unlock (a comment, an accepted report).
    """
    from achievements.tasks import evaluate_for_user  # tasks import this module

    if trigger not in TRIGGER_KINDS:
        raise ValueError(f"Unknown trigger {trigger!r}; expected one of {sorted(TRIGGER_KINDS)}")
    # celery-types types a shared_task as Celery's Task; the app's is a DjangoTask.
    evaluate_for_user.delay_on_commit(user_id, trigger=trigger)  # type: ignore[attr-defined]


def award_achievement_to_batch(
    *, achievement_id: int, after_user_id: int = 0, batch_size: int = RETROACTIVE_BATCH_SIZE
) -> int | None:
    """Unlock one achievement for the qualifying learners among the next `batch_size` ones.

    Learners are walked by id (keyset: an index range, however far the walk has gone), from
    just after `after_user_id`. Those who already hold the achievement are skipped in one query;
    the rest are measured against this achievement with one query per metric for the whole
    batch; the qualifying ones are unlocked and paid together (`_unlock_for_learners`). Returns
    the id to continue after when there may be more learners, None when the walk is over (or
    the achievement is gone or inactive). Idempotent: rerunning a batch unlocks nothing twice.
    """
    achievement = Achievement.objects.filter(pk=achievement_id, is_active=True).first()
    if achievement is None:
        return None
    user_ids = list(
        get_user_model()
        .objects.filter(is_active=True, id__gt=after_user_id)
        .order_by("id")
        .values_list("id", flat=True)[:batch_size]
    )
    holders = set(
        AchievementUnlock.objects.filter(achievement=achievement, user_id__in=user_ids).values_list(
            "user_id", flat=True
        )
    )
    candidates = [user_id for user_id in user_ids if user_id not in holders]
    if candidates:
        # The quest and tag facts are the same for everyone: loaded once per batch.
        metrics = rules.metrics_for_learners(
            user_ids=candidates,
            achievements=[achievement],
            catalogue=rules.Catalogue(tag_slugs=[achievement.tag_slug]),
        )
        reached = [u for u in candidates if rules.measure(achievement, metrics[u]).reached]
        _unlock_for_learners(achievement=achievement, user_ids=reached)
    if len(user_ids) < batch_size:
        return None
    return int(user_ids[-1])


# A bonus is XP earned today: it can reach these rules, and no others.
MOVED_BY_A_BONUS = (RuleKind.XP_TOTAL, RuleKind.STREAK_DAYS)


def _unlock_for_learners(*, achievement: Achievement, user_ids: list[int]) -> set[int]:
    """Unlock one achievement for many learners and pay its bonus, in one transaction and a
    constant number of statements (`_pay_then_unlock`); returns the learners it is new for.
    The learners paid are then measured against the rules a bonus can reach.
    """
    if not user_ids:
        return set()
    with transaction.atomic(savepoint=False):
        paid, unlocked = _pay_then_unlock([(user_id, achievement) for user_id in user_ids])
        newly = {user_id for user_id, _ in unlocked}
        progress.note_progress_changed_of_learners(user_ids=sorted(newly - paid))
    if newly:
        logger.info("%s learner(s) unlocked achievement %s", len(newly), achievement.slug)
    if paid:
        _unlock_what_a_bonus_reached(user_ids=sorted(paid))
    return newly


def _unlock_what_a_bonus_reached(*, user_ids: list[int]) -> None:
    moved = list(Achievement.objects.filter(is_active=True, rule_kind__in=MOVED_BY_A_BONUS))
    if not moved:
        return
    metrics = rules.metrics_for_learners(
        user_ids=user_ids, achievements=moved, catalogue=rules.Catalogue()
    )
    held = set(
        AchievementUnlock.objects.filter(achievement__in=moved, user_id__in=user_ids).values_list(
            "user_id", "achievement_id"
        )
    )
    for achievement in moved:
        reached = [
            u
            for u in user_ids
            if (u, achievement.id) not in held and rules.measure(achievement, metrics[u]).reached
        ]
        # A further bonus measures its learners again, with what it paid.
        _unlock_for_learners(achievement=achievement, user_ids=reached)


def _unlock_many(*, user_id: int, achievements: list[Achievement]) -> list[Achievement]:
    """Record the unlocks and pay their bonuses, atomically and in a constant number of
    queries however many unlock at once (`_pay_then_unlock`); return those that are new."""
    with transaction.atomic(savepoint=False):
        held = set(
            AchievementUnlock.objects.filter(
                user_id=user_id, achievement__in=achievements
            ).values_list("achievement_id", flat=True)
        )
        candidates = [a for a in achievements if a.id not in held]
        _, unlocked = _pay_then_unlock([(user_id, a) for a in candidates])
    newly = [a for a in candidates if (user_id, a.id) in unlocked]
    if newly:
        progress.note_progress_changed(user_id=user_id)
    for achievement in newly:
        logger.info("Learner %s unlocked achievement %s", user_id, achievement.slug)
    return newly


def _pay_then_unlock(
    pairs: list[tuple[int, Achievement]],
) -> tuple[set[int], set[tuple[int, int]]]:
    """Pay the bonuses of (learner, achievement) pairs, then insert their unlocks, in the
    caller's transaction and a constant number of statements: answers the learners paid now
    and the (learner, achievement id) pairs unlocked now.

    Paying first takes the learners' progress locks (in id order) before the unlocks' keys, the
    order every progress write (which evaluates inside its lock) follows, so a retroactive
    award racing a lesson completion cannot deadlock. A concurrent evaluation that got there
    first leaves nothing to pay twice (the ledger's constraint) nor to unlock twice (the
    unlock's: INSERT ... ON CONFLICT DO NOTHING).
    """
    paid = progress.award_xp(
        awards=[progress.Award(u, XP_SOURCE, a.id, a.xp_bonus) for u, a in pairs if a.xp_bonus]
    )
    now = clock.now()
    unlocked = insert_ignoring_conflicts(
        AchievementUnlock,
        fields=("user", "achievement", "unlocked_at"),
        rows=[(user_id, a.id, now) for user_id, a in pairs],
        conflict_fields=("user", "achievement"),
        returning=("user", "achievement"),
    )
    _announce_unlocks(
        [(user_id, achievement_id) for user_id, achievement_id in unlocked],
        by_id={a.id: a for _, a in pairs},
        at=now,
    )
    return {user_id for user_id, _, _ in paid}, {(u, a) for u, a in unlocked}


def _announce_unlocks(
    unlocked: list[tuple[int, int]],
    *,
    by_id: Mapping[int, Achievement | ActiveAchievement],
    at: datetime,
) -> None:
    """Tell the apps above (xapi: an `earned` statement) of the unlocks inserted now."""
    if not unlocked:
        return
    events.achievements_unlocked.announce(
        events.AchievementsUnlocked(
            unlocks=tuple(
                events.Unlock(
                    user_id=user_id,
                    achievement_id=achievement_id,
                    slug=by_id[achievement_id].slug,
                    title=by_id[achievement_id].title,
                    unlocked_at=at,
                )
                for user_id, achievement_id in unlocked
            )
        )
    )


def _summary(achievement: Achievement | ActiveAchievement) -> UnlockedAchievement:
    return {"slug": achievement.slug, "title": achievement.title, "xp_bonus": achievement.xp_bonus}


# --- A pass's evaluation from the values it carries --------------------------------------------


@dataclass(frozen=True)
class Standing:
    """Where a learner stands right after an exercise pass, on every rule it can move: read
    under their progress lock by the statement that paid the pass (exercise_passed's event)."""

    user_id: int
    xp_total: int
    streak_days: int
    exercises_passed: int

    def value(self, rule_kind: str) -> int:
        values: dict[str, int] = {
            RuleKind.XP_TOTAL: self.xp_total,
            RuleKind.STREAK_DAYS: self.streak_days,
            RuleKind.EXERCISES_PASSED: self.exercises_passed,
        }
        return values[rule_kind]


def evaluate_standings(*, standings: list[Standing]) -> dict[int, list[UnlockedAchievement]]:
    """evaluate_achievements(trigger="exercise_passed") of several learners at once, measured
    from their standings (one per learner, the latest) instead of read: no query when nothing
    is reached; else the INSERT ... ON CONFLICT DO NOTHING of the reached unlocks for all of
    them (each checked against the achievements table again, see achievements.active), then
    their bonuses paid (progress.award_xp), in the caller's transaction, which holds the
    learners' progress locks already (they were just paid). A bonus moves the XP total: the
    XP rules are measured again with it (rare). Returns what each learner unlocked."""
    moved = TRIGGER_KINDS["exercise_passed"]
    achievements = [a for a in active_achievements() if a.rule_kind in moved and a.threshold]
    unlocked: dict[int, list[UnlockedAchievement]] = {s.user_id: [] for s in standings}
    pending = {s.user_id: s for s in standings}
    tried: set[tuple[int, int]] = set()
    # Each round unlocks something or stops; a round after a bonus measures XP rules only.
    while pending:
        reached = [
            (standing, a)
            for standing in pending.values()
            for a in achievements
            if (standing.user_id, a.id) not in tried
            and standing.value(a.rule_kind) >= (a.threshold or 0)
        ]
        if not reached:
            break
        tried.update((standing.user_id, a.id) for standing, a in reached)
        done = _unlock_and_pay(reached)
        for standing, achievement in reached:
            if achievement.id in done.get(standing.user_id, _NOTHING).achievement_ids:
                unlocked[standing.user_id].append(_summary(achievement))
                logger.info(
                    "Learner %s unlocked achievement %s", standing.user_id, achievement.slug
                )
        measured = {standing.user_id: standing for standing, _ in reached}
        pending = {}
        for user_id, result in done.items():
            if result.standing is None:
                # Unlocks without XP: the award did not tell the header, so this does.
                progress.note_progress_changed(user_id=user_id)
            else:
                pending[user_id] = replace(measured[user_id], xp_total=result.standing.xp_total)
    return unlocked


@dataclass(frozen=True)
class _Unlocked:
    """What `_unlock_and_pay` did for one learner."""

    # The achievements unlocked now, paying a bonus or not.
    achievement_ids: set[int] = field(default_factory=set)
    # The learner's standing after the bonuses paid now; None when none was.
    standing: progress.StandingAfterAward | None = None


_NOTHING = _Unlocked()


def _unlock_and_pay(reached: list[tuple[Standing, ActiveAchievement]]) -> dict[int, _Unlocked]:
    """Insert the unlocks whose achievement is, in the table itself, still active with the
    rule, threshold and bonus it was measured against (one statement), and pay their bonuses
    through the XP ledger: per learner, the achievements unlocked now and their standing."""
    quote_name = connection.ops.quote_name
    unlocks = quote_name(AchievementUnlock._meta.db_table)
    achievements = quote_name(Achievement._meta.db_table)
    rows = " UNION ALL ".join(
        ["SELECT %s AS user_id, %s AS achievement_id, %s AS value, %s AS bonus, %s AS kind"]
        * len(reached)
    )
    # The bonus returned is read from the table, in the insert's own snapshot, where the
    # WHERE has just checked it equals the one measured.
    # SQL text: unlock-once needs the rows that went in (RETURNING), which bulk_create(
    # ignore_conflicts=True) cannot tell, and the condition on the achievement row, which it
    # cannot state: one statement where the ORM would take three (lock the achievements,
    # insert, read back what is new).
    sql = (
        f"INSERT INTO {unlocks} (user_id, achievement_id, unlocked_at) "  # noqa: S608 - names
        f"SELECT v.user_id, a.id, %s FROM {achievements} AS a "
        f"JOIN ({rows}) AS v ON v.achievement_id = a.id "
        "WHERE a.is_active AND a.rule_kind = v.kind AND a.threshold <= v.value "
        "AND a.xp_bonus = v.bonus "
        "ON CONFLICT (user_id, achievement_id) DO NOTHING "
        f"RETURNING user_id, achievement_id, (SELECT b.xp_bonus FROM {achievements} AS b "
        f"WHERE b.id = {unlocks}.achievement_id)"
    )
    now = clock.now()
    params: list[Any] = [
        AchievementUnlock._meta.get_field("unlocked_at").get_db_prep_save(now, connection)
    ]
    for standing, a in reached:
        params += [standing.user_id, a.id, standing.value(a.rule_kind), a.xp_bonus, a.rule_kind]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        inserted: list[tuple[int, int, int]] = cursor.fetchall()
    _announce_unlocks(
        [(user_id, achievement_id) for user_id, achievement_id, _ in inserted],
        by_id={a.id: a for _, a in reached},
        at=now,
    )
    paid = progress.award_xp(
        awards=[
            progress.Award(user_id, XP_SOURCE, achievement_id, bonus)
            for user_id, achievement_id, bonus in inserted
            if bonus
        ]
    )
    done: dict[int, _Unlocked] = {}
    for user_id, achievement_id, _bonus in inserted:
        result = done.setdefault(user_id, _Unlocked())
        result.achievement_ids.add(achievement_id)
        after = paid.get((user_id, XP_SOURCE, achievement_id))
        if after is not None:
            done[user_id] = replace(result, standing=after)
    return done
