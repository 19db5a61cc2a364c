"""Cached bodies kept in each process's memory, and reads in one cache round trip: the
versions in the shared cache stay the source of truth, so an edit shows on the next read in
the same process, one learner's part never reaches another, and a cache that is down or
emptied never serves an old copy."""

import pytest
from django.core.cache import cache
from django.test import Client

from accounts.tests.factories import UserFactory
from learning_platform import page_cache
from lessons.models import Lesson
from lessons.tests.factories import LessonFactory, ProseBlockFactory

pytestmark = pytest.mark.django_db

PASSWORD = "S3cure-passw0rd!"
LESSON_URL = "/api/v1/lessons/attention/"


@pytest.fixture
def lesson():
    lesson = LessonFactory(slug="attention", quest__slug="transformers", title="Attention")
    ProseBlockFactory(lesson=lesson, markdown="First **draft**.")
    return lesson


def sign_in(client: Client, user) -> str:
    response = client.post(
        "/_allauth/app/v1/auth/login",
        {"email": user.email, "password": PASSWORD},
        content_type="application/json",
    )
    return response.json()["meta"]["session_token"]


def body_key(key: str) -> str:
    return page_cache._body_key(page_cache.Part(key, [], None))


def counted_round_trips(monkeypatch) -> list[str]:
    """The cache calls made (a local-memory cache's get_many calls get per key: not counted)."""
    calls: list[str] = []
    inside = []
    for name in ("get", "get_many", "add", "set", "set_many"):
        original = getattr(cache, name)

        def wrapper(*args, _name=name, _original=original, **kwargs):
            if not inside:
                calls.append(_name)
            inside.append(_name)
            try:
                return _original(*args, **kwargs)
            finally:
                inside.pop()

        monkeypatch.setattr(cache, name, wrapper)
    return calls


def test_a_warm_read_takes_the_body_from_process_memory(
    lesson, api_client, django_assert_num_queries
):
    first = api_client.get(LESSON_URL)
    # Without the copy in process memory, the next read would rebuild (7 queries).
    cache.delete(body_key("pages:lesson:attention"))

    with django_assert_num_queries(0):
        again = api_client.get(LESSON_URL)

    assert again.content == first.content
    assert again["ETag"] == first["ETag"]


def test_an_edit_shows_on_the_next_read_in_the_same_process(lesson, api_client):
    assert api_client.get(LESSON_URL).json()["title"] == "Attention"
    lesson.title = "Attention, edited"
    lesson.save()

    assert api_client.get(LESSON_URL).json()["title"] == "Attention, edited"


def test_a_copy_never_matches_a_version_started_again_after_the_cache_was_emptied(
    lesson, api_client
):
    assert api_client.get(LESSON_URL).json()["title"] == "Attention"
    # The cache loses everything; then the lesson changes without any bump (a bulk update).
    cache.delete_many(
        [page_cache.CONTENT_VERSION_KEY, page_cache.discussion_version_key("attention")]
    )
    Lesson.objects.filter(pk=lesson.pk).update(title="Attention, again")

    assert api_client.get(LESSON_URL).json()["title"] == "Attention, again"


def test_a_version_starts_above_any_value_it_had_before():
    page_cache.bump_version("pages:test-version")
    before = cache.get("pages:test-version")
    cache.delete("pages:test-version")

    page_cache.bump_version("pages:test-version")

    assert cache.get("pages:test-version") > before


def test_process_memory_keeps_at_most_its_bound(monkeypatch, api_client):
    monkeypatch.setattr(page_cache, "local_bodies", page_cache.LocalBodies(max_entries=2))
    for slug in ("one", "two", "three"):
        LessonFactory(slug=slug)
        assert api_client.get(f"/api/v1/lessons/{slug}/").status_code == 200

    assert len(page_cache.local_bodies) == 2
    # The least recently used went first.
    kept = list(page_cache.local_bodies._entries)
    assert kept == [body_key(f"pages:lesson:{slug}") for slug in ("two", "three")]


def test_local_bodies_evict_the_least_recently_used():
    bodies = page_cache.LocalBodies(max_entries=2)
    bodies.put("a", (1,), "A")
    bodies.put("b", (1,), "B")
    assert bodies.get("a", (1,)) == "A"  # a is now the most recent

    bodies.put("c", (1,), "C")

    assert bodies.get("b", (1,)) is None
    assert (bodies.get("a", (1,)), bodies.get("c", (1,))) == ("A", "C")
    assert bodies.get("a", (2,)) is None  # another tag never matches


def test_a_signed_in_warm_read_makes_one_cache_round_trip(lesson, monkeypatch):
    user = UserFactory(password=PASSWORD)
    client = Client()
    token = sign_in(client, user)
    first = client.get(LESSON_URL, HTTP_X_SESSION_TOKEN=token)
    client.get(LESSON_URL, HTTP_X_SESSION_TOKEN=token)
    calls = counted_round_trips(monkeypatch)

    again = client.get(LESSON_URL, HTTP_X_SESSION_TOKEN=token)

    assert calls == ["get_many"]
    assert again.status_code == 200
    assert again.content == first.content


def test_a_signed_out_token_is_refused_on_the_next_read(lesson):
    user = UserFactory(password=PASSWORD)
    client = Client()
    token = sign_in(client, user)
    for _ in range(2):
        assert client.get(LESSON_URL, HTTP_X_SESSION_TOKEN=token).status_code == 200

    client.delete("/_allauth/app/v1/auth/session", HTTP_X_SESSION_TOKEN=token)

    assert client.get(LESSON_URL, HTTP_X_SESSION_TOKEN=token).status_code == 401


def test_learners_read_in_one_process_never_get_each_others_progress(settings, lesson):
    settings.PROGRESS_SUMMARY_CACHE = True
    first, second = UserFactory(password=PASSWORD), UserFactory(password=PASSWORD)
    first_client, second_client = Client(), Client()
    first_token, second_token = sign_in(first_client, first), sign_in(second_client, second)
    done = first_client.post("/api/v1/lessons/attention/complete", HTTP_X_SESSION_TOKEN=first_token)
    assert done.status_code == 201

    for _ in range(2):  # cold, then warm (read ahead, from process memory)
        mine = first_client.get("/api/v1/me/progress", HTTP_X_SESSION_TOKEN=first_token)
        theirs = second_client.get("/api/v1/me/progress", HTTP_X_SESSION_TOKEN=second_token)
        assert mine.json()["completed_lessons"] == ["attention"]
        assert theirs.json()["completed_lessons"] == []
        assert mine.json()["xp"] > 0
        assert theirs.json()["xp"] == 0


def test_bumping_the_versions_of_learners_who_have_none_yet_starts_them_in_one_round_trip(
    monkeypatch,
):
    if not hasattr(cache, "incr_many"):
        pytest.skip("the one-round-trip bump is the Redis cache's (REDIS_URL unset)")
    keys = [page_cache.learner_version_key(user_id) for user_id in (10**9, 10**9 + 1)]
    cache.delete_many(keys)
    calls = []
    real_eval = type(cache._cache.get_client(write=True)).eval

    def counting_eval(client, *args):
        calls.append(args[1])
        return real_eval(client, *args)

    monkeypatch.setattr(type(cache._cache.get_client(write=True)), "eval", counting_eval)
    page_cache.bump_versions(keys)

    assert calls == [2]  # one script call for both keys
    first = cache.get_many(keys)
    assert set(first) == set(keys)
    page_cache.bump_versions(keys)
    assert cache.get_many(keys) == {key: value + 1 for key, value in first.items()}
