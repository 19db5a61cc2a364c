"""The invitation to choose a display name, shown once to a learner still shown by their
handle ("Learner 380293"), through `/api/v1/me/` and `/api/v1/me/name-invitation`."""

import pytest
from django.test import Client

from accounts.tests.clients import signed_in_browser
from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "S3cure-passw0rd!"
APP = "/_allauth/app/v1"
INVITATION = "/api/v1/me/name-invitation"


def test_a_new_learner_has_not_been_invited_to_choose_a_name(user_client):
    body = user_client.get("/api/v1/me/").json()

    assert body["name_invited_at"] is None


def test_marking_the_invitation_shown_answers_the_profile_with_its_time(user_client):
    response = user_client.post(INVITATION)

    invited_at = response.json()["name_invited_at"]
    assert response.status_code == 200
    assert invited_at is not None
    assert user_client.get("/api/v1/me/").json()["name_invited_at"] == invited_at


def test_marking_it_again_keeps_the_first_time(user_client):
    first = user_client.post(INVITATION).json()["name_invited_at"]

    again = user_client.post(INVITATION)

    assert again.status_code == 200
    assert again.json()["name_invited_at"] == first


def test_the_invitation_shown_on_one_device_is_known_on_another():
    # The browser's session and a phone's token: the mark is on the account, not the device.
    UserFactory(email="ada@example.com", password=PASSWORD)
    browser = signed_in_browser(email="ada@example.com", password=PASSWORD)
    phone = Client()
    token = phone.post(
        f"{APP}/auth/login",
        {"email": "ada@example.com", "password": PASSWORD},
        content_type="application/json",
    ).json()["meta"]["session_token"]

    browser.post(
        INVITATION,
        content_type="application/json",
        HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value,
    )

    body = phone.get("/api/v1/me/", HTTP_X_SESSION_TOKEN=token).json()
    assert body["name_invited_at"] is not None


def test_the_session_state_carries_the_invitation_too():
    UserFactory(email="ada@example.com", password=PASSWORD)
    browser = signed_in_browser(email="ada@example.com", password=PASSWORD)
    browser.post(
        INVITATION,
        content_type="application/json",
        HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value,
    )

    body = browser.get("/api/v1/session").json()

    assert body["user"]["name_invited_at"] is not None


def test_marking_it_signed_out_is_401_with_the_error_type(api_client):
    response = api_client.post(INVITATION)

    assert response.status_code == 401
    assert response.json()["type"] == "not_authenticated"


def test_the_invitation_is_marked_with_a_post_only(user_client):
    response = user_client.get(INVITATION)

    assert response.status_code == 405
    assert response.json()["type"] == "method_not_allowed"
