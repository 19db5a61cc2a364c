"""Django's Redis cache backend, made an optimisation that can be down.

Two changes to Django's built-in backend:

- One redis-py client per connection pool. Django builds a new `redis.Redis` client for every
  cache operation; with redis-py 8 that constructor alone costs about 0.2 ms (it rebuilds its
  table of response callbacks), which made the cache slower than the queries it saves.
- Redis unreachable is a cache miss, not an error. A refused or timed-out connection makes
  reads return their default and writes do nothing (logged): it behaves as an empty cache
  that keeps nothing. Sessions (`cached_db`), the
  per-request user and the progress header come from the database, and throttles let requests
  through (they fail open: no count can be kept). After a failure the backend leaves Redis
  alone for `RETRY_AFTER` seconds (default 5) in this process, so requests during an outage do
  not each wait for a connection attempt. Connections time out after `SOCKET_TIMEOUT` seconds
  (default 0.5) and are not retried by redis-py.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache.backends import redis as django_redis

logger = logging.getLogger(__name__)

DEFAULT_RETRY_AFTER = 5.0
DEFAULT_SOCKET_TIMEOUT = 0.5

# When each Redis location (its server list) may be tried again, shared by all threads.
_paused_until: dict[tuple[str, ...], float] = {}

# What each operation answers while Redis cannot be reached: what an empty cache that keeps
# nothing would answer. `add` succeeds, so a lock taken with it (allauth's rate limits) is
# granted rather than waited for until it times out.
_ANSWER_WHEN_DOWN: dict[str, Any] = {
    "add": True,
    "set": None,
    "touch": False,
    "delete": False,
    "get_many": {},
    "has_key": False,
    "set_many": None,
    "delete_many": None,
    "clear": False,
}


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, servers, *, retry_after: float = DEFAULT_RETRY_AFTER, **options) -> None:
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        options.setdefault("socket_connect_timeout", DEFAULT_SOCKET_TIMEOUT)
        options.setdefault("socket_timeout", DEFAULT_SOCKET_TIMEOUT)
        # redis-py retries a failed connect three times by default; one try, then the pause.
        options.setdefault("retry", Retry(NoBackoff(), 0))
        super().__init__(servers, **options)
        self._clients: dict[int, object] = {}
        self._location = tuple(servers)
        self._retry_after = retry_after
        self._unreachable = (self._lib.ConnectionError, self._lib.TimeoutError)

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients.setdefault(id(pool), self._client(connection_pool=pool))
        return client

    def is_paused(self) -> bool:
        return _paused_until.get(self._location, 0.0) > time.monotonic()

    def ping(self) -> bool:
        """Whether Redis answers now (ignores and then updates the pause)."""
        try:
            answered = bool(self.get_client(write=True).ping())
        except self._unreachable:
            self._pause()
            return False
        _paused_until.pop(self._location, None)
        return answered

    def _pause(self) -> None:
        if not self.is_paused():
            logger.warning(
                "Cache %s unreachable; serving without it for %.0f s",
                ",".join(self._location),
                self._retry_after,
                exc_info=True,
            )
        _paused_until[self._location] = time.monotonic() + self._retry_after

    def _guarded(self, operation: str, *args, default: Any = None) -> Any:
        if self.is_paused():
            return default
        try:
            return getattr(super(), operation)(*args)
        except self._unreachable:
            self._pause()
            return default

    def get(self, key, default):
        return self._guarded("get", key, default, default=default)

    def incr(self, key, delta):
        if self.is_paused():
            raise ValueError("The cache is unavailable.")
        try:
            return super().incr(key, delta)
        except self._unreachable:
            self._pause()
            raise ValueError("The cache is unavailable.") from None


def _guard(operation: str):
    def method(self, *args):
        return self._guarded(operation, *args, default=_ANSWER_WHEN_DOWN[operation])

    method.__name__ = operation
    return method


for _operation in _ANSWER_WHEN_DOWN:
    setattr(RedisCacheClient, _operation, _guard(_operation))


class RedisCache(django_redis.RedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
        options = dict(self._options)
        retry_after = float(options.pop("RETRY_AFTER", DEFAULT_RETRY_AFTER))
        timeout = float(options.pop("SOCKET_TIMEOUT", DEFAULT_SOCKET_TIMEOUT))
        options.setdefault("socket_connect_timeout", timeout)
        options.setdefault("socket_timeout", timeout)
        self._options = {**options, "retry_after": retry_after}

    def ping(self) -> bool:
        return self._cache.ping()

    def is_paused(self) -> bool:
        return self._cache.is_paused()
