"""Keys in e-mailed links (a password reset, an address confirmation, an unsubscribe) never
reach a log line, a metric label, a trace or an error report (issue 41, item 3). gunicorn's
access log: learning_platform/tests/test_gunicorn.py."""

import io
import logging
from types import SimpleNamespace

import pytest
from django.test import Client, RequestFactory

from accounts.tests.factories import UserFactory
from learning_platform import metrics, telemetry
from notifications.services import make_unsubscribe_token

pytestmark = pytest.mark.django_db

RESET_KEY = "3f-ck9rv1-9a8b7c6d5e4f3a2b1c0d-b3duZXJAZXhhbXBsZS5jb20.0123456789abcdef"
VERIFY_KEY = "MjM:1vZQ2a:Hq3Lx9sEcretVerifyKeyAbCdEf0123456789"


@pytest.fixture
def console():
    """What the configured console handler (settings.LOGGING) writes, filters and all."""
    handler = next(h for h in logging.getLogger().handlers if h.get_name() == "console")
    stream = io.StringIO()
    previous = handler.setStream(stream)
    try:
        yield stream
    finally:
        handler.setStream(previous)


def test_a_key_in_a_link_never_reaches_a_log_line_or_a_metric(console, settings):
    settings.WEB_DIST_DIR = "/nonexistent"  # the app's page answers 503: Django logs it too
    learner = UserFactory()
    token = make_unsubscribe_token(user_id=learner.pk)
    browser = Client(HTTP_REFERER=f"https://app.example/account/verify-email/{VERIFY_KEY}")

    browser.get(f"/account/password/reset/key/{RESET_KEY}")
    browser.get(f"/account/verify-email/{VERIFY_KEY}?next=/")
    browser.get(f"/api/v1/unsubscribe/{token}")

    written = console.getvalue()
    assert "/account/password/reset/key/<redacted>" in written
    assert "/api/v1/unsubscribe/<redacted>" in written
    for secret in (RESET_KEY, VERIFY_KEY, token, token.split(":")[0]):
        assert secret not in written
        assert secret not in metrics.exposition().decode()


def test_an_error_report_carries_no_key():
    options = telemetry.sentry_options()
    reset_url = f"https://app.example/account/password/reset/key/{RESET_KEY}"
    event = {
        "request": {
            "url": reset_url,
            "headers": {
                "Referer": f"https://app.example/account/verify-email/{VERIFY_KEY}",
                "X-Password-Reset-Key": RESET_KEY,
                "X-Email-Verification-Key": VERIFY_KEY,
            },
            "data": {"key": RESET_KEY, "password": "N3w-pass!"},
        },
        "breadcrumbs": {"values": [{"message": f"GET {reset_url}"}]},
        # Sentry's Celery integration reports a failed task's arguments: an e-mail's body.
        "extra": {"celery-job": {"args": [], "kwargs": {"body": f"Reset it: {reset_url}"}}},
        "transaction": "/account/password/reset/key/<str:key>",
    }

    options["event_scrubber"].scrub_event(event)
    sent = options["before_send"](event, {})

    assert RESET_KEY not in repr(sent)
    assert VERIFY_KEY not in repr(sent)
    assert "/account/password/reset/key/<redacted>" in repr(sent)


def test_a_trace_carries_no_key():
    attributes = {
        "http.url": f"http://testserver/account/password/reset/key/{RESET_KEY}",
        "http.target": f"/account/password/reset/key/{RESET_KEY}",
        "http.method": "GET",
    }
    span = SimpleNamespace(attributes=attributes, set_attribute=attributes.__setitem__)
    request = RequestFactory().get(f"/account/password/reset/key/{RESET_KEY}")

    telemetry.redact_span(span, request)

    assert RESET_KEY not in repr(attributes)
    assert attributes["http.method"] == "GET"
