"""The `app` client's session tokens: they name their user, so a signed-in request reads its
session and its user in one cache round trip; the name is a hint, never trusted."""

from unittest import mock

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from redis.client import Redis

from accounts.tests.factories import UserFactory
from accounts.tests.test_api import PASSWORD, app_login
from lessons.tests.factories import LessonFactory

pytestmark = pytest.mark.django_db

needs_redis = pytest.mark.skipif(
    not settings.REDIS_URL, reason="needs REDIS_URL: counts round trips to Redis"
)


def test_a_token_made_at_sign_in_names_its_user():
    user = UserFactory(password=PASSWORD)

    token = app_login(Client(), user.email)

    assert token.startswith(f"{user.pk}.")
    response = Client().get("/api/v1/me/progress", HTTP_X_SESSION_TOKEN=token)
    assert response.status_code == 200


def test_a_token_naming_another_user_signs_in_the_sessions_user():
    user, other = UserFactory(password=PASSWORD), UserFactory()
    token = app_login(Client(), user.email)
    session_key = token.split(".", 1)[1]

    response = Client().get("/api/v1/me/", HTTP_X_SESSION_TOKEN=f"{other.pk}.{session_key}")

    assert response.status_code == 200
    assert response.json()["email"] == user.email


def test_a_token_of_an_ended_session_is_refused_whatever_user_it_names():
    user = UserFactory(password=PASSWORD)
    token = app_login(Client(), user.email)
    Client().delete("/_allauth/app/v1/auth/session", HTTP_X_SESSION_TOKEN=token)

    response = Client().get("/api/v1/me/progress", HTTP_X_SESSION_TOKEN=token)

    assert response.status_code == 401


@needs_redis
def test_a_signed_in_read_fetches_session_and_user_in_one_round_trip():
    user = UserFactory(password=PASSWORD)
    token = app_login(Client(), user.email)
    reader = Client()
    reader.get("/api/v1/me/", HTTP_X_SESSION_TOKEN=token)  # caches the user row
    cache.close()

    with mock.patch.object(
        Redis, "execute_command", autospec=True, side_effect=Redis.execute_command
    ) as sent:
        response = reader.get("/api/v1/me/", HTTP_X_SESSION_TOKEN=token)

    assert response.status_code == 200
    reads = [call.args[1] for call in sent.call_args_list if call.args[1] in ("GET", "MGET")]
    assert reads == ["MGET"]


@needs_redis
def test_a_warm_signed_in_read_of_a_cached_page_makes_one_round_trip():
    user = UserFactory(password=PASSWORD)
    token = app_login(Client(), user.email)
    path = f"/api/v1/lessons/{LessonFactory().slug}/"
    reader = Client()
    reader.get(path, HTTP_X_SESSION_TOKEN=token)  # caches the user and the page
    reader.get(path, HTTP_X_SESSION_TOKEN=token)  # learns what the page reads from the cache
    cache.close()

    with mock.patch.object(
        Redis, "execute_command", autospec=True, side_effect=Redis.execute_command
    ) as sent:
        response = reader.get(path, HTTP_X_SESSION_TOKEN=token)

    assert response.status_code == 200
    assert [call.args[1] for call in sent.call_args_list] == ["MGET"]
