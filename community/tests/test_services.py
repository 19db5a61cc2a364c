import pytest

from community import services
from community.models import EmailState, Notification

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
