from allauth.account.adapter import DefaultAccountAdapter


class AccountAdapter(DefaultAccountAdapter):
    """Sends allauth's e-mails (verification, password reset) from a Celery worker."""

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        from accounts import services

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
