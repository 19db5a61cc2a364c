from typing import Any
from urllib.parse import urlsplit

from django.apps import AppConfig
from django.conf import settings

from learning_platform import secret_urls


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from allauth.account import signals as allauth_signals
        from django.db.models.signals import post_delete, post_save

        from accounts.backends import forget_cached_users
        from accounts.models import User
        from accounts.services import cancel_account_deletion, claim_account_by_reset

        def user_changed(instance: User, **kwargs: Any) -> None:
            forget_cached_users([instance.pk])

        def password_reset(user: User, **kwargs: Any) -> None:
            # Set by accounts.reset_keys when the reset's key checked out.
            if user.reset_through_email:
                claim_account_by_reset(user=user, email=user.reset_through_email)

        def adding_an_address(user: User, email: str, **kwargs: Any) -> None:
            # Sent by allauth's add-address form as it validates (allauth's own mfa app refuses
            # addresses through it too): a ValidationError here is the form's answer.
            from allauth.account.adapter import get_adapter

            from accounts.services import address_held_elsewhere

            if address_held_elsewhere(email=email, user_id=user.pk):
                raise get_adapter().validation_error("email_taken")

        def signed_in(user: User, **kwargs: Any) -> None:
            # Signing in during the grace period is how a learner keeps their account.
            if user.deletion_requested_at is not None:
                cancel_account_deletion(user=user)

        # The links allauth e-mails end in a key (a reset, an address confirmation): their
        # paths never reach a log line, a trace or an error report (learning_platform.secret_urls).
        secret_urls.secret_after(
            *(
                urlsplit(url).path.partition("{key}")[0]
                for url in settings.HEADLESS_FRONTEND_URLS.values()
                if "{key}" in url
            )
        )
        allauth_signals.password_reset.connect(password_reset, weak=False)
        allauth_signals.user_logged_in.connect(signed_in, weak=False)
        allauth_signals._add_email.connect(adding_an_address, weak=False)
        post_save.connect(user_changed, sender="accounts.User", weak=False)
        post_delete.connect(user_changed, sender="accounts.User", weak=False)
