"""What the sign-in API tells about who has an account (issue 41, item 6; docs/security.md,
"Who has an account").

With the default verification (`optional`) a sign-up is signed in at once, so it must say when
the address is taken (allauth: uniqueness wins over enumeration prevention). With `mandatory`
verification nobody is signed in before confirming, and the sign-up answers alike either way:
the address's owner is e-mailed instead."""

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client

from accounts.tests.factories import UserFactory
from accounts.tests.test_api import APP, PASSWORD

pytestmark = pytest.mark.django_db


def _sign_up(email: str, capture):
    mail.outbox.clear()
    with capture(execute=True):
        response = Client().post(
            f"{APP}/auth/signup",
            {"email": email, "password": PASSWORD},
            content_type="application/json",
        )
    body = response.json()
    body.get("meta", {}).pop("session_token", None)
    return response.status_code, body


def test_by_default_a_sign_up_with_a_taken_address_says_so(django_capture_on_commit_callbacks):
    owner = UserFactory(email="taken@example.com")
    EmailAddress.objects.create(user=owner, email=owner.email, verified=True, primary=True)

    status, body = _sign_up("taken@example.com", django_capture_on_commit_callbacks)

    assert status == 400
    assert [e["code"] for e in body["errors"]] == ["email_taken"]


def test_with_mandatory_verification_a_sign_up_answers_alike_whether_the_address_is_taken(
    settings, django_capture_on_commit_callbacks
):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    UserFactory(email="taken@example.com")

    fresh = _sign_up("fresh@example.com", django_capture_on_commit_callbacks)
    fresh_mail = [(m.to, m.subject) for m in mail.outbox]
    taken = _sign_up("taken@example.com", django_capture_on_commit_callbacks)
    [notice] = mail.outbox

    assert fresh == taken
    assert fresh[0] == 401
    assert fresh_mail == [
        (["fresh@example.com"], "[Learning Platform] Confirm your e-mail address")
    ]
    assert notice.to == ["taken@example.com"]
    assert "already exists" in notice.body
    assert "taken@example.com" in notice.body
    assert "/account/password/reset" in notice.body
