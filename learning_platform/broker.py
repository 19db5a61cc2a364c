"""The Celery broker: Redis or RabbitMQ, and what each needs (docs/operations.md, "Choosing
the broker").

Both run tasks the same way: acknowledged late, put back when a worker dies, published through
the outbox (learning_platform/outbox.py). They differ in how a message a worker took comes
back, and so in the settings each needs:

- Redis hands a message out again when it was not acknowledged within `visibility_timeout`
  (a worker that died, or one still running it). A countdown, an ETA or a retry's backoff is
  held unacknowledged in a worker until due, so it counts against that window too.
- RabbitMQ hands it out again at once when the worker's connection drops (killed, or silent for
  a heartbeat timeout). It closes the channel of a worker that holds a message longer than its
  `consumer_timeout` (30 min by default), and the message then comes back. Queues are quorum
  queues (replicated, durable); a countdown waits in the broker's delay queues (Celery's native
  delayed delivery, which needs topic exchanges), not in a worker.

This module reads no Django setting at import: settings.py calls `celery_settings`.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

RABBITMQ_SCHEMES = frozenset({"amqp", "amqps", "pyamqp"})
# What Redis does without a visibility_timeout.
REDIS_DEFAULT_VISIBILITY_TIMEOUT = 3600


def is_rabbitmq(url: str) -> bool:
    return urlsplit(url).scheme in RABBITMQ_SCHEMES


def celery_settings(
    url: str, *, visibility_timeout: int, heartbeat: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The broker's transport options, and the other CELERY_* settings it needs."""
    if not is_rabbitmq(url):
        transport_options = {
            # A message not acked within this window goes back to the queue (a killed worker's
            # task). Above the hard time limit so a running task is never handed out twice.
            "visibility_timeout": visibility_timeout,
            # An unreachable Redis must fail a publish quickly (the API still answers; a sweep
            # re-enqueues), not hang the request that publishes. One that accepts and never
            # answers holds a request for the socket timeout: 10 s held every web worker at once
            # and the balancer's health checks failed (bench/cluster.py). Above the workers'
            # BRPOP wait (1 s), which they read from their event loop anyway.
            "socket_connect_timeout": 2,
            "socket_timeout": 2,
            # Workers look for such messages every 10 s; kombu's default scans only every 10th
            # time (and first at start-up), so a killed task would wait up to 100 s more.
            "unacked_restore_throttle": 1,
        }
        return transport_options, {}
    # Each publish waits for the broker's confirm: a message the broker refused raises (and
    # stays in the outbox) instead of being lost silently.
    transport_options = {"confirm_publish": True}
    return transport_options, {
        "CELERY_TASK_DEFAULT_QUEUE_TYPE": "quorum",
        # Also for queues named only where a task is sent (a test's, a bench's own queue).
        "CELERY_TASK_CREATE_MISSING_QUEUE_TYPE": "quorum",
        # Native delayed delivery routes a countdown through topic exchanges; with direct
        # ones a worker would hold the message until due (and quorum queues allow no global
        # prefetch to make room for it).
        "CELERY_TASK_DEFAULT_EXCHANGE_TYPE": "topic",
        "CELERY_TASK_CREATE_MISSING_QUEUE_EXCHANGE_TYPE": "topic",
        # Quorum queues refuse a global QoS: the worker sees them and prefetches per consumer.
        "CELERY_WORKER_DETECT_QUORUM_QUEUES": True,
        # A worker cut off from the network is declared dead after about this long, and
        # RabbitMQ hands its unacknowledged messages out again.
        "CELERY_BROKER_HEARTBEAT": heartbeat,
    }


def ack_timeout() -> int:
    """Seconds a worker may hold a message unacknowledged before the broker hands it out again
    (Redis's visibility timeout) or closes the worker's channel (RabbitMQ's consumer_timeout).
    A task's time limit must stay under it (learning_platform/checks.py)."""
    from django.conf import settings

    if is_rabbitmq(settings.CELERY_BROKER_URL):
        return int(settings.RABBITMQ_CONSUMER_TIMEOUT)
    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    return int(options.get("visibility_timeout", REDIS_DEFAULT_VISIBILITY_TIMEOUT))


def delays_wait_in_worker() -> bool:
    """Whether a countdown, an ETA or a retry's backoff is held unacknowledged by a worker
    until due (Redis), rather than in the broker (RabbitMQ's native delayed delivery)."""
    from django.conf import settings

    return not is_rabbitmq(settings.CELERY_BROKER_URL)


def broker_answers(url: str, *, timeout: int = 1) -> bool:
    """Whether the broker at `url` accepts a connection within about `timeout` seconds."""
    if is_rabbitmq(url):
        from kombu import Connection

        with Connection(url, connect_timeout=timeout) as connection:
            connection.ensure_connection(max_retries=0, timeout=timeout)
            return bool(connection.connected)
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
    return bool(client.ping())
