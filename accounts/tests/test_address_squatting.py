"""Address squatting (issue 41, item 1): another account's address, confirmed or not, is never
attachable, so a genuine confirmation e-mail can never hand a learner's address to someone
else."""

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client

from accounts.models import User
from accounts.tests.test_api import APP, PASSWORD, app_login, key_from_mail

pytestmark = pytest.mark.django_db

OWNER_PASSWORD = "0wner-s3cret-pass!"
VERIFY_LINK = "/account/verify-email/"
RESET_LINK = "/account/password/reset/key/"


def _post(client: Client, path: str, body: dict, token: str | None = None, method: str = "post"):
    headers = {"HTTP_X_SESSION_TOKEN": token} if token else {}
    send = getattr(client, method)
    return send(f"{APP}{path}", body, content_type="application/json", **headers)


def _sign_up(email: str, password: str, capture) -> str:
    with capture(execute=True):
        response = _post(Client(), "/auth/signup", {"email": email, "password": password})
    assert response.status_code == 200, response.content
    return response.json()["meta"]["session_token"]


def _confirm(email: str, capture) -> None:
    """The mailbox's owner opens the last confirmation link mailed to `email`."""
    [key] = [key_from_mail(m, VERIFY_LINK) for m in mail.outbox if email in m.to][-1:]
    with capture(execute=True):
        response = _post(Client(), "/auth/email/verify", {"key": key})
    assert response.status_code in (200, 401), response.content


def _attack(owner_email: str, capture):
    """Another learner adds `owner_email` to their own account; the mailbox's owner confirms
    whatever genuine confirmation e-mail we send them. The attacker's token and the answer."""
    attacker = _sign_up("attacker@example.com", PASSWORD, capture)
    mail.outbox.clear()
    with capture(execute=True):
        added = _post(Client(), "/account/email", {"email": owner_email}, attacker)
    if any(owner_email in m.to and VERIFY_LINK in m.body for m in mail.outbox):
        _confirm(owner_email, capture)
    return attacker, added


def _assert_the_address_is_still_the_owners(owner_email: str, capture) -> None:
    owner = User.objects.get(email=owner_email)
    attacker = User.objects.get(email="attacker@example.com")
    assert not EmailAddress.objects.filter(user=attacker, email__iexact=owner_email).exists()
    # The owner's password signs them in; the attacker's does not open anything by the address.
    assert app_login(Client(), owner_email, OWNER_PASSWORD)
    refused = _post(Client(), "/auth/login", {"email": owner_email, "password": PASSWORD})
    assert refused.status_code in (400, 401)
    # A reset through the address is for the owner's account, and completes.
    mail.outbox.clear()
    with capture(execute=True):
        assert _post(Client(), "/auth/password/request", {"email": owner_email}).status_code == 200
    [key] = [key_from_mail(m, RESET_LINK) for m in mail.outbox if owner_email in m.to]
    with capture(execute=True):
        reset = _post(Client(), "/auth/password/reset", {"key": key, "password": "N3w-0wner-p!"})
    assert reset.status_code in (200, 401), reset.content
    owner.refresh_from_db()
    attacker.refresh_from_db()
    assert owner.check_password("N3w-0wner-p!")
    assert attacker.check_password(PASSWORD)


def test_a_learners_unconfirmed_sign_up_address_cannot_be_added_to_another_account(
    django_capture_on_commit_callbacks,
):
    capture = django_capture_on_commit_callbacks
    _sign_up("owner@example.com", OWNER_PASSWORD, capture)

    _, added = _attack("Owner@example.com", capture)

    assert added.status_code == 400, added.content
    assert [e["code"] for e in added.json()["errors"]] == ["email_taken"]
    assert not [m for m in mail.outbox if "owner@example.com" in m.to]
    _assert_the_address_is_still_the_owners("owner@example.com", capture)


def test_a_learners_confirmed_address_cannot_be_added_nor_made_primary_elsewhere(
    django_capture_on_commit_callbacks,
):
    capture = django_capture_on_commit_callbacks
    _sign_up("owner@example.com", OWNER_PASSWORD, capture)
    _confirm("owner@example.com", capture)
    assert EmailAddress.objects.get(email="owner@example.com").verified

    attacker, added = _attack("owner@example.com", capture)
    primary = _post(
        Client(),
        "/account/email",
        {"email": "owner@example.com", "primary": True},
        attacker,
        method="patch",
    )

    assert added.status_code == 400, added.content
    assert [e["code"] for e in added.json()["errors"]] == ["email_taken"]
    assert primary.status_code == 400, primary.content
    attacker_addresses = EmailAddress.objects.filter(user__email="attacker@example.com")
    assert list(attacker_addresses.values_list("email", "primary")) == [
        ("attacker@example.com", True)
    ]
    _assert_the_address_is_still_the_owners("owner@example.com", capture)


def test_a_learners_verified_second_address_cannot_be_added_to_another_account(
    django_capture_on_commit_callbacks,
):
    capture = django_capture_on_commit_callbacks
    owner = _sign_up("owner@example.com", OWNER_PASSWORD, capture)
    mail.outbox.clear()
    with capture(execute=True):
        assert _post(Client(), "/account/email", {"email": "two@example.com"}, owner).status_code
    _confirm("two@example.com", capture)

    _, added = _attack("two@example.com", capture)

    assert added.status_code == 400, added.content
    assert EmailAddress.objects.get(email="two@example.com").user.email == "owner@example.com"


def test_an_address_nobody_holds_can_still_be_added_and_confirmed(
    django_capture_on_commit_callbacks,
):
    capture = django_capture_on_commit_callbacks
    learner = _sign_up("learner@example.com", PASSWORD, capture)
    mail.outbox.clear()

    with capture(execute=True):
        added = _post(Client(), "/account/email", {"email": "second@example.com"}, learner)
    _confirm("second@example.com", capture)

    assert added.status_code == 200, added.content
    assert EmailAddress.objects.get(email="second@example.com").verified


def test_the_confirmation_e_mail_carries_no_text_the_account_holder_chose(
    django_capture_on_commit_callbacks,
):
    capture = django_capture_on_commit_callbacks
    learner = _sign_up("learner@example.com", PASSWORD, capture)
    bait = "Security team: call +1 555 0100 now"
    User.objects.filter(email="learner@example.com").update(display_name=bait)
    mail.outbox.clear()

    with capture(execute=True):
        _post(Client(), "/account/email", {"email": "anyone@example.com"}, learner)

    [message] = mail.outbox
    assert message.to == ["anyone@example.com"]
    assert VERIFY_LINK in message.body
    assert bait not in message.body
    assert all(bait not in body for body, _ in getattr(message, "alternatives", []))
