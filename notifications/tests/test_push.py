"""Web Push (notifications/push.py): sending to a push service on a local port, and the browser
decrypting what arrived with its own keys."""

import pytest
from django.core.checks import run_checks
from django.core.management import call_command
from django.db import IntegrityError
from pywebpush import WebPushException

from accounts.tests.factories import UserFactory
from notifications import push
from notifications.models import PushDelivery, PushSubscription
from notifications.tests.factories import NotificationFactory
from notifications.tests.push_service import PushService

pytestmark = pytest.mark.django_db

VAPID_KEY = "jmqJmK-wxvYXP3UcYVM4JnH5NwIXpWv8hd2yrytrjOw"


@pytest.fixture(autouse=True)
def vapid(settings):
    settings.WEBPUSH_VAPID_PRIVATE_KEY = VAPID_KEY
    settings.WEBPUSH_VAPID_SUBJECT = "mailto:ops@example.com"


@pytest.fixture
def service():
    running = PushService()
    yield running
    running.close()


def _subscribe(user, browser):
    push.save_subscription(
        user_id=user.pk, endpoint=browser.endpoint, p256dh=browser.p256dh, auth=browser.auth
    )


def test_a_notification_reaches_each_device_encrypted_for_that_browser(service):
    user = UserFactory()
    phone, laptop = service.browser("phone"), service.browser("laptop")
    _subscribe(user, phone)
    _subscribe(user, laptop)
    notification = NotificationFactory(recipient=user, title="2 hours left", url="/")

    sent = push.send_push_notification(notification_id=notification.pk)

    assert sent == 2
    by_path = {pushed.path: pushed for pushed in service.pushed}
    message = phone.read(by_path["/push/phone"])
    assert message == {
        "title": "2 hours left",
        "body": "",
        "url": "/",
        "tag": f"comment_reply:{notification.pk}",
    }
    assert laptop.read(by_path["/push/laptop"])["title"] == "2 hours left"


def test_the_push_is_signed_with_vapid_and_expires_within_the_hour(service):
    user = UserFactory()
    browser = service.browser("phone")
    _subscribe(user, browser)

    push.send_push_notification(notification_id=NotificationFactory(recipient=user).pk)

    headers = {name.lower(): value for name, value in service.pushed[0].headers.items()}
    assert headers["authorization"].startswith("vapid t=")
    assert f"k={push.public_key()}" in headers["authorization"]
    assert headers["ttl"] == str(push.PUSH_TTL_SECONDS)
    assert headers["content-encoding"] == "aes128gcm"


def test_a_second_run_for_the_same_notification_pushes_nothing(service):
    user = UserFactory()
    _subscribe(user, service.browser("phone"))
    notification = NotificationFactory(recipient=user)

    first = push.send_push_notification(notification_id=notification.pk)
    again = push.send_push_notification(notification_id=notification.pk)

    assert (first, again) == (1, 0)
    assert len(service.pushed) == 1


def test_the_database_holds_one_delivery_per_notification_and_device(service):
    user = UserFactory()
    _subscribe(user, service.browser("phone"))
    notification = NotificationFactory(recipient=user)
    push.send_push_notification(notification_id=notification.pk)

    with pytest.raises(IntegrityError):
        PushDelivery.objects.create(
            notification=notification, subscription=PushSubscription.objects.get()
        )


def test_a_subscription_the_push_service_no_longer_knows_is_deleted(service):
    user = UserFactory()
    _subscribe(user, service.browser("gone"))
    service.statuses = [410]

    sent = push.send_push_notification(notification_id=NotificationFactory(recipient=user).pk)

    assert sent == 0
    assert not PushSubscription.objects.exists()


def test_a_push_service_error_releases_the_device_for_the_retry(service):
    user = UserFactory()
    browser = service.browser("phone")
    _subscribe(user, browser)
    notification = NotificationFactory(recipient=user, title="Retry me")
    service.statuses = [503]

    with pytest.raises(WebPushException):
        push.send_push_notification(notification_id=notification.pk)
    assert not PushDelivery.objects.exists()
    retried = push.send_push_notification(notification_id=notification.pk)

    assert retried == 1
    assert browser.read(service.pushed[-1])["title"] == "Retry me"


def test_only_the_recipients_devices_get_the_notification(service):
    user, other = UserFactory(), UserFactory()
    _subscribe(other, service.browser("someone-else"))

    sent = push.send_push_notification(notification_id=NotificationFactory(recipient=user).pk)

    assert sent == 0
    assert service.pushed == []


def test_without_a_vapid_key_nothing_is_pushed(settings, service):
    user = UserFactory()
    _subscribe(user, service.browser("phone"))
    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""

    sent = push.send_push_notification(notification_id=NotificationFactory(recipient=user).pk)

    assert sent == 0
    assert service.pushed == []


def test_the_generated_key_is_one_the_server_can_sign_with(settings, capsys):
    call_command("generate_vapid_key")
    line = capsys.readouterr().out.strip()
    name, key = line.split("=", 1)
    settings.WEBPUSH_VAPID_PRIVATE_KEY = key

    assert name == "WEBPUSH_VAPID_PRIVATE_KEY"
    assert len(push.public_key() or "") == 87  # 65 bytes, base64url without padding


def test_a_key_that_cannot_sign_stops_the_server_at_its_checks(settings):
    settings.WEBPUSH_VAPID_PRIVATE_KEY = "not-a-key"

    [error] = run_checks()

    assert error.id == "notifications.E001"


def test_a_subject_push_services_refuse_stops_the_server_at_its_checks(settings):
    settings.WEBPUSH_VAPID_SUBJECT = "http://127.0.0.1:8000"

    [error] = run_checks()

    assert error.id == "notifications.E001"


def test_by_default_push_services_are_told_the_platforms_sender_address(settings):
    settings.WEBPUSH_VAPID_SUBJECT = ""
    settings.DEFAULT_FROM_EMAIL = "Learning Platform <noreply@learn.example.com>"

    assert push.vapid_subject() == "mailto:noreply@learn.example.com"
    assert run_checks() == []
