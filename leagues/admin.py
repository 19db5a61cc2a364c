from django.contrib import admin

from leagues.models import Cohort


@admin.register(Cohort)
class CohortAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # as notifications.admin
    list_display = ("week", "tier", "anchor_offset", "size", "ends_at", "closed_at")
    list_filter = ("tier", "week")
    readonly_fields = ("week", "tier", "anchor_offset", "size", "ends_at", "closed_at")
