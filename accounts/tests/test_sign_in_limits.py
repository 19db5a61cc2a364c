"""Failed sign-ins are limited per client and address (issue 41, item 6): whoever guesses
wrong five times locks out their own client, never the owner signing in from elsewhere."""

import pytest
from django.test import Client

from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db

APP = "/_allauth/app/v1"
PASSWORD = "C0rrect-horse-pass!"
ATTACKER, OWNER = "203.0.113.7", "198.51.100.20"


@pytest.fixture(autouse=True)
def production_limits(settings):
    settings.ACCOUNT_RATE_LIMITS = {"login_failed": "10/m/ip,5/5m/key"}


def _api_login(client_ip: str, password: str):
    return Client(REMOTE_ADDR=client_ip).post(
        f"{APP}/auth/login",
        {"email": "owner@example.com", "password": password},
        content_type="application/json",
    )


def _admin_login(client_ip: str, password: str):
    return Client(REMOTE_ADDR=client_ip).post(
        "/admin/login/?next=/admin/", {"username": "Owner@example.com", "password": password}
    )


def test_five_wrong_sign_ins_from_one_client_do_not_lock_the_owner_out():
    UserFactory(email="owner@example.com", password=PASSWORD)

    wrong = [_api_login(ATTACKER, f"guess-{n}") for n in range(5)]
    attacker_again = _api_login(ATTACKER, PASSWORD)
    owner = _api_login(OWNER, PASSWORD)

    assert {r.status_code for r in wrong} == {400}
    assert attacker_again.json()["errors"][0]["code"] == "too_many_login_attempts"
    assert owner.status_code == 200, owner.content


def test_five_wrong_admin_sign_ins_from_one_client_do_not_lock_the_editor_out():
    UserFactory(email="owner@example.com", password=PASSWORD, is_staff=True)

    for n in range(5):
        _admin_login(ATTACKER, f"guess-{n}")
    attacker_again = _admin_login(ATTACKER, PASSWORD)
    owner = _admin_login(OWNER, PASSWORD)

    assert "Too many failed sign-in attempts" in attacker_again.content.decode()
    assert owner.status_code == 302
    assert owner["Location"] == "/admin/"
