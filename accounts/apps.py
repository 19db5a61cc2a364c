from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from allauth.account import signals as allauth_signals
        from django.db.models.signals import post_delete, post_save

        from accounts.backends import forget_cached_users
        from accounts.services import claim_account_by_reset

        def user_changed(instance, **kwargs) -> None:
            forget_cached_users([instance.pk])

        def password_reset(user, **kwargs) -> None:
            # Set by accounts.reset_keys when the reset's key checked out.
            if user.reset_through_email:
                claim_account_by_reset(user=user, email=user.reset_through_email)

        allauth_signals.password_reset.connect(password_reset, weak=False)
        post_save.connect(user_changed, sender="accounts.User", weak=False)
        post_delete.connect(user_changed, sender="accounts.User", weak=False)
