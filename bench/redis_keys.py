"""The benchmarks' Redis keys: each run writes under a prefix of its own and deletes its keys
at the end (never FLUSHDB: the Redis is shared)."""

from __future__ import annotations


def delete_keys(redis_url: str, match: str) -> None:
    """Delete the keys matching the glob `match`, in batches."""
    import redis

    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(match=match, count=5000))
    for start in range(0, len(keys), 5000):
        client.delete(*keys[start : start + 5000])
