"""GET /api/v1/: the API's entry points."""

import pytest

from learning_platform.api.index import ENTRY_POINTS

pytestmark = pytest.mark.django_db


def test_api_index_lists_every_entry_point_as_an_absolute_url(api_client):
    response = api_client.get("/api/v1/")

    assert response.status_code == 200
    body = response.json()
    assert list(body) == list(ENTRY_POINTS)
    assert body["levels"] == "http://testserver/api/v1/levels/"
    assert body["quests"] == "http://testserver/api/v1/quests/"
    assert body["docs"] == "http://testserver/api/docs/"
    assert body["auth_browser_session"] == "http://testserver/_allauth/browser/v1/auth/session"


@pytest.mark.parametrize("name", ["quests", "lessons", "levels", "achievements", "leaderboard"])
def test_api_index_public_entry_points_answer_200_signed_out(api_client, name):
    url = api_client.get("/api/v1/").json()[name]

    assert api_client.get(url).status_code == 200


@pytest.mark.parametrize("name", ["me", "progress", "notifications", "reports"])
def test_api_index_own_entry_points_answer_200_signed_in(user_client, name):
    url = user_client.get("/api/v1/").json()[name]

    assert user_client.get(url).status_code == 200


def test_api_index_uses_the_host_the_client_asked_for(api_client):
    body = api_client.get("/api/v1/", HTTP_HOST="localhost").json()

    assert body["lessons"] == "http://localhost/api/v1/lessons/"
