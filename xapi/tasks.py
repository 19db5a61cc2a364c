"""Background work of the learning records: thin, idempotent."""

from __future__ import annotations

from celery import shared_task

from learning_platform.tasks import retrying
from xapi import services

# An LRS down for a while: retried with growing, jittered delays; the periodic sender takes
# what is left once it is back.
LRS_RETRY = retrying(services.LrsUnavailable, max_retries=8, backoff=30)


@shared_task(name="xapi.send_statements", acks_late=True, **LRS_RETRY)
def send_statements() -> int:
    """Send the unsent statements to the LRS, a batch at a time, until none is left."""
    stored = 0
    while True:
        sent = services.send_statements()
        if not sent.stored and not sent.conflicts:
            return stored
        stored += sent.stored
