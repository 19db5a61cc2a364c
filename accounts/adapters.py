from types import SimpleNamespace
from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings


class AccountAdapter(DefaultAccountAdapter):
    """Sends allauth's e-mails (verification, password reset) from a Celery worker."""

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        from accounts import services

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

    def format_email_subject(self, subject: str) -> str:
        return f"[{settings.SITE_NAME}] {subject}"
