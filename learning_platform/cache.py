"""Django's Redis cache backend, made an optimisation that can be down.

Redis unreachable is a cache miss, not an error: reads return their default, writes do nothing
(`add` succeeds, so a lock taken with it is granted rather than waited for) and `incr` raises
ValueError as for a missing key. Sessions (`cached_db`) and the signed-in user then come from
the database and throttles let requests through. After a failure this process leaves Redis
alone for `RETRY_AFTER` seconds (default 5; the pause is the process's, shared by its threads'
backends), so requests during an outage do not each wait for a connection attempt; connections
time out after `SOCKET_TIMEOUT` seconds (default 0.5).

A write that does not reach Redis (a `set`, `set_many`, `delete` or `delete_many`: a version
bump, a dropped user or session, a stored value) leaves there what was there before, which may
be older than the database. Its key is a lost write: this process keeps it and records it in the
database (learning_platform/lost_writes.py). When Redis answers a process that saw it fail, the
process first deletes every lost write's key, its own and those every process recorded, and only
then reads or writes: the next read of such a key finds nothing and builds from the database.
The periodic `learning_platform.settle_cache` deletes, and then forgets, what is recorded, for
the processes that do not reach Redis again soon (gone, idle, or cut off while others were not).

Keys starting with one of `FALLBACK_KEY_PREFIXES` are the exception: limits that must hold
while Redis is down (allauth's failed sign-in, sign-up and reset limits). While Redis is
unreachable they are kept in this process's memory instead, so each web process enforces the
limit on its own (an attacker gets at most the limit times the number of processes); when Redis
answers again its counts apply again.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from django.core.cache.backends import redis as django_redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.locmem import LocMemCache
from redis import ConnectionPool, Redis
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry

from learning_platform.breaker import Breaker, breaker_for
from learning_platform.metrics import CACHE_OPERATION_DURATION

logger = logging.getLogger(__name__)

T = TypeVar("T")
UNREACHABLE = (RedisConnectionError, RedisTimeoutError)
# The operations that change what is stored: the values read ahead are forgotten first.
_WRITES = frozenset({"set", "add", "set_many", "touch", "delete", "delete_many", "incr", "clear"})
# Those whose keys hold an older value when they do not reach Redis (`add` only ever writes a
# key that was not there; counters and expiries are not what a read trusts).
_OVERWRITES = frozenset({"set", "set_many", "delete", "delete_many"})
_DELETE_CHUNK = 500
_MISSING = object()
Timeout = float | None
Version = int | None


class ReusedClient(django_redis.RedisCacheClient):
    """Django's Redis cache client, keeping the redis-py client it makes, on one connection.

    Django builds a new redis-py client for every operation, and with redis-py 8 that
    constructor costs more than a GET (120 µs against 80 µs here); taking a connection from the
    pool and giving it back costs a third of one. Django keeps a cache backend per thread, so a
    connection of its own is never shared between threads; a forked process makes new ones.
    Only public methods are overridden or called: Django's `get_client` and redis-py's
    `connection_pool`.
    """

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._reused: dict[bool, Redis] = {}
        self._pid = os.getpid()

    def get_client(self, key: Any = None, *, write: bool = False) -> Redis:
        if self._pid != os.getpid():
            self._reused, self._pid = {}, os.getpid()
        if write not in self._reused:
            # Connects now: raises the connection's error when Redis is unreachable.
            self._reused[write] = Redis(
                connection_pool=self.pool(write=write), single_connection_client=True
            )
        return self._reused[write]

    def pool(self, *, write: bool = False) -> ConnectionPool:
        """Django's connection pool for `write` (one per server, made on first use)."""
        pool: ConnectionPool = super().get_client(write=write).connection_pool
        return pool


@dataclass
class Reach:
    """What this process knows of reaching one Redis, shared by its threads' backends."""

    breaker: Breaker
    failures: int = 0  # calls that found Redis unreachable, ever
    settled: int = 0  # `failures` when Redis last answered after them (all settled then)
    lost: set[str] = field(default_factory=set)  # keys (as stored) of writes that missed it
    recorded: set[str] = field(default_factory=set)  # of those, recorded since the last failure
    lock: threading.Lock = field(default_factory=threading.Lock)


