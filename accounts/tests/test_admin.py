"""The admin's sign-in page, through its real form."""

import pytest
from django.test import Client

from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "S3cure-passw0rd!"
LIMITS = {"login_failed": "10/m/ip,5/5m/key"}  # the production setting


def admin_login(client: Client, email: str, password: str):
    return client.post("/admin/login/?next=/admin/", {"username": email, "password": password})


def test_after_five_wrong_passwords_the_right_one_is_refused_for_a_while(settings):
    settings.ACCOUNT_RATE_LIMITS = LIMITS
    UserFactory(email="editor@example.com", password=PASSWORD, is_staff=True)
    client = Client()

    wrong = [admin_login(client, "editor@example.com", f"guess-{i}") for i in range(5)]
    right = admin_login(client, "editor@example.com", PASSWORD)

    assert [r.status_code for r in wrong] == [200] * 5
    assert right.status_code == 200  # the form again, not the redirect into the admin
    assert "Too many failed sign-in attempts" in right.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_right_password_signs_in_below_the_limit(settings):
    settings.ACCOUNT_RATE_LIMITS = LIMITS
    UserFactory(email="editor@example.com", password=PASSWORD, is_staff=True)
    client = Client()

    admin_login(client, "editor@example.com", "guess")
    response = admin_login(client, "editor@example.com", PASSWORD)

    assert response.status_code == 302
    assert response["Location"] == "/admin/"


def test_the_limit_counts_per_account_regardless_of_the_case_of_the_address(settings):
    settings.ACCOUNT_RATE_LIMITS = {"login_failed": "5/5m/key"}
    UserFactory(email="editor@example.com", password=PASSWORD, is_staff=True)
    client = Client()

    for i in range(5):
        admin_login(client, "Editor@Example.com" if i % 2 else "editor@example.com", f"g{i}")

    assert "Too many" in admin_login(client, "EDITOR@example.com", PASSWORD).content.decode()
