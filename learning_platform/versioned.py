"""Cached reads under versions (generational keys), bumped by the app that owns the data.

A cached value is stored with the values of the version keys it was built from (its tag).
The app that owns the data gives a version a new random value after every commit that
changes it (`bump`); apps name their own version keys (progress: a learner's, community: a
lesson's discussion). `CONTENT` is the version of everything public pages show: apps
register the models whose saves and deletes bump it in `AppConfig.ready()` (`bump_on_change`).

A read (`cached`) fetches the versions and the value in one cache round trip and rebuilds when
the tag no longer matches. Versions are read before the value is built, so a write that commits
meanwhile leaves the new value tagged with an old version: it can be missed, never served
stale. A cache that is down is a miss (learning_platform/cache.py): the value is built.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable, Sequence
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Model
from django.db.models.signals import m2m_changed, post_delete, post_save

P = ParamSpec("P")
T = TypeVar("T")

CONTENT = "content-version"
# Part of every value's key: bump it when the shape of what is cached changes, so a deploy
# never reads a value an older release stored.
FORMAT = 4
DEFAULT_TIMEOUT = 600  # bounds how long a bump missed (cache briefly down) could show old data


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
            found = cache.get_many([*version_keys, value_key])
            tag = [found.get(version) for version in version_keys]
            entry = found.get(value_key)
            if entry is not None and None not in tag and entry[0] == tag:
                return entry[1]  # type: ignore[no-any-return]
            keep = _start_missing(version_keys, tag)
            value = build(*args, **kwargs)
            if keep:
                cache.set(value_key, (tag, value), timeout)
            return value

        return read

    return decorate


def _start_missing(keys: list[str], tag: list[Any]) -> bool:
    """Start the versions not in the cache (never bumped, or evicted), filling in `tag`;
    False when another reader started one first (the value is then not kept)."""
    for index, value in enumerate(tag):
        if value is None:
            tag[index] = secrets.randbits(62)
            if not cache.add(keys[index], tag[index], timeout=None):
                return False
    return True
