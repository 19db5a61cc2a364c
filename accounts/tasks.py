from celery import shared_task
from django.core.mail import EmailMultiAlternatives

from accounts import services
from learning_platform import clock
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


# Accounts purged per run: one purge is a few dozen statements; the next run takes the rest.
PURGE_BATCH = 200


@shared_task(name="accounts.purge_deleted_accounts", acks_late=True)
def purge_deleted_accounts() -> int:
    """Periodic: delete for good the accounts whose grace period ran out, a bounded batch per
    run; how many. Idempotent: a purged account is not due any more, and each purge re-reads
    its account under a lock (accounts.services.purge_account)."""
    now = clock.now()
    return sum(
        services.purge_account(user_id=user_id, now=now)
        for user_id in services.accounts_due_for_purge(now=now, limit=PURGE_BATCH)
    )
