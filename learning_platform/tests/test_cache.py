"""The Redis cache backend's lean get_many: the same answers as Django's, one round trip,
a broken connection replaced, an unreachable Redis a miss (as for every other operation)."""

import uuid

import pytest
from django.conf import settings

from learning_platform.cache import RedisCache

needs_redis = pytest.mark.skipif(
    not settings.REDIS_URL, reason="needs REDIS_URL: the backend under test talks to Redis"
)


@pytest.fixture
def redis_cache():
    backend = RedisCache(settings.REDIS_URL, {"KEY_PREFIX": f"test-cache-{uuid.uuid4().hex}"})
    yield backend
    backend.delete_many(["number", "mapping", "text", "zero", "missing", "other"])


@needs_redis
def test_get_many_answers_what_was_stored_and_leaves_out_what_was_not(redis_cache):
    redis_cache.set_many({"number": 42, "mapping": {"a": [1, 2]}, "text": "é", "zero": 0})

    found = redis_cache.get_many(["number", "missing", "mapping", "text", "zero"])

    assert found == {"number": 42, "mapping": {"a": [1, 2]}, "text": "é", "zero": 0}
    assert redis_cache.get_many([]) == {}


@needs_redis
def test_get_many_sends_again_on_a_new_connection_when_its_own_broke(redis_cache):
    redis_cache.set("number", 7)
    assert redis_cache.get_many(["number"]) == {"number": 7}
    _, connection = redis_cache._cache._own.connection
    connection._sock.close()  # as when Redis restarts or drops an idle client

    assert redis_cache.get_many(["number"]) == {"number": 7}


def test_get_many_is_a_miss_that_pauses_the_cache_when_redis_is_unreachable():
    dead = RedisCache("redis://127.0.0.1:1/0", {"OPTIONS": {"socket_connect_timeout": 0.2}})

    assert dead.get_many(["anything"]) == {}
    assert dead.is_paused()


def test_mget_is_packed_as_redis_py_packs_it():
    from redis.connection import Connection

    from learning_platform.cache import _packed_mget

    keys = ["lp:1:pages:content-version", "clé:é", ""]

    assert _packed_mget(keys) == b"".join(Connection().pack_command("MGET", *keys))


@needs_redis
def test_incr_counts_up_a_stored_number_and_refuses_a_missing_key(redis_cache):
    redis_cache.set("number", 41)

    assert redis_cache.incr("number") == 42
    assert redis_cache.incr("number", 8) == 50
    assert redis_cache.get("number") == 50
    with pytest.raises(ValueError, match="not found"):
        redis_cache.incr("missing")
    assert redis_cache.get("missing") is None


@needs_redis
def test_incr_many_counts_up_the_stored_keys_in_one_call_and_answers_none_for_missing_ones(
    redis_cache,
):
    redis_cache.set_many({"number": 1, "zero": 0})

    assert redis_cache.incr_many(["number", "missing", "zero"]) == [2, None, 1]
    assert redis_cache.get_many(["number", "missing", "zero"]) == {"number": 2, "zero": 1}


@needs_redis
def test_incr_many_with_a_start_sets_the_missing_keys_to_it_in_the_same_call(redis_cache):
    redis_cache.set("number", 1)
    start = 1_764_518_400_123_456  # a version: microseconds since the epoch, above 2**32

    assert redis_cache.incr_many(["number", "missing", "other"], start=start) == [
        2,
        start,
        start,
    ]
    assert redis_cache.get_many(["number", "missing", "other"]) == {
        "number": 2,
        "missing": start,
        "other": start,
    }
    assert redis_cache.incr_many(["missing"], start=5) == [start + 1]
