"""Changing the password and the e-mail address while signed in, through allauth's headless
API as the web app calls it (browser client) and as a phone does (app client)."""

import re
from urllib.parse import unquote

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client

from accounts.models import User
from accounts.tests.clients import BROWSER, signed_in_browser
from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "S3cure-passw0rd!"
NEW_PASSWORD = "N3w-and-l0nger-secret"
APP = "/_allauth/app/v1"


def app_login(email: str, password: str = PASSWORD) -> str:
    response = Client().post(
        f"{APP}/auth/login", {"email": email, "password": password}, content_type="application/json"
    )
    assert response.status_code == 200, response.json()
    return response.json()["meta"]["session_token"]


def post(browser: Client, path: str, body: dict):
    return browser.post(
        f"{BROWSER}{path}",
        body,
        content_type="application/json",
        HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value,
    )


def test_changing_the_password_asks_for_the_current_one():
    UserFactory(email="ada@example.com", password=PASSWORD)
    browser = signed_in_browser(email="ada@example.com", password=PASSWORD)

    response = post(
        browser,
        "/account/password/change",
        {"current_password": "not-it", "new_password": NEW_PASSWORD},
    )

    assert response.status_code == 400
    assert response.json()["errors"][0]["param"] == "current_password"
    assert User.objects.get(email="ada@example.com").check_password(PASSWORD)


def test_changing_the_password_signs_out_the_other_sessions_and_keeps_this_one():
    UserFactory(email="ada@example.com", password=PASSWORD)
    browser = signed_in_browser(email="ada@example.com", password=PASSWORD)
    phone = app_login("ada@example.com")

    response = post(
        browser,
        "/account/password/change",
        {"current_password": PASSWORD, "new_password": NEW_PASSWORD},
    )

    assert response.status_code == 200
    assert browser.get("/api/v1/me/").status_code == 200
    assert Client().get("/api/v1/me/", HTTP_X_SESSION_TOKEN=phone).status_code == 401
    assert app_login("ada@example.com", NEW_PASSWORD)


def test_not_staying_signed_in_after_a_password_change_signs_out_every_session():
    # The web app's "Stay signed in on this device" unticked: the change, then a sign-out.
    UserFactory(email="ada@example.com", password=PASSWORD)
    browser = signed_in_browser(email="ada@example.com", password=PASSWORD)
    phone = app_login("ada@example.com")
    post(
        browser,
        "/account/password/change",
        {"current_password": PASSWORD, "new_password": NEW_PASSWORD},
    )

    signed_out = browser.delete(
        f"{BROWSER}/auth/session", HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value
    )

    assert signed_out.status_code == 401  # allauth: "no one signed in now"
    assert browser.get("/api/v1/me/").status_code in (401, 403)
    assert Client().get("/api/v1/me/", HTTP_X_SESSION_TOKEN=phone).status_code == 401
    assert signed_in_browser(email="ada@example.com", password=NEW_PASSWORD)


def test_a_password_change_is_told_to_the_account_address(django_capture_on_commit_callbacks):
    UserFactory(email="ada@example.com", password=PASSWORD)
    browser = signed_in_browser(email="ada@example.com", password=PASSWORD)

    with django_capture_on_commit_callbacks(execute=True):
        post(
            browser,
            "/account/password/change",
            {"current_password": PASSWORD, "new_password": NEW_PASSWORD},
        )

    assert [m.to for m in mail.outbox] == [["ada@example.com"]]
    assert "password" in mail.outbox[0].subject.lower()


def signed_up(email: str) -> User:
    """A learner as sign-up leaves one: their address recorded, here confirmed."""
    user = UserFactory(email=email, password=PASSWORD)
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    return user


def _confirmation_key(message) -> str:
    match = re.search(r"/account/verify-email/([^\s/]+)", message.body)
    assert match, message.body
    return unquote(match.group(1))


def patch(browser: Client, path: str, body: dict):
    return browser.patch(
        f"{BROWSER}{path}",
        body,
        content_type="application/json",
        HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value,
    )


def delete(browser: Client, path: str, body: dict):
    return browser.delete(
        f"{BROWSER}{path}",
        body,
        content_type="application/json",
        HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value,
    )


def test_a_new_address_is_mailed_a_confirmation_and_cannot_count_before_it(
    django_capture_on_commit_callbacks,
):
    signed_up("old@example.com")
    browser = signed_in_browser(email="old@example.com", password=PASSWORD)

    with django_capture_on_commit_callbacks(execute=True):
        added = post(browser, "/account/email", {"email": "new@example.com"})
    made_primary = patch(browser, "/account/email", {"email": "new@example.com", "primary": True})

    assert added.status_code == 200
    assert [m.to for m in mail.outbox] == [["new@example.com"]]
    assert made_primary.status_code == 400
    assert made_primary.json()["errors"][0]["code"] == "unverified_primary_email"
    assert User.objects.get().email == "old@example.com"


def test_a_confirmed_new_address_becomes_the_accounts_and_the_old_one_is_told(
    django_capture_on_commit_callbacks,
):
    # What the web app does: add the address, open the link mailed to it, then (signed in)
    # make it the account's own and remove the old one.
    signed_up("old@example.com")
    browser = signed_in_browser(email="old@example.com", password=PASSWORD)
    with django_capture_on_commit_callbacks(execute=True):
        post(browser, "/account/email", {"email": "new@example.com"})
    key = _confirmation_key(mail.outbox[-1])
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        verified = post(browser, "/auth/email/verify", {"key": key})
        made_primary = patch(
            browser, "/account/email", {"email": "new@example.com", "primary": True}
        )
        removed = delete(browser, "/account/email", {"email": "old@example.com"})

    assert (verified.status_code, made_primary.status_code, removed.status_code) == (200,) * 3
    user = User.objects.get()
    assert user.email == "new@example.com"
    assert list(user.emailaddress_set.values_list("email", flat=True)) == ["new@example.com"]
    changed = [m for m in mail.outbox if m.to == ["old@example.com"]]
    assert changed, [m.subject for m in mail.outbox]
    assert "new@example.com" in changed[0].body
    assert app_login("new@example.com")
