"""Public page bodies kept in the shared cache, tagged with the versions they were built from.

The hottest reads (a published lesson, a quest outline, the achievement catalogue, a
lesson's first page of comments) are the same for every learner, or for every learner up
to a small part of their own. Each body is cached with a *tag*: the values of the version
keys it depends on when it was built. Writes bump those versions after they commit:

- the content version: any save or delete of what a public page shows (quests, lessons,
  blocks, links, tags, exercises, achievements, levels), connected in `connect_signals`;
- a lesson's discussion version: a comment on it posted, edited, deleted, hidden or shown;
- a learner's version (shared with progress/summary_cache.py): their progress, unlocks,
  comments or accepted reports changed; tags only the learner's own small parts.

A read fetches the version keys and every body it needs in one cache round trip, and
rebuilds a body whose tag no longer matches. Versions are read *before* a body is built, so
a write that commits meanwhile leaves the new body tagged with an old version: it can be
missed, never served stale. A bump happens both at once and after commit, so a reader in
between cannot tag the old body with the final version.

Each process also keeps the bodies it read or built in a small, bounded, in-process LRU,
under the same tag: a warm read fetches only the version keys (in the same round trip as the
signed-in learner's session and user, see `request_scope`) and takes the body from process
memory when its tag still matches. The versions in the shared cache stay the only source of
truth: an edit bumps a version, and the copy no longer matches in any process. A version that
was lost (the cache emptied) starts again at the current time in microseconds, above any value
it had before, and a body read while one of its versions is missing is never kept in process,
so an old copy can never match again.

Only drafts-blind bodies are cached (staff see drafts and always get a fresh build).
The cache being down is a slower page, never an error: every call here falls back to
building (and never trusts a copy in process memory, whose versions it cannot check).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from rest_framework.renderers import JSONRenderer

from learning_platform.api.conditional import etag_of

logger = logging.getLogger(__name__)

CONTENT_VERSION_KEY = "pages:content-version"
# Part of every body's key: bump it when the shape of what is cached changes, so a deploy
# never reads a body an older release stored.
BODY_FORMAT = 3
DEFAULT_TIMEOUT = 600  # bounds how long a bump missed (cache briefly down) could show old data


def discussion_version_key(lesson_slug: str) -> str:
    return f"pages:discussion-version:{lesson_slug}"


def learner_version_key(user_id: int) -> str:
    # The same key as /me/progress's cache: one bump invalidates both.
    return f"progress:learner-version:{user_id}"


def enabled() -> bool:
    return settings.PAGE_CACHE


# --- Invalidation ---------------------------------------------------------------------------


def fresh_version() -> int:
    """Where a (lost or new) version starts: above any value it had before, so that a body
    kept in some process's memory under an older value never matches it again."""
    return time.time_ns() // 1000


def bump_version(key: str) -> None:
    bump_versions([key])


def bump_versions(keys: list[str]) -> None:
    """Count up each key's version, a key with no version yet starting one; in one round trip
    where the cache can (learning_platform's Redis cache: `incr_many`), new learners' keys
    included. A cache that cannot be reached misses the bump (see DEFAULT_TIMEOUT)."""
    incr_many = getattr(cache, "incr_many", None)
    if incr_many is None:
        for key in keys:
            _bump_one(key)
        return
    try:
        incr_many(keys, start=fresh_version())
    except ValueError:  # the cache is unreachable (paused): it serves nothing meanwhile
        pass
    except Exception:
        logger.warning("Could not bump the page cache versions %s", keys, exc_info=True)


def _bump_one(key: str) -> None:
    try:
        try:
            cache.incr(key)
        except ValueError:  # no version yet: start one (or count one a racer just started)
            if not cache.add(key, fresh_version(), timeout=None):
                cache.incr(key)
    except Exception:
        logger.warning("Could not bump the page cache version %s", key, exc_info=True)


def is_version_bump(callback: Callable) -> bool:
    """Whether an on-commit callback is one of this module's bumps (tests count the others)."""
    return getattr(callback, "func", None) in (bump_version, bump_versions)


