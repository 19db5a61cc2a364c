import pytest

from accounts.tests.factories import UserFactory
from notifications import services
from notifications.models import EmailDelivery, EmailState, Notification
from notifications.tests.factories import NotificationFactory

pytestmark = pytest.mark.django_db


def test_create_notification_creates_an_in_app_notification(user):
    notification = services.create_notification(
        recipient_id=user.id, kind="achievement", title="Unlocked", url="/a", dedupe_key="a:1"
    )

    assert notification is not None
    assert notification.recipient_id == user.id
    assert notification.read_at is None
    assert notification.email_state == EmailState.NOT_WANTED


def test_create_notification_twice_with_the_same_key_returns_none(user):
    services.create_notification(recipient_id=user.id, kind="k", title="t", dedupe_key="same")

    again = services.create_notification(
        recipient_id=user.id, kind="k", title="t", dedupe_key="same"
    )

    assert again is None
    assert Notification.objects.filter(recipient=user).count() == 1


def test_create_notification_inside_a_transaction_survives_a_duplicate(user):
    from django.db import transaction

    with transaction.atomic():
        services.create_notification(recipient_id=user.id, kind="k", title="t", dedupe_key="d")
        services.create_notification(recipient_id=user.id, kind="k", title="t", dedupe_key="d")
        services.create_notification(recipient_id=user.id, kind="k", title="t", dedupe_key="e")

    assert Notification.objects.filter(recipient=user).count() == 2


def _pending(recipient, n: int = 1):
    return [
        NotificationFactory(
            recipient=recipient,
            email_state=EmailState.PENDING,
            data={"lesson_id": 1, "lesson": "x"},
        )
        for _ in range(n)
    ]


def test_burst_of_notifications_becomes_one_email(user, mailoutbox):
    _pending(user, 3)

    sent = services.send_notification_emails(user_id=user.id)

    assert sent == 1
    assert len(mailoutbox) == 1
    assert mailoutbox[0].to == [user.email]
    assert mailoutbox[0].subject == "3 new notifications on Learning Platform"
    assert not Notification.objects.filter(email_state=EmailState.PENDING).exists()


def test_digest_run_twice_sends_nothing_twice(user, mailoutbox):
    _pending(user, 2)

    services.send_notification_emails(user_id=user.id)
    again = services.send_notification_emails(user_id=user.id)

    assert again == 0
    assert len(mailoutbox) == 1
    assert EmailDelivery.objects.count() == 1


def test_digest_has_one_click_unsubscribe_headers_and_links(user, mailoutbox):
    _pending(user)

    services.send_notification_emails(user_id=user.id)

    message = mailoutbox[0]
    url = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert url.startswith("http://127.0.0.1:8000/api/v1/unsubscribe/")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert url in message.body
    assert url in message.alternatives[0][0]
    assert services.read_unsubscribe_token(token=url.rsplit("/", 1)[1]) == {"u": user.id}


def test_digest_for_a_learner_who_turned_emails_off_is_skipped(mailoutbox):
    quiet = UserFactory(email_notifications=False)
    _pending(quiet)

    services.send_notification_emails(user_id=quiet.id)

    assert mailoutbox == []
    assert Notification.objects.get().email_state == EmailState.SKIPPED


def test_duplicate_digest_key_records_nothing(user):
    (first,) = _pending(user)
    EmailDelivery.objects.create(
        key=f"digest:{user.id}:{first.id}", recipient=user, to_address=user.email,
        subject="s", text_body="b",
    )  # fmt: skip

    assert services.prepare_notification_digest(user_id=user.id) is None
    first.refresh_from_db()
    assert first.email_state == EmailState.PENDING


def test_failing_mail_server_keeps_the_email_for_the_next_try(user, mailoutbox, monkeypatch):
    from smtplib import SMTPServerDisconnected

    from django.core.mail import EmailMultiAlternatives

    _pending(user)
    real_send = EmailMultiAlternatives.send

    def broken(self, fail_silently=False):
        raise SMTPServerDisconnected("down")

    monkeypatch.setattr(EmailMultiAlternatives, "send", broken)
    with pytest.raises(SMTPServerDisconnected):
        services.send_notification_emails(user_id=user.id)

    delivery = EmailDelivery.objects.get()
    assert delivery.sent_at is None
    assert delivery.claimed_until is None
    assert "down" in delivery.last_error
    assert Notification.objects.get().email_delivery == delivery

    monkeypatch.setattr(EmailMultiAlternatives, "send", real_send)
    assert services.send_notification_emails(user_id=user.id) == 1
    assert len(mailoutbox) == 1


