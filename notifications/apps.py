from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig
from django.core.checks import Error, register

from learning_platform import secret_urls


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"

    def ready(self) -> None:
        # One-click unsubscribe links carry a signed token (notifications.urls): never logged.
        secret_urls.secret_after("/unsubscribe/")

        # Imported here: models, and the modules importing them, need the app registry.
        from accounts import events as account_events
        from notifications import personal_data

        account_events.account_data_asked.subscribe(personal_data.export)
        account_events.account_purged.subscribe(personal_data.purge)


@register()
def check_push_settings(
    app_configs: Sequence[AppConfig] | None = None, **kwargs: Any
) -> list[Error]:
    """A VAPID key or subject that cannot sign would fail every push, silently, in a worker."""
    from notifications import push

    problem = push.configuration_error()
    if problem is None:
        return []
    return [
        Error(
            f"Web Push cannot sign with these settings: {problem}",
            hint="Set WEBPUSH_VAPID_PRIVATE_KEY to `manage.py generate_vapid_key`'s output and "
            "WEBPUSH_VAPID_SUBJECT to a mailto: or https: URL, or leave the key empty.",
            id="notifications.E001",
        )
    ]
