from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from accounts.backends import forget_cached_user

        def user_changed(instance, **kwargs) -> None:
            forget_cached_user(instance.pk)

        post_save.connect(user_changed, sender="accounts.User", weak=False)
        post_delete.connect(user_changed, sender="accounts.User", weak=False)
