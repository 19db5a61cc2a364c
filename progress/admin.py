from django.contrib import admin
from django.db.models import Q

from learning_platform.admin_lists import ReadOnlyAdmin
from lessons import selectors as lessons
from progress.models import LearnerStats, LessonCompletion, Level, PlatformOutage, XPAward


# ModelAdmin is generic in django-stubs only: at run time it takes no type argument.
@admin.register(Level)
class LevelAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """The curve is read on every request: a change here re-levels everyone on their next read."""

    list_display = ("number", "name", "xp_required")
    list_display_links = ("number",)
    list_editable = ("name", "xp_required")
    ordering = ("xp_required",)


@admin.register(XPAward)
class XPAwardAdmin(ReadOnlyAdmin):
    list_display = ("awarded_at", "user", "amount", "source_type", "source_id")
    # A date filter, not date_hierarchy: its year links scan the whole ledger for distinct dates.
    list_filter = ("source_type", "awarded_at")
    list_select_related = ("user",)
    search_help_text = "Part of a learner's e-mail address or name, or a source id."

    def extra_search_conditions(self, term: str) -> Q | None:
        return Q(source_id=int(term)) if term.isdigit() else None


@admin.register(LessonCompletion)
class LessonCompletionAdmin(ReadOnlyAdmin):
    list_display = ("completed_at", "user", "lesson", "device_id")
    list_select_related = ("user", "lesson")
    search_help_text = "Part of a learner's e-mail address or name, or a lesson's slug."

    def extra_search_conditions(self, term: str) -> Q | None:
        return Q(lesson_id__in=lessons.lesson_ids_with_slug(slug=term))

    ordering = ("-id",)  # newest first, along the primary key (no index on completed_at)


@admin.register(LearnerStats)
class LearnerStatsAdmin(ReadOnlyAdmin):
    list_display = ("user", "xp_total", "streak_current", "streak_best", "last_active_day")
    list_select_related = ("user",)
    ordering = ("-xp_total", "user_id")


@admin.register(PlatformOutage)
class PlatformOutageAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # as LevelAdmin
    """Operators record when the platform could not take learners' activity: a learner's day
    that overlaps an outage never breaks their streak (progress.streaks)."""

    list_display = ("starts_at", "ends_at", "reason")
    date_hierarchy = "starts_at"
