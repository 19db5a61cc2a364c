from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Count, Q, QuerySet
from django.forms import ModelForm
from django.http import HttpRequest, HttpResponse

from achievements.models import Achievement, AchievementUnlock
from achievements.tasks import award_retroactively
from learning_platform import admin_actions
from learning_platform.admin_lists import LearnerSearchAdmin

# Changing any of these can make learners qualify who did not before.
RULE_FIELDS = frozenset({"rule_kind", "threshold", "tag_slug", "quest", "is_active"})


def _award_after_commit(achievement_id: int) -> None:
    # celery-types types a shared_task as Celery's Task; the app's is a DjangoTask.
    award_retroactively.delay_on_commit(achievement_id)  # type: ignore[attr-defined]


@admin.register(Achievement)
# ModelAdmin is generic in django-stubs only: at run time it takes no type argument.
class AchievementAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = (
        "title",
        "slug",
        "rule_summary",
        "xp_bonus",
        "position",
        "is_active",
        "unlock_count",
    )
    list_filter = ("is_active", "rule_kind")
    search_fields = ("slug", "title", "description")
    search_help_text = "Part of an achievement's slug, title or description."
    prepopulated_fields = {"slug": ("title",)}
    raw_id_fields = ("quest",)
    readonly_fields = ("created_at", "updated_at")
    fieldsets = (
        (None, {"fields": ("title", "slug", "description", "icon", "position", "is_active")}),
        (
            "Rule",
            {
                "fields": ("rule_kind", "threshold", "tag_slug", "quest"),
                "description": "Tag rule: set the tag. Every other kind: set the threshold "
                "(a percentage for quest percent). Parameters a kind does not use are cleared.",
            },
        ),
        ("Reward", {"fields": ("xp_bonus",)}),
        ("Dates", {"fields": ("created_at", "updated_at")}),
    )
    actions = ("award_to_qualifying_learners",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Achievement]:
        queryset: QuerySet[Achievement] = super().get_queryset(request)
        return queryset.annotate(unlock_total=Count("unlocks"))

    @admin.display(description="Rule")
    def rule_summary(self, achievement: Achievement) -> str:
        return achievement.rule_summary

    @admin.display(description="Unlocked by", ordering="unlock_total")
    def unlock_count(self, achievement: Achievement) -> int:
        total: int = achievement.unlock_total  # type: ignore[attr-defined]  # get_queryset's annotation
        return total

    def save_model(
        self, request: HttpRequest, obj: Achievement, form: ModelForm[Achievement], change: bool
    ) -> None:
        super().save_model(request, obj, form, change)
        if obj.is_active and (not change or RULE_FIELDS & set(form.changed_data)):
            _award_after_commit(obj.id)
            self.message_user(
                request,
                f"Awarding “{obj}” to learners who already qualify, in the background.",
                messages.INFO,
            )

    @admin.action(description="Award to learners who already qualify")
    def award_to_qualifying_learners(
        self, request: HttpRequest, queryset: QuerySet[Achievement]
    ) -> HttpResponse | None:
        if not admin_actions.confirmed(request):
            return admin_actions.ask_first(
                self,
                request,
                queryset,
                action="award_to_qualifying_learners",
                title="Award achievements",
                consequence="Every learner who already meets an achievement's rule unlocks it "
                "now, with its XP bonus, in the background.",
                changes=lambda achievement: achievement.is_active,
                unchanged_heading="Inactive, not awarded",
            )
        ids = list(queryset.filter(is_active=True).values_list("id", flat=True))
        for achievement_id in ids:
            _award_after_commit(achievement_id)
        self.message_user(
            request, f"Awarding {len(ids)} active achievement(s) in the background.", messages.INFO
        )
        return None


@admin.register(AchievementUnlock)
class AchievementUnlockAdmin(LearnerSearchAdmin):
    list_display = ("achievement", "user", "unlocked_at")
    list_filter = ("achievement",)
    search_help_text = "Part of a learner's e-mail address or name, or an achievement's slug."
    ordering = ("-id",)  # newest first, along the primary key (no index on unlocked_at)
    list_select_related = ("achievement", "user")
    raw_id_fields = ("user",)
    readonly_fields = ("user", "achievement", "unlocked_at")

    def extra_search_conditions(self, term: str) -> Q | None:
        achievements = Achievement.objects.filter(slug=term).values_list("id", flat=True)
        return Q(achievement_id__in=list(achievements))

    def has_add_permission(self, request: HttpRequest) -> bool:
        # Unlocks come from evaluation, which also pays the bonus; a hand-made one would not.
        return False

    def has_change_permission(
        self, request: HttpRequest, obj: AchievementUnlock | None = None
    ) -> bool:
        return False
