"""The progress page header (`/me/progress`), kept in the shared cache.

The header is the hottest read of the API and changes only when the learner's own progress
does, when content it counts changes (lessons, quests, levels, achievements), or at the
learner's midnight (the streak). Each cached body is tagged with the versions it was built
from: one per learner, bumped after every committed progress write, and one for content,
bumped after every committed save or delete of what the header counts. A read fetches both
versions (in the same round trip as the learner's session, see
learning_platform/api/cached_reads.py) and takes the rendered body from process memory or the
cache, rebuilding on any mismatch (learning_platform/page_cache.py).

Versions are read *before* the body is built, so a write that commits meanwhile leaves the
new body tagged with an old version: it can only be missed, never served stale.

Only with a shared cache (Redis): a per-process cache could not see another process's bumps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import transaction
from rest_framework.renderers import JSONRenderer

from learning_platform import page_cache
from progress.selectors import today_in

CONTENT_VERSION_KEY = "progress:content-version"
BODY_TIMEOUT = 600  # bounds how long a missed bump (cache briefly down) could show old data


def _learner_version_key(user_id: int) -> str:
    return page_cache.learner_version_key(user_id)


def _body_key(user_id: int, quest_slug: str) -> str:
    return f"progress:summary:{user_id}:{quest_slug}"


def enabled() -> bool:
    return settings.PROGRESS_SUMMARY_CACHE


def note_learner_changed(user_id: int) -> None:
    """The learner's progress changed: their cached header is rebuilt on the next read."""
    # The page cache bumps the same key (before and after the commit) when it is on: a second
    # bump after the commit would cost two more cache round trips on every progress write.
    if enabled() and not page_cache.enabled():
        transaction.on_commit(lambda: _bump(_learner_version_key(user_id)))
    page_cache.note_learner_changed(user_id=user_id)


def note_learners_changed(user_ids: list[int]) -> None:
    """note_learner_changed for many learners, with one callback after the commit."""
    if enabled() and user_ids and not page_cache.enabled():
        keys = [_learner_version_key(user_id) for user_id in user_ids]
        transaction.on_commit(lambda: [_bump(key) for key in keys])
    page_cache.note_learners_changed(user_ids=user_ids)


def note_content_changed() -> None:
    """Something every header counts changed (lessons, levels, achievements)."""
    if enabled():
        transaction.on_commit(lambda: _bump(CONTENT_VERSION_KEY))


_bump = page_cache.bump_version


def read_ahead_keys(user_id) -> list[str]:
    """The versions a read of the learner's header checks (read ahead with their session)."""
    return [_learner_version_key(user_id), CONTENT_VERSION_KEY] if enabled() else []


def cached_json(*, user: Any, quest_slug: str, build: Callable[[], dict[str, Any]]) -> bytes:
    """The header for (user, quest), rendered: from the cache when still valid, else
    rendered from `build()`. Kept by the page cache (so also in process memory), tagged with
    both versions and the learner's date (the streak)."""
    [body] = page_cache.fetch(
        page_cache.Part(
            key=_body_key(user.pk, quest_slug),
            versions=[_learner_version_key(user.pk), CONTENT_VERSION_KEY],
            extra=today_in(user.tzinfo).isoformat(),
            build=lambda: JSONRenderer().render(build()),
            timeout=BODY_TIMEOUT,
        ),
        use_cache=enabled(),
    )
    return body
