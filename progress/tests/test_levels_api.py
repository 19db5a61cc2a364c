"""GET /api/v1/levels/: the public level curve."""

import pytest
from django.urls import reverse

from progress.models import Level

pytestmark = pytest.mark.django_db

URL = "/api/v1/levels/"


def test_levels_lists_the_seeded_curve_lowest_first(api_client):
    body = api_client.get(URL).json()

    assert body["count"] == 14
    assert body["results"][:2] == [
        {"number": 0, "name": "Token", "xp_required": 0},
        {"number": 1, "name": "Embedding", "xp_required": 120},
    ]
    assert body["results"][-1] == {"number": 13, "name": "Language Model", "xp_required": 4680}


def test_levels_is_public_and_cacheable_by_anyone(api_client):
    response = api_client.get(URL)

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=300"
    assert response["ETag"]
    assert "Cookie" not in response.get("Vary", "")


def test_levels_answers_the_same_to_a_signed_in_learner(api_client, user_client):
    assert user_client.get(URL).json() == api_client.get(URL).json()


def test_levels_answers_304_for_a_current_etag(api_client):
    etag = api_client.get(URL)["ETag"]

    response = api_client.get(URL, HTTP_IF_NONE_MATCH=etag)

    assert response.status_code == 304
    assert response["ETag"] == etag


def test_levels_shows_an_edit_of_the_curve_with_a_new_etag(api_client):
    before = api_client.get(URL)
    level = Level.objects.get(number=1)
    level.name, level.xp_required = "Word Piece", 150
    level.save()  # as the admin saves it

    after = api_client.get(URL, HTTP_IF_NONE_MATCH=before["ETag"])

    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert after.json()["results"][1] == {"number": 1, "name": "Word Piece", "xp_required": 150}


def test_levels_reads_the_curve_in_one_query(api_client, django_assert_num_queries):
    with django_assert_num_queries(1):
        api_client.get(URL)


def test_levels_refuses_writes(user_client):
    response = user_client.post(URL, {}, format="json")

    assert response.status_code == 405
    assert response.json()["type"] == "method_not_allowed"


def test_levels_is_named_for_reverse():
    assert reverse("level-list") == URL


def test_levels_runs_one_query_cold_and_none_warm(api_client, django_assert_num_queries):
    with django_assert_num_queries(1):
        cold = api_client.get("/api/v1/levels/")
    with django_assert_num_queries(0):
        warm = api_client.get("/api/v1/levels/")

    assert warm.content == cold.content
    assert warm["ETag"] == cold["ETag"]
    assert warm["Cache-Control"] == cold["Cache-Control"]
