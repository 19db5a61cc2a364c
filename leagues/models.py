"""Weekly leagues: a learner's tier, the week's cohorts of at most 30 and their members' XP.

The invariants are the database's: one membership per learner and week (unique), a cohort never
over 30 (a check; placement also counts under the cohort's row lock), tiers within the five.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from leagues.rules import COHORT_SIZE, HIGHEST, LOWEST

_TIER_RANGE = Q(tier__gte=LOWEST) & Q(tier__lte=HIGHEST)


class Leaguer(models.Model):
    """A learner's place in the leagues across weeks: their tier and whether they take part."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    tier = models.PositiveSmallIntegerField(default=LOWEST)
    opted_out = models.BooleanField(default=False)
    # The Monday of the last week the learner was placed in (their idle weeks count from it).
    last_week = models.DateField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=_TIER_RANGE, name="leagues_leaguer_tier")]

    def __str__(self) -> str:
        return f"{self.user_id}: tier {self.tier}"


class Cohort(models.Model):
    """Up to 30 learners of one tier whose UTC offsets are within 3 hours, for one week."""

    week = models.DateField(help_text="The week's Monday.")
    tier = models.PositiveSmallIntegerField()
    # The UTC offset (minutes east) of the learner who opened it; members are within 90 minutes.
    anchor_offset = models.SmallIntegerField()
    size = models.PositiveSmallIntegerField(default=0)
    # When the week has ended for every member (their zones' next Monday, the latest of them).
    ends_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=_TIER_RANGE, name="leagues_cohort_tier"),
            models.CheckConstraint(
                condition=Q(size__lte=COHORT_SIZE), name="leagues_cohort_at_most_30"
            ),
        ]
        indexes = [
            # Placement: the open cohorts of a week and tier near an offset.
            models.Index(
                fields=["week", "tier", "anchor_offset"],
                condition=Q(closed_at__isnull=True),
                name="leagues_cohort_open",
            ),
            # The close: the open cohorts whose week has ended.
            models.Index(
                fields=["ends_at"], condition=Q(closed_at__isnull=True), name="leagues_cohort_due"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.week} tier {self.tier} #{self.pk}"


class Membership(models.Model):
    """A learner's week in the leagues: their cohort, league XP and when they reached it.

    `cohort` is null while the learner waits for last week's close to know their tier (their
    first XP of the week came before their previous cohort's week ended for all its members).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    week = models.DateField(help_text="The week's Monday.")
    cohort = models.ForeignKey(
        Cohort, null=True, blank=True, on_delete=models.CASCADE, related_name="members"
    )
    # The learner's UTC offset (minutes east) when placed, in their zone of then.
    offset = models.SmallIntegerField()
    xp = models.PositiveIntegerField(default=0)
    # The time of the award that brought `xp` (the latest awarded_at): equal XP, earlier first.
    reached_at = models.DateTimeField()
    # Set by the week's close: the tier the learner moves to. Null: the week is not closed.
    tier_after = models.PositiveSmallIntegerField(null=True, blank=True)
    # Set by the week's close with tier_after: the learner's final position in the cohort.
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    # When the learner saw the week's result in the app: shown once, on whichever device first.
    result_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "week"], name="leagues_one_membership_a_week"),
        ]
        indexes = [
            models.Index(fields=["cohort", "-xp", "reached_at", "user"], name="leagues_ranking"),
            models.Index(
                fields=["week", "id"], condition=Q(cohort__isnull=True), name="leagues_waiting"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.week}"
