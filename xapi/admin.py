from django.contrib import admin

from xapi.models import Statement


@admin.register(Statement)
# ModelAdmin is generic in django-stubs only: at run time it takes no type argument.
class StatementAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["id", "verb", "user", "created_at", "sent_at", "attempts"]
    list_filter = ["verb", "sent_at"]
    raw_id_fields = ["user"]
    readonly_fields = [f.name for f in Statement._meta.fields]
