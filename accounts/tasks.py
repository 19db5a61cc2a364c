from celery import shared_task
from django.core.mail import EmailMultiAlternatives

from learning_platform.tasks import retrying


@shared_task(
    name="accounts.send_email",
    **retrying(OSError, max_retries=8),
    # Not redelivered by the broker when a worker is lost mid-send (the mail server may have
    # accepted the message); its outbox row stays until the task succeeds, so the sweep sends
    # it again later (learning_platform/outbox.py): at least once, after a delay.
    acks_late=False,
)
def send_email(*, subject: str, body: str, to: list[str], html_body: str | None = None) -> None:
    """Send one transactional e-mail (verification, password reset).

    Retries connection failures of the mail server with backoff; when those run out, the
    outbox row keeps the e-mail and the sweep publishes it again, so a mail server outage delays
    it and loses none.
    """
    message = EmailMultiAlternatives(subject=subject, body=body, to=to)
    if html_body:
        message.attach_alternative(html_body, "text/html")
    message.send()