# Keys read together, by what read them (RedisCache.read_ahead's `then`), the most recent
# _LEARNED_MAX: per process, shared by its threads' backends.
_learned: OrderedDict[str, tuple[str, ...]] = OrderedDict()
_learned_lock = threading.Lock()
_LEARNED_MAX = 10_000


def _learned_keys(name: str | None) -> tuple[str, ...]:
    return _learned.get(name, ()) if name is not None else ()


def _learn(name: str, keys: list[Any]) -> None:
    with _learned_lock:
        _learned[name] = tuple(str(key) for key in keys)
        _learned.move_to_end(name)
        if len(_learned) > _LEARNED_MAX:
            _learned.popitem(last=False)


_reaches: dict[str, Reach] = {}
_reaches_lock = threading.Lock()


def reach_of(server: str, *, retry_after: float) -> Reach:
    with _reaches_lock:
        if server not in _reaches:
            _reaches[server] = Reach(breaker_for(f"cache {server}", reset_after=retry_after))
        return _reaches[server]


class RedisCache(BaseCache):
    """Django's RedisCache, on Django's own client (`ReusedClient`), with Redis unreachable a
    miss. Composed rather than inherited: Django's backend chooses its client class through a
    private attribute, so its thin methods (make the key, call the client) are repeated here."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(params)
        options = dict(params.get("OPTIONS", {}))
        self.retry_after = float(options.pop("RETRY_AFTER", 5))
        self.fallback_prefixes = tuple(options.pop("FALLBACK_KEY_PREFIXES", ()))
        timeout = float(options.pop("SOCKET_TIMEOUT", 0.5))
        options.setdefault("socket_connect_timeout", timeout)
        options.setdefault("socket_timeout", timeout)
        # redis-py retries a failed connect three times by default; one try, then the pause.
        options.setdefault("retry", Retry(NoBackoff(), 0))
        servers = re.split("[;,]", server) if isinstance(server, str) else server
        self.client = ReusedClient(servers, **options)
        server = servers[0]  # writes go there: its reach is the cache's
        self.reach = reach_of(server, retry_after=self.retry_after)
        self.breaker = self.reach.breaker
        # Values fetched by `read_ahead`, each served once, until the request ends.
        self._ahead: dict[str, Any] = {}
        # What the read ahead was for: the next `get_many`'s keys are learned under it.
        self._learning: str | None = None
        # Shared by the threads of a process (LocMemCache locks): one limit per process.
        self.fallback: BaseCache = LocMemCache(
            f"fallback:{server}:{params.get('KEY_PREFIX', '')}", {"OPTIONS": {"MAX_ENTRIES": 10000}}
        )

    def _call(self, operation: str, down: T, *args: Any) -> T:
        """Django's `operation` on Redis. While Redis is unreachable: on this process's memory
        for a key kept here (FALLBACK_KEY_PREFIXES), else `down`, what a miss answers."""
        if operation in _WRITES:
            self._ahead.clear()
        if not self.is_paused():
            started = time.perf_counter()
            try:
                if self.reach.failures != self.reach.settled:
                    self._settle()
                answer: T = getattr(self, f"_redis_{operation}")(*args)
                self.breaker.succeeded()
                return answer
            except UNREACHABLE:
                self._pause()
            finally:
                CACHE_OPERATION_DURATION.labels(operation).observe(time.perf_counter() - started)
        if self.fallback_prefixes and args and str(args[0]).startswith(self.fallback_prefixes):
            kept: T = getattr(self.fallback, operation)(*args)
            return kept
        if operation in _OVERWRITES:
            self._lose(operation, args)
        return down

    def is_paused(self) -> bool:
        return self.breaker.is_open()

    def _pause(self) -> None:
        with self.reach.lock:
            self.reach.failures += 1
            self.reach.recorded.clear()  # recorded again after each failure: see _lose
        if self.breaker.failed():
            logger.warning(
                "Cache unreachable; serving without it for %.0f s", self.retry_after, exc_info=True
            )

    def _lose(self, operation: str, args: tuple[Any, ...]) -> None:
        """A write that missed Redis: keep its keys (as stored) until they are deleted there,
        and record them for the other processes (once per key between two failures)."""
        names = [args[0]] if operation in ("set", "delete") else list(args[0])
        keys = {self.make_key(name, version=args[-1]) for name in names}
        with self.reach.lock:
            self.reach.lost |= keys
            new = keys - self.reach.recorded
            self.reach.recorded |= new
        if new:
            # Imported here: this backend is loaded by Django's cache handler, which may happen
            # before the app registry (the models) is ready.
            from learning_platform import lost_writes

            lost_writes.record(new)

    def _settle(self) -> None:
        """Redis answers again after this process saw it fail: delete the keys of every write
        that missed it (this process's, and those recorded in the database), before anything
        reads them. Raises the connection's error when Redis fails meanwhile."""
        from learning_platform import lost_writes  # imported here: see _lose

        with self.reach.lock:
            failures, mine = self.reach.failures, set(self.reach.lost)
        keys = mine | lost_writes.recorded_keys()
        self._delete_stored(keys)
        with self.reach.lock:
            self.reach.lost -= mine
            self.reach.settled = max(self.reach.settled, failures)
        logger.info("Cache reachable again; %s keys of missed writes deleted", len(keys))

    def _delete_stored(self, keys: Collection[str]) -> None:
        client = self.client.get_client(write=True)
        ordered = sorted(keys)
        for start in range(0, len(ordered), _DELETE_CHUNK):
            client.delete(*ordered[start : start + _DELETE_CHUNK])

    def forget(self, keys: Collection[str]) -> bool:
        """Delete `keys` (as stored: prefixed and versioned) from Redis, after settling what
        this process missed; whether Redis answered."""
        if self.is_paused():
            return False
        try:
            if self.reach.failures != self.reach.settled:
                self._settle()
            self._delete_stored(keys)
        except UNREACHABLE:
            self._pause()
            return False
        self.breaker.succeeded()
        return True

    def ping(self) -> bool:
        """Whether Redis answers now (ignores, then updates, the pause). A process that saw
        Redis fail settles what it missed first (a load balancer's probe brings it back)."""
        self.breaker.reset()
        try:
            if self.reach.failures != self.reach.settled:
                self._settle()
            answered = bool(self.client.get_client(write=True).ping())
        except UNREACHABLE:
            self._pause()
            return False
        self.breaker.succeeded()
        return answered

    def read_ahead(self, keys: list[str], *, then: str | None = None) -> None:
        """Fetch `keys` in one round trip for the reads this request is about to make.

        A signed-in request reads its session, then its user, then (a cached page) the
        versions and the value of what it shows: three round trips where one does
        (accounts.session_tokens). `then` names what the request reads next (its user and
        path): the keys its first `get_many` asked for the last time under that name, in this
        process, are fetched too, and the keys it asks for now are learned for the next time.
        Each value is served once, and all are forgotten on any write and when the request
        ends (Django closes its caches then). A key learned in vain (a page's key of
        yesterday) costs a few bytes of the round trip; the next read learns anew.
        """
        fetch = list(dict.fromkeys([*keys, *_learned_keys(then)]))
        self._ahead, self._learning = {}, None
        found = self.get_many(fetch)
        self._ahead = {key: found.get(key) for key in fetch} if found else {}
        self._learning = then

    def close(self, **kwargs: Any) -> None:
        self._ahead, self._learning = {}, None
        super().close(**kwargs)

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        if version is None and key in self._ahead:
            value = self._ahead.pop(key)
            return default if value is None else value
        return self._call("get", default, key, default, version)

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        keys = list(keys)
        if self._learning is not None:
            _learn(self._learning, keys)
            self._learning = None
        if version is None and keys and self._ahead and all(key in self._ahead for key in keys):
            ahead = [(key, self._ahead.pop(key)) for key in keys]
            return {key: value for key, value in ahead if value is not None}
        return self._call("get_many", {}, keys, version)

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._call("has_key", False, key, version)

    def set(
        self, key: Any, value: Any, timeout: Timeout = DEFAULT_TIMEOUT, version: Version = None
    ) -> None:
        self._call("set", None, key, value, timeout, version)

    def add(
        self, key: Any, value: Any, timeout: Timeout = DEFAULT_TIMEOUT, version: Version = None
    ) -> bool:
        # Granted while Redis is down: a lock taken with `add` must not wait for it.
        return self._call("add", True, key, value, timeout, version)

    def set_many(
        self, data: dict[Any, Any], timeout: Timeout = DEFAULT_TIMEOUT, version: Version = None
    ) -> list[Any]:
        return self._call("set_many", [], data, timeout, version)

    def touch(self, key: Any, timeout: Timeout = DEFAULT_TIMEOUT, version: Version = None) -> bool:
        return self._call("touch", False, key, timeout, version)

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._call("delete", False, key, version)

    def delete_many(self, keys: Iterable[Any], version: int | None = None) -> None:
        self._call("delete_many", None, list(keys), version)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        value: object = self._call("incr", _MISSING, key, delta, version)
        if value is _MISSING:
            raise ValueError("The cache is unavailable.")  # as for a missing key
        return cast(int, value)

    def clear(self) -> None:
        self._call("clear", None)

    # --- Django's RedisCache, on the client above --------------------------------------------

    def get_backend_timeout(self, timeout: Timeout = DEFAULT_TIMEOUT) -> int | None:
        if timeout == DEFAULT_TIMEOUT:
            timeout = self.default_timeout
        # None: kept until evicted; 0 or less: deleted at once (Redis's EX refuses them).
        return None if timeout is None else max(0, int(timeout))

    def _key(self, key: Any, version: Version) -> str:
        return self.make_and_validate_key(key, version=version)

    def _redis_get(self, key: Any, default: Any, version: Version) -> Any:
        return self.client.get(self._key(key, version), default)

    def _redis_get_many(self, keys: Iterable[Any], version: Version) -> dict[Any, Any]:
        key_map: dict[Any, Any] = {self._key(key, version): key for key in keys}
        return {key_map[k]: v for k, v in self.client.get_many(list(key_map)).items()}

    def _redis_has_key(self, key: Any, version: Version) -> bool:
        return bool(self.client.has_key(self._key(key, version)))

    def _redis_set(self, key: Any, value: Any, timeout: Timeout, version: Version) -> None:
        self.client.set(self._key(key, version), value, self.get_backend_timeout(timeout))

    def _redis_add(self, key: Any, value: Any, timeout: Timeout, version: Version) -> bool:
        return bool(
            self.client.add(self._key(key, version), value, self.get_backend_timeout(timeout))
        )

    def _redis_set_many(
        self, data: dict[Any, Any], timeout: Timeout, version: Version
    ) -> list[Any]:
        if data:
            stored: dict[Any, Any] = {self._key(k, version): v for k, v in data.items()}
            # django-stubs want an expiry; Django's client takes None too (no expiry).
            self.client.set_many(stored, self.get_backend_timeout(timeout))  # type: ignore[arg-type]
        return []

    def _redis_touch(self, key: Any, timeout: Timeout, version: Version) -> bool:
        expiry = self.get_backend_timeout(timeout)  # None: persist (django-stubs say otherwise)
        return bool(self.client.touch(self._key(key, version), expiry))  # type: ignore[arg-type]

    def _redis_delete(self, key: Any, version: Version) -> bool:
        return bool(self.client.delete(self._key(key, version)))

    def _redis_delete_many(self, keys: list[Any], version: Version) -> None:
        if keys:
            self.client.delete_many([self._key(key, version) for key in keys])

    def _redis_incr(self, key: Any, delta: int, version: Version) -> int:
        return int(self.client.incr(self._key(key, version), delta))

    def _redis_clear(self) -> bool:
        return bool(self.client.clear())
