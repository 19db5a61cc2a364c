from django.contrib import admin
from django.http import HttpRequest

from learning_platform.models import UnsentTask


@admin.register(UnsentTask)
# ModelAdmin is generic in django-stubs only: at run time it takes no type argument.
class UnsentTaskAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Tasks not yet done (the outbox): the sweep publishes those due; a worker deletes each
    once its task has run."""

    list_display = ("id", "task", "args", "created_at", "due_at", "attempts", "last_error")
    list_filter = ("task",)
    search_fields = ("=request_id",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: UnsentTask | None = None) -> bool:
        return False
