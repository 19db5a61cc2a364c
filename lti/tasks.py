"""Background work of the LTI tool: thin, by id, idempotent."""

from __future__ import annotations

from celery import shared_task

from learning_platform.tasks import retrying
from lti import services

# A platform down for a while: retried with growing, jittered delays; after the last one the
# outbox row publishes it again later (learning_platform/outbox.py).
PLATFORM_RETRY = retrying(services.PlatformUnavailable, max_retries=8, backoff=30)


@shared_task(name="lti.send_score", acks_late=True, **PLATFORM_RETRY)
def send_score(score_id: int) -> bool:
    """Post one stored score to its platform's line item (AGS) unless it was posted."""
    return services.send_score(score_id=score_id)
