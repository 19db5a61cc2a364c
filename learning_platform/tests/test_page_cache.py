"""The page cache: a cache that is down is a slower page, never an error."""

import pytest

from community.tests.factories import CommentFactory
from lessons.tests.factories import LessonFactory, ProseBlockFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def cache_down(settings):
    # Nothing listens on port 1: every call of the cache fails at once.
    settings.CACHES = {
        "default": {
            "BACKEND": "learning_platform.cache.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "KEY_PREFIX": "dead",
        }
    }


def test_public_pages_are_built_when_the_cache_is_down(cache_down, api_client, user_client):
    lesson = LessonFactory(slug="attention", quest__slug="transformers")
    ProseBlockFactory(lesson=lesson, markdown="Hello **there**.")
    CommentFactory(lesson=lesson, body="A *comment*.")

    for client in (api_client, user_client):
        for path in (
            "/api/v1/lessons/attention/",
            "/api/v1/quests/transformers/",
            "/api/v1/achievements/",
            "/api/v1/lessons/attention/comments/",
        ):
            assert client.get(path).status_code == 200, path
    assert api_client.get("/api/v1/lessons/attention/").json()["blocks"][0]["html"] == (
        "<p>Hello <strong>there</strong>.</p>"
    )


def test_edits_still_commit_when_the_cache_is_down(cache_down, user_client, user):
    lesson = LessonFactory(slug="attention")

    response = user_client.post("/api/v1/lessons/attention/comments/", {"body": "Still here."})

    assert response.status_code == 201
    assert lesson.comments.get().body_html == "<p>Still here.</p>"


def test_the_progress_header_and_the_levels_are_built_when_the_cache_is_down(
    cache_down, api_client, user_client
):
    assert user_client.get("/api/v1/me/progress").status_code == 200
    assert api_client.get("/api/v1/levels/").status_code == 200
