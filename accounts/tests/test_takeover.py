"""Pre-account takeover through an unverified address (issue 25, item 2): an address someone
attached without proving it blocks nobody's sign-up and never receives a reset or signs in."""

import pytest
from django.core import mail
from django.test import Client

from accounts.models import User
from accounts.tests.test_api import APP, PASSWORD, app_login, key_from_mail

pytestmark = pytest.mark.django_db

BROWSER = "/_allauth/browser/v1"
OWNER_PASSWORD = "0wner-s3cret-pass!"


def _browser() -> Client:
    browser = Client(enforce_csrf_checks=True)
    browser.get(f"{BROWSER}/config")
    browser.defaults["HTTP_X_CSRFTOKEN"] = browser.cookies["csrftoken"].value
    return browser


def _attacker_with_squatted_address(capture) -> tuple[Client, str]:
    attacker = Client()
    with capture(execute=True):
        signup = attacker.post(
            f"{APP}/auth/signup",
            {"email": "attacker@example.com", "password": PASSWORD},
            content_type="application/json",
        )
    assert signup.status_code == 200, signup.content
    token = signup.json()["meta"]["session_token"]
    with capture(execute=True):
        added = attacker.post(
            f"{APP}/account/email",
            {"email": "squat@example.com"},
            content_type="application/json",
            HTTP_X_SESSION_TOKEN=token,
        )
    assert added.status_code == 200, added.content
    assert {"email": "squat@example.com", "verified": False} in [
        {k: a[k] for k in ("email", "verified")} for a in added.json()["data"]
    ]
    return attacker, token


def test_an_unverified_address_blocks_no_signup_and_its_reset_reaches_the_owner(
    django_capture_on_commit_callbacks,
):
    attacker_client, token = _attacker_with_squatted_address(django_capture_on_commit_callbacks)
    attacker = User.objects.get(email="attacker@example.com")

    # The owner signs up with the address (in a browser): accepted.
    owner_browser = _browser()
    with django_capture_on_commit_callbacks(execute=True):
        signup = owner_browser.post(
            f"{BROWSER}/auth/signup",
            {"email": "squat@example.com", "password": OWNER_PASSWORD},
            content_type="application/json",
        )
    assert signup.status_code == 200, signup.content
    owner = User.objects.get(email="squat@example.com")
    assert owner.pk != attacker.pk

    # A reset for the address is for the owner's account, and only for it.
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        requested = Client().post(
            f"{APP}/auth/password/request",
            {"email": "squat@example.com"},
            content_type="application/json",
        )
    assert requested.status_code == 200
    assert len(mail.outbox) == 1
    key = key_from_mail(mail.outbox[0], "/account/password/reset/key/")
    reset = Client().post(
        f"{APP}/auth/password/reset",
        {"key": key, "password": "N3w-0wner-pass!"},
        content_type="application/json",
    )
    assert reset.status_code in (200, 401), reset.content
    owner.refresh_from_db()
    attacker.refresh_from_db()
    assert owner.check_password("N3w-0wner-pass!")
    assert attacker.check_password(PASSWORD)

    # The attacker's account no longer holds the address, and cannot sign in with it.
    listed = attacker_client.get(f"{APP}/account/email", HTTP_X_SESSION_TOKEN=token).json()
    assert [a["email"] for a in listed["data"]] == ["attacker@example.com"]
    refused = Client().post(
        f"{APP}/auth/login",
        {"email": "squat@example.com", "password": PASSWORD},
        content_type="application/json",
    )
    assert refused.status_code in (400, 401)
    assert app_login(Client(), "squat@example.com", "N3w-0wner-pass!")


def test_a_reset_for_an_address_only_attached_unverified_sends_nothing(
    django_capture_on_commit_callbacks,
):
    _attacker_with_squatted_address(django_capture_on_commit_callbacks)
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        requested = Client().post(
            f"{APP}/auth/password/request",
            {"email": "squat@example.com"},
            content_type="application/json",
        )

    assert requested.status_code == 200  # no enumeration: the same answer
    assert [m.body for m in mail.outbox if "/account/password/reset/key/" in m.body] == []


def test_signing_in_by_an_unverified_secondary_address_is_refused(
    django_capture_on_commit_callbacks,
):
    _attacker_with_squatted_address(django_capture_on_commit_callbacks)

    response = Client().post(
        f"{APP}/auth/login",
        {"email": "squat@example.com", "password": PASSWORD},
        content_type="application/json",
    )

    assert response.status_code in (400, 401)
