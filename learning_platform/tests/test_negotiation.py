"""Content negotiation: the fast path answers what DRF's negotiation answers."""

import pytest

pytestmark = pytest.mark.django_db

URL = "/api/v1/levels/"


@pytest.mark.parametrize("accept", [None, "*/*", "application/json"])
def test_json_is_answered_to_what_clients_usually_send(api_client, accept):
    headers = {"HTTP_ACCEPT": accept} if accept else {}

    response = api_client.get(URL, **headers)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"


def test_a_media_type_no_renderer_makes_is_still_refused(api_client):
    response = api_client.get("/api/v1/leaderboard", HTTP_ACCEPT="application/xml")

    assert response.status_code == 406
    assert response.json()["status"] == 406


def test_an_accept_with_parameters_is_still_negotiated(api_client):
    response = api_client.get("/api/v1/leaderboard", HTTP_ACCEPT="application/json; indent=2")

    assert response.status_code == 200
    assert b'\n  "' in response.content
