from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives


@shared_task(
    name="accounts.send_email",
    autoretry_for=(OSError,),
    retry_backoff=True,
    retry_backoff_max=settings.CELERY_RETRY_BACKOFF_MAX,
    retry_jitter=True,
    max_retries=8,
    # At most once: a redelivery after the mail server accepted the message (a worker lost
    # mid-send) would send a second copy; a lost worker's e-mail is requested again instead.
    acks_late=False,
)
def send_email(*, subject: str, body: str, to: list[str], html_body: str | None = None) -> None:
    """Send one transactional e-mail (verification, password reset).

    Retries connection failures of the mail server with backoff.
    """
    message = EmailMultiAlternatives(subject=subject, body=body, to=to)
    if html_body:
        message.attach_alternative(html_body, "text/html")
    message.send()
