from django.contrib import admin
from django.http import HttpRequest

from learning_platform.admin_lists import LargeTableAdmin
from progress.models import LearnerStats, LessonCompletion, Level, XPAward


@admin.register(Level)
class LevelAdmin(admin.ModelAdmin):
    """The curve is read on every request: a change here re-levels everyone on their next read."""

    list_display = ("number", "name", "xp_required")
    list_display_links = ("number",)
    list_editable = ("name", "xp_required")
    ordering = ("xp_required",)


class ReadOnlyAdmin(LargeTableAdmin):
    """The ledger and the completions are written only by the progress services; all three
    tables grow with the learners."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(XPAward)
class XPAwardAdmin(ReadOnlyAdmin):
    list_display = ("awarded_at", "user", "amount", "source_type", "source_id")
    # A date filter, not date_hierarchy: its year links scan the whole ledger for distinct dates.
    list_filter = ("source_type", "awarded_at")
    list_select_related = ("user",)
    search_fields = ("user__email", "user__display_name", "=source_id")


@admin.register(LessonCompletion)
class LessonCompletionAdmin(ReadOnlyAdmin):
    list_display = ("completed_at", "user", "lesson", "device_id")
    list_select_related = ("user", "lesson")
    search_fields = ("user__email", "lesson__slug")
    ordering = ("-id",)  # newest first, along the primary key (no index on completed_at)


@admin.register(LearnerStats)
class LearnerStatsAdmin(ReadOnlyAdmin):
    list_display = ("user", "xp_total", "streak_current", "streak_best", "last_active_day")
    list_select_related = ("user",)
    search_fields = ("user__email", "user__display_name")
    ordering = ("-xp_total", "user_id")
