"""The Redis cache backend: Django's answers, one redis-py client per pool, an unreachable
Redis a miss that pauses the backend."""

import uuid
from unittest import mock

import pytest
from django.conf import settings
from redis.client import Redis

from learning_platform.cache import RedisCache

needs_redis = pytest.mark.skipif(
    not settings.REDIS_URL, reason="needs REDIS_URL: the backend under test talks to Redis"
)


@pytest.fixture
def redis_cache():
    backend = RedisCache(settings.REDIS_URL, {"KEY_PREFIX": f"test-cache-{uuid.uuid4().hex}"})
    yield backend
    backend.delete_many(["number", "mapping", "text", "zero", "missing", "session", "page"])


@needs_redis
def test_get_many_answers_what_was_stored_and_leaves_out_what_was_not(redis_cache):
    redis_cache.set_many({"number": 42, "mapping": {"a": [1, 2]}, "text": "é", "zero": 0})

    found = redis_cache.get_many(["number", "missing", "mapping", "text", "zero"])

    assert found == {"number": 42, "mapping": {"a": [1, 2]}, "text": "é", "zero": 0}
    assert redis_cache.get_many([]) == {}


@needs_redis
def test_operations_reuse_one_redis_client(redis_cache):
    redis_cache.set("number", 1)

    assert redis_cache.client.get_client() is redis_cache.client.get_client()


@needs_redis
def test_incr_counts_up_a_stored_number_and_refuses_a_missing_key(redis_cache):
    redis_cache.set("number", 41)

    assert redis_cache.incr("number") == 42
    assert redis_cache.incr("number", 8) == 50
    with pytest.raises(ValueError, match="not found"):
        redis_cache.incr("missing")


def test_an_unreachable_redis_is_an_empty_cache_that_keeps_nothing():
    dead = RedisCache("redis://127.0.0.1:1/0", {"OPTIONS": {"SOCKET_TIMEOUT": 0.2}})

    assert dead.get_many(["anything"]) == {}
    assert dead.is_paused()
    assert dead.get("anything", "fallback") == "fallback"
    assert dead.add("lock", 1) is True  # a lock taken with add is granted, not waited for
    assert dead.set("anything", 1) is None
    assert dead.delete("anything") is False
    with pytest.raises(ValueError, match="unavailable"):
        dead.incr("anything")
    assert dead.ping() is False


def _round_trips():
    return mock.patch.object(
        Redis, "execute_command", autospec=True, side_effect=Redis.execute_command
    )


def _read_ahead_as_before(cache) -> None:
    """A request reads its session ahead, as one for the same user and path did before it,
    which then read the page."""
    cache.set_many({"session": "s", "page": "p"})
    then = f"1 /lessons/{uuid.uuid4().hex}"
    cache.read_ahead(["session"], then=then)
    cache.get_many(["page"])
    cache.close()  # that request ends
    cache.read_ahead(["session"], then=then)


@needs_redis
def test_a_read_ahead_fetches_what_the_same_read_asked_for_last_time(redis_cache):
    _read_ahead_as_before(redis_cache)

    with _round_trips() as sent:
        found = redis_cache.get_many(["page"])

    assert found == {"page": "p"}
    assert sent.call_count == 0


@needs_redis
def test_a_write_after_a_read_ahead_sends_the_next_read_to_redis(redis_cache):
    _read_ahead_as_before(redis_cache)

    redis_cache.set("page", "new")
    found = redis_cache.get_many(["page"])

    assert found == {"page": "new"}
