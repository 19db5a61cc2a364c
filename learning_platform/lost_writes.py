"""Cache writes that did not reach Redis, kept in the database until Redis no longer holds
what they should have replaced.

The cache (learning_platform/cache.py) records each key whose write missed Redis here, from
whichever process missed it, in whatever transaction it was in (a savepoint: a failure here
never breaks the caller's). Any process that saw Redis fail deletes every recorded key before it
uses Redis again, and the periodic `settle` deletes them and then their rows, once Redis
answers it. A row is deleted only after its key was deleted, so a key recorded while the sweep
runs waits for the next one.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.core.cache import cache
from django.db import transaction

from learning_platform.models import LostCacheWrite

logger = logging.getLogger(__name__)

# Keys read at once, by a process coming back to Redis or by the sweep (the rest: next time).
BATCH_SIZE = 10_000


def record(keys: Iterable[str]) -> None:
    """Keep `keys` until they are deleted from Redis. Never raises: the process that missed
    them still deletes them itself when Redis answers it."""
    try:
        with transaction.atomic():
            LostCacheWrite.objects.bulk_create(LostCacheWrite(key=key) for key in keys)
    except Exception:  # the database down too, or not to be used here (a test without one)
        logger.warning("Keys of cache writes that missed Redis not recorded", exc_info=True)


def recorded_keys() -> set[str]:
    """The keys recorded (at most BATCH_SIZE); none when the database cannot say."""
    try:
        with transaction.atomic():
            rows = LostCacheWrite.objects.values_list("key", flat=True)[:BATCH_SIZE]
            return set(rows)
    except Exception:  # as in `record`: the sweep deletes them later
        logger.warning("Keys of cache writes that missed Redis not read", exc_info=True)
        return set()


def settle() -> int:
    """Delete the recorded keys from Redis, then their rows; how many rows. Nothing while
    Redis does not answer (the rows wait for the next run)."""
    rows = list(LostCacheWrite.objects.values_list("id", "key")[:BATCH_SIZE])
    if not rows:
        return 0
    forget = getattr(cache, "forget", None)
    if forget is not None and not forget({key for _, key in rows}):
        return 0
    # Without Redis (a per-process memory cache) nothing outlives the process that missed it.
    LostCacheWrite.objects.filter(id__in=[row_id for row_id, _ in rows]).delete()
    return len(rows)
