"""Verification and reset e-mails survive a mail server outage and a broker that loses its
queues: each is an outbox row until sent (learning_platform/outbox.py)."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from accounts.tests.factories import UserFactory
from learning_platform import outbox
from learning_platform.models import UnsentTask

pytestmark = pytest.mark.django_db

APP = "/_allauth/app/v1"


def _request_reset(client, capture, email: str) -> None:
    with capture(execute=True):
        response = client.post(
            f"{APP}/auth/password/request", {"email": email}, content_type="application/json"
        )
    assert response.status_code == 200, response.content


def _sweep_later(seconds: float) -> int:
    with time_machine.travel(timezone.now() + timedelta(seconds=seconds), tick=False):
        return outbox.send_unsent_tasks()


def test_a_mail_server_outage_delays_a_reset_email_and_loses_none(
    client, settings, memory_broker, django_capture_on_commit_callbacks
):
    UserFactory(email="forgot@example.com")
    settings.EMAIL_BACKEND = "accounts.tests.mail_backends.DownBackend"
    _request_reset(client, django_capture_on_commit_callbacks, "forgot@example.com")

    # The worker's retries run out while the mail server is down.
    assert memory_broker.run_queued(last_try=True) == ["accounts.send_email"]
    kept = UnsentTask.objects.get(task="accounts.send_email")
    assert "ConnectionRefusedError" in kept.last_error
    assert mail.outbox == []

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert _sweep_later(settings.OUTBOX_REDELIVER_AFTER * 2 + 1) == 1
    memory_broker.run_queued()

    assert [m.to for m in mail.outbox] == [["forgot@example.com"]]
    assert not UnsentTask.objects.exists()


def test_a_broker_flush_loses_no_verification_email(
    client, settings, memory_broker, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"{APP}/auth/signup",
            {"email": "new@example.com", "password": "S3cure-passw0rd!"},
            content_type="application/json",
        )
    assert response.status_code == 200, response.content
    memory_broker.flush()  # Redis FLUSHDB before a worker took the message

    assert _sweep_later(settings.OUTBOX_REDELIVER_AFTER + 1) == 1
    memory_broker.run_queued()

    assert [m.to for m in mail.outbox] == [["new@example.com"]]
    assert not UnsentTask.objects.exists()
