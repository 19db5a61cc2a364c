"""Cached reads under versions (generational keys), bumped by the app that owns the data.

A cached value is stored with the values of the version keys it was built from (its tag).
The app that owns the data gives a version a new random value after every commit that
changes it (`bump`); apps name their own version keys (progress: a learner's, community: a
lesson's discussion). `CONTENT` is the version of everything public pages show: apps
register the models whose saves and deletes bump it in `AppConfig.ready()` (`bump_on_change`).

A read (`cached`) fetches the versions and the value in one cache round trip and rebuilds when
the tag no longer matches. Versions are read before the value is built, so a write that commits
meanwhile leaves the new value tagged with an old version: it can be missed, never served
stale. A cache that is down is a miss (learning_platform/cache.py): the value is built, and not
stored. A bump that cannot reach Redis is a lost write there: its version key is deleted before
the process that missed it, or any other that saw Redis fail, uses Redis again (a missing
version is started anew, so every value tagged with the old one is rebuilt).
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Model
from django.db.models.signals import m2m_changed, post_delete, post_save

from learning_platform import clock

P = ParamSpec("P")
T = TypeVar("T")

CONTENT = "content-version"
# Part of every value's key: bump it when the shape of what is cached changes, so a deploy
# never reads a value an older release stored.
FORMAT = 4
DEFAULT_TIMEOUT = 600  # seconds a value is kept unread (a bump Redis missed is settled sooner)


def page_cache_enabled() -> bool:
    return bool(settings.PAGE_CACHE)


def bump(*keys: str) -> None:
    """Give each version a new value now and again once the transaction commits: a reader in
    between may tag a value built from what was there before with the first new value."""
    if keys:
        _set_new_versions(keys)
        if transaction.get_connection().in_atomic_block:
            transaction.on_commit(functools.partial(_set_new_versions, keys))


def _set_new_versions(keys: Sequence[str]) -> None:
    cache.set_many({key: secrets.randbits(62) for key in keys}, timeout=None)


def is_version_bump(callback: Callable[[], object]) -> bool:
    """Whether an on-commit callback is a `bump` (tests count the others)."""
    return getattr(callback, "func", None) is _set_new_versions


def bump_on_change(*models: type[Model], key: str = CONTENT) -> None:
    """A save or delete of any of `models` (or, for an m2m through model, a change of its
    links) bumps `key`."""

    def changed(**kwargs: object) -> None:
        bump(key)

    for model in models:
        for signal in (post_save, post_delete, m2m_changed):
            signal.connect(changed, sender=model, weak=False)


def cached(
    *,
    key: Callable[P, str],
    versions: Callable[P, Sequence[str]],
    timeout: int = DEFAULT_TIMEOUT,
    enabled: Callable[[], bool] = page_cache_enabled,
) -> Callable[[Callable[P, T]], Callable[P, T]]:
    """Keep what the decorated function returns under `key(...)`, valid while the versions
    `versions(...)` keep the values they had when it was built."""

    def decorate(build: Callable[P, T]) -> Callable[P, T]:
        @functools.wraps(build)
        def read(*args: P.args, **kwargs: P.kwargs) -> T:
            if not enabled():
                return build(*args, **kwargs)
            value_key = f"{key(*args, **kwargs)}:f{FORMAT}"
            version_keys = list(versions(*args, **kwargs))
            due_keys = [_due_key(version) for version in version_keys if version in _due_sources]
            found = cache.get_many([*version_keys, *due_keys, value_key])
            if not found and _unreachable():  # (a warm read found something: no check)
                return build(*args, **kwargs)  # nothing to compare with, nowhere to keep it
            now = clock.timestamp()
            fired = [k for k in version_keys if (found.get(_due_key(k)) or now + 1) <= now]
            if fired:
                # A due time passed (a scheduled lesson): what was built before is old now.
                for version in fired:
                    bump(version)
                    reschedule(version)
                return build(*args, **kwargs)
            tag = [found.get(version) for version in version_keys]
            entry = found.get(value_key)
            if entry is not None and None not in tag and entry[0] == tag:
                # The cached entry holds what `build` returned (the cache gives Any).
                return entry[1]  # type: ignore[no-any-return]
            keep = _start_missing(version_keys, tag)
            value = build(*args, **kwargs)
            if keep:
                cache.set(value_key, (tag, value), timeout)
            return value

        return read

    return decorate


def _unreachable() -> bool:
    """Whether the cache gave up on Redis (learning_platform.cache.RedisCache's pause)."""
    paused = getattr(cache, "is_paused", None)
    return bool(paused is not None and paused())


# Per version key: functions naming the next time its data changes by itself (a lesson's
# "publish at"), so a read from then on bumps it without waiting for a worker.
_due_sources: dict[str, list[Callable[[], datetime | None]]] = {}


def _due_key(key: str) -> str:
    return f"{key}:due"


def bump_when_due(
    *models: type[Model], next_due: Callable[[], datetime | None], key: str = CONTENT
) -> None:
    """Bump `key` at the times `next_due()` names: the first read at or after that time bumps
    it. A save of any of `models` (which may move the next time) asks `next_due` again."""
    _due_sources.setdefault(key, []).append(next_due)

    def changed(**kwargs: object) -> None:
        # Now (this transaction sees its own write) and again once it commits, like `bump`.
        reschedule(key)
        if transaction.get_connection().in_atomic_block:
            transaction.on_commit(functools.partial(reschedule, key))

    for model in models:
        post_save.connect(changed, sender=model, weak=False)
        post_delete.connect(changed, sender=model, weak=False)


def reschedule(key: str = CONTENT) -> None:
    """Store the earliest time `key`'s sources name (none: forget it)."""
    times = [when for source in _due_sources.get(key, []) if (when := source()) is not None]
    if times:
        cache.set(_due_key(key), min(times).timestamp(), timeout=None)
    else:
        cache.delete(_due_key(key))


def _start_missing(keys: list[str], tag: list[Any]) -> bool:
    """Start the versions not in the cache (never bumped, or evicted), filling in `tag`;
    False when another reader started one first (the value is then not kept)."""
    for index, value in enumerate(tag):
        if value is None:
            tag[index] = secrets.randbits(62)
            if not cache.add(keys[index], tag[index], timeout=None):
                return False
    return True
