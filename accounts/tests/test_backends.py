"""The signed-in user is read through the cache, and every change to them shows at once."""

import pytest
from django.test import Client

from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "S3cure-passw0rd!"


@pytest.fixture
def signed_in():
    user = UserFactory(email="cached@example.com", password=PASSWORD)
    client = Client()
    token = client.post(
        "/_allauth/app/v1/auth/login",
        {"email": "cached@example.com", "password": PASSWORD},
        content_type="application/json",
    ).json()["meta"]["session_token"]
    return user, client, token


def me(client, token):
    return client.get("/api/v1/me/", HTTP_X_SESSION_TOKEN=token)


def test_a_repeat_request_loads_the_user_without_sql(signed_in, django_assert_num_queries):
    _, client, token = signed_in
    me(client, token)

    with django_assert_num_queries(0):
        assert me(client, token).json()["email"] == "cached@example.com"


def test_a_profile_change_shows_on_the_next_request(signed_in, django_capture_on_commit_callbacks):
    user, client, token = signed_in
    me(client, token)
    with django_capture_on_commit_callbacks(execute=True):
        user.display_name = "Renamed"
        user.save()

    assert me(client, token).json()["display_name"] == "Renamed"


def test_a_deactivated_user_is_refused_on_the_next_request(
    signed_in, django_capture_on_commit_callbacks
):
    user, client, token = signed_in
    assert me(client, token).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        user.is_active = False
        user.save()

    assert me(client, token).status_code == 401


def test_a_deactivation_by_queryset_update_is_refused_on_the_next_request(
    signed_in, django_capture_on_commit_callbacks
):
    # An admin action or a shell updates rows without save() and its signal (issue 25, 12).
    user, client, token = signed_in
    assert me(client, token).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        updated = type(user).objects.filter(pk=user.pk).update(is_active=False)

    assert updated == 1
    assert me(client, token).status_code == 401


def test_a_password_change_by_queryset_update_ends_sessions_on_the_next_request(
    signed_in, django_capture_on_commit_callbacks
):
    user, client, token = signed_in
    assert me(client, token).status_code == 200
    user.set_password("A-brand-new-passw0rd")
    with django_capture_on_commit_callbacks(execute=True):
        type(user).objects.filter(email__iexact=user.email).update(password=user.password)

    assert me(client, token).status_code == 401


def test_a_password_change_ends_other_sessions_on_the_next_request(
    signed_in, django_capture_on_commit_callbacks
):
    user, client, token = signed_in
    assert me(client, token).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        user.set_password("A-brand-new-passw0rd")
        user.save()

    assert me(client, token).status_code == 401


def test_a_deleted_user_is_refused(signed_in, django_capture_on_commit_callbacks):
    user, client, token = signed_in
    me(client, token)
    with django_capture_on_commit_callbacks(execute=True):
        user.delete()

    assert me(client, token).status_code == 401


def test_a_signed_out_token_is_refused_on_the_next_request(signed_in):
    _, client, token = signed_in
    assert me(client, token).status_code == 200

    response = client.delete("/_allauth/app/v1/auth/session", HTTP_X_SESSION_TOKEN=token)

    assert response.status_code == 401  # allauth answers a sign-out with "not authenticated"
    assert me(client, token).status_code == 401