def bump_after_commit(key: str) -> None:
    if enabled():
        bump_version(key)
        transaction.on_commit(partial(bump_version, key))


def note_content_changed() -> None:
    """Something a public page shows changed: every cached page body is rebuilt."""
    bump_after_commit(CONTENT_VERSION_KEY)


def note_discussion_changed(*, lesson_slug: str) -> None:
    """A comment on the lesson changed: its comment page and comment count are rebuilt."""
    bump_after_commit(discussion_version_key(lesson_slug))


def note_learner_changed(*, user_id: int) -> None:
    """What the learner's own parts show changed (progress, unlocks, comments, reports)."""
    bump_after_commit(learner_version_key(user_id))


def note_learners_changed(*, user_ids: list[int]) -> None:
    """note_learner_changed of several learners, each bump one round trip for all of them."""
    if enabled() and user_ids:
        keys = [learner_version_key(user_id) for user_id in user_ids]
        bump_versions(keys)
        transaction.on_commit(partial(bump_versions, keys))


# Models whose rows public pages show; a save or delete of any bumps the content version.
CONTENT_MODELS = (
    "lessons.Quest",
    "lessons.Lesson",
    "lessons.Block",
    "lessons.Link",
    "lessons.Tag",
    "exercises.Exercise",
    "achievements.Achievement",
    "progress.Level",
)


def connect_signals() -> None:
    from django.apps import apps
    from django.db.models.signals import m2m_changed, post_delete, post_save

    def content_changed(**kwargs) -> None:
        note_content_changed()

    for label in CONTENT_MODELS:
        model = apps.get_model(label)
        for signal in (post_save, post_delete):
            signal.connect(content_changed, sender=model, weak=False)
    lesson_tags = apps.get_model("lessons.Lesson").tags.through
    m2m_changed.connect(content_changed, sender=lesson_tags, weak=False)


# --- Reads ----------------------------------------------------------------------------------


@dataclass
class Part:
    """One cached body: its key, the version keys it depends on, and how to build it.
    `extra` joins the tag (e.g. the learner's date, for what counts days)."""

    key: str
    versions: Sequence[str]
    build: Callable[[], Any]
    extra: Hashable = None
    timeout: int = DEFAULT_TIMEOUT
    tag: tuple = field(default=(), init=False)


# Keys read ahead for this request (`request_scope`, `prefetch`): key -> value, or _ABSENT
# for a key the cache did not have. None outside a request scope.
_prefetched: ContextVar[dict[str, Any] | None] = ContextVar("page_cache_prefetched", default=None)
_ABSENT = object()


@contextmanager
def request_scope():
    """Within it, `prefetch` remembers what it read, and later reads of the same keys in the
    same request (the session, the user, a page's versions) take them from there: one cache
    round trip for a warm read. Only for reads (GET): nothing a request writes is seen."""
    token = _prefetched.set({})
    try:
        yield
    finally:
        _prefetched.reset(token)


def prefetch(keys: Iterable[str]) -> None:
    """Read `keys` in one round trip and keep them for the rest of the request scope."""
    scope = _prefetched.get()
    keys = [key for key in dict.fromkeys(keys) if scope is not None and key not in scope]
    if not keys:
        return
    try:
        found = cache.get_many(keys)
    except Exception:
        logger.warning("Page cache unavailable; not reading ahead", exc_info=True)
        return
    scope.update({key: found.get(key, _ABSENT) for key in keys})


def get_many(keys: Iterable[str]) -> dict[str, Any]:
    """`cache.get_many`, answered from what this request read ahead where it can; only the
    rest makes a round trip. Raises what the cache raises."""
    keys = list(dict.fromkeys(keys))
    scope = _prefetched.get() or {}
    found = {key: scope[key] for key in keys if key in scope}
    rest = [key for key in keys if key not in scope]
    if rest:
        found.update(cache.get_many(rest))
    return {key: value for key, value in found.items() if value is not _ABSENT}


