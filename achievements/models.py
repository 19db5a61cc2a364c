from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q

from learning_platform import clock
from lessons import selectors as lessons

icon_validator = RegexValidator(
    r"^[a-z0-9]+(?:-[a-z0-9]+)*$", "An icon name: lowercase letters, digits and hyphens."
)


class RuleKind(models.TextChoices):
    LESSONS_COMPLETED = "lessons_completed", "Lessons completed ≥ N"
    QUEST_PERCENT = "quest_percent", "Quest completed ≥ P percent"
    XP_TOTAL = "xp_total", "XP earned ≥ N"
    STREAK_DAYS = "streak_days", "Streak ≥ N days"
    EXERCISES_PASSED = "exercises_passed", "Exercises passed ≥ N"
    COMMENTS_POSTED = "comments_posted", "Comments posted ≥ N"
    REPORTS_ACCEPTED = "reports_accepted", "Issue reports accepted ≥ N"
    TAG_COMPLETED = "tag_completed", "All lessons with tag T completed"


# The kinds whose only parameter is the threshold N (or P).
THRESHOLD_KINDS = frozenset(RuleKind) - {RuleKind.TAG_COMPLETED}


class Achievement(models.Model):
    """A badge a learner unlocks once a rule about their activity holds.

    The rule is one of a fixed set of kinds (`RuleKind`) with parameters: `threshold` for every
    kind but the tag rule, `tag_slug` for the tag rule, and `quest` for the quest-percent rule
    (blank means the demo quest, settings.DEMO_QUEST_SLUG).
    """

    slug = models.SlugField(max_length=80, unique=True)
    title = models.CharField(max_length=120)
    description = models.CharField(max_length=300, blank=True)
    icon = models.CharField(
        max_length=40,
        default="trophy",
        validators=[icon_validator],
        help_text="Name of the icon the app shows, e.g. trophy, flame, eye.",
    )
    xp_bonus = models.PositiveIntegerField(
        "XP bonus",
        default=0,
        validators=[MaxValueValidator(10_000)],
        help_text="Paid once, when the learner unlocks it.",
    )
    rule_kind = models.CharField(max_length=30, choices=RuleKind.choices)
    threshold = models.PositiveIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text="N (or the percentage P for quest percent). Not used by the tag rule.",
    )
    tag_slug = models.SlugField(
        "tag",
        max_length=50,
        blank=True,
        help_text="Tag rule only: the slug of the tag whose published lessons must all be done.",
    )
    quest = models.ForeignKey(
        "lessons.Quest",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="Quest-percent rule only. Blank: the demo quest.",
    )
    position = models.PositiveIntegerField(default=0, help_text="Display order; lower first.")
    is_active = models.BooleanField(
        "active",
        default=True,
        help_text="Inactive achievements are hidden and no longer unlocked; "
        "existing unlocks are kept. Prefer this to deleting.",
    )
    created_at = models.DateTimeField(default=clock.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("position", "id")
        constraints = [
            models.CheckConstraint(
                condition=Q(rule_kind__in=RuleKind.values),
                name="achievements_achievement_rule_kind_valid",
            ),
            models.CheckConstraint(
                condition=(Q(rule_kind=RuleKind.TAG_COMPLETED) & ~Q(tag_slug=""))
                | (
                    ~Q(rule_kind=RuleKind.TAG_COMPLETED)
                    & Q(threshold__isnull=False)
                    & Q(threshold__gte=1)
                ),
                name="achievements_achievement_rule_parameters",
                violation_error_message="The rule is missing its parameter.",
            ),
            models.CheckConstraint(
                condition=~Q(rule_kind=RuleKind.QUEST_PERCENT) | Q(threshold__lte=100),
                name="achievements_achievement_percent_at_most_100",
                violation_error_message="A percentage is at most 100.",
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def clean(self) -> None:
        """Require the parameters the rule kind uses; clear the ones it does not."""
        errors: dict[str, str] = {}
        if self.rule_kind == RuleKind.TAG_COMPLETED:
            self.threshold = None
            self.quest = None
            if not self.tag_slug:
                errors["tag_slug"] = "The tag rule needs a tag."
            elif not lessons.tag_exists(slug=self.tag_slug):
                errors["tag_slug"] = f"There is no tag {self.tag_slug!r}."
        elif self.rule_kind in THRESHOLD_KINDS:
            self.tag_slug = ""
            if self.rule_kind != RuleKind.QUEST_PERCENT:
                self.quest = None
            if self.threshold is None:
                errors["threshold"] = "This rule needs a threshold."
            elif self.rule_kind == RuleKind.QUEST_PERCENT and not 1 <= self.threshold <= 100:
                errors["threshold"] = "A percentage is between 1 and 100."
        if errors:
            raise ValidationError(errors)

    @property
    def rule_summary(self) -> str:
        if self.rule_kind == RuleKind.TAG_COMPLETED:
            return f"All lessons tagged {self.tag_slug!r}"
        if self.rule_kind == RuleKind.QUEST_PERCENT:
            slug = self.quest.slug if self.quest is not None else settings.DEMO_QUEST_SLUG
            return f"{slug} ≥ {self.threshold}%"
        return f"{RuleKind(self.rule_kind).label.replace(' N', f' {self.threshold}')}"


class AchievementUnlock(models.Model):
    """That one learner unlocked one achievement, and when. At most one per pair."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="achievement_unlocks"
    )
    achievement = models.ForeignKey(Achievement, on_delete=models.CASCADE, related_name="unlocks")
    unlocked_at = models.DateTimeField(default=clock.now, editable=False)

    class Meta:
        ordering = ("-unlocked_at", "-id")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "achievement"], name="achievements_unlock_once_per_learner"
            ),
        ]
        indexes = [
            models.Index(fields=["achievement", "user"], name="achievements_unlock_ach_user")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} unlocked {self.achievement_id}"
