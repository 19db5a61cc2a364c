from typing import TypedDict

from celery import shared_task
from django.conf import settings
from django.db import OperationalError

from learning_platform import lost_writes, outbox


# Typed: `**` of a plain dict would leave the decorated task untyped.
class RetryOptions(TypedDict):
    autoretry_for: tuple[type[BaseException], ...]
    retry_backoff: bool | int
    retry_backoff_max: int
    retry_jitter: bool
    max_retries: int


def retrying(
    *errors: type[BaseException], max_retries: int, backoff: bool | int = True
) -> RetryOptions:
    """Celery's options for a task retried on `errors` with growing, jittered delays (from
    `backoff` seconds), each under the broker's visibility timeout (CELERY_RETRY_BACKOFF_MAX).
    `@shared_task(name=..., **retrying(...))`."""
    return {
        "autoretry_for": errors,
        "retry_backoff": backoff,
        "retry_backoff_max": settings.CELERY_RETRY_BACKOFF_MAX,
        "retry_jitter": True,
        "max_retries": max_retries,
    }


# A task whose work is in the database: a connection lost or a lock timed out (a failover, a
# deadlock victim) is tried again.
DB_RETRY = retrying(OperationalError, max_retries=5)


@shared_task(name="learning_platform.send_unsent_tasks", acks_late=True)
def send_unsent_tasks() -> int:
    """Periodic: publish the tasks kept in the database while the broker was unreachable."""
    return outbox.send_unsent_tasks()


@shared_task(name="learning_platform.settle_cache", acks_late=True)
def settle_cache() -> int:
    """Periodic: delete from Redis the keys of cache writes that missed it (recorded in the
    database), once it answers, for the processes that do not come back to it soon."""
    return lost_writes.settle()