class LocalBodies:
    """Bodies this process read or built, with their tags: a bounded LRU (`max_entries`).
    Thread-safe (a threaded server may share it)."""

    def __init__(self, max_entries: int) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[str, tuple[tuple, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str, tag: tuple) -> Any:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0] != tag:
                return None
            self._entries.move_to_end(key)
            return entry[1]

    def put(self, key: str, tag: tuple, body: Any) -> None:
        with self._lock:
            self._entries[key] = (tag, body)
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


local_bodies = LocalBodies(max_entries=settings.PAGE_CACHE_LOCAL_ENTRIES)


def fetch(*parts: Part, use_cache: bool | None = None) -> list[Any]:
    """Each part's body: from this process's memory when its tag still matches the versions
    in the shared cache, else from the shared cache, else built (and stored in both).
    One cache round trip for the versions (none if the request read them ahead), one more
    only for bodies this process does not hold, one to store what was built."""
    if not (enabled() if use_cache is None else use_cache):
        return [part.build() for part in parts]
    try:
        versions = get_many(version for part in parts for version in part.versions)
    except Exception:
        logger.warning("Page cache unavailable; building", exc_info=True)
        return [part.build() for part in parts]
    missing = [key for part in parts for key in part.versions if key not in versions]
    if missing:
        versions.update(_start_versions(missing))
    tags = [(*(versions.get(v, 0) for v in part.versions), part.extra) for part in parts]
    # A tag with a missing version (0) could match again after the version restarts: such
    # bodies are never kept in, nor taken from, process memory.
    keep = [all(version in versions for version in part.versions) for part in parts]
    bodies: list[Any] = [
        local_bodies.get(_body_key(part), tag) if kept else None
        for part, tag, kept in zip(parts, tags, keep, strict=True)
    ]
    wanted = [_body_key(part) for part, body in zip(parts, bodies, strict=True) if body is None]
    found: dict[str, Any] = {}
    if wanted:
        try:
            found = cache.get_many(wanted)
        except Exception:
            logger.warning("Page cache unavailable; building", exc_info=True)
            return [part.build() for part in parts]
    built = {}
    for index, (part, tag, kept) in enumerate(zip(parts, tags, keep, strict=True)):
        if bodies[index] is not None:
            continue
        entry = found.get(_body_key(part))
        if entry is not None and entry[0] == tag:
            body = entry[1]
        else:
            body = part.build()
            built[_body_key(part)] = ((tag, body), part.timeout)
        bodies[index] = body
        if kept:
            local_bodies.put(_body_key(part), tag, body)
    if built:
        try:
            for timeout in {t for _, t in built.values()}:
                cache.set_many(
                    {key: value for key, (value, t) in built.items() if t == timeout},
                    timeout=timeout,
                )
        except Exception:
            logger.warning("Page cache unavailable; not storing", exc_info=True)
    return bodies


def _start_versions(keys: list[str]) -> dict[str, int]:
    """Versions that are missing (never bumped, or lost with the cache), started now, before
    anything is built: the ones this call started, with their values. One another process
    started meanwhile stays unknown to this read (its bodies are then not kept in process)."""
    started = {}
    try:
        for key in dict.fromkeys(keys):
            value = fresh_version()
            if cache.add(key, value, timeout=None):
                started[key] = value
    except Exception:
        logger.warning("Page cache unavailable; not starting versions", exc_info=True)
    scope = _prefetched.get()
    if scope is not None:  # what was read ahead as missing is now known, or to read again
        for key in keys:
            scope.pop(key, None)
        scope.update(started)
    return started


def _body_key(part: Part) -> str:
    return f"{part.key}:v{BODY_FORMAT}"


@dataclass(frozen=True)
class Page:
    """A public body ready to answer with: its JSON, rendered once, and that JSON's ETag."""

    json: bytes
    etag: str


def page(data: Any) -> Page:
    body = JSONRenderer().render(data)
    return Page(json=body, etag=etag_of(body))
