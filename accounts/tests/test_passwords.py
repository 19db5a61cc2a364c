"""Password hashing: Argon2 for new hashes, older ones upgraded at sign-in, one hash per try."""

import pytest
from django.contrib.auth import hashers
from django.test import Client, override_settings

from accounts.models import User
from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "S3cure-passw0rd!"
PRODUCTION_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]


def sign_in(email: str, password: str) -> int:
    return (
        Client()
        .post(
            "/_allauth/app/v1/auth/login",
            {"email": email, "password": password},
            content_type="application/json",
        )
        .status_code
    )


@pytest.fixture
def hashes(monkeypatch):
    """Counts the password hashes computed (the suite's hasher is MD5)."""
    computed = []
    original = hashers.MD5PasswordHasher.encode

    def encode(self, password, salt):
        computed.append(password)
        return original(self, password, salt)

    monkeypatch.setattr(hashers.MD5PasswordHasher, "encode", encode)
    return computed


def test_a_right_password_is_hashed_once(hashes):
    UserFactory(email="right@example.com", password=PASSWORD)
    hashes.clear()

    assert sign_in("right@example.com", PASSWORD) == 200

    assert len(hashes) == 1


def test_a_wrong_password_is_hashed_once_not_twice(hashes):
    UserFactory(email="wrong@example.com", password=PASSWORD)
    hashes.clear()

    assert sign_in("wrong@example.com", "not-the-password") == 400

    assert len(hashes) == 1


def test_an_unknown_address_costs_one_hash_too(hashes):
    assert sign_in("nobody@example.com", PASSWORD) == 400

    assert len(hashes) == 1


@override_settings(PASSWORD_HASHERS=PRODUCTION_HASHERS)
def test_a_pbkdf2_hash_is_upgraded_to_argon2_at_sign_in():
    user = UserFactory(email="old@example.com")
    User.objects.filter(pk=user.pk).update(
        password=hashers.make_password(PASSWORD, hasher="pbkdf2_sha256")
    )

    assert sign_in("old@example.com", PASSWORD) == 200

    user.refresh_from_db()
    assert user.password.startswith("argon2$")
    assert hashers.check_password(PASSWORD, user.password)


@override_settings(PASSWORD_HASHERS=PRODUCTION_HASHERS)
def test_a_new_password_is_hashed_with_argon2():
    response = Client().post(
        "/_allauth/app/v1/auth/signup",
        {"email": "new@example.com", "password": PASSWORD},
        content_type="application/json",
    )

    assert response.status_code == 200
    assert User.objects.get(email="new@example.com").password.startswith("argon2$")
