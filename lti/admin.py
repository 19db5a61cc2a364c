"""The LTI tool in the admin: platforms and their deployments are django-lti's pages
(`LTI registrations`); here, who came through them and the scores sent back."""

from django.contrib import admin

from lti.models import GradeLink, LtiAccount, ScorePost


@admin.register(LtiAccount)
# ModelAdmin is generic in django-stubs only: at run time it takes no type argument.
class LtiAccountAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["issuer", "subject", "user", "created_at"]
    search_fields = ["issuer", "subject"]
    raw_id_fields = ["user"]
    readonly_fields = ["issuer", "subject", "user", "created_at"]


@admin.register(GradeLink)
class GradeLinkAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # as LtiAccountAdmin
    list_display = ["user", "lesson", "lineitem_url", "created_at"]
    raw_id_fields = ["user", "lesson"]
    readonly_fields = [f.name for f in GradeLink._meta.fields]


@admin.register(ScorePost)
class ScorePostAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # as LtiAccountAdmin
    list_display = [
        "grade_link",
        "checks_passed",
        "checks_total",
        "timestamp",
        "sent_at",
        "attempts",
    ]
    list_filter = ["sent_at"]
    readonly_fields = [f.name for f in ScorePost._meta.fields]
