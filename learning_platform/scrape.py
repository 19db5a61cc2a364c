"""`/metrics`: the Prometheus scrape of a web node (docs/operations.md, "Metrics").

Closed to the public: it answers only `Authorization: Bearer <METRICS_TOKEN>`, and 404 (as if
it did not exist) to anything else, or to everyone while METRICS_TOKEN is unset. The readers of
the kernel's scrape-time gauges (queue depths, outbox backlog) are here; apps subscribe
theirs in their `AppConfig.ready()`.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.crypto import constant_time_compare
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST

from learning_platform import clock, metrics, outbox
from learning_platform.celery import app, queue_lengths


@never_cache
@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    token = settings.METRICS_TOKEN
    given = request.META.get("HTTP_AUTHORIZATION", "")
    if not token or not constant_time_compare(given, f"Bearer {token}"):
        raise Http404
    return HttpResponse(metrics.exposition(), content_type=CONTENT_TYPE_LATEST)


def _queue_lengths(memo: metrics.ScrapeMemo) -> metrics.Samples:
    if app.conf.task_always_eager:
        return []  # no broker: tasks run in-process
    lengths = memo.read("queue_lengths", queue_lengths)
    return [((name,), length) for name, length in (lengths or {}).items()]


def _broker_up(memo: metrics.ScrapeMemo) -> metrics.Samples:
    if app.conf.task_always_eager:
        return []
    return [((), 0.0 if memo.read("queue_lengths", queue_lengths) is None else 1.0)]


def _outbox_tasks(memo: metrics.ScrapeMemo) -> metrics.Samples:
    backlog = memo.read("outbox", outbox.backlog)
    return [(("pending",), backlog["pending"]), (("given_up",), backlog["given_up"])]


def _outbox_oldest_age(memo: metrics.ScrapeMemo) -> metrics.Samples:
    oldest = memo.read("outbox", outbox.backlog)["oldest"]
    age = (
        clock.elapsed(clock.timestamp() - oldest.timestamp(), measure="outbox_age")
        if oldest
        else 0.0
    )
    return [((), age)]


def subscribe_readers() -> None:
    """The kernel's readers (LearningPlatformConfig.ready)."""
    metrics.CELERY_QUEUE_LENGTH.hook.subscribe(_queue_lengths)
    metrics.BROKER_UP.hook.subscribe(_broker_up)
    metrics.OUTBOX_TASKS.hook.subscribe(_outbox_tasks)
    metrics.OUTBOX_OLDEST_AGE.hook.subscribe(_outbox_oldest_age)
