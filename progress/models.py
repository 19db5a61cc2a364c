from django.conf import settings
from django.db import models
from django.db.models import Q

from learning_platform import clock
from progress.streaks import MAX_FREEZES

# The daily goals a learner can choose, in XP.
DAILY_GOALS = (10, 20, 30, 50)


class Level(models.Model):
    """One step of the level curve. Edited in the admin; read on every request, never cached
    per learner, so a change of the curve re-levels everyone on their next read."""

    number = models.PositiveSmallIntegerField(unique=True)
    name = models.CharField(max_length=60)
    xp_required = models.PositiveIntegerField("XP required", unique=True)

    class Meta:
        ordering = ("xp_required", "number")

    def __str__(self) -> str:
        return f"Level {self.number} · {self.name}"


class XPAward(models.Model):
    """One line of the append-only XP ledger: who earned how much, for what, and when.

    A source pays at most once per learner; the unique constraint settles it whatever the
    concurrency. `awarded_at` is when the XP was earned (an offline completion keeps its own
    time), which is what the leaderboard's periods look at. `day` is the learner's day it
    counts on, decided once when it is written (`progress.streaks.day_of_activity`): the
    calendar, the streak and the daily goal read it, never the time again in today's zone.
    """

    class Source(models.TextChoices):
        LESSON = "lesson", "Lesson completed"
        EXERCISE = "exercise", "Exercise passed"
        ACHIEVEMENT = "achievement", "Achievement unlocked"
        # A lesson's check answered right the first time (its share of the lesson's XP).
        CHECK = "check", "Check answered"
        # A due review card answered (reviews): a little XP, once per card per day.
        REVIEW = "review", "Review answered"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="xp_awards"
    )
    source_type = models.CharField(max_length=20, choices=Source.choices)
    source_id = models.PositiveBigIntegerField()
    amount = models.PositiveIntegerField()
    awarded_at = models.DateTimeField(default=clock.now)
    # Null only on a row written by the release before this column, during a deploy (its
    # migration fills every older row).
    day = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(default=clock.now, editable=False)

    class Meta:
        ordering = ("-awarded_at", "-id")
        verbose_name = "XP award"
        constraints = [
            models.UniqueConstraint(
                fields=["user", "source_type", "source_id"], name="progress_xpaward_once_per_source"
            ),
            models.CheckConstraint(
                condition=Q(
                    source_type__in=["lesson", "exercise", "achievement", "check", "review"]
                ),
                name="progress_xpaward_source_type_valid",
            ),
        ]
        indexes = [
            models.Index(fields=["awarded_at", "user"], name="progress_xp_awarded_user"),
            # Who was paid for a source (the admin's search by source id).
            models.Index(fields=["source_id", "source_type"], name="progress_xp_source"),
            # A learner's XP per day (the calendar): index-only on PostgreSQL.
            models.Index(fields=["user", "day", "amount"], name="progress_xp_user_day"),
        ]

    def __str__(self) -> str:
        return f"+{self.amount} XP ({self.source_type} {self.source_id})"


