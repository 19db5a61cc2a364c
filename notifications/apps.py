from django.apps import AppConfig

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
