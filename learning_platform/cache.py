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

And a lean `get_many`, the one call every cached read makes (the session, the user and the
page's versions, read ahead together). Through Django's backend and redis-py's client (the
pool's checkout and checks, retries, instrumentation) one `MGET` cost about 40 µs of CPU in
process and twice that in a request, where the round trip itself is under 10 µs. Here it goes
over a connection each thread keeps for itself (made with the pool's settings: address,
database, password, timeouts), packed here and parsed by redis-py's own connection, and is sent
again once on a new connection when the old one broke (as redis-py's retry does). Unreachable,
it is a miss like every other operation.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any

from django.core.cache.backends import redis as django_redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

_BROKEN = (RedisConnectionError, RedisTimeoutError, OSError)


def _packed_mget(keys: list[str]) -> bytes:
    """`MGET keys...` in Redis's protocol (what redis-py packs, without its generic path)."""
    encoded = [key.encode() for key in keys]
    return b"".join(
        [
            b"*%d\r\n$4\r\nMGET\r\n" % (len(encoded) + 1),
            *(b"$%d\r\n%s\r\n" % (len(key), key) for key in encoded),
        ]
    )


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
    "has_key": False,
    "set_many": None,
    "delete_many": None,
    "clear": False,
}


_INCR_IF_EXISTS = (
    "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('INCRBY', KEYS[1], ARGV[1]) end"
    " return false"
)
# incr_many: each key that exists counts up by one; a missing one is set to ARGV[1] (or,
# with ARGV[1] empty, left missing: false, which Redis answers as nil). Atomic per call.
_INCR_EACH = """
local values = {}
for i, key in ipairs(KEYS) do
    if redis.call('EXISTS', key) == 1 then
        values[i] = redis.call('INCR', key)
    elseif ARGV[1] ~= '' then
        redis.call('SET', key, ARGV[1])
        values[i] = tonumber(ARGV[1])
    else
        values[i] = false
    end
end
return values
"""


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
        self._own = threading.local()  # this thread's connection for mget: (pid, connection)

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
        """Django's incr (ValueError for a missing key) in one round trip instead of two
        (EXISTS, then INCRBY): it bumps a version after every progress write."""
        if self.is_paused():
            raise ValueError("The cache is unavailable.")
        try:
            value = self.get_client(key, write=True).eval(_INCR_IF_EXISTS, 1, key, delta)
        except self._unreachable:
            self._pause()
            raise ValueError("The cache is unavailable.") from None
        if value is None:
            raise ValueError(f"Key {key!r} not found.")
        return value

    def incr_many(self, keys: list[str], start: int | None = None) -> list[int | None]:
        """incr by one of each key that exists, in one round trip; a missing key is set to
        `start`, or with no `start` left missing and answered None (a batch of version
        bumps, new learners' included)."""
        if self.is_paused():
            raise ValueError("The cache is unavailable.")
        if not keys:
            return []
        try:
            client = self.get_client(write=True)
            return client.eval(_INCR_EACH, len(keys), *keys, "" if start is None else start)
        except self._unreachable:
            self._pause()
            raise ValueError("The cache is unavailable.") from None

    def mget(self, keys: list[str]) -> list:
        """The raw values of `keys` (None where missing), in one round trip."""
        for attempt in (1, 2):
            connection = self._own_connection()
            try:
                connection.send_packed_command([_packed_mget(keys)], check_health=False)
                return connection.read_response()
            except _BROKEN:
                self._drop_own_connection()
                if attempt == 2:
                    raise
            except BaseException:
                # The reply may be half read: never reuse the connection.
                self._drop_own_connection()
                raise
        raise AssertionError("unreachable")

    def _own_connection(self):
        own = getattr(self._own, "connection", None)
        if own is not None and own[0] == os.getpid():
            return own[1]
        # Made with the pool's settings, but never handed out by it; after a fork, a new one.
        pool = self._get_connection_pool(False)
        connection = pool.connection_class(**pool.connection_kwargs)
        self._own.connection = (os.getpid(), connection)
        return connection

    def _drop_own_connection(self) -> None:
        own = getattr(self._own, "connection", None)
        self._own.connection = None
        if own is not None and own[0] == os.getpid():
            own[1].disconnect()

    def get_many(self, keys):
        keys = list(keys)
        if not keys or self.is_paused():
            return {}
        try:
            values = self.mget(keys)
        except _BROKEN:
            self._pause()
            return {}
        loads = self._serializer.loads
        return {
            key: loads(value) for key, value in zip(keys, values, strict=True) if value is not None
        }


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

    def incr_many(
        self, keys: list[str], start: int | None = None, version=None
    ) -> list[int | None]:
        """incr of each key that exists, in one round trip: its new value; a missing key is
        set to `start` (its value then), or with no `start` answered None."""
        return self._cache.incr_many(
            [self.make_and_validate_key(k, version=version) for k in keys], start
        )

    def is_paused(self) -> bool:
        return self._cache.is_paused()
