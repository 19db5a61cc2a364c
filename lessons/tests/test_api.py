"""Quest and lesson reads through the HTTP API."""

import pytest

from lessons.tests.factories import (
    LessonFactory,
    QuestFactory,
    d_model_lesson,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def quest():
    return QuestFactory(slug="transformers", title="How transformers work")


@pytest.fixture
def d_model(quest):
    return d_model_lesson(quest)


def test_lesson_list_filters_by_quest_tag_and_search(api_client, quest, d_model):
    LessonFactory(quest=quest, title="Attention heads", tags=["attention"])
    LessonFactory(title="Other quest lesson", tags=["attention"])

    by_quest = api_client.get("/api/v1/lessons/", {"quest": "transformers"}).json()
    by_tag = api_client.get("/api/v1/lessons/", {"tag": "attention"}).json()
    by_search = api_client.get("/api/v1/lessons/", {"search": "embedding"}).json()

    assert by_quest["count"] == 2
    assert {item["title"] for item in by_tag["results"]} == {
        "Attention heads",
        "Other quest lesson",
    }
    assert [item["slug"] for item in by_search["results"]] == ["embedding-dimension"]


def test_lesson_list_is_paginated_with_counts(api_client, quest):
    LessonFactory.create_batch(25, quest=quest)

    first = api_client.get("/api/v1/lessons/").json()
    second = api_client.get("/api/v1/lessons/", {"page": 2}).json()

    assert first["count"] == 25
    assert len(first["results"]) == 20
    assert first["next"].endswith("page=2")
    assert len(second["results"]) == 5
    assert second["previous"] is not None


def test_lesson_list_rejects_a_bad_filter_with_field_errors(api_client):
    response = api_client.get("/api/v1/lessons/", {"tag": "not a slug!", "search": "x" * 101})

    assert response.status_code == 400
    body = response.json()
    assert body["type"] == "validation_error"
    assert set(body["errors"]) == {"tag", "search"}


def test_lesson_list_page_out_of_range_is_404(api_client, quest):
    LessonFactory(quest=quest)

    response = api_client.get("/api/v1/lessons/", {"page": 9})

    assert response.status_code == 404
    assert response.json()["type"] == "not_found"


def test_lesson_list_runs_a_fixed_number_of_queries(
    api_client, quest, django_assert_max_num_queries
):
    LessonFactory.create_batch(20, quest=quest, tags=["a", "b"])

    with django_assert_max_num_queries(3):
        assert api_client.get("/api/v1/lessons/").status_code == 200


def test_lesson_list_sends_etag_and_304(api_client, quest):
    LessonFactory(quest=quest)
    etag = api_client.get("/api/v1/lessons/")["ETag"]

    assert api_client.get("/api/v1/lessons/", HTTP_IF_NONE_MATCH=etag).status_code == 304


@pytest.mark.parametrize("page_size", ["null", "", "0", "-1", "101", "1.5"])
def test_a_page_size_that_is_not_1_to_100_is_refused_with_400(api_client, page_size):
    response = api_client.get(f"/api/v1/lessons/?page_size={page_size}")

    assert response.status_code == 400
    assert "page_size" in response.json()["errors"]