def test_a_delivery_claimed_by_another_worker_is_not_sent_again(user, mailoutbox):
    from datetime import timedelta

    from django.utils import timezone

    delivery = EmailDelivery.objects.create(
        key="k", recipient=user, to_address=user.email, subject="s", text_body="b",
        claimed_until=timezone.now() + timedelta(minutes=1),
    )  # fmt: skip

    assert services.send_email_delivery(delivery_id=delivery.id) is False
    assert mailoutbox == []


def test_overdue_work_finds_waiting_notifications_and_unsent_emails(user):
    from datetime import timedelta

    from django.utils import timezone

    (old,) = _pending(user)
    Notification.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(hours=1))
    _pending(UserFactory())  # still within its window
    stuck = EmailDelivery.objects.create(
        key="report:1:resolved", to_address="a@b.example", subject="s", text_body="b"
    )
    EmailDelivery.objects.filter(pk=stuck.pk).update(created_at=timezone.now() - timedelta(hours=1))

    assert services.overdue_email_work() == ([user.id], [stuck.id])


def test_unsubscribe_token_round_trips_and_rejects_tampering(user):
    from learning_platform.errors import NotFound

    token = services.make_unsubscribe_token(user_id=user.id, lesson_id=7)

    assert services.read_unsubscribe_token(token=token) == {"u": user.id, "l": 7}
    with pytest.raises(NotFound):
        services.read_unsubscribe_token(token=token[:-2] + "xx")


def test_expired_unsubscribe_token_is_rejected(user, settings):
    from datetime import timedelta

    from learning_platform.errors import NotFound

    settings.COMMUNITY_UNSUBSCRIBE_MAX_AGE = timedelta(seconds=-1)
    token = services.make_unsubscribe_token(user_id=user.id)

    with pytest.raises(NotFound):
        services.read_unsubscribe_token(token=token)


def test_a_notification_title_with_a_line_break_still_makes_a_one_line_subject(user, mailoutbox):
    NotificationFactory(
        recipient=user,
        title="Eve\r\nBcc: victim@example.com replied to your comment",
        email_state=EmailState.PENDING,
    )

    sent = services.send_notification_emails(user_id=user.id)

    assert sent == 1
    assert mailoutbox[0].subject == "Eve Bcc: victim@example.com replied to your comment"
    assert mailoutbox[0].bcc == []


def test_a_delivery_that_cannot_be_sent_is_marked_failed_and_the_next_ones_go_out(user, mailoutbox):
    from notifications.models import EmailDelivery

    broken = EmailDelivery.objects.create(
        key="legacy:1", recipient=user, to_address="victim@example.com\r\nBcc: x@example.com",
        subject="Hi", text_body="x",
    )  # fmt: skip
    fine = EmailDelivery.objects.create(
        key="legacy:2", recipient=user, to_address=user.email, subject="Hello", text_body="y"
    )

    sent = services.send_notification_emails(user_id=user.id)

    assert sent == 1
    assert [m.subject for m in mailoutbox] == ["Hello"]
    broken.refresh_from_db()
    fine.refresh_from_db()
    assert broken.failed_at is not None
    assert broken.last_error.startswith("BadHeaderError")
    assert fine.sent_at is not None
    # a failed delivery is not tried again by later runs or the sweep
    assert services.send_notification_emails(user_id=user.id) == 0
    assert services.overdue_email_work() == ([], [])


def test_a_delivery_failing_transiently_is_marked_failed_after_its_attempts(
    user, mailoutbox, monkeypatch
):
    from smtplib import SMTPException

    from django.core.mail import EmailMultiAlternatives

    from notifications.models import EmailDelivery
    from notifications.selectors import MAX_DELIVERY_ATTEMPTS

    delivery = EmailDelivery.objects.create(
        key="k", recipient=user, to_address=user.email, subject="Hi", text_body="x"
    )
    EmailDelivery.objects.filter(pk=delivery.pk).update(attempts=MAX_DELIVERY_ATTEMPTS - 1)

    def refuse(self, fail_silently=False):
        raise SMTPException("4.3.0 try again later")

    monkeypatch.setattr(EmailMultiAlternatives, "send", refuse)

    with pytest.raises(SMTPException):
        services.send_email_delivery(delivery_id=delivery.pk)

    delivery.refresh_from_db()
    assert delivery.failed_at is not None
    assert delivery.attempts == MAX_DELIVERY_ATTEMPTS