class LearnerStats(models.Model):
    """Per-learner running totals, kept consistent with the ledger and the activity days.

    Doubles as the per-learner lock: every write to a learner's progress first takes this row
    FOR UPDATE, so concurrent requests of one learner apply one after the other.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    xp_total = models.PositiveIntegerField(default=0)
    streak_current = models.PositiveIntegerField(
        default=0, help_text="Length of the run of active days ending on the last active day."
    )
    streak_best = models.PositiveIntegerField(default=0)
    last_active_day = models.DateField(null=True, blank=True)
    # When the last active day began: its midnight in the time zone the learner had then (or
    # later, when a change of zone moved it; see progress.streaks). A later day may begin only
    # once real time has run on from here; null (rows from before this field) sets no limit.
    last_active_day_start = models.DateTimeField(null=True, blank=True)
    # Ledger rows of source "exercise": the exercises whose first pass was paid. Counted here,
    # under the row's lock, so a pass knows the learner's count without reading it again. The
    # database default serves rows inserted by code that does not name the column (the previous
    # release during a deploy, raw SQL).
    exercises_passed = models.PositiveIntegerField(default=0, db_default=0)
    # Bumped by every write that changes completions; the sync cursor is a value of it.
    sync_seq = models.PositiveBigIntegerField(default=0)
    # XP a day the learner aims for (null: not chosen yet), and the XP that counted on the last
    # active day: today's progress toward the goal, without summing the ledger on every read.
    daily_goal = models.PositiveSmallIntegerField(
        null=True, blank=True, choices=[(xp, f"{xp} XP a day") for xp in DAILY_GOALS]
    )
    day_xp = models.PositiveIntegerField(default=0, db_default=0)
    # Whether the learner has answered the question of a goal (set one, or declined with
    # null): the app asks once, on whichever device comes first.
    daily_goal_chosen = models.BooleanField(default=False, db_default=False)
    # Streak freezes held (progress.streaks: earned by runs, used on missed days).
    freezes_held = models.PositiveSmallIntegerField(default=0, db_default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "learner stats"
        indexes = [models.Index(fields=["-xp_total"], name="progress_stats_xp_desc")]
        constraints = [
            models.CheckConstraint(
                condition=Q(daily_goal__isnull=True) | Q(daily_goal__in=DAILY_GOALS),
                name="progress_stats_daily_goal_valid",
            ),
            models.CheckConstraint(
                condition=Q(freezes_held__lte=MAX_FREEZES), name="progress_stats_freezes_at_most"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.xp_total} XP"


class ActivityDay(models.Model):
    """A calendar day (in the learner's time zone) on which the learner earned XP."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    # Set once, by the award that made the day's XP reach the goal the learner had then.
    goal_met = models.BooleanField(default=False, db_default=False)

    class Meta:
        ordering = ("user", "day")
        constraints = [
            models.UniqueConstraint(fields=["user", "day"], name="progress_activityday_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} active on {self.day}"


class FrozenDay(models.Model):
    """A day the learner missed that a streak freeze forgave (used automatically, once)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()

    class Meta:
        ordering = ("user", "day")
        constraints = [
            models.UniqueConstraint(fields=["user", "day"], name="progress_frozenday_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} frozen on {self.day}"


class PlatformOutage(models.Model):
    """A time the platform could not take learners' activity, recorded by operators: a day
    that overlaps it (in the learner's time zone) never breaks a streak."""

    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    reason = models.CharField(max_length=200, help_text="What happened, for the other operators.")

    class Meta:
        ordering = ("-starts_at",)
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__gt=models.F("starts_at")), name="progress_outage_ends_after"
            ),
        ]

    def __str__(self) -> str:
        return f"Outage {self.starts_at:%Y-%m-%d %H:%M} to {self.ends_at:%Y-%m-%d %H:%M} UTC"


class LessonCompletion(models.Model):
    """A learner completed a lesson. One row per (learner, lesson), a grow-only set.

    `completed_at` is the earliest valid time any device reported; `device_id` is the device
    whose report last changed the row ("" for the web), `seq` the learner's sync sequence at
    that change, so a device can ask what other devices changed since its cursor.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lesson_completions"
    )
    lesson = models.ForeignKey(
        "lessons.Lesson", on_delete=models.CASCADE, related_name="completions"
    )
    completed_at = models.DateTimeField()
    device_id = models.CharField(max_length=100, blank=True)
    seq = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(default=clock.now, editable=False)

    class Meta:
        ordering = ("completed_at", "id")
        constraints = [
            models.UniqueConstraint(fields=["user", "lesson"], name="progress_completion_once"),
        ]
        indexes = [
            models.Index(fields=["user", "seq"], name="progress_completion_user_seq"),
            # The admin's analytics: completions per lesson and per week (index-only).
            models.Index(fields=["lesson", "completed_at"], name="progress_completion_lesson_at"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} completed {self.lesson_id}"


class LearnerDayXP(models.Model):
    """XP a learner earned on one of their days (`XPAward.day`): the ledger summed per
    (learner, day).

    Written by a database trigger on the ledger (migrations 0004, 0018, 0019), in the statement
    that inserts the award, so it can never disagree with the ledger. The calendar reads it, and
    the Redis boards are rebuilt from it.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    xp = models.PositiveIntegerField()

    class Meta:
        verbose_name = "XP per learner and day"
        verbose_name_plural = "XP per learner and day"
        constraints = [
            models.UniqueConstraint(fields=["user", "day"], name="progress_dayxp_once"),
        ]
        # The SQL fallback of a period's board reads only this index (an index-only scan).
        indexes = [models.Index(fields=["day", "user", "xp"], name="progress_dayxp_day_user")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.xp} XP on {self.day}"


class LearnerPeriodXP(models.Model):
    """XP a learner earned in one calendar week or month of their days (`progress.periods`):
    the ledger summed per (learner, period).

    Written by the ledger's trigger beside LearnerDayXP (migration 0019), in the statement that
    inserts the award, so it never disagrees with the ledger and costs the award no query. A
    period's board reads its top from one index, and a learner's XP in it from one row.
    """

    class Period(models.TextChoices):
        WEEK = "week", "Calendar week"
        MONTH = "month", "Calendar month"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    period = models.CharField(max_length=5, choices=Period.choices)
    # The period's first day: a Monday, or the first of a month.
    starts = models.DateField()
    xp = models.PositiveIntegerField()

    class Meta:
        verbose_name = "XP per learner and period"
        verbose_name_plural = "XP per learner and period"
        constraints = [
            models.UniqueConstraint(
                fields=["user", "period", "starts"], name="progress_periodxp_once"
            ),
            models.CheckConstraint(
                condition=Q(period__in=["week", "month"]), name="progress_periodxp_period_valid"
            ),
        ]
        # A board's top and the count of learners ahead of one: a range of this index.
        indexes = [
            models.Index(fields=["period", "starts", "-xp", "user"], name="progress_periodxp_rank")
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.xp} XP in the {self.period} of {self.starts}"


class MissedBoardUpdate(models.Model):
    """Awards (or a learner shown or hidden) that could not reach the Redis leaderboards: they
    are short until rebuilt. The refresh job (every 30 s) rebuilds while any row is here, and a
    rebuild deletes the rows it saw before it read the rollup (progress/boards.py)."""

    noted_at = models.DateTimeField(default=clock.now)
    learners = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ("id",)

    def __str__(self) -> str:
        return f"{self.learners} learner(s) missed at {self.noted_at:%Y-%m-%d %H:%M:%S}"
