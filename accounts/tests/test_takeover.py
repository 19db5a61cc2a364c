"""Pre-account takeover through an unverified address (issue 25, item 2): an address someone
attached without proving it blocks nobody's sign-up and never receives a reset or signs in; an
account started with someone else's address is theirs once they reset its password."""

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client

from accounts.models import User
from accounts.tests.factories import UserFactory
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


# --- An account started with someone else's address and never confirmed (issue 25, item 2) --


def _post(client: Client, path: str, body: dict, token: str | None = None):
    headers = {"HTTP_X_SESSION_TOKEN": token} if token else {}
    return client.post(f"{APP}{path}", body, content_type="application/json", **headers)


def _reset_key_mailed_to(email: str, capture) -> str | None:
    """Request a reset through `email`; the key mailed to it, if any."""
    mail.outbox.clear()
    with capture(execute=True):
        assert _post(Client(), "/auth/password/request", {"email": email}).status_code == 200
    keys = [
        key_from_mail(m, "/account/password/reset/key/")
        for m in mail.outbox
        if email in m.to and "/account/password/reset/key/" in m.body
    ]
    return keys[0] if keys else None


def _squatter_with_a_verified_address_of_their_own(capture) -> str:
    """Signs up with squat@ (never confirmed), adds and verifies attacker@: the session token."""
    attacker = Client()
    with capture(execute=True):
        signup = _post(
            attacker, "/auth/signup", {"email": "squat@example.com", "password": PASSWORD}
        )
    token = signup.json()["meta"]["session_token"]
    mail.outbox.clear()
    with capture(execute=True):
        added = _post(attacker, "/account/email", {"email": "attacker@example.com"}, token)
    assert added.status_code == 200, added.content
    key = key_from_mail(mail.outbox[-1], "/account/verify-email/")
    verified = _post(attacker, "/auth/email/verify", {"key": key}, token)
    assert verified.status_code == 200, verified.content
    assert EmailAddress.objects.get(email="attacker@example.com").verified
    return token


def test_signing_up_with_an_address_started_and_never_confirmed_says_how_to_claim_it(
    django_capture_on_commit_callbacks,
):
    _squatter_with_a_verified_address_of_their_own(django_capture_on_commit_callbacks)

    response = _post(Client(), "/auth/signup", {"email": "Squat@example.com", "password": PASSWORD})

    assert response.status_code == 400
    assert [
        {"code": e["code"], "param": e["param"], "message": e["message"]}
        for e in response.json()["errors"]
        if e.get("param") == "email"
    ] == [
        {
            "code": "email_unconfirmed",
            "param": "email",
            "message": "An account was started with this address but never confirmed. "
            "Reset the password to claim it.",
        }
    ]


def test_signing_up_with_a_confirmed_address_is_still_email_taken(
    django_capture_on_commit_callbacks,
):
    _squatter_with_a_verified_address_of_their_own(django_capture_on_commit_callbacks)

    response = _post(
        Client(), "/auth/signup", {"email": "attacker@example.com", "password": PASSWORD}
    )

    assert response.status_code == 400
    assert "email_taken" in [e["code"] for e in response.json()["errors"]]


def test_a_reset_claims_an_account_started_with_the_owners_address_and_shuts_the_squatter_out(
    django_capture_on_commit_callbacks,
):
    capture = django_capture_on_commit_callbacks
    squatter_token = _squatter_with_a_verified_address_of_their_own(capture)
    squatter_key = _reset_key_mailed_to("attacker@example.com", capture)
    assert squatter_key is not None

    # The owner cannot sign up; they reset the password through their address instead.
    refused = _post(Client(), "/auth/signup", {"email": "squat@example.com", "password": PASSWORD})
    assert [e["code"] for e in refused.json()["errors"]] == ["email_unconfirmed"]
    owner_key = _reset_key_mailed_to("squat@example.com", capture)
    assert owner_key is not None
    mail.outbox.clear()
    with capture(execute=True):
        reset = _post(
            Client(), "/auth/password/reset", {"key": owner_key, "password": "N3w-0wner!"}
        )
    assert reset.status_code in (200, 401), reset.content  # 401: done, now sign in

    # The address is proven and the account's only one; the owner is told what was removed.
    account = User.objects.get(email="squat@example.com")
    assert list(account.emailaddress_set.values_list("email", "verified", "primary")) == [
        ("squat@example.com", True, True)
    ]
    # Beside allauth's "your password was reset" (ACCOUNT_EMAIL_NOTIFICATIONS).
    [notice] = [m for m in mail.outbox if "attacker@example.com" in m.body]
    assert notice.to == ["squat@example.com"]
    assert {m.to[0] for m in mail.outbox} == {"squat@example.com"}
    owner_token = app_login(Client(), "squat@example.com", "N3w-0wner!")
    assert Client().get("/api/v1/me/", HTTP_X_SESSION_TOKEN=owner_token).status_code == 200

    # The squatter's session, reset key, address and password all lead nowhere now.
    assert Client().get("/api/v1/me/", HTTP_X_SESSION_TOKEN=squatter_token).status_code == 401
    late = _post(Client(), "/auth/password/reset", {"key": squatter_key, "password": "Back-1n!x"})
    assert late.status_code == 400
    assert _reset_key_mailed_to("attacker@example.com", capture) is None
    login = _post(Client(), "/auth/login", {"email": "attacker@example.com", "password": PASSWORD})
    assert login.status_code in (400, 401)
    account.refresh_from_db()
    assert account.check_password("N3w-0wner!")


def test_a_reset_through_a_verified_secondary_address_frees_the_unconfirmed_one(
    django_capture_on_commit_callbacks,
):
    capture = django_capture_on_commit_callbacks
    _squatter_with_a_verified_address_of_their_own(capture)
    key = _reset_key_mailed_to("attacker@example.com", capture)

    with capture(execute=True):
        reset = _post(Client(), "/auth/password/reset", {"key": key, "password": "An0ther-pass!"})
    assert reset.status_code in (200, 401), reset.content

    assert User.objects.filter(email="attacker@example.com").exists()
    with capture(execute=True):
        signup = _post(
            Client(), "/auth/signup", {"email": "squat@example.com", "password": PASSWORD}
        )
    assert signup.status_code == 200, signup.content


def test_a_reset_key_without_the_address_it_was_sent_to_is_refused(
    django_capture_on_commit_callbacks,
):
    UserFactory(email="forgot@example.com")
    key = _reset_key_mailed_to("forgot@example.com", django_capture_on_commit_callbacks)
    assert key is not None
    stripped = key.rsplit("-", 1)[0]  # uid-timestamp-hash, as allauth alone makes them
    assert stripped.count("-") == 2

    response = _post(Client(), "/auth/password/reset", {"key": stripped, "password": "Str1pped!x"})

    assert response.status_code == 400
