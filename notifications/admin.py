"""Staff tools: look at notifications and e-mail deliveries (read-only)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from notifications.models import EmailDelivery, Notification


# ModelAdmin is generic in django-stubs only: at run time it takes no type argument.
@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "recipient", "kind", "title", "created_at", "read_at", "email_state")
    list_filter = ("kind", "email_state")
    search_fields = ("recipient__email", "title", "dedupe_key")
    search_help_text = (
        "Part of the recipient's e-mail address, a notification's title or its dedupe key."
    )
    list_select_related = ("recipient",)
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Notification | None = None) -> bool:
        return False


@admin.register(EmailDelivery)
class EmailDeliveryAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # as above
    list_display = (
        "id", "key", "to_address", "subject", "created_at", "sent_at", "failed_at", "attempts",
    )  # fmt: skip
    list_filter = (
        ("sent_at", admin.EmptyFieldListFilter),
        ("failed_at", admin.EmptyFieldListFilter),
    )
    search_fields = ("to_address", "key", "subject")
    search_help_text = "Part of the address, the delivery key or the subject."
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: EmailDelivery | None = None) -> bool:
        return False
