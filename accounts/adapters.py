from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter, get_adapter
from django.conf import settings

from accounts.reset_keys import bind_to_address

# allauth's confirmation e-mails name the account by its display name ("user <name> has given
# your email address"): text anyone chooses, mailed to any address they type. Ours names no one.
CONFIRMATION_TEMPLATES = frozenset(
    {"account/email/email_confirmation", "account/email/email_confirmation_signup"}
)


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]  # allauth has no types
    """Sends allauth's e-mails (verification, password reset) from a Celery worker."""

    error_messages = {
        **DefaultAccountAdapter.error_messages,
        # Sign-up with the address another account was started with and never confirmed
        # (accounts.signup.SignupForm).
        "email_unconfirmed": (
            "An account was started with this address but never confirmed. "
            "Reset the password to claim it."
        ),
    }

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        from accounts import services

        if template_prefix in CONFIRMATION_TEMPLATES:
            template_prefix = "account/email/confirm_address"
            context = {name: value for name, value in context.items() if name != "user"}
        # allauth leaves it out of some (an account already exists) whose text names it.
        context.setdefault("email", email)
        # The API has no Sites framework; name the product and the SPA's host in e-mails.
        context["current_site"] = SimpleNamespace(
            name=settings.SITE_NAME, domain=urlsplit(settings.FRONTEND_URL).netloc
        )
        message = self.render_mail(template_prefix, email, context)
        services.queue_email(
            subject=message.subject,
            body=message.body,
            to=list(message.to),
            html_body=next(
                (c for c, mime in getattr(message, "alternatives", []) if mime == "text/html"),
                None,
            ),
        )

    def send_password_reset_mail(self, user: Any, email: str, context: dict[str, Any]) -> None:
        """The key carries the address it is sent to: completing the reset proves that address
        (accounts.reset_keys, accounts.services.claim_account_by_reset)."""
        key = bind_to_address(context["key"], user_pk=user.pk, email=email)
        context["key"] = key
        context["password_reset_url"] = self.get_reset_password_from_key_url(
            f"{context['uid']}-{key}"
        )
        super().send_password_reset_mail(user, email, context)

    def clean_email(self, email: str) -> str:
        """Every form that looks an address up (sign-up, reset request, adding an address)
        first detaches it from accounts that attached it unverified, so such an address
        neither blocks the sign-up nor receives the reset (accounts.services)."""
        from accounts import services

        email = super().clean_email(email)
        user = getattr(getattr(self, "request", None), "user", None)
        keep = user.pk if user is not None and user.is_authenticated else None
        services.release_unverified_address(email=email, keep_user_id=keep)
        return email

    def _get_login_attempts_cache_key(self, request: Any, **credentials: Any) -> str:
        """allauth counts failed sign-ins per address: five wrong passwords from anyone locked
        the owner out for five minutes. Counted per client and address instead (issue 41)."""
        return login_attempts_key(request, credentials.get("email") or "")

    def format_email_subject(self, subject: str) -> str:
        return f"[{settings.SITE_NAME}] {subject}"


def login_attempts_key(request: Any, email: str) -> str:
    """The key allauth's `login_failed` limit counts under (`5/5m/key`): the client's address
    (REMOTE_ADDR, learning_platform/proxies.py) and the address signed in with, for the API's
    sign-in and the admin's alike (accounts.forms)."""
    return f"{get_adapter().get_client_ip(request)}:{email.strip().lower()}"
