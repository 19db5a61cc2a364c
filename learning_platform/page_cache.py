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

Only drafts-blind bodies are cached (staff see drafts and always get a fresh build).
The cache being down is a slower page, never an error: every call here falls back to
building.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable, Sequence
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


def bump_version(key: str) -> None:
    try:
        try:
            cache.incr(key)
        except ValueError:  # no version yet: start one (or count one a racer just started)
            if not cache.add(key, 1, timeout=None):
                cache.incr(key)
    except Exception:
        logger.warning("Could not bump the page cache version %s", key, exc_info=True)


def is_version_bump(callback: Callable) -> bool:
    """Whether an on-commit callback is one of this module's bumps (tests count the others)."""
    return getattr(callback, "func", None) is bump_version


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


def fetch(*parts: Part) -> list[Any]:
    """Each part's body, from the cache when its tag still matches, else built (and stored).
    One cache round trip to read, one to store what was built."""
    if not enabled():
        return [part.build() for part in parts]
    keys = {key for part in parts for key in (_body_key(part), *part.versions)}
    try:
        found = cache.get_many(list(keys))
    except Exception:
        logger.warning("Page cache unavailable; building", exc_info=True)
        return [part.build() for part in parts]
    bodies, built = [], {}
    for part in parts:
        tag = (*(found.get(version, 0) for version in part.versions), part.extra)
        entry = found.get(_body_key(part))
        if entry is not None and entry[0] == tag:
            bodies.append(entry[1])
            continue
        body = part.build()
        bodies.append(body)
        built[_body_key(part)] = ((tag, body), part.timeout)
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
