"""Taking a comment down takes its text out of every follower's notifications and out of the
digest e-mails not sent yet (issue 41, item 5)."""

from smtplib import SMTPServerDisconnected
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.tests.factories import UserFactory
from community import services, tasks
from community.tests.factories import LessonSubscriptionFactory
from lessons.tests.factories import LessonFactory
from notifications import services as notification_services
from notifications.models import EmailDelivery, Notification

pytestmark = pytest.mark.django_db

SPAM = "Cheap pills at spam.example"


@pytest.fixture
def lesson():
    return LessonFactory(published=True)


@pytest.fixture
def follower(lesson):
    follower = UserFactory(email_notifications=True)
    LessonSubscriptionFactory(user=follower, lesson=lesson)
    return follower


@pytest.fixture
def moderator_client():
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def _post(lesson, body: str, parent=None):
    comment = services.post_comment(
        author=UserFactory(), lesson=lesson, body=body, parent_id=parent and parent.id
    )
    tasks.notify_about_comment(comment.id)
    return comment


def _hide(moderator_client, comment) -> None:
    moderator_client.post(
        reverse("admin:community_comment_changelist"),
        {"action": "hide_comments", "_selected_action": [str(comment.id)], "post": "yes"},
    )


def _notifications_of(user) -> str:
    client = APIClient()
    client.force_authenticate(user)
    return str(client.get("/api/v1/me/notifications/").json())


def _digests_sent_to(user, mailoutbox) -> str:
    mailoutbox.clear()
    notification_services.send_notification_emails(user_id=user.id)
    return "".join(
        m.subject + m.body + "".join(body for body, _ in m.alternatives)
        for m in mailoutbox
        if m.to == [user.email]
    )


def test_hiding_a_comment_withdraws_it_from_notifications_and_a_digest_still_waiting(
    lesson, follower, moderator_client, mailoutbox
):
    spam = _post(lesson, SPAM)
    _post(lesson, "A fair question about d_model")
    assert SPAM in _notifications_of(follower)

    _hide(moderator_client, spam)

    assert SPAM not in _notifications_of(follower)
    sent = _digests_sent_to(follower, mailoutbox)
    assert "A fair question about d_model" in sent
    assert SPAM not in sent


def test_hiding_a_comment_mid_digest_takes_it_out_of_the_unsent_e_mail(
    lesson, follower, moderator_client, mailoutbox
):
    spam = _post(lesson, SPAM)
    _post(lesson, "A fair question about d_model")
    # The digest was gathered, but the mail server was down: the e-mail waits, unsent.
    with (
        mock.patch(
            "django.core.mail.EmailMultiAlternatives.send", side_effect=SMTPServerDisconnected
        ) as send,
        pytest.raises(SMTPServerDisconnected),
    ):
        notification_services.send_notification_emails(user_id=follower.id)
    send.assert_called_once()
    waiting = EmailDelivery.objects.get(recipient=follower, sent_at__isnull=True)
    assert SPAM in waiting.text_body

    _hide(moderator_client, spam)

    sent = _digests_sent_to(follower, mailoutbox)
    assert "A fair question about d_model" in sent
    assert SPAM not in sent


def test_hiding_a_thread_withdraws_its_replies_and_an_e_mail_left_empty_is_not_sent(
    lesson, follower, moderator_client, mailoutbox
):
    head = _post(lesson, SPAM)
    _post(lesson, f"Reply: {SPAM} again", parent=head)
    with (
        mock.patch(
            "django.core.mail.EmailMultiAlternatives.send", side_effect=SMTPServerDisconnected
        ) as send,
        pytest.raises(SMTPServerDisconnected),
    ):
        notification_services.send_notification_emails(user_id=follower.id)
    send.assert_called_once()

    _hide(moderator_client, head)

    assert not Notification.objects.filter(recipient=follower).exists()
    assert _digests_sent_to(follower, mailoutbox) == ""
    assert not EmailDelivery.objects.filter(recipient=follower, sent_at__isnull=True).exists()


def test_a_comment_its_author_deletes_is_withdrawn_too(lesson, follower, mailoutbox):
    author = UserFactory()
    comment = services.post_comment(author=author, lesson=lesson, body=SPAM)
    tasks.notify_about_comment(comment.id)

    services.delete_comment(comment=comment, actor=author)

    assert SPAM not in _notifications_of(follower)
    assert SPAM not in _digests_sent_to(follower, mailoutbox)


def test_an_e_mail_being_sent_as_the_comment_is_hidden_sends_the_rest_if_that_attempt_fails(
    lesson, follower, moderator_client, mailoutbox
):
    from datetime import timedelta

    from django.utils import timezone

    spam = _post(lesson, SPAM)
    _post(lesson, "A fair question about d_model")
    waiting = notification_services.prepare_notification_digest(user_id=follower.id)
    # A worker holds the e-mail (its lease) as the moderator hides the comment...
    EmailDelivery.objects.filter(pk=waiting.pk).update(
        claimed_until=timezone.now() + timedelta(minutes=5)
    )

    _hide(moderator_client, spam)
    # ...and its attempt fails: the lease is released for the next one.
    EmailDelivery.objects.filter(pk=waiting.pk).update(claimed_until=None)

    sent = _digests_sent_to(follower, mailoutbox)
    assert "A fair question about d_model" in sent
    assert SPAM not in sent
