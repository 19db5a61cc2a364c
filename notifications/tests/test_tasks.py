from smtplib import SMTPException

import pytest
from celery.exceptions import Retry

from accounts.tests.factories import UserFactory
from notifications import tasks
from notifications.models import EmailDelivery, EmailState, Notification
from notifications.tests.factories import NotificationFactory


@pytest.mark.django_db
def test_overdue_sweep_enqueues_waiting_digests(monkeypatch):
    from datetime import timedelta

    from django.utils import timezone

    user = UserFactory()
    waiting = NotificationFactory(recipient=user, email_state=EmailState.PENDING)
    Notification.objects.filter(pk=waiting.pk).update(
        created_at=timezone.now() - timedelta(hours=1)
    )
    enqueued: list[int] = []
    monkeypatch.setattr(tasks.send_notification_emails, "delay", enqueued.append)

    tasks.send_overdue_emails()

    assert enqueued == [user.id]


@pytest.mark.django_db
def test_a_failing_mail_server_is_retried_and_the_email_survives(monkeypatch, mailoutbox):
    from django.core.mail import EmailMultiAlternatives

    user = UserFactory()
    NotificationFactory(recipient=user, email_state=EmailState.PENDING)
    real_send = EmailMultiAlternatives.send
    attempts = {"n": 0}

    def flaky(self, fail_silently=False):
        attempts["n"] += 1
        if attempts["n"] < 3:
            raise SMTPException("4.3.0 try again later")
        return real_send(self, fail_silently)

    monkeypatch.setattr(EmailMultiAlternatives, "send", flaky)

    # Each delivery the server refuses asks to be delivered again (eager mode raises Celery's
    # Retry: tests propagate task errors, CELERY_TASK_EAGER_PROPAGATES); the third goes out.
    for _ in range(2):
        with pytest.raises(Retry) as retry:
            tasks.send_notification_emails.apply(args=(user.id,))
        assert isinstance(retry.value.exc, SMTPException)
    tasks.send_notification_emails.apply(args=(user.id,))

    assert attempts["n"] == 3
    assert len(mailoutbox) == 1
    delivery = EmailDelivery.objects.get()
    assert delivery.sent_at is not None
    assert delivery.attempts == 3


@pytest.mark.django_db
def test_a_failed_send_is_counted_in_the_metrics(monkeypatch, mailoutbox, scrape):
    from django.core.mail import EmailMultiAlternatives

    def refused(self, fail_silently=False):
        raise SMTPException("4.3.0 try again later")

    user = UserFactory()
    NotificationFactory(recipient=user, email_state=EmailState.PENDING)
    monkeypatch.setattr(EmailMultiAlternatives, "send", refused)
    before = scrape()

    with pytest.raises(Retry):
        tasks.send_notification_emails.apply(args=(user.id,))

    after = scrape()
    name = "lp_emails_failed_total"
    assert after.value(name, outcome="will_retry") == before.value(name, outcome="will_retry") + 1


@pytest.mark.django_db
def test_one_task_sends_each_of_many_users_their_digest_once(mailoutbox):
    users = UserFactory.create_batch(3)
    for user in users[:2]:
        NotificationFactory(recipient=user, email_state=EmailState.PENDING)

    tasks.send_notification_emails_to.apply(args=([u.id for u in users],))
    tasks.send_notification_emails_to.apply(args=([u.id for u in users],))

    assert sorted(m.to[0] for m in mailoutbox) == sorted(u.email for u in users[:2])
